// Correspondence games and "your turn" (issue 42), against the real crown-server, two browsers:
// Ann challenges Bob to a 1-day correspondence game from his page (the dialog's "Correspondence:
// 1 day per move"), Bob accepts; the game page shows the move deadline in place of clocks; Ann
// moves, and Bob — in a fresh browser where he only logged in, so with no seat kept — sees "your
// turn" count 1 in the top bar, opens the game from its list with his seat, and it is his move.
// Needs CROWN_SERVER_BIN (skipped without it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, clickSquare, screenshot, tempDir, spawnCrownServer, stopCrownServer, axeCount, signUp } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const T = { timeout: 60000 };
const DAY_MS = 86400000;

let server;
let browser;

before(async () => {
  if (!BIN) return;
  server = await spawnCrownServer(path.join(tempDir("crown-e2e-corr-"), "crown.db"));
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopCrownServer(server);
});

/** Wait until page `p` shows game `id` on the online page with a seat; the seat's colour. */
async function waitMyGame(p, id) {
  await p.waitForFunction((g) => window.crownApp.state.mode === "online" && window.crownApp.online()?.gameId === g && !!window.crownApp.online().seat && !!window.crownApp.online().view, id, T);
  return p.evaluate(() => window.crownApp.online().seat);
}

const waitStatus = (p, re) => p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, T);

/** Open the page of player `name` in `p` and wait until it is loaded. */
async function openPlayer(p, name) {
  await openApp(p, server.url, `?mode=player&name=${name}`);
  await p.waitForFunction((n) => document.getElementById("players-page")?.dataset.loaded === `player/${n}`, name, T);
}

/** Log in as `name` in `p`. */
async function logIn(p, name, password) {
  await p.waitForFunction(() => document.body.dataset.account === "ready", null, T);
  await p.click("#account-login");
  await p.waitForSelector("#dlg-auth[open]");
  await p.fill("#auth-username", name);
  await p.fill("#auth-password", password);
  await p.press("#auth-password", "Enter");
  await p.waitForSelector("#account-user", { state: "visible", ...T });
}

test("a 1-day correspondence challenge: the deadline replaces the clocks, and 'your turn' opens the game for the player to move", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for correspondence games");
  const A = "Co_Ann";
  const B = "Co_Bob";
  const a = await newPage(browser);
  const b = await newPage(browser);
  await openApp(a, server.url);
  await openApp(b, server.url);
  await signUp(a, A, "ann password 1");
  await signUp(b, B, "bob password 1");
  await b.waitForSelector("#turns-btn", { state: "visible", ...T });
  assert.equal(await b.textContent("#turns-count"), "0", "no game yet");

  // Ann challenges Bob to a rated 1-day correspondence game, playing Black
  await openPlayer(a, B);
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
