// The opening explorer of the analysis page (issue 26): a small PDN written here (its counts known
// by construction), the moves with their games and White/draw/Black percentages, a click plays the
// move and the explorer follows, transpositions count together, the book's moves with no archive,
// the switch remembered, keyboard, axe at 0 in the dark theme, and 390×844 / 320 px wide.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { serverAndBrowser, newPage, openApp, screenshot, moveList, boardPieces, repoRoot, returningVisitor } from "./harness.js";

const env = serverAndBrowser();
const AXE = path.join(repoRoot, "apps/wasm/e2e/node_modules/axe-core/axe.min.js");
const T = { timeout: 60000 };

// Five American games. "1-0" is a win of the first player, Black (PDN 2.0 checkers convention).
//   g1, g5: 11-15 23-19 8-11 22-17, Black wins      g2: 11-15 22-17 8-11 23-19, draw
//   g3: 11-15 23-19 9-13, White wins                g4: 9-14 22-18, Black wins
// So from the start: 11-15 in 4 games (Black 2, draw 1, White 1: 50/25/25 %), 9-14 in 1 (Black
// 100 %). After 11-15: 23-19 in 3 (g1, g3, g5: White 1 of 3 = 33 %, Black 2 of 3 = 67 %), 22-17 in 1
// (draw). g1, g5 and g2 reach the same position by two move orders: 3 games there.
const PDN = [
  '[Event "g1"]\n1. 11-15 23-19 2. 8-11 22-17 1-0',
  '[Event "g2"]\n1. 11-15 22-17 2. 8-11 23-19 1/2-1/2',
  '[Event "g3"]\n1. 11-15 23-19 2. 9-13 0-1',
  '[Event "g4"]\n1. 9-14 22-18 1-0',
  '[Event "g5"]\n1. 11-15 23-19 2. 8-11 22-17 1-0',
].join("\n\n");

/** The explorer's archive rows: {move, games, white, draws, black, unknown} (numbers). */
function rows(page) {
  return page.$$eval("#explorer-moves tr", (trs) =>
    trs.map((tr) => ({
      move: tr.dataset.move,
      games: Number(tr.dataset.games),
      white: Number(tr.dataset.white),
      draws: Number(tr.dataset.draws),
      black: Number(tr.dataset.black),
      unknown: Number(tr.dataset.unknown),
    })),
  );
}

/** Wait until the explorer's first archive row is `move` (the worker answers asynchronously). */
function firstRow(page, move) {
  return page.waitForFunction((m) => {
    const tr = document.querySelector("#explorer-moves tr");
    return tr && tr.dataset.move === m && !document.querySelector("#explorer-games").hidden;
  }, move, T);
}

async function axeCount(page, name) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.length, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
  const count = result.reduce((a, v) => a + v.nodes, 0);
  console.log(`axe-core (${name}): ${count} nodes: ${JSON.stringify(result)}`);
  assert.equal(count, 0, `no axe findings (${name})`);
}

async function importPdn(page, text) {
  await page.click("#pdn-import");
  await page.fill("#pdn-text", text);
  await page.click("#pdn-ok");
  // several games: the picker lists them; close it, the explorer has the whole file
  await page.waitForSelector("#dlg-games[open]", T);
  await page.waitForFunction(() => !document.querySelector("#games-search").disabled, null, T);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#dlg-games[open]"), null, T);
}

test("explorer: counts and percentages of an imported PDN, a click plays the move, transpositions, empty positions", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
  await returningVisitor(context);
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  assert.equal(await page.isVisible("#explorer-box"), false, "off until switched on");
  await page.check("#explorer-toggle");
  await page.waitForSelector("#explorer-box:not([hidden])", T);
  await importPdn(page, PDN);
  await page.waitForFunction(() => /5 games/.test(document.querySelector("#explorer-source").textContent), null, T);
  // no game picked: the board is at the start
  await firstRow(page, "11-15");
  assert.equal(await page.textContent("#explorer-total"), "5 games reach this position");
  assert.deepEqual(await rows(page), [
    { move: "11-15", games: 4, white: 25, draws: 25, black: 50, unknown: 0 },
    { move: "9-14", games: 1, white: 0, draws: 0, black: 100, unknown: 0 },
  ]);
  // the bar writes the percentages, the screen reader gets them in words
  assert.equal(await page.textContent("#explorer-source"), "Imported PDN: 5 games");
  assert.equal(await page.textContent("#explorer-moves tr:first-child .wdb .b"), "50%");
  assert.match(await page.textContent("#explorer-moves tr:first-child .sr-only"), /White 25%, draw 25%, Black 50%/);
  await screenshot(page, "explorer-start");

  // a click plays 11-15 on the board; the explorer follows
  await page.click('#explorer-moves tr[data-move="11-15"] button');
  await firstRow(page, "23-19");
  assert.deepEqual(await moveList(page), ["11-15"]);
  assert.equal((await boardPieces(page))[15], "black man");
  assert.deepEqual(await rows(page), [
    { move: "23-19", games: 3, white: 33, draws: 0, black: 67, unknown: 0 },
    { move: "22-17", games: 1, white: 0, draws: 100, black: 0, unknown: 0 },
  ]);

  // keyboard: the moves are buttons; Enter on 22-17 plays it
  await page.focus('#explorer-moves tr[data-move="22-17"] button');
  await page.keyboard.press("Enter");
  await firstRow(page, "8-11");
  assert.deepEqual(await moveList(page), ["11-15", "22-17"]);
  await page.waitForFunction(() => document.activeElement.classList.contains("ex-move"), null, T);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "8-11", "the focus goes on to the new moves");
  // transposition: 11-15 22-17 8-11 23-19 is the position of 11-15 23-19 8-11 22-17 (g1, g5)
  await page.click('#explorer-moves tr[data-move="8-11"] button');
  await firstRow(page, "23-19");
  await page.click('#explorer-moves tr[data-move="23-19"] button');
  await page.waitForFunction(() => document.querySelector("#explorer-total").textContent === "3 games reach this position", null, T);
  assert.deepEqual(await rows(page), [], "no game played on from there");

  // back to the start with the board's navigation, then a book move no game played
  await page.click("#nav-first");
  await firstRow(page, "11-15");
  await page.click('#explorer-book-moves tr[data-move="11-16"] button');
  await page.waitForFunction(() => !document.querySelector("#explorer-empty").hidden, null, T);
  assert.equal(await page.textContent("#explorer-empty"), "No games reach this position.");
  assert.equal(await page.isVisible("#explorer-games"), false);
  // 11-16 is a variation of the game's first move: the board shows it
  const after = await boardPieces(page);
  assert.equal(after[16], "black man");
  assert.equal(after[11], undefined);
  await axeCount(page, "explorer, dark theme");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("explorer: book moves with no archive, the switch remembered, fits 390×844 and 320 px", async () => {
  for (const width of [390, 320]) {
    const context = await env.browser.newContext({ viewport: { width, height: 844 }, isMobile: true, hasTouch: true, colorScheme: "dark" });
  await returningVisitor(context);
    const page = await context.newPage();
    await openApp(page, env.server.url, "?mode=analysis&variant=american");
    await page.check("#explorer-toggle");
    await page.waitForSelector("#explorer-book-moves tr", T);
    // `crown book probe --variant american --json` at the start lists 11-15 first (score 0)
    const book = await page.$$eval("#explorer-book-moves tr", (trs) => trs.map((tr) => [tr.dataset.move, tr.children[1].textContent]));
    assert.deepEqual(book[0], ["11-15", "+0.00"]);
    const legal = await page.evaluate(() => {
      const g = new window.crownApp.crown.Game("american");
      return g.legalMoves().map((m) => m.longText);
    });
    for (const [m] of book) assert.ok(legal.includes(m), `${m} is a move of the start`);
    assert.match(await page.textContent("#explorer-source"), /No PDN archive loaded/);
    assert.equal(await page.isVisible("#explorer-games"), false);
    // remembered after a reload
    await page.reload();
    await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1", null, T);
    assert.equal(await page.isChecked("#explorer-toggle"), true);
    await page.waitForSelector("#explorer-box:not([hidden]) #explorer-book-moves tr", T);
    // nothing wider than the screen
    await page.locator("#explorer-box").scrollIntoViewIfNeeded();
    const size = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      box: document.querySelector("#explorer-box").getBoundingClientRect().right,
    }));
    assert.ok(size.page <= width && size.box <= width, `fits ${width} px: ${JSON.stringify(size)}`);
    await screenshot(page, `explorer-${width}`);
    if (width === 390) await axeCount(page, "explorer, book only, 390 px");
    // a book move played by touch
    await page.tap('#explorer-book-moves tr[data-move="11-15"] button');
    await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1, null, T);
    await context.close();
  }
});

test("explorer of tinsley.pdn (724 games): 11-15 from the start as often as the file's move text says", async () => {
  const shared = process.env.CROWN_SHARED || path.join(repoRoot, "../shared");
  const file = path.join(shared, "data/pdn/tinsley.pdn");
  // counted here from the text: every game's movetext starts on a line of its own with "1. "
  const text = fs.readFileSync(file, "utf8");
  const firsts = text.match(/^1\.\s*11-15\b/gm).length;
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  await page.check("#explorer-toggle");
  await page.click("#pdn-import");
  await page.setInputFiles("#pdn-file", file);
  await page.waitForFunction(() => document.querySelector("#pdn-text").value.length > 300000, null, T);
  await page.click("#pdn-ok");
  await page
    .waitForFunction(() => /^tinsley\.pdn: 724 games/.test(document.querySelector("#explorer-source").textContent), null, T)
    .catch(async (e) => {
      throw new Error(`${e.message}; the explorer says: ${await page.textContent("#explorer-source")}`);
    });
  await page.waitForFunction(() => !document.querySelector("#games-search").disabled, null, T);
  await page.keyboard.press("Escape");
  await page.waitForSelector('#explorer-moves tr[data-move="11-15"]', T);
  const r = (await rows(page)).find((x) => x.move === "11-15");
  assert.equal(r.games, firsts);
  assert.equal(r.white + r.draws + r.black + r.unknown, 100);
  await page.context().close();
});
