// Impasse clarity (issue 13): the crown choice beside the board with the single shown on its landing
// square, forced removals announced and the removable checkers marked, doubles drawn as stacks; at
// desktop size and at phone size (390×844).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, newPage, openApp, screenshot, clickSquare, moveList } from "./harness.js";

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

const analysis = (variant, fen) => `?mode=analysis&variant=${variant}&fen=${encodeURIComponent(fen)}`;

const rectOf = (page, sel) =>
  page.evaluate((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }, sel);

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

for (const size of [
  { width: 1280, height: 800, name: "desktop" },
  { width: 390, height: 844, name: "phone", mobile: true },
]) {
  test(`Impasse crown choice beside the board, the single on its landing square (${size.name})`, async () => {
    const page = await newPage(browser, size);
    // Impasse rule sheet: a single reaching the furthest row is crowned with a single of its own
    // colour; the White single on 5 slides to 1, and 22 or 27 may be stacked onto it.
    await openApp(page, server.url, analysis("impasse", "W:W5,22,27:B12"));
    await clickSquare(page, 5);
    await clickSquare(page, 1);
    await page.waitForSelector("#banner:not([hidden])");
    assert.match(await page.textContent("#crown-text"), /choose the single to stack on 1/);
    // the prompt does not cover the crowning square (nor any square of the board)
    const banner = await rectOf(page, "#banner");
    assert.ok(!overlap(banner, await rectOf(page, '#board rect.sq[data-square="1"]')), "square 1 stays visible");
    assert.ok(!overlap(banner, await rectOf(page, "#board")), "beside the board");
    // the single is shown on 1 while choosing, and no longer on 5
    const shown = await page.$$eval("#board .pieces .piece", (els) => els.map((e) => `${e.dataset.square}${e.classList.contains("pending") ? "p" : ""}`));
    assert.ok(shown.includes("1p"), `single on 1: ${shown}`);
    assert.ok(!shown.includes("5"), `nothing on 5: ${shown}`);
    const buttons = await page.$$eval("#crown-singles button", (els) => els.map((e) => Number(e.dataset.square)));
    assert.deepEqual(buttons.sort((a, b) => a - b), [22, 27]);
    await screenshot(page, `60-impasse-crown-${size.name}`);
    await page.click('#crown-singles button[data-square="22"]');
    await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
    assert.deepEqual(await moveList(page), ["5-1=22"]);
    assert.equal(await page.isHidden("#banner"), true);
    await page.context().close();
  });
}

test("Impasse: a forced removal is announced and the removable checkers marked", async () => {
  const page = await newPage(browser, { width: 390, height: 844, mobile: true });
  // White's single on 5 (edge file) can only slide forward onto 1, where Black's single stands:
  // with no basic move, the Impasse rule makes White remove a checker.
  await openApp(page, server.url, analysis("impasse", "W:W5:B1"));
  const moves = await page.evaluate(() => window.crownApp.state.game.legalMoves().map((m) => m.kind));
  assert.deepEqual(moves, ["remove"], "the rules give White only the impasse removal");
  assert.match(await page.textContent("#status"), /Impasse: remove one of your checkers/);
  const marked = await page.$$eval("#board .piece.removable", (els) => els.map((e) => Number(e.dataset.square)));
  assert.deepEqual(marked, [5]);
  await screenshot(page, "61-impasse-removal-phone");
  await page.context().close();
});

test("Impasse doubles read as stacks of two at phone size", async () => {
  const page = await newPage(browser, { width: 390, height: 844, mobile: true });
  await openApp(page, server.url, "?mode=analysis&variant=impasse&setup=steere");
  // a double is two discs; the upper one is lifted by at least a sixth of the square's height
  const lift = await page.evaluate(() => {
    const g = document.querySelector('#board .piece[data-square="1"]');
    const discs = [...g.querySelectorAll("circle.disc")].map((c) => c.getBoundingClientRect());
    const sq = document.querySelector('#board rect.sq[data-square="1"]').getBoundingClientRect();
    return { n: discs.length, dy: Math.abs(discs[0].top - discs[1].top) / sq.height };
  });
  assert.equal(lift.n, 2);
  assert.ok(lift.dy >= 1 / 6, `lifted ${lift.dy}`);
  const single = await page.$$eval('#board .piece[data-square="26"] circle.disc', (e) => e.length);
  assert.equal(single, 1);
  await screenshot(page, "62-impasse-doubles-phone");
  await page.context().close();
});
