// The analysis board and local games (issue 13, "Broken" 1, 2, 6, 7): variations at any ply of a
// finished game, the game picker of a PDN file of 724 games with its tags kept on export, local
// games and settings restored after a reload, resignation confirmed and never taken back.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startServer, launch, newPage, openApp, screenshot, clickSquare, moveList, artifacts, repoRoot } from "./harness.js";

const shared = process.env.CROWN_SHARED || path.join(repoRoot, "../shared");
const TINSLEY = path.join(shared, "data/pdn/tinsley.pdn");

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

/** The tag blocks of a PDN file, read here with a regular expression (independent of the app). */
function tagBlocks(text) {
  const games = [];
  let cur = null;
  for (const line of text.split(/\r?\n/)) {
    const m = line.match(/^\s*\[(\w+)\s+"(.*)"\]\s*$/);
    if (m) {
      if (!cur) games.push((cur = {}));
      cur[m[1]] = m[2];
    } else if (line.trim()) {
      cur = null;
    }
  }
  return games;
}

async function download(page, click) {
  const [d] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = path.join(artifacts, `download-${Date.now()}.pdn`);
  await d.saveAs(file);
  return fs.readFileSync(file, "utf8");
}

const plies = (page) => page.$$eval("#movelist .mv:not(.empty)", (els) => els.length);

test("a PDN file of 724 games: picker with search, players shown, all tags exported", async () => {
  const text = fs.readFileSync(TINSLEY, "utf8");
  const tags = tagBlocks(text);
  assert.equal(tags.length, 724, "tinsley.pdn holds 724 games (issue 13)");
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  await page.click("#pdn-import");
  await page.setInputFiles("#pdn-file", TINSLEY);
  await page.waitForFunction(() => document.querySelector("#pdn-text").value.length > 300000);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelector("#dlg-games[open]") && !document.querySelector("#games-search").disabled);
  assert.equal(await page.textContent("#games-count"), "724 games");
  await screenshot(page, "50-pdn-picker");

  // search by player and result: Tinsley's games that Black won (counted here from the tags)
  const want = tags.filter((t) => (t.Black + " " + t.White).includes("Tinsley") && t.Result === "1-0");
  await page.fill("#games-search", "tinsley 1-0");
  assert.equal(await page.textContent("#games-count"), `${want.length} of 724 games match`);
  // pick the first of them
  const first = await page.getAttribute("#games-list li:first-child .game-row", "data-index");
  const t = tags[Number(first) - 1];
  assert.equal(t.Result, "1-0");
  await page.click("#games-list li:first-child .game-row");
  await page.waitForFunction(() => !document.querySelector("#dlg-games[open]"));
  assert.equal(await page.textContent("#info-players"), `${t.Black} (Black) – ${t.White} (White)`);
  assert.match(await page.textContent("#info-event"), new RegExp(t.Event.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  assert.equal(await page.textContent("#info-number"), `Game ${first} of 724`);
  assert.ok((await plies(page)) > 10, "the game's moves are listed");
  assert.match(await page.textContent("#movelist"), /1-0/);
  await screenshot(page, "51-pdn-game");

  // export keeps every tag of the file's game
  const out = await download(page, () => page.click("#pdn-download"));
  for (const [k, v] of Object.entries(t)) assert.ok(out.includes(`[${k} "${v}"]`), `exported ${k}: ${out.slice(0, 300)}`);
  assert.ok(!out.includes("Crown analysis"), "no made-up Event");

  // another game from the same file, through the Games button
  await page.click("#pdn-games");
  await page.waitForSelector("#dlg-games[open]");
  assert.equal(await page.textContent("#games-count"), "724 games");
  await page.fill("#games-search", "Ohio State");
  await page.click("#games-list li:first-child .game-row");
  assert.equal(await page.textContent("#info-players"), "MF Tinsley (Black) – M Rex (White)");
  await page.context().close();
});

test("analysis of a finished game: a move at an earlier ply starts a variation; comments kept", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  // a finished game (White resigned) with a comment and a variation, as PDN 3.0 writes them
  const pdn =
    '[Event "Variation test"]\n[Black "A"]\n[White "B"]\n[Result "1-0"]\n\n' +
    "1. 11-15 {the Old Faithful} 23-19 (22-18 {a cross}) 2. 8-11 22-17 1-0\n";
  await page.click("#pdn-import");
  await page.fill("#pdn-text", pdn);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 4);
  assert.match(await page.textContent("#movelist .comment"), /the Old Faithful/);
  assert.match(await page.textContent("#movelist .variation"), /1… 22-18/);
  assert.match(await page.textContent("#movelist .variation"), /a cross/);
  // the game is over (resigned): go back to ply 2 (after 23-19) and try 9-14 instead of 8-11
  await page.click('#movelist .mv[data-ply="2"]');
  await clickSquare(page, 9);
  await clickSquare(page, 14);
  await page.waitForFunction(() => window.crownApp.state.path.length === 3);
  // the main column keeps the main line (issue 26, defect 4); the new move is a variation, marked
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11", "22-17"]);
  const vars = await page.$$eval("#movelist .variation", (els) => els.map((e) => e.textContent));
  assert.ok(vars.some((v) => v.includes("2. 9-14")), `the new move shown as a variation: ${vars}`);
  assert.match(await page.textContent("#movelist .vmove.current"), /9-14/);
  // and moves keep going in the variation
  await clickSquare(page, 22);
  await clickSquare(page, 18);
  await page.waitForFunction(() => window.crownApp.state.path.length === 4);
  assert.deepEqual(await page.evaluate(() => window.crownApp.state.history.map((h) => h.text)), ["11-15", "23-19", "9-14", "22-18"]);
  assert.match(await page.textContent("#movelist .vmove.current"), /22-18/);
  await screenshot(page, "52-variation");
  // back to the main line by clicking its last move: the result is still there
  await page.click('#movelist .mv[data-ply="4"]');
  assert.equal(await page.evaluate(() => window.crownApp.state.viewPly), null);
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11", "22-17"]);
  assert.match(await page.textContent("#movelist"), /1-0/);
  // the export has the variations and comments, and reads back
  const out = await download(page, () => page.click("#pdn-download"));
  assert.match(out, /\{the Old Faithful\}/);
  assert.match(out, /\(1\.\.\. 22-18 \{a cross\}\)/);
  assert.match(out, /\(2\. 9-14\s+22-18\)/);
  assert.match(out, /\[Event "Variation test"\]/);
  // a reload keeps the tree (the URL names the line; the variations come from this browser)
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11", "22-17"]);
  const again = await page.$$eval("#movelist .variation", (els) => els.map((e) => e.textContent));
  assert.ok(again.some((v) => v.includes("9-14")) && again.some((v) => v.includes("22-18")), `variations kept: ${again}`);
  assert.match(await page.textContent("#info-players"), /A \(Black\) – B \(White\)/);
  await page.context().close();
});

test("a game against the engine and the settings survive a reload", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url);
  await page.click("#new-game");
  await page.check("#form-new input[name=variant][value=pool]");
  await page.check("#form-new input[name=side][value=second]");
  await page.fill("#level-range", "2");
  await page.selectOption("#form-new select[name=clock]", "300+3");
  await page.click("#new-ok");
  const humanTurn = () =>
    page.waitForFunction(() => {
      const s = window.crownApp.state;
      return !s.thinking && s.game.sideToMove() === s.human && s.game.plyCount() > 0;
    });
  await humanTurn();
  const legal = await page.evaluate(() => window.crownApp.state.game.legalMoves()[0]);
  await clickSquare(page, legal.from);
  await clickSquare(page, legal.to);
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() >= 3);
  await humanTurn();
  await page.uncheck("#show-numbers");
  const before = await page.evaluate(() => {
    const s = window.crownApp.state;
    return { fen: s.game.fen(), moves: s.game.history().map((h) => h.text), human: s.human, level: s.level, variant: s.variant, flipped: s.flipped, clock: { ...s.clock } };
  });
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  const after = await page.evaluate(() => {
    const s = window.crownApp.state;
    return { fen: s.game.fen(), moves: s.game.history().map((h) => h.text), human: s.human, level: s.level, variant: s.variant, flipped: s.flipped, clock: { ...s.clock }, mode: s.mode };
  });
  assert.equal(after.mode, "play");
  assert.equal(after.fen, before.fen);
  assert.deepEqual(after.moves, before.moves);
  assert.equal(after.human, "white");
  assert.equal(after.level, 2);
  assert.equal(after.variant, "pool");
  assert.equal(after.flipped, before.flipped);
  assert.equal(after.clock.inc, 3000);
  // the clock keeps the time left (saved at the reload, give or take the reload itself)
  assert.ok(Math.abs(after.clock.white - before.clock.white) < 3000, `white ${before.clock.white} -> ${after.clock.white}`);
  assert.ok(after.clock.white < 300000 + 3000 * 2, "not reset to 5 min");
  assert.equal(await page.isChecked("#show-numbers"), false, "the Numbers setting is remembered");
  assert.deepEqual(await moveList(page), before.moves);
  await screenshot(page, "53-restored");
  await page.context().close();
});

test("resign asks first; take back does not undo a resignation", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url);
  await clickSquare(page, 11);
  await clickSquare(page, 15);
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 2 && !window.crownApp.state.thinking);
  await page.click("#resign");
  await page.waitForSelector("#dlg-confirm[open]");
  await screenshot(page, "54-resign-confirm");
  await page.click("#confirm-no");
  assert.equal(await page.evaluate(() => window.crownApp.state.game.outcome()), null, "not resigned");
  await page.click("#resign");
  await page.click("#confirm-yes");
  await page.waitForSelector("#dlg-over[open]");
  assert.match(await page.textContent("#over-reason"), /resigned/);
  await page.click("#over-analyse");
  await page.click("#mode-play");
  assert.equal(await page.isDisabled("#takeback"), true, "take back is off once the game is over");
  await page.evaluate(() => document.querySelector("#takeback").click());
  const o = await page.evaluate(() => window.crownApp.state.game.outcome());
  assert.equal(o && o.reason, "resignation");
  // the resignation also survives a reload
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  const o2 = await page.evaluate(() => window.crownApp.state.game.outcome());
  assert.equal(o2 && o2.reason, "resignation");
  await page.context().close();
});

test("the analysis board is in the URL (FEN, moves, ply) and a link opens it elsewhere", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  await clickSquare(page, 11);
  await clickSquare(page, 15);
  await clickSquare(page, 23);
  await clickSquare(page, 19);
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 2);
  await page.click("#nav-prev");
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("mode"), "analysis");
  assert.equal(url.searchParams.get("variant"), "american");
  assert.equal(url.searchParams.get("moves"), "11-15,23-19");
  assert.equal(url.searchParams.get("ply"), "1");
  assert.equal(url.searchParams.get("fen"), null, "the standard start needs no FEN");
  // another browser opens the same board at the same ply
  const other = await newPage(browser, { width: 1280, height: 800 });
  await openApp(other, server.url, url.search);
  assert.deepEqual(await moveList(other), ["11-15", "23-19"]);
  assert.equal(await other.evaluate(() => window.crownApp.state.viewPly), 1);
  await other.context().close();

  // a set-up position keeps its FEN in the query string
  await page.goto(`${server.url}?mode=analysis&variant=pool&fen=${encodeURIComponent("W:WK29:B22,19")}`);
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  const fen = new URL(page.url()).searchParams.get("fen");
  assert.equal(fen, await page.evaluate(() => window.crownApp.state.game.startFen()));
  assert.match(fen, /^W:WK29:B(19,22|22,19)$/);
  await page.context().close();
});

test("play the engine from the shown position of the analysis board", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american&moves=11-15,23-19,8-11,22-17");
  await page.click('#movelist .mv[data-ply="2"]');
  await page.click("#play-from-here");
  const st = await page.evaluate(() => {
    const s = window.crownApp.state;
    return { mode: s.mode, human: s.human, moves: s.game.history().map((h) => h.text), side: s.game.sideToMove() };
  });
  assert.equal(st.mode, "play");
  assert.deepEqual(st.moves, ["11-15", "23-19"], "the game goes on from ply 2");
  assert.equal(st.human, "black", "you play the side to move");
  await clickSquare(page, 9);
  await clickSquare(page, 14);
  // the engine (White) answers
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 4 && !window.crownApp.state.thinking, null, { timeout: 20000 });
  assert.equal(new URL(page.url()).search, "", "a local game has a plain address");
  await page.context().close();
});
