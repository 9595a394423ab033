// Full games against the in-browser engine (crown-ai in a Web Worker), one per game, with every human
// move made by clicking the board; takeback, resignation, PDN download and import, live analysis.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import {
  startServer,
  launch,
  newPage,
  openApp,
  screenshot,
  clickSquare,
  moveList,
  artifacts,
} from "./harness.js";

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

/** Start a game against the engine through the New game dialog. */
async function startGame(page, { variant, side = "first", level = 1, setup = null, clock = "" }) {
  await page.click("#new-game");
  await page.waitForSelector("#dlg-new[open]");
  await page.check(`#form-new input[name=variant][value=${variant}]`);
  await page.check(`#form-new input[name=side][value=${side}]`);
  if (setup) await page.selectOption("#form-new select[name=setup]", setup);
  await page.fill("#level-range", String(level));
  await page.selectOption("#form-new select[name=clock]", clock);
  // The dialog's close event (which starts the game) comes after the dialog closes: wait for the
  // new game itself, or a check could still see the previous one.
  await page.evaluate(() => (window.__gameBefore = window.crownApp.state.game));
  await page.click("#new-ok");
  await page.waitForFunction(
    () => !document.querySelector("#dlg-new[open]") && window.crownApp.state.game !== window.__gameBefore,
  );
}

const gameState = (page) =>
  page.evaluate(() => {
    const { state } = window.crownApp;
    return {
      side: state.game.sideToMove(),
      human: state.human,
      ply: state.game.plyCount(),
      over: state.game.outcome(),
      thinking: state.thinking,
    };
  });

/** Wait until it is the human's turn or the game is over. */
async function waitForHumanTurn(page) {
  await page.waitForFunction(
    () => {
      const { state } = window.crownApp;
      if (state.game.outcome()) return true;
      return !state.thinking && state.game.sideToMove() === state.human && state.viewPly == null;
    },
    null,
    { timeout: 60000 },
  );
}

/** Make legal move `m` (from Game.legalMoves) by clicking: start square, landing squares, crown. */
async function clickMove(page, m) {
  const ply = (await gameState(page)).ply;
  const moved = async () => (await gameState(page)).ply > ply;
  await clickSquare(page, m.from);
  if (m.kind === "remove") {
    await clickSquare(page, m.from);
  } else {
    for (const sq of m.path) {
      if (await moved()) break;
      await clickSquare(page, sq);
    }
  }
  if (!(await moved()) && (await page.isVisible("#dlg-choice[open]"))) {
    const buttons = await page.$$("#choices button");
    for (const b of buttons) {
      if ((await b.textContent()).startsWith(m.longText)) {
        await b.click();
        break;
      }
    }
  }
  if (!(await moved()) && m.crown) {
    await page.waitForSelector("#banner:not([hidden])");
    await clickSquare(page, m.crown.single);
  }
  await page.waitForFunction((p) => window.crownApp.state.game.plyCount() > p, ply, { timeout: 5000 });
}

/** A small deterministic generator so that a failing game can be replayed. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

async function playFullGame(page, variant, { seed, maxPlies = 400, shotEvery = 0, name }) {
  const rand = rng(seed);
  let shots = 0;
  for (;;) {
    await waitForHumanTurn(page);
    const st = await gameState(page);
    if (st.over) return st;
    assert.ok(st.ply < maxPlies, `${variant}: game still going after ${st.ply} plies`);
    const moves = await page.evaluate(() => window.crownApp.state.game.legalMoves());
    assert.ok(moves.length > 0);
    // prefer captures, otherwise random: a weak but real opponent for a level-1 engine
    const caps = moves.filter((m) => m.captures.length);
    const pool = caps.length ? caps : moves;
    const m = pool[Math.floor(rand() * pool.length)];
    await clickMove(page, m);
    if (shotEvery && st.ply > 0 && st.ply % shotEvery === 0 && shots < 3) {
      await waitForHumanTurn(page);
      await page.waitForTimeout(600); // let the engine's move animation finish
      await screenshot(page, `${name}-midgame-${++shots}`);
    }
  }
}

for (const [variant, seed] of [
  ["american", 7],
  ["pool", 11],
  ["impasse", 5],
]) {
  test(`a full ${variant} game against the engine, moves made by clicking`, async () => {
    const page = await newPage(browser);
    await openApp(page, server.url);
    await startGame(page, { variant, side: "first", level: 2 });
    const name = `20-${variant}`;
    const end = await playFullGame(page, variant, { seed, shotEvery: 20, name });
    assert.ok(end.over, "the game ended");
    await page.waitForSelector("#dlg-over[open]", { timeout: 5000 });
    await page.waitForTimeout(400);
    const reason = await page.textContent("#over-reason");
    const result = await page.textContent("#over-result");
    assert.match(result, /^(1-0|0-1|1\/2-1\/2)$/);
    assert.equal(result, end.over.result);
    assert.equal(reason, end.over.text);
    const moves = await moveList(page);
    assert.equal(moves.length, end.ply);
    await screenshot(page, `${name}-game-over`);
    fs.writeFileSync(
      path.join(artifacts, `${name}-moves.txt`),
      `${variant}: ${result} (${reason}) after ${end.ply} plies\n${moves.join(" ")}\n`,
    );
    // PDN download from the game-over dialog
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#over-pdn")]);
    const file = path.join(artifacts, `${name}.pdn`);
    await download.saveAs(file);
    const pdn = fs.readFileSync(file, "utf8");
    assert.match(pdn, /\[Result "(1-0|0-1|1\/2-1\/2)"\]/);
    assert.ok(pdn.includes(`[Result "${result}"]`), pdn);
    if (variant === "impasse") assert.match(pdn, /\[GameType "[^"]+"\]/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("engine replies, takeback returns to the human's turn, resignation ends the game", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url);
  await startGame(page, { variant: "american", side: "first", level: 3 });
  await clickSquare(page, 11);
  await clickSquare(page, 15);
  await waitForHumanTurn(page);
  let moves = await moveList(page);
  assert.equal(moves.length, 2, "the engine answered");
  assert.equal(moves[0], "11-15");
  // too early for a draw: the engine declines
  await page.click("#offer-draw");
  await page.waitForSelector("#toast:not([hidden])");
  assert.match(await page.textContent("#toast"), /declines/);
  await page.click("#takeback");
  await waitForHumanTurn(page);
  moves = await moveList(page);
  assert.equal(moves.length, 0, "both plies taken back");
  await page.click("#resign");
  await page.click("#confirm-yes");
  await page.waitForSelector("#dlg-over[open]");
  assert.equal(await page.textContent("#over-title"), "You lost");
  assert.match(await page.textContent("#over-reason"), /White wins: the opponent resigned/);
  assert.equal(await page.textContent("#over-result"), "0-1");
  await page.context().close();
});

test("the human may play second: the engine opens", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url);
  await startGame(page, { variant: "impasse", side: "second", level: 1 });
  await waitForHumanTurn(page);
  const st = await gameState(page);
  assert.equal(st.human, "black", "White moves first in Impasse");
  assert.equal(st.ply, 1);
  await page.context().close();
});

test("analysis shows a live evaluation and principal variation; PDN paste opens a game", async () => {
  const page = await newPage(browser);
  // Black to move wins a piece at once: 14x23 is the only move (American rule 6, jumps compulsory).
  await openApp(page, server.url, `?mode=analysis&variant=american&fen=${encodeURIComponent("B:W18,32:B14,1")}`);
  await page.check("#analysis-engine");
  await page.waitForFunction(() => /depth [3-9]|depth \d\d/.test(document.querySelector("#eval-meta").textContent), null, {
    timeout: 20000,
  });
  const pv = await page.textContent("#eval-pv");
  assert.ok(pv.startsWith("14x23"), `PV starts with the forced capture: ${pv}`);
  const score = await page.textContent("#eval-score");
  assert.ok(score.trim().startsWith("+") || score.includes("win"), `Black is better: ${score}`);
  await screenshot(page, "30-analysis");
  await page.uncheck("#analysis-engine");

  const pdn = '[Event "e2e"]\n[Black "A"]\n[White "B"]\n[Result "*"]\n[GameType "21"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n';
  await page.click("#pdn-import");
  await page.fill("#pdn-text", pdn);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 4);
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11", "22-17"]);
  // upload a file: the game the full-game test downloaded, or a small one written here
  const file = path.join(artifacts, "upload-test.pdn");
  fs.writeFileSync(file, '[GameType "21"]\n[Result "0-1"]\n\n1. 9-14 22-17 2. 11-15 0-1\n');
  await page.click("#pdn-import");
  await page.fill("#pdn-text", "");
  await page.setInputFiles("#pdn-file", file);
  await page.waitForFunction(() => document.querySelector("#pdn-text").value.includes("9-14"));
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 3);
  assert.deepEqual(await moveList(page), ["9-14", "22-17", "11-15"]);
  // a result the board does not show is kept (read as a resignation)
  assert.match(await page.textContent("#movelist"), /0-1/);
  // a PDN with an illegal move (22-13: White's man on 22 cannot reach 13) opens up to it, with a
  // message naming the move
  await page.click("#pdn-import");
  await page.fill("#pdn-text", '[GameType "21"]\n\n1. 11-15 22-13 *\n');
  await page.click("#pdn-ok");
  await page.waitForSelector("#info-warning:not([hidden])");
  assert.match(await page.textContent("#info-warning"), /'22-13': illegal move/);
  assert.deepEqual(await moveList(page), ["11-15"]);
  await screenshot(page, "31-pdn-error");
  // a text that is no PDN game still stays in the dialog with the reader's message
  await page.click("#pdn-import");
  await page.fill("#pdn-text", "no game here");
  await page.click("#pdn-ok");
  await page.waitForSelector("#pdn-error:not([hidden])");
  assert.ok((await page.textContent("#pdn-error")).length > 0);
  await page.context().close();
});

test("clocks: the mover's clock runs, the increment is added after a move", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url);
  await startGame(page, { variant: "pool", side: "first", level: 1, clock: "180+2" });
  // Black (the human, at the bottom) is to move: the bottom clock runs from 3:00.
  // Both clocks appear (waited for: under load the first render after the dialog can lag).
  await page.waitForSelector("#clock-bottom", { state: "visible", timeout: 10000 });
  await page.waitForSelector("#clock-top", { state: "visible", timeout: 10000 });
  assert.match(await page.getAttribute("#clock-bottom", "class"), /running/);
  await page.waitForTimeout(1500);
  const t = await page.evaluate(() => window.crownApp.state.clock.black);
  assert.ok(t < 180000 - 1000 && t > 170000, `black's clock ran: ${t} ms`);
  await clickSquare(page, 11);
  await clickSquare(page, 15);
  await waitForHumanTurn(page);
  const after = await page.evaluate(() => window.crownApp.state.clock);
  assert.ok(after.black > t, `the 2 s increment was added: ${t} -> ${after.black}`);
  // White (the engine) got its 2 s increment and was charged its thinking time, which at level 1
  // may round to 0 ms: so at most 3:02, and well above 2:55.
  assert.ok(after.white <= 182000 && after.white > 175000, `white's clock after its move: ${after.white} ms`);
  await screenshot(page, "32-clocks");
  await page.context().close();
});
