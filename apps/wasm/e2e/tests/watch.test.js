// The Watch page (issue 42; lichess's TV as the model), in headless Chromium against the real
// crown-server: two players play a public game in their browsers; a third context opens Watch
// (the navigation's link), finds the game in the list and on the board, and sees each move as it
// is made; a second game opened from the list is followed live instead. Needs CROWN_SERVER_BIN
// (cargo xtask e2e sets it); skipped without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { crownServerAndBrowser, newPage, openApp, screenshot } from "./harness.js";

const env = crownServerAndBrowser("the Watch page");

const T = { timeout: 90000 };

const waitStatus = (p, re, timeout = 15000) =>
  p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, { timeout });
const moveTexts = (p) => p.$$eval("#movelist .mv:not(.empty)", (els) => els.map((e) => e.textContent));
const waitMoves = (p, n, timeout = 15000) =>
  p.waitForFunction((n) => document.querySelectorAll("#movelist .mv:not(.empty)").length === n, n, { timeout });
const shownGame = (p) => p.evaluate(() => window.crownApp.online() && window.crownApp.online().gameId);

/** `method path` of the API from Node (no browser) with a JSON body and a seat `token`. */
async function api(path, { method = "POST", body, token } = {}) {
  const headers = body ? { "content-type": "application/json" } : {};
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(new URL(`api/${path}`, env.server.url), { method, headers, body: body && JSON.stringify(body) });
  const v = await r.json();
  assert.ok(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(v)}`);
  return v;
}

/** `p` types move `text` and waits until its move list has `n` moves. */
async function play(p, text, n) {
  await p.fill("#move-input", text);
  await p.press("#move-input", "Enter");
  await waitMoves(p, n);
}

test("a spectator opens Watch, sees the public game on the board and its moves as they are made", T, async (t) => {
  if (env.skip(t)) return;
  const { server, browser } = env;
  // Ann creates a public seek (American, Black), Bob takes its seat from the game's link.
  const a = await newPage(browser);
  await openApp(a, server.url);
  await a.click("#mode-online");
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  await a.check("#form-online input[name=opponent][value=seek]");
  await a.check("#form-online input[name=variant][value=american]");
  await a.check("#form-online input[name=side][value=first]");
  await a.fill("#form-online input[name=name]", "Ann");
  await a.click("#online-ok");
  await a.waitForFunction(() => window.crownApp.online() && window.crownApp.online().seat === "black");
  const id = await shownGame(a);
  const b = await newPage(browser);
  await b.goto(`${server.url}?game=${id}`);
  await b.waitForSelector("#dlg-choice[open] #join-seat");
  await b.fill("#join-name", "Bob");
  await b.click("#join-seat");
  await waitStatus(a, /Your move/);
  await play(a, "11-15", 1);

  // Carol opens Watch from the navigation: the game is listed and followed on the board.
  const c = await newPage(browser);
  await openApp(c, server.url);
  await c.click("#nav-watch");
  await c.waitForSelector(`#watch-list .watch-game[data-id="${id}"]`);
  await c.waitForFunction((id) => window.crownApp.online().gameId === id, id);
  await waitStatus(c, /Watching/);
  await waitMoves(c, 1);
  assert.deepEqual(await moveTexts(c), ["11-15"]);
  assert.equal(await c.evaluate(() => window.crownApp.online().seat), null, "Carol only watches");
  assert.match(await c.textContent(`#watch-list .watch-game[data-id="${id}"]`), /Ann – Bob/);
  assert.equal(new URL(c.url()).searchParams.get("mode"), "watch");

  // Each move reaches Carol's board as it is made.
  await play(b, "22-18", 2);
  await waitMoves(c, 2);
  await play(a, "15x22", 3);
  await waitMoves(c, 3);
  assert.deepEqual(await moveTexts(c), ["11-15", "22-18", "15x22"]);
  await waitStatus(c, /Watching · White to move/);
  await screenshot(c, "watch-70-follows-the-top-game");

  // A second public game, played through the API: opened from the list, it is followed live.
  const made = await api("games", { body: { variant: "american", opponent: "human", public: true, color: "black", name: "Dan" } });
  const joined = await api(`games/${made.id}/join`);
  await c.waitForSelector(`#watch-list .watch-game[data-id="${made.id}"]`, { timeout: 15000 });
  await c.click(`#watch-list .watch-game[data-id="${made.id}"]`);
  await c.waitForFunction((id) => window.crownApp.online().gameId === id, made.id);
  await waitMoves(c, 0);
  await api(`games/${made.id}/moves`, { body: { move: "9-13", ply: 0 }, token: made.token });
  await waitMoves(c, 1);
  await api(`games/${made.id}/moves`, { body: { move: "22-18", ply: 1 }, token: joined.token });
  await waitMoves(c, 2);
  assert.deepEqual(await moveTexts(c), ["9-13", "22-18"]);
  // Chosen from the list: the page stays on it while the list is read again.
  await c.waitForFunction((id) => document.querySelector("#watch-list .watch-game.current")?.dataset.id === id, made.id);
  assert.equal(await shownGame(c), made.id);
  for (const p of [a, b, c]) assert.deepEqual(p.errors, [], "no page error");
});
