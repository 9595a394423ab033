// What the screen shows at 1280 px: the game picker's rows with their result and event, the running
// clock clearly marked and Black's dot visible in both themes, and toasts that cover none of the
// panel's controls.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serverAndBrowser, newPage, openApp, screenshot, repoRoot } from "./harness.js";

const shared = process.env.CROWN_SHARED || path.join(repoRoot, "../shared");
const TINSLEY = path.join(shared, "data/pdn/tinsley.pdn");

const env = serverAndBrowser();

/** WCAG contrast ratio of two CSS colours "rgb(r, g, b)". */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

async function setTheme(page, theme) {
  await page.selectOption("#theme-select", theme);
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

test("the game picker shows every row's result and event at 1280 px", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  await page.click("#pdn-import");
  await page.setInputFiles("#pdn-file", TINSLEY);
  await page.waitForFunction(() => document.querySelector("#pdn-text").value.length > 300000);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelector("#dlg-games[open]") && !document.querySelector("#games-search").disabled);
  const rows = await page.$$eval("#games-list .game-row", (els) =>
    els.slice(0, 12).map((b) => {
      const text = b.querySelector(".game-text");
      const res = b.querySelector(".game-result");
      const br = b.getBoundingClientRect();
      const rr = res.getBoundingClientRect();
      return {
        title: b.title,
        cut: text.scrollWidth > text.clientWidth + 1,
        text: text.textContent,
        result: res.textContent,
        resultInside: rr.width > 0 && rr.left >= br.left && rr.right <= br.right + 0.5,
      };
    }),
  );
  await screenshot(page, "display-picker");
  assert.ok(rows.length >= 10, `rows drawn: ${rows.length}`);
  for (const r of rows) {
    assert.ok(!r.cut, `the row is cut: ${r.text}`);
    assert.match(r.result, /^(1-0|0-1|1\/2-1\/2|\*)$/, `the result shown: ${r.title}`);
    assert.ok(r.resultInside, `the result is in view: ${r.title}`);
    assert.ok(r.title.includes(r.text.split(" · ")[1] || ""), "the event is in the row");
  }
  await page.context().close();
});

test("the running clock is clearly marked, Black's dot is visible in the dark theme", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url);
  await page.click("#new-game");
  await page.selectOption("#form-new select[name=clock]", "300+3");
  await page.click("#new-ok");
  for (const theme of ["dark", "light"]) {
    await setTheme(page, theme);
    await page.waitForSelector(".clock.running");
    const st = await page.evaluate(() => {
      const run = document.querySelector(".clock.running");
      const idle = [...document.querySelectorAll(".clock")].find((c) => c !== run && !c.hidden);
      const s = (el) => getComputedStyle(el);
      return {
        run: s(run).backgroundColor,
        idle: s(idle).backgroundColor,
        weight: Number(s(run).fontWeight),
        idleWeight: Number(s(idle).fontWeight),
        ring: s(run).boxShadow,
        page: s(document.body).backgroundColor,
      };
    });
    assert.ok(contrast(st.run, st.idle) >= 2, `${theme}: running ${st.run} vs idle ${st.idle}: ${contrast(st.run, st.idle).toFixed(2)}`);
    assert.ok(contrast(st.run, st.page) >= 2, `${theme}: running clock vs page ${st.page}`);
    assert.ok(st.weight > st.idleWeight, `${theme}: heavier digits (${st.weight} vs ${st.idleWeight})`);
    assert.notEqual(st.ring, "none", `${theme}: a ring round the running clock`);
    // Black's dot: its ring stands out from the page (WCAG non-text contrast 3:1)
    const dot = await page.evaluate(() => {
      const name = document.querySelector(".player-bar.black .player-name");
      const s = getComputedStyle(name, "::before");
      return { border: s.borderTopColor, width: parseFloat(s.borderTopWidth), fill: s.backgroundColor, page: getComputedStyle(document.body).backgroundColor };
    });
    const c = Math.max(contrast(dot.border, dot.page), contrast(dot.fill, dot.page));
    assert.ok(c >= 3 && dot.width >= 1, `${theme}: Black's dot ${JSON.stringify(dot)}: ${c.toFixed(2)}`);
  }
  await setTheme(page, "dark");
  await screenshot(page, "display-clock-dark");
  await page.context().close();
});

test("toasts cover none of the panel's controls (Import PDN, Numbers) at 1280×800", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url);
  const pages = ["", "?mode=analysis&variant=american&moves=11-15,23-19"];
  if (process.env.CROWN_SERVER_BIN) pages.push("online");
  for (const query of pages) {
    if (query === "online") {
      // an online game waiting for a friend: the share box makes the panel long
      await openApp(page, env.server.url);
      await page.click("#mode-online");
      await page.click("#online-new");
      await page.waitForSelector("#dlg-online[open]");
      await page.check("#form-online input[name=opponent][value=friend]");
      await page.fill("#form-online input[name=name]", "Ann");
      await page.click("#online-ok");
      await page.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"));
    } else if (query) await openApp(page, env.server.url, query);
    // a real message: the FEN button's (clipboard refused in headless: the FEN itself, 8 s)
    await page.click("#fen-copy");
    await page.waitForSelector("#toast:not([hidden])");
    const t = await page.$eval("#toast", (e) => e.getBoundingClientRect().toJSON());
    const controls = await page.$$eval(".panel button, .panel input, .panel select, .panel label, #board, .player-bar", (els) =>
      els.filter((e) => e.offsetParent !== null).map((e) => ({ id: e.id || e.textContent.trim().slice(0, 20), r: e.getBoundingClientRect().toJSON() })),
    );
    for (const c of controls) assert.ok(!overlap(t, c.r), `${query || "play"}: the toast ${JSON.stringify(t)} covers ${c.id}`);
    for (const sel of ["#pdn-import", "#show-numbers"]) assert.ok(controls.some((c) => c.id === sel.slice(1)), `${sel} checked`);
    await screenshot(page, `display-toast${query ? "-analysis" : ""}`);
  }
  await page.context().close();
});
