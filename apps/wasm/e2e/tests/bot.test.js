// `crown bot` against a person in the browser (issue 42, docs/api.md "API tokens and bot accounts"),
// against the real crown-server: the account Robo is made a bot (its `bot:play` token written to a
// file), and `crown bot` — the `crown` binary of this build — connects it to the server. A person
// logged in in the browser challenges Robo from its player page (rated, 1 min + 1 s, playing
// Black); the bot accepts and the person plays every move by clicks until the game ends by the
// rules (one side has no piece or no move left):
// - with `crown engine`: the person plays the first of the server's legal moves each turn, so the
//   engine wins; after the person's third move the bot process is killed (SIGKILL), the person
//   moves while no bot runs, a new `crown bot` is started and finishes the game;
// - with a scripted minimal Hub engine (a Python program answering `hub`, `init`, `pos`, `go`):
//   it plays White's moves of a fixed game of 25 plies (`SHORT_GAME`), the person Black's, and Black
//   takes White's last piece: the person wins.
// A rated game with a bot updates both ratings; the game page names the bot BOT and offers no
// Rematch (a bot is challenged again instead: `403 bot_not_allowed`). Needs CROWN_SERVER_BIN and
// the `crown` binary (CROWN_BIN, else `crown` beside the server; `cargo xtask e2e` builds both);
// skipped without them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { launch, newPage, openApp, clickSquare, screenshot, tempDir, spawnCrownServer, stopCrownServer, signUp, openPlayer, waitMyGame } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const CROWN = process.env.CROWN_BIN || (BIN ? path.join(path.dirname(BIN), "crown") : "");
const T = { timeout: 60000 };
const BOT = "Robo";

/**
 * A legal game of American checkers from the start, Black first, that Black wins on its 25th ply
 * (30x21 takes White's last piece; Black's king takes two men with 30x14, 18x20 and 14x30). Found
 * by a search for a short win of Black, in the server's move texts (a capture names its first and
 * last square); the server checks every move of it.
 */
const SHORT_GAME = (
  "12-16 23-19 16x23 26x19 10-15 19x10 7x14 21-17 14x21 30-26 21x30 22-18 30x14 " +
  "31-26 14-18 27-23 18x20 28-24 20x27 32x23 9-14 23-18 14x30 29-25 30x21"
).split(" ");

/** The scripted Hub engine: White's moves of `SHORT_GAME`, chosen by the number of moves played. */
const SCRIPTED_ENGINE = `import sys
GAME = ${JSON.stringify(SHORT_GAME)}
played = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "hub":
        print("id name=Scripted version=1")
        print('param name=variant value=american type=enum values="american english"')
        print("wait")
    elif words[0] == "init":
        print("ready")
    elif words[0] == "pos":
        played = len(line.split('moves="', 1)[1].split('"', 1)[0].split()) if 'moves="' in line else 0
    elif words[0] == "go":
        print("done move=" + (GAME[played] if played < len(GAME) else "none"))
    elif words[0] == "quit":
        break
    sys.stdout.flush()
`;

let server;
let browser;
let dir;
let tokenFile;

/** `method path` of the API from the test itself (JSON `body`, session `cookie`): [status, JSON, cookie]. */
async function api(method, p, body, cookie = null) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (cookie) headers.cookie = cookie;
  const r = await fetch(server.url.replace(/\/$/, "") + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const set = r.headers.get("set-cookie");
  return [r.status, await r.json(), set ? set.split(";")[0] : cookie];
}

before(async () => {
  if (!BIN || !fs.existsSync(CROWN)) return;
  dir = tempDir("crown-e2e-bot-");
  server = await spawnCrownServer(path.join(dir, "crown.db"));
  browser = await launch();
  // Robo: signed up, a `bot:play` token, upgraded to a bot before its first game
  const [s1, , cookie] = await api("POST", "/api/signup", { username: BOT, password: "robo password 1" });
  assert.equal(s1, 201);
  const [s2, token] = await api("POST", "/api/account/tokens", { description: "crown bot e2e", scopes: ["bot:play"] }, cookie);
  assert.equal(s2, 201, JSON.stringify(token));
  const [s3, up] = await api("POST", "/api/bot/account/upgrade", undefined, cookie);
  assert.equal(s3, 200, JSON.stringify(up));
  assert.equal(up.user.title, "BOT");
  tokenFile = path.join(dir, "token");
  fs.writeFileSync(tokenFile, `${token.token}\n`);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopCrownServer(server);
});

/** Skip test `t` (saying why) when the server or the `crown` binary is missing. */
function skip(t) {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for crown bot"), true;
  if (!fs.existsSync(CROWN)) return t.skip(`${CROWN} is not built (cargo build -p crown-cli; or set CROWN_BIN)`), true;
  return false;
}

/** `crown bot` for Robo with the Hub engine `engine` (a command line); {child, log(), exited}. */
function startBot(engine) {
  const child = spawn(CROWN, ["bot", "--server", server.url, "--token-file", tokenFile, "--hash", "8", "--engine", engine], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, CROWN_EGDB_BUILD: "0" },
  });
  let log = "";
  child.stderr.on("data", (d) => (log += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, log: () => log, exited };
}

/** Kill `bot` with SIGKILL and wait until the process is gone. */
async function killBot(bot) {
  if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill("SIGKILL");
  await bot.exited;
}

/**
 * The person, in a new browser page signed up as `name`, challenges Robo from its player page:
 * rated, 1 min + 1 s, playing Black. Resolves to [page, game id] once the bot accepted and the
 * game opened on the page with the person's seat.
 */
async function challengeRobo(name) {
  const p = await newPage(browser);
  await openApp(p, server.url);
  await signUp(p, name, `${name} password 1`);
  await openPlayer(p, server.url, BOT);
  await p.waitForSelector("#pl-challenge", { state: "visible", ...T });
  await p.click("#pl-challenge");
  await p.waitForSelector("#dlg-challenge[open]");
  assert.equal(await p.textContent("#dlg-challenge-title"), `Challenge ${BOT}`);
  await p.selectOption("#ch-variant", "american");
  await p.selectOption("#ch-clock", "60+1");
  await p.check("#ch-rated");
  await p.selectOption("#ch-color", "black");
  await p.click("#ch-ok");
  await p.waitForSelector("#dlg-challenge", { state: "hidden", ...T });
  // the bot accepts: the challenger's page opens the game by itself
  await p.waitForFunction(() => window.crownApp.state.mode === "online" && !!window.crownApp.online()?.gameId, null, T);
  const id = await p.evaluate(() => window.crownApp.online().gameId);
  assert.equal(await waitMyGame(p, id), "black");
  const v = await p.evaluate(() => window.crownApp.online().view);
  assert.equal(v.rated, true, "a rated game");
  assert.equal(v.accounts.white.name, BOT);
  assert.equal(v.accounts.white.title, "BOT");
  // the bot is named BOT beside its name on the game page
  await p.waitForFunction(() => [...document.querySelectorAll(".bar-rating")].some((e) => !e.hidden && /BOT/.test(e.textContent)), null, T);
  return [p, id];
}

/**
 * Wait (up to 2 minutes: the bot's engine thinks on its clock) until the game on page `p` is over
 * or it is the person's move; the game view then.
 */
async function myTurnOrEnd(p) {
  await p.waitForFunction(
    () => {
      const o = window.crownApp.online();
      const v = o && o.view;
      if (!v) return false;
      if (v.status !== "ongoing" || v.outcome) return true;
      return v.side_to_move === o.seat && v.legal_moves.length > 0 && /Your move/.test(document.querySelector("#status").textContent);
    },
    null,
    { timeout: 120000 },
  );
  return p.evaluate(() => window.crownApp.online().view);
}

/** The person plays `move` (one of the view's `legal_moves`) by clicks: its square, then each landing square. */
async function clickMove(p, v, move) {
  for (const n of [move.from, ...move.path]) await clickSquare(p, n);
  await p.waitForFunction((ply) => window.crownApp.online().view.ply > ply, v.ply, T);
}

/** The finished game on page `p`: played to its end, rated, both ratings changed, no Rematch offered. */
async function assertFinishedRated(p, winner) {
  const v = await p.evaluate(() => window.crownApp.online().view);
  assert.equal(v.status, "finished", JSON.stringify(v.outcome));
  assert.equal(v.outcome.winner, winner, JSON.stringify(v.outcome));
  assert.equal(v.legal_moves.length, 0, "no move left: the game ended by the rules");
  await p.waitForFunction(() => {
    const a = window.crownApp.online().view.accounts;
    return a.black.rating_diff != null && a.white.rating_diff != null;
  }, null, T);
  const a = await p.evaluate(() => window.crownApp.online().view.accounts);
  assert.ok(a.black.rating_diff !== 0 && a.white.rating_diff !== 0, `a decisive rated game moves both ratings: ${JSON.stringify(a)}`);
  assert.equal(Math.sign(a.white.rating_diff), winner === "white" ? 1 : -1);
  assert.equal(await p.isVisible("#online-rematch"), false, "no Rematch with a bot: it is challenged again");
}

test("crown bot with crown engine accepts a person's rated challenge in the browser, is killed mid-game, restarted, and plays the game to its end", async (t) => {
  if (skip(t)) return;
  let bot = startBot(`${CROWN} engine`);
  try {
    const [p, id] = await challengeRobo("Bot_Ann");
    let killed = false;
    for (;;) {
      const v = await myTurnOrEnd(p);
      if (v.status !== "ongoing" || v.outcome) break;
      if (v.ply === 6 && !killed) {
        // the bot has answered three moves: kill it; the person moves while no bot runs
        killed = true;
        await killBot(bot);
        await clickMove(p, v, v.legal_moves[0]);
        const after = await p.evaluate(() => window.crownApp.online().view);
        assert.equal(after.side_to_move, "white", "the bot's turn, with no bot running");
        bot = startBot(`${CROWN} engine`);
        continue;
      }
      await clickMove(p, v, v.legal_moves[0]);
    }
    assert.ok(killed, "the bot was killed and started again during the game");
    const v = await p.evaluate(() => window.crownApp.online().view);
    assert.ok(v.ply > 8, `the restarted bot played on: ${v.ply} plies`);
    await assertFinishedRated(p, "white");
    await screenshot(p, "bot-crown-engine-end");
    // the server's copy of the game is the same
    const [s, g] = await api("GET", `/api/games/${id}`);
    assert.equal(s, 200);
    assert.deepEqual([g.status, g.ply, g.outcome.winner], ["finished", v.ply, "white"]);
    assert.deepEqual(p.errors, []);
  } catch (e) {
    console.log(`crown bot's log:\n${bot.log()}`);
    throw e;
  } finally {
    await killBot(bot);
  }
});

test("crown bot with a scripted minimal Hub engine plays a person's rated challenge in the browser to its end", async (t) => {
  if (skip(t)) return;
  const script = path.join(dir, "scripted-engine.py");
  fs.writeFileSync(script, SCRIPTED_ENGINE);
  const bot = startBot(`python3 ${script}`);
  try {
    const [p, id] = await challengeRobo("Bot_Bob");
    for (;;) {
      const v = await myTurnOrEnd(p);
      if (v.status !== "ongoing" || v.outcome) break;
      assert.deepEqual(v.moves, SHORT_GAME.slice(0, v.ply), "the engine played White's moves of the script");
      const text = SHORT_GAME[v.ply];
      const move = v.legal_moves.find((m) => m.text === text);
      assert.ok(move, `${text} is legal at ply ${v.ply}: ${v.legal_moves.map((m) => m.text).join(" ")}`);
      await clickMove(p, v, move);
    }
    const v = await p.evaluate(() => window.crownApp.online().view);
    assert.deepEqual(v.moves, SHORT_GAME, "the whole game was played");
    await assertFinishedRated(p, "black");
    await screenshot(p, "bot-scripted-engine-end");
    const [, g] = await api("GET", `/api/games/${id}`);
    assert.deepEqual([g.status, g.outcome.winner], ["finished", "black"]);
    assert.deepEqual(p.errors, []);
  } catch (e) {
    console.log(`crown bot's log:\n${bot.log()}`);
    throw e;
  } finally {
    await killBot(bot);
  }
});
