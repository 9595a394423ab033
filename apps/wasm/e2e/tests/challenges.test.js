// Challenges (issue 42), against the real crown-server, two browsers: Ann opens Bob's player page
// and challenges him in the dialog (game, clock, colour, rated); Bob's top bar counts the
// challenge, its list shows it and he accepts; the game opens for both with their seats (Ann took
// Black, so she moves first), a move is played and reaches the other. A second challenge is
// declined with a reason, which Ann's page says. Needs CROWN_SERVER_BIN (skipped without it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, clickSquare, screenshot, tempDir, spawnCrownServer, stopCrownServer, axeCount, signUp } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const T = { timeout: 60000 };

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

test("challenge from the player page, accepted from the top bar: the game opens for both and a move is played", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for challenges");
  const A = "Ch_Ann";
  const B = "Ch_Bob";
  const a = await newPage(browser);
  const b = await newPage(browser);
  await openApp(a, server.url);
  await openApp(b, server.url);
  await signUp(a, A, "ann password 1");
  await signUp(b, B, "bob password 1");
  // the top bar's button appears with the account, no challenge yet
  await b.waitForSelector("#challenges-btn", { state: "visible", ...T });
  assert.equal(await b.textContent("#challenges-count"), "0");

  // one's own page offers no challenge; Bob's page does
  await openPlayer(a, A);
  assert.equal(await a.isVisible("#pl-challenge"), false, "no challenge to oneself");
  await openPlayer(a, B);
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
  await openPlayer(a, B);
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
