// The first game (issue 43, "Faster first game"): a first visit's load measured on the build the
// suite runs (bytes on the wire from the DevTools protocol, and the time from the navigation to a
// playable board and to the engine's readiness, printed), and the board playable before the
// engine is ready: with the engine worker's script held back, the player's first move is played
// on the board, and the engine answers once its worker is let through.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, clickSquare, moveList } from "./harness.js";

const env = serverAndBrowser();
const T = { timeout: 60000 };

/**
 * Record in the page, from its first script on, when the board is playable (the app is up, the
 * board's pieces drawn and its legal moves known) and when the engine is ready (its worker said
 * so): `window.__firstLoad` = {board, engine} in ms since the navigation started.
 */
async function recordMilestones(context) {
  await context.addInitScript(() => {
    const at = (window.__firstLoad = { board: null, engine: null });
    const tick = () => {
      const app = window.crownApp;
      if (at.board === null && app && app.board.moves.length > 0 && document.querySelectorAll("#board .piece").length > 0) {
        at.board = performance.now();
      }
      if (at.engine === null && app && app.engine.available !== null) at.engine = performance.now();
      if (at.board === null || at.engine === null) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

test("first load: bytes on the wire and the time to a playable board, printed; the board is playable before the engine is ready", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await recordMilestones(page.context());
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const sizes = new Map();
  const urls = new Map();
  cdp.on("Network.responseReceived", (e) => urls.set(e.requestId, e.response.url));
  cdp.on("Network.loadingFinished", (e) => sizes.set(e.requestId, e.encodedDataLength));
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.__firstLoad.board !== null && window.__firstLoad.engine !== null, null, T);
  const at = await page.evaluate(() => window.__firstLoad);
  // the worker's own requests are the page's too (a dedicated worker's fetches are on its session)
  await page.waitForLoadState("networkidle");
  let bytes = 0;
  const byFile = {};
  for (const [id, n] of sizes) {
    const url = urls.get(id) || "";
    bytes += n;
    const p = url ? new URL(url).pathname : "?";
    byFile[p] = (byFile[p] || 0) + n;
  }
  const wasm = Object.entries(byFile).find(([p]) => p.endsWith(".wasm"));
  console.log(
    `first load: ${bytes} bytes on the wire (${(bytes / 1024).toFixed(0)} KiB, wasm ${wasm ? wasm[1] : "?"} bytes); ` +
      `playable board at ${Math.round(at.board)} ms, engine ready at ${Math.round(at.engine)} ms after the navigation started ` +
      `(server: ${process.env.CROWN_SERVER_BIN ? "crown-server" : "the suite's static server, uncompressed"})`,
  );
  console.log(JSON.stringify(byFile));
  assert.ok(wasm, `the wasm module was loaded: ${Object.keys(byFile)}`);
  assert.ok(bytes > 0 && at.board > 0, "measured");
  assert.ok(at.board <= at.engine, `the board (${at.board} ms) is playable no later than the engine is ready (${at.engine} ms)`);
  assert.deepEqual(page.errors, []);
  await cdp.detach();
  await page.context().close();
});

test("the board is playable while the engine is still loading: the first move is played, the engine answers once it is ready", async () => {
  const page = await newPage(env.browser, { width: 390, height: 844, mobile: true });
  // the engine worker's script is held back until the test lets it through
  let release;
  const held = new Promise((r) => (release = r));
  let asked = false;
  await page.route("**/engine-worker.js", async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1" && window.crownApp.board.moves.length > 0, null, T);
  assert.equal(await page.evaluate(() => window.crownApp.engine.available), null, "the engine is not ready");
  // Black (the player, moving first in American checkers) plays 11-15 by clicking
  await clickSquare(page, 11);
  await clickSquare(page, 15);
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1, null, T);
  assert.deepEqual(await moveList(page), ["11-15"]);
  assert.equal(await page.evaluate(() => window.crownApp.engine.available), null, "played before the engine was ready");
  assert.ok(asked, "the page asked for the engine's worker");
  release();
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 2, null, T);
  assert.equal(await page.evaluate(() => window.crownApp.engine.available), true, "the engine answered once ready");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
