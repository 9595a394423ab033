// Online games and their first moves: a game nobody moves in is aborted with no result, not lost on
// time, and either player may abort it until both have made their first move; after that only
// resigning is left.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  serverAndBrowser,
  newPage,
  openApp,
  screenshot,
  clickSquare,
  moveList,
  spawnCrownServer,
  stopCrownServer,
  tempDir,
} from "./harness.js";

const env = serverAndBrowser();

const waitStatus = (p, re, timeout = 10000) =>
  p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, {
    timeout,
  });

/** Player `a` creates a 0.25+0 friend game as Black (Ann); player `b` takes White (Bob). */
async function friendGame(a, b, url) {
  await openApp(a, url);
  if (!(await a.isVisible("#online-new"))) await a.click("#mode-online");
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  await a.check("#form-online input[name=opponent][value=friend]");
  await a.check("#form-online input[name=variant][value=american]");
  await a.check("#form-online input[name=side][value=first]");
  await a.selectOption("#form-online select[name=clock]", "custom");
  await a.fill("#online-base", "0.25");
  await a.fill("#online-inc", "0");
  await a.fill("#form-online input[name=name]", "Ann");
  await a.click("#online-ok");
  await a.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"));
  const link = await a.inputValue("#share-link");
  await b.goto(link);
  await b.waitForSelector("#dlg-choice[open] #join-seat");
  await b.fill("#join-name", "Bob");
  await b.click("#join-seat");
  await waitStatus(a, /Your move/);
  await waitStatus(b, /move/);
}

const clocks = (p) => Promise.all([p.textContent("#clock-top"), p.textContent("#clock-bottom")]);

test("a 0.25+0 friend game nobody moves in is aborted with no result, not lost on time", async (t) => {
  if (!process.env.CROWN_SERVER_BIN) return t.skip("CROWN_SERVER_BIN is not set");
  // A server of its own whose first-move limit is 3 s (the default is 30 s), well inside the
  // 15 s a clock of 0.25+0 would have run for before the fix.
  const server = await spawnCrownServer(path.join(tempDir("crown-e2e-abort-"), "crown.db"), 0, {
    env: { CROWN_ABORT_AFTER_SECS: "3" },
  });
  try {
    const a = await newPage(env.browser);
    const b = await newPage(env.browser);
    await friendGame(a, b, server.url);
    // Before the first moves: an Abort button for both, and a note that the game aborts
    // without a first move.
    const note = (p, re) =>
      p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#first-move-note").textContent), re.source);
    await note(a, /^Your first move: the game is aborted in \d+ s without one/);
    await note(b, /^Black has \d+ s to make a first move, or the game is aborted/);
    for (const p of [a, b]) {
      assert.equal(await p.isVisible("#online-abort"), true, "an Abort button before the first moves");
    }
    // Nobody moves: the game ends, for both players, as aborted (the sweeper runs about once a second).
    for (const p of [a, b]) {
      await waitStatus(p, /aborted|wins|ran out/i, 60000);
      const text = await p.textContent("#status");
      assert.match(text, /^Game aborted: Black did not move/, `aborted, not lost on time: ${text}`);
      assert.doesNotMatch(text, /wins|ran out/i);
      // No clock ran: both still show the 15 s of 0.25+0.
      assert.deepEqual(await clocks(p), ["0:15", "0:15"]);
      assert.equal(await p.isVisible("#online-abort"), false, "no Abort once the game is over");
      assert.equal(await p.isVisible("#first-move-note"), false);
      assert.equal(await p.isDisabled("#online-resign"), true);
    }
    // The board takes no move any more.
    await clickSquare(a, 11);
    await clickSquare(a, 15);
    assert.deepEqual(await moveList(a), []);
    await screenshot(a, "online-abort-aborted");
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
    await a.context().close();
    await b.context().close();
  } finally {
    await stopCrownServer(server);
  }
});

test("a player aborts the game before both first moves; after them only resigning is left", async (t) => {
  if (!process.env.CROWN_SERVER_BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(env.browser);
  const b = await newPage(env.browser);
  await friendGame(a, b, env.server.url);
  // Black's first move: the clocks still do not run, and White may still abort.
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await b.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  await b.waitForFunction(() => /^Your first move/.test(document.querySelector("#first-move-note").textContent));
  assert.deepEqual(await clocks(b), ["0:15", "0:15"]);
  await b.click("#online-abort");
  for (const p of [a, b]) {
    await waitStatus(p, /aborted/i);
    assert.match(await p.textContent("#status"), /^Game aborted by White/);
    assert.equal(await p.isVisible("#online-abort"), false);
  }
  // A new game in which both have moved: no Abort, the clock runs.
  await friendGame(a, b, env.server.url);
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await waitStatus(b, /Your move/);
  await clickSquare(b, 22);
  await clickSquare(b, 18);
  await waitStatus(a, /Your move/);
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.querySelector("#online-abort").hidden);
    assert.equal(await p.isVisible("#first-move-note"), false);
  }
  await a.waitForFunction(() => document.querySelector("#clock-bottom").classList.contains("running"));
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});
