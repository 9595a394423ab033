// Boards and piece sets (issue 43): chosen once in the settings, kept over a reload (localStorage),
// and used by every board the site draws: the play and analysis board, the position editor, the
// puzzles and the rule pages' diagrams (the online and TV pages draw on the same #board). Each piece
// set keeps Black and White apart, and a king apart from a man.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, openApp, screenshot, axeCount } from "./harness.js";

const env = serverAndBrowser();

/** The colours the CSS of each choice sets (style.css): a board's dark square, a set's Black and White discs. */
const DARK_SQUARE = { green: "rgb(74, 115, 82)", wood: "rgb(165, 120, 79)", tournament: "rgb(47, 122, 58)", blue: "rgb(91, 124, 153)", slate: "rgb(107, 111, 115)" };
const PIECE_TOPS = {
  classic: ["rgb(90, 90, 90)", "rgb(255, 253, 246)"],
  wood: ["rgb(138, 90, 52)", "rgb(247, 226, 181)"],
  red: ["rgb(224, 70, 58)", "rgb(255, 255, 255)"],
  contrast: ["rgb(26, 26, 26)", "rgb(255, 255, 255)"],
};

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

/** The colours every drawn board on the page uses: [{dark square, Black's disc, White's disc}] per board. */
function boardColours(page, sel = ".board-svg") {
  return page.$$eval(sel, (svgs) =>
    svgs
      .filter((s) => s.getBoundingClientRect().width > 0)
      .map((s) => ({
        dark: getComputedStyle(s.querySelector("rect.sq.dark")).fill,
        black: getComputedStyle(s.querySelector(".stop-b1")).stopColor,
        white: getComputedStyle(s.querySelector(".stop-w1")).stopColor,
      })),
  );
}

function assertAll(boards, board, pieces, where) {
  assert.ok(boards.length > 0, `a board is drawn (${where})`);
  for (const b of boards) {
    assert.deepEqual(b, { dark: DARK_SQUARE[board], black: PIECE_TOPS[pieces][0], white: PIECE_TOPS[pieces][1] }, `${where} uses the ${board} board and the ${pieces} pieces`);
  }
}

test("a board and piece set chosen in the settings is used by every board after a reload", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  await openApp(page, env.server.url);
  await page.selectOption("#board-select", "blue");
  await page.selectOption("#pieces-select", "red");
  assertAll(await boardColours(page, "#board .board-svg"), "blue", "red", "the play board, at once");
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  assert.equal(await page.inputValue("#board-select"), "blue");
  assert.equal(await page.inputValue("#pieces-select"), "red");
  assertAll(await boardColours(page, "#board .board-svg"), "blue", "red", "the play board after a reload");
  await screenshot(page, "boards-blue-red-play");

  await openApp(page, env.server.url, "?mode=analysis&variant=pool");
  assertAll(await boardColours(page, "#board .board-svg"), "blue", "red", "the analysis board");
  await page.click("#edit-position");
  await page.waitForSelector("#dlg-editor[open]");
  assertAll(await boardColours(page, "#editor-board .board-svg"), "blue", "red", "the position editor");

  await page.goto(`${env.server.url}?mode=puzzles&variant=american`);
  await page.waitForFunction(() => {
    const s = window.crownApp && window.crownApp.state;
    return s && s.mode === "puzzles" && s.puzzle && s.puzzle.puzzle;
  }, null, { timeout: 30000 });
  assertAll(await boardColours(page, "#board .board-svg"), "blue", "red", "the puzzles board");
  await screenshot(page, "boards-blue-red-puzzles");

  for (const game of ["american", "pool", "impasse"]) {
    await page.goto(`${env.server.url}rules/${game}.html`);
    await page.waitForFunction(() => document.body.dataset.ready === "1" && document.querySelector(".diagram .piece"));
    assertAll(await boardColours(page, ".diagram .board-svg"), "blue", "red", `the ${game} rule diagrams`);
  }
  await screenshot(page, "boards-blue-red-rules-impasse");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("every piece set keeps Black and White apart and draws a king apart from a man, and passes axe", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  // a king and a man of each colour
  await openApp(page, env.server.url, "?mode=analysis&variant=american&fen=" + encodeURIComponent("B:WK30,22:BK3,11"));
  const sets = await page.$$eval("#pieces-select option", (os) => os.map((o) => o.value));
  assert.ok(sets.length >= 4, `at least four piece sets: ${sets}`);
  const boards = await page.$$eval("#board-select option", (os) => os.map((o) => o.value));
  assert.ok(boards.length >= 4, `at least four boards: ${boards}`);
  for (const set of sets) {
    await page.selectOption("#pieces-select", set);
    const [b] = await boardColours(page, "#board .board-svg");
    assert.ok(contrast(b.black, b.white) >= 3, `${set}: Black's and White's discs differ (contrast ${contrast(b.black, b.white).toFixed(2)})`);
    const kings = await page.$$eval("#board .piece.king", (ks) => ks.map((k) => !!k.querySelector(".king-crown") && k.querySelectorAll(".disc").length === 2));
    const men = await page.$$eval("#board .piece.man", (ms) => ms.map((m) => !m.querySelector(".king-crown") && m.querySelectorAll(".disc").length === 1));
    assert.deepEqual([kings, men], [[true, true], [true, true]], `${set}: a king is a crowned stack of two discs, a man one disc`);
    await screenshot(page, `pieces-${set}`);
    await axeCount(page, `pieces ${set}`);
  }
  for (const board of boards) {
    await page.selectOption("#board-select", board);
    const [b] = await boardColours(page, "#board .board-svg");
    assert.equal(b.dark, DARK_SQUARE[board], `the ${board} board's dark squares`);
  }
  await page.context().close();
});
