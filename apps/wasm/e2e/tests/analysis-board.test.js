// The analysis board: ← / → after a click on a checkbox or a button, the status line at the shown
// ply (and an imported PDN's result only at the end, as the PDN says it), a pasted game with an
// illegal move opened up to it with the reader's warning, a new variation kept out of
// the main column until promoted, a reproducible game review, and exports that keep their context
// (event, players, level, review marks, result; the analysis link carries them).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import {
  serverAndBrowser,
  newPage,
  openApp,
  screenshot,
  moveList,
  artifacts,
  repoRoot,
} from "./harness.js";

const shared = process.env.CROWN_SHARED || path.join(repoRoot, "../shared");
const TINSLEY = path.join(shared, "data/pdn/tinsley.pdn");

const env = serverAndBrowser();

/** An `n`-ply line of American checkers (each ply the first legal move), as move texts. */
async function line(page, n, variant = "american") {
  return page.evaluate(
    ({ n, variant }) => {
      const g = new window.crownApp.crown.Game(variant);
      const out = [];
      for (let i = 0; i < n; i++) {
        const m = g.legalMoves()[0];
        g.playIndex(m.index);
        out.push(m.text);
      }
      g.free();
      return out;
    },
    { n, variant },
  );
}

/** Open the analysis board on `moves` (texts) of `variant`. */
async function openLine(page, moves, variant = "american") {
  await openApp(page, env.server.url, `?mode=analysis&variant=${variant}&moves=${encodeURIComponent(moves.join(","))}`);
  await page.waitForFunction((n) => window.crownApp.state.history.length === n, moves.length);
}

const shownPly = (page) =>
  page.evaluate(() => {
    const s = window.crownApp.state;
    return s.viewPly == null ? s.history.length : s.viewPly;
  });

async function download(page, click) {
  const [d] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = path.join(artifacts, `download-${Date.now()}-${d.suggestedFilename()}`);
  await d.saveAs(file);
  return { name: d.suggestedFilename(), text: fs.readFileSync(file, "utf8") };
}

test("← / → navigate after a click on the Engine or Numbers checkbox or a button, not in a text field", async () => {
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  const moves = await line(page, 6);
  await openLine(page, moves);
  assert.equal(await shownPly(page), 6);
  for (const sel of ["#show-numbers", "#analysis-engine", "#flip"]) {
    await page.click(sel);
    assert.equal(await page.evaluate(() => document.activeElement.id), sel.slice(1), `${sel} has focus`);
    const before = await shownPly(page);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await shownPly(page), before - 1, `← after a click on ${sel}`);
    await page.keyboard.press("ArrowRight");
    assert.equal(await shownPly(page), before, `→ after a click on ${sel}`);
  }
  await page.keyboard.press("Home");
  assert.equal(await shownPly(page), 0, "Home after a click on a button");
  await page.keyboard.press("End");
  // in the typed-move field the arrows move the caret, not the board
  await page.fill("#move-input", "11-15");
  await page.focus("#move-input");
  await page.keyboard.press("ArrowLeft");
  assert.equal(await shownPly(page), 6, "← in the move field leaves the board alone");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Import one game from PDN text on the analysis board. */
async function importPdn(page, text) {
  await page.click("#pdn-import");
  await page.fill("#pdn-text", text);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => window.crownApp.state.pdnInfo && !document.querySelector("#dlg-pdn[open]"));
}

const status = (page) => page.textContent("#status");

test("the analysis status line describes the shown ply, and a PDN result only at the end, as the PDN says it", async () => {
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  const moves = await line(page, 11);
  await openLine(page, moves);
  // after 11 plies of American (Black moves first) White is to move; at the start Black is
  assert.match(await status(page), /^White to move/);
  await page.click("#show-numbers"); // a focused checkbox (the ← / → test) does not matter here
  await page.keyboard.press("Home");
  assert.equal(await shownPly(page), 0);
  assert.match(await status(page), /^Black to move/, "Home: the start position's side to move");
  await page.keyboard.press("ArrowRight");
  assert.match(await status(page), /^White to move/, "ply 1: White to move");
  await page.keyboard.press("ArrowRight");
  assert.match(await status(page), /^Black to move/, "ply 2: Black to move");

  // an imported game whose PDN only says 1-0 (docs/notation.md: the first player, Black, won)
  const pdn = `[Event "Status test"]\n[Black "A"]\n[White "B"]\n[Result "1-0"]\n\n1. ${moves[0]} ${moves[1]} 2. ${moves[2]} ${moves[3]} 1-0\n`;
  await importPdn(page, pdn);
  assert.equal(await shownPly(page), 0, "an imported game opens at its start");
  assert.match(await status(page), /^Black to move/);
  assert.doesNotMatch(await status(page), /1-0|wins|resign/);
  await page.keyboard.press("ArrowRight");
  assert.match(await status(page), /^White to move/);
  await page.keyboard.press("End");
  const end = await status(page);
  assert.match(end, /^1-0 · Black wins/, "the result at the last ply");
  assert.doesNotMatch(end, /resign|time|agree/i, "nothing the PDN does not say");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The main line's move texts of a PDN text (tags, comments, variations, numbers and result dropped). */
function pdnMainLine(text) {
  let body = text.replace(/^\s*\[.*\]\s*$/gm, "").replace(/\{[^}]*\}/g, " ");
  let prev;
  do {
    prev = body;
    body = body.replace(/\([^()]*\)/g, " ");
  } while (body !== prev);
  return body
    .split(/\s+/)
    .map((w) => w.replace(/^\d+\.(\.\.)?/, ""))
    .filter((w) => /^\d+([-x]\d+)+$/.test(w));
}

test("a pasted PDN with an illegal move opens up to that move, with the reader's warning naming it", async () => {
  // Move 62 of this game, Black's 32-28, is illegal: before it Black has men on 16 and kings on 28
  // and 29 (B:WK26,K27,K30:B16,K28,K29), so there is no piece on 32 to move. The 61 moves before
  // it (122 plies) are legal.
  const text = fs.readFileSync(path.join(repoRoot, "fuzz/corpus/pdn/tinsley-540.pdn"), "utf8");
  const all = pdnMainLine(text);
  assert.equal(all[122], "32-28", "the 123rd ply of the file is 32-28");
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  await importPdn(page, text);
  // the squares of each move (the file writes some plain moves with an x, as 29x25)
  const squaresOf = (moves) => moves.map((m) => m.replace(/x/g, "-"));
  assert.deepEqual(squaresOf(await moveList(page)), squaresOf(all.slice(0, 122)), "the game up to the illegal move");
  // the precise warning: game, line, move number and text, the position and its legal moves
  await page.waitForSelector("#info-warning:not([hidden])");
  const warning = await page.textContent("#info-warning");
  assert.match(warning, /line 17:5, move 62 '32-28': illegal move in position B:WK26,K27,K30:B16,K28,K29; legal: 16-19, 16-20, 28-24, 28-32, 29-25/);
  assert.match(await page.textContent("#toast"), /Game 1 stops early: .*move 62 '32-28': illegal move/);
  assert.equal(await page.textContent(".player-bar.black .player-name"), "AA Long");
  // the PDN's 0-1 is not shown as the result of a game that stops early
  assert.doesNotMatch(await page.textContent("#info-event"), /0-1/);
  await screenshot(page, "analysis-pdn-stops-early");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a new variation stays out of the main column until Make main line; screen and PDN agree", async () => {
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  const moves = await line(page, 6);
  await openLine(page, moves);
  // at ply 2 play another move than the main line's third
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const other = await page.evaluate((main) => {
    const s = window.crownApp.state;
    const g = window.crownApp.crown.Game.fromFen(s.variant, s.history[1].fenAfter);
    const m = g.legalMoves().find((x) => x.text !== main);
    g.free();
    return m.text;
  }, moves[2]);
  await page.fill("#move-input", other);
  await page.press("#move-input", "Enter");
  await page.waitForFunction(() => window.crownApp.state.path.length === 3);
  assert.deepEqual(await moveList(page), moves, "the main column keeps the main line");
  const current = await page.$$eval("#movelist .vmove.current", (els) => els.map((e) => e.textContent));
  assert.equal(current.length, 1, "the shown move is marked in its variation");
  assert.match(current[0], new RegExp(`${other}$`));
  assert.equal(await page.$$eval("#movelist .mv.current", (els) => els.length), 0, "no main-line move is the shown one");
  let out = (await download(page, () => page.click("#pdn-download"))).text;
  assert.deepEqual(pdnMainLine(out), await moveList(page), `screen and PDN agree:\n${out}`);
  assert.ok(out.includes(`(2. ${other})`), out);
  await screenshot(page, "analysis-variation-kept");
  // a click on a main-line move goes back to the main line
  await page.click('#movelist .mv[data-ply="4"]');
  assert.equal(await shownPly(page), 4);
  assert.equal(await page.textContent("#movelist .mv.current"), moves[3]);
  // into the variation again, then make it the main line: now the column and the PDN have it
  await page.click(`#movelist .variation .vmove:has-text("${other}")`);
  await page.click("#var-promote");
  assert.deepEqual(await moveList(page), [...moves.slice(0, 2), other]);
  out = (await download(page, () => page.click("#pdn-download"))).text;
  assert.deepEqual(pdnMainLine(out), await moveList(page), `screen and PDN agree after promotion:\n${out}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a game review is reproducible (Tinsley game 14 reviewed twice: the same marks)", async () => {
  const text = fs.readFileSync(TINSLEY, "utf8");
  // the file's 14th game (US National 1946, 43 plies), the one issue 26 saw reviewed two ways
  const starts = [...text.matchAll(/^\[Event /gm)].map((m) => m.index);
  const game = text.slice(starts[13], starts[14]);
  assert.match(game, /\[Event "US National 1946"\]/);
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  await importPdn(page, game);
  const review = async () => {
    const t0 = Date.now();
    await page.click("#review-game");
    await page.waitForFunction(() => {
      const r = window.crownApp.state.review;
      return r && r.result && document.querySelector("#review-game").textContent === "Review game";
    }, null, { timeout: 120000 });
    const ms = Date.now() - t0;
    const marks = await page.$$eval("#movelist .mv:not(.empty)", (els) =>
      els.map((e) => (e.querySelector(".mark") || {}).textContent || "").map((m, i) => (m ? `${i}${m}` : "")).filter(Boolean),
    );
    return { ms, marks, summary: await page.textContent("#review-summary") };
  };
  const a = await review();
  // forget the first review and search again, in a fresh page (a new worker and engine) too
  await page.evaluate(() => (window.crownApp.app.analysis.review = null));
  const b = await review();
  const other = await newPage(env.browser);
  await openApp(other, env.server.url, "?mode=analysis&variant=american");
  await importPdn(other, game);
  const pageA = page;
  const c = await (async () => {
    const t0 = Date.now();
    await other.click("#review-game");
    await other.waitForFunction(() => window.crownApp.state.review && window.crownApp.state.review.result, null, { timeout: 120000 });
    return { ms: Date.now() - t0, summary: await other.textContent("#review-summary") };
  })();
  console.log(`review of Tinsley game 14: ${a.ms} ms, ${b.ms} ms, ${c.ms} ms; marks ${a.marks.join(" ")}`);
  assert.deepEqual(b.marks, a.marks, "the same marks twice");
  assert.equal(b.summary, a.summary);
  assert.equal(c.summary, a.summary, "the same summary in another page");
  assert.ok(a.ms < 60000, `the review takes ${a.ms} ms`);
  assert.deepEqual(pageA.errors, []);
  await page.context().close();
  await other.context().close();
});

/** The names on the two player bars. */
const bars = (page) => Promise.all([page.textContent("#name-top"), page.textContent("#name-bottom")]);

/** PDN tag `name` of `text` (null when missing). */
function tagOf(text, name) {
  const m = text.match(new RegExp(`^\\[${name} "(.*)"\\]$`, "m"));
  return m ? m[1] : null;
}

test("a finished game against the engine exports its event, players, level, marks and result; the link carries them", async () => {
  const page = await newPage(env.browser);
  await openApp(page, env.server.url);
  await page.click("#new-game");
  await page.$eval("#level-range", (el) => {
    el.value = "6";
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.click("#new-ok");
  // the dialog's close event (which starts the game) comes in a task of its own
  await page.waitForFunction(() => window.crownApp.state.level === 6 && window.crownApp.state.game.plyCount() === 0);
  // three moves of Black (the first legal move each time), the engine answering
  for (let i = 0; i < 3; i++) {
    await page.waitForFunction((n) => window.crownApp.state.game.plyCount() === n && !window.crownApp.state.thinking, 2 * i, { timeout: 30000 });
    const mv = await page.evaluate(() => window.crownApp.board.moves[0].text);
    await page.fill("#move-input", mv);
    await page.press("#move-input", "Enter");
  }
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 6 && !window.crownApp.state.thinking, null, { timeout: 30000 });
  const day = await page.evaluate(() => {
    const d = new Date();
    return [d.getFullYear(), String(d.getMonth() + 1).padStart(2, "0"), String(d.getDate()).padStart(2, "0")];
  });
  // the play page's own export
  let d = await download(page, () => page.click("#pdn-download"));
  assert.equal(d.name, `crown-american-${day.join("-")}-you-vs-crown-level-6.pdn`);
  assert.equal(tagOf(d.text, "Black"), "You");
  assert.equal(tagOf(d.text, "White"), "Crown level 6");
  assert.match(tagOf(d.text, "Event"), /level 6/);
  assert.equal(tagOf(d.text, "Date"), day.join("."));
  // resign, then analyse the finished game and export it from there
  await page.click("#resign");
  await page.click("#confirm-yes");
  await page.waitForSelector("#dlg-over[open]");
  await page.click("#over-analyse");
  await page.waitForFunction(() => window.crownApp.state.mode === "analysis");
  d = await download(page, () => page.click("#pdn-download"));
  assert.equal(d.name, `crown-american-${day.join("-")}-you-vs-crown-level-6.pdn`);
  assert.equal(tagOf(d.text, "Event"), "Crown vs engine, level 6");
  assert.equal(tagOf(d.text, "Black"), "You");
  assert.equal(tagOf(d.text, "White"), "Crown level 6");
  assert.equal(tagOf(d.text, "Result"), "0-1", "Black resigned: White won");
  assert.match(d.text, /0-1\s*$/);
  assert.deepEqual((await bars(page)).sort(), ["Crown level 6", "You"], "the analysis board's bars name the players");
  // a review's marks go into the export
  await page.click("#review-game");
  await page.waitForFunction(() => window.crownApp.state.review && window.crownApp.state.review.result, null, { timeout: 60000 });
  const marks = await page.$$eval("#movelist .mark", (els) => els.map((e) => e.textContent));
  console.log(`review marks of the game: ${marks.join(" ") || "none"}`);
  d = await download(page, () => page.click("#pdn-download"));
  const written = (d.text.replace(/^\[.*$/gm, "").match(/\d+(?:[-x]\d+)+(\?\?|\?!|\?|!)/g) || []).map((m) => m.match(/(\?\?|\?!|\?|!)$/)[0]);
  assert.deepEqual(written, marks, `the review's marks in the PDN:\n${d.text}`);
  // the analysis link carries the players and the event
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("black"), "You");
  assert.equal(url.searchParams.get("white"), "Crown level 6");
  assert.equal(url.searchParams.get("event"), "Crown vs engine, level 6");
  const other = await newPage(env.browser);
  await openApp(other, env.server.url, url.search);
  assert.deepEqual((await bars(other)).sort(), ["Crown level 6", "You"], "the link's board names the players");
  d = await download(other, () => other.click("#pdn-download"));
  assert.equal(tagOf(d.text, "White"), "Crown level 6");
  assert.equal(tagOf(d.text, "Event"), "Crown vs engine, level 6");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
  await page.context().close();
  await other.context().close();
});
