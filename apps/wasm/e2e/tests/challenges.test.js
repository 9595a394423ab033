// Challenges (issue 42), against the real crown-server, two browsers: Ann opens Bob's player page
// and challenges him in the dialog (game, clock, colour, rated); Bob's top bar counts the
// challenge, its list shows it and he accepts; the game opens for both with their seats (Ann took
// Black, so she moves first), a move is played and reaches the other. A second challenge is
// declined with a reason, which Ann's page says.
// Correspondence and "your turn": Ann challenges Bob to a 1-day correspondence game ("Correspondence:
// 1 day per move"), Bob accepts; the game page shows the move deadline in place of clocks; Ann
// moves, and Bob — in a fresh browser where he only logged in, so with no seat kept — sees "your
// turn" count 1 in the top bar, opens the game from its list with his seat, and it is his move.
// Needs CROWN_SERVER_BIN (skipped without it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, clickSquare, screenshot, tempDir, spawnCrownServer, stopCrownServer, axeCount, signUp, logIn, openPlayer, waitMyGame } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const T = { timeout: 60000 };
const DAY_MS = 86400000;

let server;
let browser;

before(async () => {
  if (!BIN) return;
  server = await spawnCrownServer(path.join(tempDir("crown-e2e-challenges-"), "crown.db"));
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopCrownServer(server);
});

const waitStatus = (p, re) => p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, T);

/** Two browsers, `A` and `B` signed up in them (password "ann password 1", "bob password 1"). */
async function twoPlayers(A, B) {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await openApp(a, server.url);
  await openApp(b, server.url);
  await signUp(a, A, "ann password 1");
  await signUp(b, B, "bob password 1");
  return [a, b];
}

test("challenge from the player page, accepted from the top bar: the game opens for both and a move is played", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for challenges");
  const A = "Ch_Ann";
  const B = "Ch_Bob";
  const [a, b] = await twoPlayers(A, B);
  // the top bar's button appears with the account, no challenge yet
  await b.waitForSelector("#challenges-btn", { state: "visible", ...T });
  assert.equal(await b.textContent("#challenges-count"), "0");

  // one's own page offers no challenge; Bob's page does
  await openPlayer(a, server.url, A);
  assert.equal(await a.isVisible("#pl-challenge"), false, "no challenge to oneself");
  await openPlayer(a, server.url, B);
  await a.waitForSelector("#pl-challenge", { state: "visible", ...T });
  await a.click("#pl-challenge");
  await a.waitForSelector("#dlg-challenge[open]");
  assert.equal(await a.textContent("#dlg-challenge-title"), `Challenge ${B}`);
  // a rated game needs a clock: without one the box is off
  await a.selectOption("#ch-clock", "");
  assert.equal(await a.isDisabled("#ch-rated"), true);
  await a.selectOption("#ch-clock", "300+3");
  await a.check("#ch-rated");
  await a.selectOption("#ch-variant", "american");
  await a.selectOption("#ch-color", "black");
  await axeCount(a, "challenge dialog");
  await a.click("#ch-ok");
  await a.waitForSelector("#dlg-challenge", { state: "hidden", ...T });
  await a.waitForFunction(() => /Waiting for Ch_Bob to accept/.test(document.getElementById("pl-challenge-status").textContent), null, T);
  assert.equal(await a.isVisible("#pl-challenge-cancel"), true, "the challenger may cancel");
  assert.match(await a.textContent("#pl-challenge-status"), /American checkers · 5\+3 · rated/);

  // Bob's top bar counts it (read every 2 s), the list shows it
  await b.waitForFunction(() => document.getElementById("challenges-count").textContent === "1", null, T);
  await b.click("#challenges-btn");
  await b.waitForSelector("#dlg-challenges[open]");
  await b.waitForSelector("#chl-in li .ch-accept", T);
  const line = await b.textContent("#chl-in li");
  assert.match(line, /Ch_Ann · American checkers · 5\+3 · rated · you play white/);
  await axeCount(b, "challenge list");
  await screenshot(b, "challenge-received");
  const id = await b.getAttribute("#chl-in li", "data-id");
  assert.match(id, /^[0-9a-f]{10}$/);
  await b.click("#chl-in li .ch-accept");

  // both are taken to the game, the challenge's id, with the colours asked for
  assert.equal(await waitMyGame(b, id), "white");
  assert.equal(await waitMyGame(a, id), "black");
  assert.equal(await a.isVisible("#dlg-challenges"), false);
  const rated = await a.evaluate(() => window.crownApp.online().view.rated);
  assert.equal(rated, true, "a rated game between the two accounts");
  // Black moves first in American checkers: Ann plays 11-15, Bob's board shows it
  await waitStatus(a, /Your move/);
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await b.waitForFunction(() => window.crownApp.online().view?.ply === 1, null, T);
  assert.deepEqual(await b.evaluate(() => window.crownApp.online().view.moves), ["11-15"]);
  await waitStatus(b, /Your move/);
  await screenshot(a, "challenge-game");
  assert.equal(await b.textContent("#challenges-count"), "0", "answered: no longer counted");

  // a second challenge, declined with a reason: the challenger's page says why
  await openPlayer(a, server.url, B);
  await a.click("#pl-challenge");
  await a.waitForSelector("#dlg-challenge[open]");
  await a.selectOption("#ch-clock", "60+1");
  await a.click("#ch-ok");
  await a.waitForFunction(() => /Waiting for Ch_Bob/.test(document.getElementById("pl-challenge-status").textContent), null, T);
  await b.waitForFunction(() => document.getElementById("challenges-count").textContent === "1", null, T);
  await b.click("#challenges-btn");
  await b.waitForSelector("#chl-in li .ch-decline", T);
  await b.selectOption("#chl-in li .ch-reason", "too_fast");
  await b.click("#chl-in li .ch-decline");
  await b.waitForFunction(() => document.querySelectorAll("#chl-in li").length === 0, null, T);
  await a.waitForFunction(() => /Ch_Bob declined your challenge: “This time control is too fast for me/.test(document.getElementById("pl-challenge-status").textContent), null, T);
  assert.equal(await a.isVisible("#pl-challenge-cancel"), false);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
});

test("a 1-day correspondence challenge: the deadline replaces the clocks, and 'your turn' opens the game for the player to move", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for correspondence games");
  const A = "Co_Ann";
  const B = "Co_Bob";
  const [a, b] = await twoPlayers(A, B);
  await b.waitForSelector("#turns-btn", { state: "visible", ...T });
  assert.equal(await b.textContent("#turns-count"), "0", "no game yet");

  // Ann challenges Bob to a rated 1-day correspondence game, playing Black
  await openPlayer(a, server.url, B);
  await a.click("#pl-challenge");
  await a.waitForSelector("#dlg-challenge[open]");
  await a.selectOption("#ch-clock", "days:1");
  assert.equal(await a.isDisabled("#ch-rated"), false, "a correspondence game may be rated");
  await a.check("#ch-rated");
  await a.selectOption("#ch-color", "black");
  await a.click("#ch-ok");
  await a.waitForFunction(() => /Waiting for Co_Bob/.test(document.getElementById("pl-challenge-status").textContent), null, T);
  assert.match(await a.textContent("#pl-challenge-status"), /American checkers · 1 day per move · rated/);

  // Bob accepts from the top bar: the game opens for both, a deadline in place of clocks
  await b.waitForFunction(() => document.getElementById("challenges-count").textContent === "1", null, T);
  await b.click("#challenges-btn");
  await b.waitForSelector("#chl-in li .ch-accept", T);
  assert.match(await b.textContent("#chl-in li"), /1 day per move · rated · you play white/);
  const id = await b.getAttribute("#chl-in li", "data-id");
  await b.click("#chl-in li .ch-accept");
  assert.equal(await waitMyGame(b, id), "white");
  assert.equal(await waitMyGame(a, id), "black");
  const v = await a.evaluate(() => window.crownApp.online().view);
  assert.deepEqual([v.speed, v.days, v.clock, v.rated], ["correspondence", 1, null, true]);
  const left = v.deadline_ms - Date.now();
  assert.ok(left > DAY_MS - 120000 && left <= DAY_MS + 60000, `a day to make the first move: ${left} ms`);
  await a.waitForFunction(() => /^Correspondence, 1 day per move · Your move by .+ \((23 h 5\d min|1 d) left\), or the game is aborted$/.test(document.getElementById("first-move-note").textContent), null, T);
  await b.waitForFunction(() => /^Correspondence, 1 day per move · Black to move by /.test(document.getElementById("first-move-note").textContent), null, T);
  // Ann's own turn is counted on her top bar
  await a.waitForFunction(() => document.getElementById("turns-count").textContent === "1", null, T);

  // Ann moves 11-15: it is Bob's turn
  await waitStatus(a, /Your move/);
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await a.waitForFunction(() => window.crownApp.online().view?.ply === 1, null, T);
  await a.waitForFunction(() => document.getElementById("turns-count").textContent === "0", null, T);
  await screenshot(a, "correspondence-game");

  // Bob, in a fresh browser (no seat kept there), only logs in: his top bar counts the game
  const b2 = await newPage(browser);
  await openApp(b2, server.url);
  await logIn(b2, B, "bob password 1");
  await b2.waitForFunction(() => document.getElementById("turns-count").textContent === "1", null, T);
  assert.equal(await b2.getAttribute("#turns-btn", "aria-label"), "Your turn: 1 game");
  await b2.click("#turns-btn");
  await b2.waitForSelector("#dlg-turns[open]");
  await b2.waitForSelector("#turns-list li .turn-open", T);
  assert.equal(await b2.getAttribute("#turns-list li", "data-id"), id);
  assert.match(await b2.textContent("#turns-list li"), /^vs Co_Ann · American checkers · 1 day per move · you play white · move by .+ \(23 h 5\d min left\)/);
  await axeCount(b2, "your-turn list");
  await screenshot(b2, "your-turn-list");
  await b2.click("#turns-list li .turn-open");
  assert.equal(await waitMyGame(b2, id), "white");
  assert.equal(await b2.isVisible("#dlg-turns"), false);
  assert.deepEqual(await b2.evaluate(() => window.crownApp.online().view.moves), ["11-15"]);
  await waitStatus(b2, /Your move/);
  // (Bob's first move: without it the game is aborted at the deadline)
  await b2.waitForFunction(() => /^Correspondence, 1 day per move · Your move by .+ left\), or the game is aborted$/.test(document.getElementById("first-move-note").textContent), null, T);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  assert.deepEqual(b2.errors, []);
});
