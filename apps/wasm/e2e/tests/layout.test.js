// Layout and look (issue 13): 1280×800 without scrolling, board and panel side by side on a
// landscape phone (844×390), square numbers that never overlap a piece, light/dark theme following
// the system with a switch, two board and piece themes, all remembered after a reload; the top bar
// (four mode buttons and the sound switch) in one row at every width; no empty box on a new analysis
// board at 390 px.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, newPage, openApp, screenshot, returningVisitor } from "./harness.js";

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

const rect = (page, sel) =>
  page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
const pageSize = (page) =>
  page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));

test("1280×800: the whole page fits without scrolling (play and analysis)", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  for (const q of ["", "?mode=analysis"]) {
    await openApp(page, server.url, q);
    const s = await pageSize(page);
    assert.ok(s.h <= 800 && s.w <= 1280, `page ${s.w}×${s.h} for '${q}'`);
    const bar = await rect(page, "#bar-bottom");
    assert.ok(bar.bottom <= 800, "the bottom player bar is on screen");
  }
  await screenshot(page, "70-fit-1280x800");
  await page.context().close();
});

test("844×390 landscape phone: board and panel side by side, nothing scrolls the page", async () => {
  const page = await newPage(browser, { width: 844, height: 390, mobile: true });
  await openApp(page, server.url);
  const board = await rect(page, "#board");
  const panel = await rect(page, ".panel");
  assert.ok(panel.left >= board.right, `panel (${panel.left}) right of the board (${board.right})`);
  assert.ok(board.top >= 0 && board.bottom <= 390, `board on screen: ${JSON.stringify(board)}`);
  assert.ok((await rect(page, "#bar-bottom")).bottom <= 390);
  const s = await pageSize(page);
  assert.ok(s.h <= 390 && s.w <= 844, `page ${s.w}×${s.h}`);
  await screenshot(page, "71-landscape-844x390");
  await page.context().close();
});

test("the top bar is one row at every width from 320 to 1280 px (long mode labels above 600 px, short below)", async () => {
  const page = await newPage(browser, { width: 1280, height: 900, mobile: true });
  await openApp(page, server.url);
  for (const w of [320, 360, 390, 420, 500, 600, 601, 700, 860, 861, 1024, 1280]) {
    await page.setViewportSize({ width: w, height: 900 });
    const bar = await page.evaluate(() => {
      const tops = [...document.querySelectorAll(".topbar .mode-btn, #sound-toggle")].map((e) => Math.round(e.getBoundingClientRect().top));
      return {
        tops,
        height: document.querySelector(".topbar").getBoundingClientRect().height,
        scrollW: document.documentElement.scrollWidth,
        labels: [...document.querySelectorAll(".topbar .mode-btn")].map((e) => e.innerText),
      };
    });
    const at = `${w} px: ${JSON.stringify(bar)}`;
    assert.equal(bar.tops.length, 5, at);
    assert.ok(Math.max(...bar.tops) - Math.min(...bar.tops) < 8 && bar.height < 56, `one row at ${at}`);
    assert.ok(bar.scrollW <= w, `no horizontal scrolling at ${at}`);
    const long = ["Play the engine", "Play online", "Analysis", "Puzzles"];
    assert.deepEqual(bar.labels, w > 600 ? long : ["Engine", "Online", "Analysis", "Puzzles"], at);
  }
  await page.context().close();
});

for (const [name, q] of [
  ["checkers men", "?mode=analysis&variant=american"],
  ["checkers kings", `?mode=analysis&variant=american&fen=${encodeURIComponent("B:WK21,K22,K23,K24,K25,K26,K27,K28,K29,K30,K31,K32:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12")}`],
  ["Impasse doubles", "?mode=analysis&variant=impasse&setup=steere"],
]) {
  test(`square numbers never overlap a piece (${name})`, async () => {
    const page = await newPage(browser, { width: 390, height: 844, mobile: true });
    await openApp(page, server.url, q);
    const hits = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll("#board .sq-num")].map((t) => [t.textContent, t.getBBox()]);
      const out = [];
      for (const c of document.querySelectorAll("#board .pieces circle.disc, #board .pieces ellipse.disc-edge")) {
        const cx = Number(c.getAttribute("cx"));
        const cy = Number(c.getAttribute("cy"));
        const rx = Number(c.getAttribute("r") || c.getAttribute("rx"));
        const ry = Number(c.getAttribute("r") || c.getAttribute("ry"));
        for (const [num, b] of boxes) {
          // nearest point of the number's box to the disc's centre, inside the ellipse?
          const px = Math.max(b.x, Math.min(cx, b.x + b.width));
          const py = Math.max(b.y, Math.min(cy, b.y + b.height));
          if (((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 < 1) out.push(num);
        }
      }
      return { hits: out, numbers: boxes.length, height: boxes[0][1].height };
    });
    assert.equal(hits.numbers, 32);
    assert.deepEqual(hits.hits, [], "numbers clear of every disc");
    assert.ok(hits.height >= 16, `numbers at least 16 units of 100 per square high: ${hits.height}`);
    await page.context().close();
  });
}

test("light/dark theme follows the system, can be switched; board and pieces themes; remembered", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
  await returningVisitor(context);
  const page = await context.newPage();
  await openApp(page, server.url);
  const theme = () => page.evaluate(() => ({ ...document.documentElement.dataset }));
  assert.equal((await theme()).theme, "dark", "the system's dark scheme");
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  await page.selectOption("#theme-select", "dark");
  await page.selectOption("#board-select", "wood");
  await page.selectOption("#pieces-select", "contrast");
  const fill = () => page.$eval('#board rect.sq[data-square="1"]', (r) => getComputedStyle(r).fill);
  assert.equal(await fill(), "rgb(165, 120, 79)", "wood dark squares");
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await bg(), "rgb(31, 35, 38)", "dark page although the system is light");
  await screenshot(page, "72-theme-dark-wood");
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  const t = await theme();
  assert.deepEqual([t.theme, t.board, t.pieces], ["dark", "wood", "contrast"]);
  assert.equal(await page.inputValue("#theme-select"), "dark");
  assert.equal(await fill(), "rgb(165, 120, 79)");
  await page.selectOption("#theme-select", "light");
  assert.equal(await bg(), "rgb(243, 241, 236)");
  await screenshot(page, "73-theme-light");
  await context.close();
});

test("390×844: a new analysis board shows no empty box before its controls; the graph and move list come with the first move", async () => {
  const page = await newPage(browser, { width: 390, height: 844, mobile: true });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  // every box of the panel on screen has something in it: text, a control, or a drawing
  const emptyBoxes = () =>
    page.evaluate(() =>
      ["#eval-box", "#graph-box", "#game-info", ".movelist-wrap", "#tree-tools", ".nav-buttons", "#move-form"]
        .map((sel) => document.querySelector(sel))
        .filter((e) => e && e.getClientRects().length > 0 && e.getBoundingClientRect().height > 0)
        .filter((e) => !e.innerText.trim() && !e.querySelector("button, input, select, textarea, svg *"))
        .map((e) => e.id || e.className),
    );
  assert.deepEqual(await emptyBoxes(), [], "no empty box on a new analysis board");
  assert.equal(await page.isVisible("#graph-box"), false, "no graph of a line of one position");
  assert.equal(await page.isVisible(".movelist-wrap"), false, "no empty move list");
  await screenshot(page, "74-analysis-new-390x844");
  // the first move: the move list and the graph appear, with content
  await page.fill("#move-input", "11-15");
  await page.press("#move-input", "Enter");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.equal(await page.isVisible(".movelist-wrap"), true);
  assert.equal(await page.isVisible("#graph-box"), true);
  await page.waitForFunction(() => document.querySelector("#eval-graph").dataset.points === "2", null, { timeout: 60000 });
  assert.deepEqual(await emptyBoxes(), [], "no empty box after the first move");
  await page.context().close();
});
