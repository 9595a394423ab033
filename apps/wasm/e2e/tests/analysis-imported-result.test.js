// An imported game's result that the board does not show (a PDN that only says 1-0) is worded as
// the PDN gives it everywhere the analysis page says it: the status line (analysis-board.test.js),
// and also the game-over dialog, which opens again when the board comes back to the main line's end
// from a variation, and the screen-reader announcement.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, openApp } from "./harness.js";

const env = serverAndBrowser();

/** The first legal move after `moves` (texts of American checkers) other than `not`. */
async function otherMove(page, moves, not) {
  return page.evaluate(
    ({ moves, not }) => {
      const g = new window.crownApp.crown.Game("american");
      for (const m of moves) g.play(m);
      const m = g.legalMoves().find((x) => x.text !== not);
      g.free();
      return m.text;
    },
    { moves, not },
  );
}

const shownPly = (page) =>
  page.evaluate(() => {
    const s = window.crownApp.state;
    return s.viewPly == null ? s.history.length : s.viewPly;
  });

/** Type `text` in the move field and play it. */
async function typeMove(page, text) {
  await page.fill("#move-input", text);
  await page.press("#move-input", "Enter");
}

test("an imported 1-0 is said as the PDN gives it in the game-over dialog and the announcement, never as a resignation", async () => {
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  const moves = [];
  for (let i = 0; i < 4; i++) moves.push(await otherMove(page, moves, null));
  const pdn = `[Event "Dialog test"]\n[Black "A"]\n[White "B"]\n[Result "1-0"]\n\n1. ${moves[0]} ${moves[1]} 2. ${moves[2]} ${moves[3]} 1-0\n`;
  await page.click("#pdn-import");
  await page.fill("#pdn-text", pdn);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => window.crownApp.state.pdnInfo && !document.querySelector("#dlg-pdn[open]"));
  await page.click("#show-numbers"); // leave the text fields: the arrow keys navigate
  await page.keyboard.press("End");
  assert.equal(await shownPly(page), 4);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await shownPly(page), 3);
  // a variation at ply 4: its end is not over
  const alt = await otherMove(page, moves.slice(0, 3), moves[3]);
  await typeMove(page, alt);
  await page.waitForFunction(() => window.crownApp.state.history.length === 4 && window.crownApp.state.viewPly == null);
  assert.match(await page.textContent("#status"), /to move/, "the variation's end is not over");
  // back at ply 3, the main line's move again: the board is at the imported game's end
  await page.click("#show-numbers");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await shownPly(page), 3);
  await typeMove(page, moves[3]);
  await page.waitForSelector("#dlg-over[open]", { timeout: 60000 });
  const reason = await page.textContent("#over-reason");
  assert.equal(await page.textContent("#over-result"), "1-0");
  assert.match(reason, /result the PDN gives/, "the dialog says where the result comes from");
  assert.doesNotMatch(reason, /resign|time|agree/i, "the dialog invents no cause");
  assert.match(await page.textContent("#status"), /^1-0 · Black wins/);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("#dlg-over[open]"));

  // the announcement: from the variation's 3-ply start to the main line's end is one new ply
  await page.click("#show-numbers");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await shownPly(page), 2);
  const alt2 = await otherMove(page, moves.slice(0, 2), moves[2]);
  await typeMove(page, alt2); // a 3-ply variation at its end
  await page.waitForFunction(() => window.crownApp.state.history.length === 3 && window.crownApp.state.viewPly == null);
  await page.evaluate(() => (document.querySelector("#announce").textContent = ""));
  // the main line's last move in the move list
  await page.click('#movelist .mv[data-ply="4"]');
  await page.waitForFunction(() => window.crownApp.state.history.length === 4 && window.crownApp.state.viewPly == null);
  await page.waitForFunction(() => document.querySelector("#announce").textContent !== "", null, { timeout: 60000 });
  const said = await page.textContent("#announce");
  assert.match(said, /Black wins/, `announced: ${said}`);
  assert.doesNotMatch(said, /resign/i, `announced: ${said}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
