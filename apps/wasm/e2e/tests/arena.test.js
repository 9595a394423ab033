// An arena (issue 42, docs/api.md "Arenas"), against the real crown-server: four accounts in four
// browser contexts; the first creates a 2-minute arena in the create dialog (Arena asks for its
// duration, not rounds), everyone joins on the page, the creator starts it, and each player's
// game opens by itself as the server pairs them — the first as the arena starts, the next as
// soon as their game ends. Four games are played (each side moves once, the second resigns), two
// more are left running at the end: they do not count, and the standings the page shows are the
// ones worked out by hand from lichess's scoring. Needs CROWN_SERVER_BIN (skipped without it).
//
// All four accounts are rated 1500 (new), so the seeding is the joining order Ann, Bob, Cid, Dee,
// and the server pairs (crown_tournament's arena: free players by score then seed, never the last
// opponent again, the one who moved first less often moves first; docs/api.md "Arenas"):
//   game 1 Ann–Bob, game 2 Cid–Dee (the first named moves first);
//   Ann beats Bob: Ann waits (only Bob, her last opponent, is free);
//   Cid beats Dee: Ann (2) meets Cid (2) (game 3, Ann first), Bob meets Dee (game 4, Bob first);
//   Ann beats Cid: Ann (4, on fire) waits (Cid was her last opponent);
//   Bob beats Dee: Ann meets Bob (game 5, Bob first: Ann moved first twice more), Cid meets Dee
//   (game 6, Dee first); both games are still played at the end and do not count.
// (Game 2 ending before game 1, or game 4 before game 3, changes no pairing: the one free waits
// for someone other than their last opponent, and the pairing then is the same.)
// Standings: Ann 2+2 = 4 🔥 (performance 2000), Bob 0+2 = 2 (1500), Cid 2+0 = 2 (1500; Bob above
// by seed), Dee 0+0 = 0 (1000).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, clickSquare, tempDir, spawnCrownServer, stopCrownServer, screenshot, signUp } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const T = { timeout: 60000 };

let server;
let browser;

before(async () => {
  if (!BIN) return;
  // --rated-min-plies 2: an arena game counts once each side has moved (a shorter one is short:
  // it scores nothing and its loser waits 30 s; docs/api.md "Arenas")
  server = await spawnCrownServer(path.join(tempDir("crown-e2e-arena-"), "crown.db"), 0, { env: { CROWN_RATED_MIN_PLIES: "2" } });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopCrownServer(server);
});

/** The arena as the server has it. */
async function arena(id) {
  const r = await fetch(`${server.url}api/tournaments/${id}`);
  return r.json();
}

const waitLoaded = (page, re, opts = T) =>
  page.waitForFunction((src) => new RegExp(src).test(document.getElementById("tournaments-page")?.dataset.loaded || ""), re.source, opts);

/** Wait until page `p` shows game `id` on the online page with a seat; the seat's colour. */
async function waitMyGame(p, id) {
  await p.waitForFunction((g) => window.crownApp.state.mode === "online" && window.crownApp.online()?.gameId === g && !!window.crownApp.online().seat && !!window.crownApp.online().view, id, T);
  return p.evaluate(() => window.crownApp.online().seat);
}

const waitStatus = (p, re) => p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, T);

/**
 * Page `p` plays `from`-`to` by two clicks, and waits until the page no longer says "Your move".
 * The next game opens by itself as the last one ends, so a toast or dialog of that ending can lie
 * over the board when the clicks land (coordinates, not elements): then it is closed (Escape) and
 * the move clicked again, at most three times.
 */
async function playMove(p, from, to) {
  for (let i = 0; i < 3; i++) {
    await clickSquare(p, from);
    await clickSquare(p, to);
    const moved = await p
      .waitForFunction(() => !/Your move/.test(document.querySelector("#status").textContent), null, { timeout: 15000 })
      .then(() => true, () => false);
    if (moved) return;
    await p.keyboard.press("Escape");
  }
  assert.fail(`the move ${from}-${to} was not played`);
}

/**
 * Game `id` between pages `first` (Black: moves first) and `second`: Black moves 11-15, White
 * 22-18 (two plies: the server of this file asks for 2, so the game is not short and counts),
 * then `second` resigns.
 */
async function firstWins(first, second, id) {
  await bothMove(first, second, id);
  await second.click("#online-resign");
  await second.waitForSelector("#dlg-confirm[open]");
  await second.click("#confirm-yes");
}

/** Game `id`: both sides make their first move (11-15, 22-18), so that it is still played at the end. */
async function bothMove(first, second, id) {
  assert.equal(await waitMyGame(first, id), "black");
  assert.equal(await waitMyGame(second, id), "white");
  await waitStatus(first, /Your move/);
  await playMove(first, 11, 15);
  await waitStatus(second, /Your move/);
  await playMove(second, 22, 18);
  await waitStatus(first, /Your move/);
}

test("a 4-player arena: created with its duration, games open by themselves as players are paired, the end's standings as worked out by hand", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for arenas");
  const names = ["Arena_Ann", "Arena_Bob", "Arena_Cid", "Arena_Dee"];
  const pages = [];
  for (const n of names) {
    const p = await newPage(browser);
    await openApp(p, server.url);
    await signUp(p, n, `${n} password 1`);
    pages.push(p);
  }
  const [ann, bob, cid, dee] = pages;

  // the create dialog: Arena asks for a duration instead of rounds
  await ann.click("#nav-tournaments");
  await waitLoaded(ann, /^tournaments$/);
  await ann.click("#tl-create");
  await ann.waitForSelector("#dlg-tournament[open]");
  assert.equal(await ann.isVisible("#tc-minutes"), false, "a Swiss has no duration");
  await ann.selectOption("#tc-format", "arena");
  assert.equal(await ann.isVisible("#tc-minutes"), true, "an arena asks for its duration");
  assert.equal(await ann.isVisible("#tc-rounds"), false, "an arena has no rounds");
  await ann.fill("#tc-name", "Quick Arena");
  await ann.fill("#tc-minutes", "181");
  await ann.click("#tc-ok");
  await ann.waitForSelector("#tc-err-minutes", { state: "visible", ...T });
  assert.match(await ann.textContent("#tc-err-minutes"), /1 to 180 minutes/);
  await ann.fill("#tc-minutes", "2");
  await ann.selectOption("#tc-clock", "300+3");
  await ann.selectOption("#tc-openings", "start");
  await ann.click("#tc-ok");
  await waitLoaded(ann, /^tournament\/[0-9a-f]{8}\/created\/0$/);
  const id = new URL(ann.url()).searchParams.get("id");
  assert.match(await ann.textContent("#tt-meta"), /5\+3 · Arena, 2 min · Casual/);

  // everyone joins on the page, in order
  await ann.click("#tt-join");
  await ann.waitForSelector("#tt-withdraw", { state: "visible", ...T });
  for (const p of [bob, cid, dee]) {
    await openApp(p, server.url, `?mode=tournament&id=${id}`);
    await waitLoaded(p, new RegExp(`^tournament/${id}/created/`));
    await p.click("#tt-join");
    await p.waitForSelector("#tt-withdraw", { state: "visible", ...T });
  }
  await ann.waitForFunction(() => /4 players joined/.test(document.querySelector("#tt-phase").textContent), null, T);

  // the start: games 1 and 2 open by themselves
  await ann.click("#tt-start");
  const g = (k) => `${id}r0b${k}g1`; // docs/api.md: an arena's game k
  // the two games of each pair are played at once (on four pages), so that no first move waits
  // beyond the abort window; which of the two ends first changes no pairing (worked out above)
  await Promise.all([firstWins(ann, bob, g(1)), firstWins(cid, dee, g(2))]);
  // games 3 and 4 open by themselves as the server pairs them
  await Promise.all([firstWins(ann, cid, g(3)), firstWins(bob, dee, g(4))]);
  // games 5 and 6: still played at the end
  await Promise.all([bothMove(bob, ann, g(5)), bothMove(dee, cid, g(6))]);

  // the arena's page while it runs, seen by a guest (a player's own page would open their game 5
  // by itself): the countdown to the end, the games, Ann on fire
  const spec = await newPage(browser);
  await openApp(spec, server.url, `?mode=tournament&id=${id}`);
  await waitLoaded(spec, new RegExp(`^tournament/${id}/running/6$`));
  assert.match(await spec.textContent("#tt-countdown"), /^Ends in [0-2]:\d\d/);
  assert.match(await spec.textContent("#tt-phase"), /paired again as soon as their game ends/);
  assert.equal(await spec.$$eval("#tt-pairings tbody tr", (r) => r.length), 6);
  assert.equal(await spec.isVisible("#tt-cross"), false, "an arena has no crosstable");
  assert.match(await spec.textContent("#tt-standings tbody tr:first-child"), /Arena_Ann 🔥/);
  await screenshot(spec, "arena-running");

  // the end (2 minutes after the start): finished, games 5 and 6 not counted
  await waitLoaded(spec, new RegExp(`^tournament/${id}/finished/6$`), { timeout: 180000 });
  const a = await arena(id);
  assert.deepEqual(
    a.games.map((x) => [x.first_name, x.second_name, x.result]),
    [
      ["Arena_Ann", "Arena_Bob", "1-0"],
      ["Arena_Cid", "Arena_Dee", "1-0"],
      ["Arena_Ann", "Arena_Cid", "1-0"],
      ["Arena_Bob", "Arena_Dee", "1-0"],
      ["Arena_Bob", "Arena_Ann", null],
      ["Arena_Dee", "Arena_Cid", null],
    ],
    JSON.stringify(a),
  );
  // the standings on the page: rank, player (🔥 on a streak), each game's points, score, performance
  await spec.waitForFunction(() => document.querySelectorAll("#tt-standings tbody tr").length === 4, null, T);
  const rows = await spec.$$eval("#tt-standings tbody tr", (rows) =>
    rows.map((r) => [r.cells[0].textContent, r.cells[1].textContent, [...r.cells[2].querySelectorAll(".tour-pt")].map((s) => s.textContent).join(" "), r.cells[3].textContent, r.cells[4].textContent]),
  );
  assert.deepEqual(rows, [
    ["1", "Arena_Ann 🔥", "2 2", "4", "2000"],
    ["2", "Arena_Bob", "0 2", "2", "1500"],
    ["3", "Arena_Cid", "2 0", "2", "1500"],
    ["4", "Arena_Dee", "0 0", "0", "1000"],
  ]);
  assert.match(await spec.textContent("#tt-pairings"), /not counted \(not over at the end\)/);
  await screenshot(spec, "arena-finished");
});
