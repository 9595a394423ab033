// A first visit that explains itself (issue 43): the welcome shows on the first visit only, says
// what the three games are, how to move and where online play, puzzles and analysis are, and goes
// away with "Got it"; the site's navigation links the leaderboard and the rules for guests; each
// game's rule page loads with its diagrams (drawn by the board) and passes axe at 1280 and 390 px in
// both themes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, openApp, screenshot, axeCount } from "./harness.js";

const env = serverAndBrowser();

test("the welcome shows on the first visit, is dismissed with Got it and does not come back", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900, firstVisit: true });
  await openApp(page, env.server.url);
  assert.equal(await page.isVisible("#welcome"), true, "the welcome on a first visit");
  const text = await page.innerText("#welcome");
  for (const words of ["American checkers", "Pool checkers", "Impasse", "drag it", "Type a move", "Play online", "Puzzles", "Analysis"]) {
    assert.ok(text.includes(words), `the welcome says "${words}": ${text}`);
  }
  const links = await page.$$eval("#welcome a", (as) => as.map((a) => new URL(a.href).pathname));
  assert.deepEqual(links, ["/rules/american.html", "/rules/pool.html", "/rules/impasse.html"]);
  await screenshot(page, "welcome-first-visit");
  await axeCount(page, "welcome shown");
  await page.click("#welcome-close");
  assert.equal(await page.isVisible("#welcome"), false, "Got it puts the welcome away");
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  assert.equal(await page.isVisible("#welcome"), false, "no welcome on the second visit");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a guest reaches the leaderboard and the rules from the site's navigation at 1280 and 390 px", async () => {
  for (const [width, height, mobile] of [[1280, 900, false], [390, 844, true]]) {
    const page = await newPage(env.browser, { width, height, mobile });
    await openApp(page, env.server.url);
    assert.equal(await page.isVisible("#nav-leaderboard"), true, `the leaderboard link in the top bar at ${width} px`);
    assert.equal(await page.getAttribute("#nav-leaderboard", "aria-label"), "Leaderboard");
    const bar = await page.evaluate(() => document.querySelector(".topbar").getBoundingClientRect().height);
    assert.ok(bar < 56, `the top bar stays one row at ${width} px: ${bar}`);
    await page.click("#nav-leaderboard");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("mode") === "leaderboard");
    await page.waitForSelector("#players-page:not([hidden]), .players-page:not([hidden])");
    await screenshot(page, `nav-leaderboard-${width}`);
    // the rules: in the top bar from 701 px, at the panel's foot everywhere
    if (width > 700) await page.click("#nav-rules");
    else {
      await page.click("#players-back");
      await page.waitForFunction(() => new URLSearchParams(location.search).get("mode") !== "leaderboard");
      await page.click("#rules-links a[href='rules/american.html']");
    }
    await page.waitForURL(/\/rules\/american\.html$/);
    await page.waitForFunction(() => document.body.dataset.ready === "1");
    await page.context().close();
  }
});

const PAGES = {
  american: { h1: "Rules of American checkers", diagrams: 3, words: ["Black moves first", "Jumping is compulsory", "forward and backward"] },
  pool: { h1: "Rules of Pool checkers", diagrams: 4, words: ["captures forward or backward", "Rule 28, the 13 count", "Rule 27, the 38 count"] },
  impasse: { h1: "Rules of Impasse", diagrams: 5, words: ["Transpose", "Crown", "Bear off", "remove all of their checkers"] },
};

for (const [game, want] of Object.entries(PAGES)) {
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    for (const scheme of ["dark", "light"]) {
      test(`the ${game} rule page loads with its diagrams and passes axe at ${width} px (${scheme} theme)`, async () => {
        const page = await newPage(env.browser, { width, height, mobile: width < 600, colorScheme: scheme });
        await page.goto(`${env.server.url}rules/${game}.html`);
        await page.waitForFunction(() => document.body.dataset.ready === "1");
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
        assert.equal(await page.innerText("h1"), want.h1);
        const bar = await page.evaluate(() => document.querySelector(".topbar").getBoundingClientRect().height);
        assert.ok(bar < 56, `the top bar is one row: ${bar}`);
        const text = await page.innerText("main");
        for (const w of want.words) assert.ok(text.includes(w), `the ${game} page says "${w}"`);
        const diagrams = await page.$$eval(".diagram", (ds) =>
          ds.map((d) => ({
            squares: d.querySelectorAll("rect.sq.dark").length,
            pieces: d.querySelectorAll(".piece").length,
            label: d.querySelector("svg").getAttribute("aria-label"),
            width: d.getBoundingClientRect().width,
          })),
        );
        assert.equal(diagrams.length, want.diagrams, `${game}: diagrams`);
        for (const d of diagrams) {
          assert.equal(d.squares, 32, `a whole board: ${d.label}`);
          assert.ok(d.pieces > 0, `pieces drawn: ${d.label}`);
          assert.ok(d.label.startsWith("Diagram: ") && d.label.length > 20, `named: ${d.label}`);
          assert.ok(d.width >= 200, `readable: ${d.width} px`);
        }
        // nothing wider than the screen
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "no sideways scrolling");
        if (game === "impasse") {
          // a double is drawn as a stack, the crown arrow in gold
          assert.equal((await page.$$(".diagram .piece.king")).length, 3);
          assert.equal(await page.$$eval('.diagram line.arrow[stroke="#d4a32c"]', (ls) => ls.length), 1);
        }
        await screenshot(page, `rules-${game}-${width}-${scheme}`);
        await axeCount(page, `rules ${game} ${width} ${scheme}`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  }
}
