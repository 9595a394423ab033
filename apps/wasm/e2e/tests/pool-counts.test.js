// The APCA counts of pool checkers (rules 27 and 28) in the web app's local game: the claim is
// offered when it applies, worded as the rules word it, and the running count is shown, counted per
// move of the claimant, kept across a reload and taken back with the moves. Online, the server
// offers and enforces the claim (POST /api/games/{id}/count); the analysis board says who may claim.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, openApp, screenshot, clickSquare } from "./harness.js";

const env = serverAndBrowser();

const countLine = (page) => page.textContent("#count-line");

test("a lone king's side claims the 13 count (APCA rule 28); the count is shown, kept and taken back", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  // Three kings against a lone king, Black (the lone king) to move: rule 28's ending.
  await openApp(page, env.server.url, `?mode=analysis&variant=pool&fen=${encodeURIComponent("B:WK5,K13,K21:BK32")}`);
  assert.equal(await page.isVisible("#claim-count"), false, "no claim on the analysis board");
  await page.click("#play-from-here");
  await page.waitForFunction(() => window.crownApp.state.mode === "play");
  assert.equal(await page.evaluate(() => window.crownApp.state.human), "black");
  await page.waitForSelector("#claim-count:not([hidden])");
  assert.equal(await page.textContent("#claim-count"), "Claim the 13 count");
  assert.equal(await page.isVisible("#count-line"), false, "no count before the claim");

  // The claim shows rule 28's words; Cancel leaves the game as it was.
  await page.click("#claim-count");
  await page.waitForSelector("#dlg-confirm[open]");
  assert.equal(await page.textContent("#confirm-title"), "Claim the 13 count (APCA rule 28)?");
  assert.match(await page.textContent("#confirm-text"), /lone king must be caught before you count to “thirteen”/);
  await page.click("#confirm-no");
  assert.equal(await page.evaluate(() => window.crownApp.state.game.count()), null);
  await page.click("#claim-count");
  await page.waitForSelector("#dlg-confirm[open]");
  await page.click("#confirm-yes");
  await page.waitForSelector("#count-line:not([hidden])");
  assert.equal(await countLine(page), "The 13 count (APCA rule 28): 0 of 13 moves counted for you");
  assert.equal(await page.isVisible("#claim-count"), false, "one count at a time");
  await screenshot(page, "60-pool-13-count");

  // Black's move counts one; the engine (White) answers.
  await clickSquare(page, 32);
  await clickSquare(page, 28);
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 2 && !window.crownApp.state.thinking, null, { timeout: 30000 });
  assert.equal(await countLine(page), "The 13 count (APCA rule 28): 1 of 13 moves counted for you");

  // A reload keeps the claim and the count.
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 2);
  assert.equal(await countLine(page), "The 13 count (APCA rule 28): 1 of 13 moves counted for you");

  // Taking back Black's move takes back its count, not the claim made before it.
  await page.click("#takeback");
  await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 0);
  assert.equal(await countLine(page), "The 13 count (APCA rule 28): 0 of 13 moves counted for you");
  await page.context().close();
});

test("the 38 count (APCA rule 27) is offered only to the weaker side by points, only in pool", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  // Black: one king (2 points) against White's two men and a king (4 points); Black to move.
  await openApp(page, env.server.url, `?mode=analysis&variant=pool&fen=${encodeURIComponent("B:WK5,21,22:BK32")}`);
  await page.click("#play-from-here");
  await page.waitForSelector("#claim-count:not([hidden])");
  assert.equal(await page.textContent("#claim-count"), "Claim the 38 count");
  await page.click("#claim-count");
  await page.waitForSelector("#dlg-confirm[open]");
  assert.equal(await page.textContent("#confirm-title"), "Claim the 38 count (APCA rule 27)?");
  assert.match(await page.textContent("#confirm-text"), /required to complete a win within thirty-eight moves/);
  await page.click("#confirm-yes");
  await page.waitForSelector("#count-line:not([hidden])");
  assert.equal(await countLine(page), "The 38 count (APCA rule 27): 0 of 38 moves counted for you");

  // Equal points (a king against two men): nothing to claim. American checkers has no counts.
  for (const [variant, fen] of [["pool", "B:W21,22:BK32"], ["american", "B:WK5,K13,K21:BK32"]]) {
    await openApp(page, env.server.url, `?mode=analysis&variant=${variant}&fen=${encodeURIComponent(fen)}`);
    await page.click("#play-from-here");
    await page.waitForFunction(() => window.crownApp.state.mode === "play");
    assert.equal(await page.isVisible("#claim-count"), false, `${variant} ${fen}`);
    assert.equal(await page.isVisible("#count-line"), false, `${variant} ${fen}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** In `page`'s context: POST `path` (JSON `body`) to the page's server; the answer's JSON. */
const post = (page, path, body) =>
  page.evaluate(
    async ([path, body]) => {
      const r = await fetch(path, {
        method: "POST",
        headers: body ? { "content-type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return r.json();
    },
    [path, body],
  );

/** Keep seat `color`/`token` of game `id` in `page`'s storage, as the online page does when it takes one. */
const keepSeat = (page, id, color, token) =>
  page.evaluate(
    ([id, color, token]) =>
      localStorage.setItem(`crown-seat-${id}`, JSON.stringify({ color, token, variant: "pool", at: Date.now() })),
    [id, color, token],
  );

test("online: the lone king's player claims the 13 count; both players see it counted", async (t) => {
  if (!process.env.CROWN_SERVER_BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(env.browser, { width: 1280, height: 800 });
  const b = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(a, env.server.url);
  await openApp(b, env.server.url);
  // Three White kings against Black's lone king, Black to move: Ann (Black) may claim rule 28.
  const g = await post(a, "/api/games", { variant: "pool", fen: "B:WK5,K13,K21:BK32", color: "black", name: "Ann" });
  assert.equal(g.color, "black", JSON.stringify(g));
  const j = await post(b, `/api/games/${g.id}/join`);
  assert.equal(j.color, "white", JSON.stringify(j));
  await keepSeat(a, g.id, "black", g.token);
  await keepSeat(b, g.id, "white", j.token);
  for (const p of [a, b]) {
    await p.goto(new URL(`g/${g.id}`, env.server.url).href);
    await p.waitForFunction(() => window.crownApp && window.crownApp.state.mode === "online");
  }
  await a.waitForSelector("#online-claim-count:not([hidden])");
  assert.equal(await a.textContent("#online-claim-count"), "Claim the 13 count");
  assert.equal(await b.isVisible("#online-claim-count"), false, "the three kings' side has no count to claim");
  assert.equal(await a.isVisible("#count-line"), false, "no count before the claim");

  // The claim shows rule 28's words, then the server counts it for both players.
  await a.click("#online-claim-count");
  await a.waitForSelector("#dlg-confirm[open]");
  assert.equal(await a.textContent("#confirm-title"), "Claim the 13 count (APCA rule 28)?");
  await a.click("#confirm-yes");
  await a.waitForSelector("#count-line:not([hidden])");
  assert.equal(await countLine(a), "The 13 count (APCA rule 28): 0 of 13 moves counted for you");
  await b.waitForFunction(() => !document.querySelector("#count-line").hidden);
  assert.equal(await countLine(b), "The 13 count (APCA rule 28): 0 of 13 moves counted for Black");
  assert.equal(await a.isVisible("#online-claim-count"), false, "one count at a time");
  await screenshot(a, "61-pool-13-count-online");

  // Black's move counts one, on both boards.
  await clickSquare(a, 32);
  await clickSquare(a, 28);
  const one = "The 13 count (APCA rule 28): 1 of 13 moves counted for ";
  await a.waitForFunction((t) => document.querySelector("#count-line").textContent === t, one + "you");
  await b.waitForFunction((t) => document.querySelector("#count-line").textContent === t, one + "Black");
  // A reload reads the count from the server.
  await a.reload();
  await a.waitForFunction((t) => document.querySelector("#count-line").textContent === t, one + "you");

  // The players go on (through the API, moves that keep the material) until Black completes 13
  // moves: the server draws the game, and both boards say why, as the rules word it.
  const end = await a.evaluate(
    async ([id, black, white]) => {
      const Game = window.crownApp.state.game.constructor;
      const quiet = (g) =>
        g
          .legalMoves()
          .filter((m) => !m.captures.length)
          .map((m) => {
            const after = g.clone();
            after.play(m.text);
            return [m.text, after];
          })
          .filter(([, after]) => after.legalMoves().every((r) => !r.captures.length));
      let view = await (await fetch(`/api/games/${id}`)).json();
      for (let i = 0; i < 40 && view.status === "ongoing"; i++) {
        const g = Game.fromFen("pool", view.start_fen);
        for (const m of view.moves) g.play(m);
        const [text] = quiet(g).find(([, after]) => quiet(after).length > 0);
        const r = await fetch(`/api/games/${id}/moves`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${g.sideToMove() === "black" ? black : white}` },
          body: JSON.stringify({ move: text }),
        });
        view = await r.json();
      }
      return view;
    },
    [g.id, g.token, j.token],
  );
  assert.equal(end.status, "finished", JSON.stringify(end.outcome));
  assert.deepEqual([end.outcome.result, end.count.moves], ["1/2-1/2", 13]);
  for (const p of [a, b]) {
    await p.waitForFunction(() => /13-move count \(APCA rule 28\)/.test(document.querySelector("#status").textContent));
    assert.doesNotMatch(await p.textContent("#status"), /agreed/);
  }
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test("the analysis board says which side may claim an APCA count in the position shown", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  for (const [fen, line] of [
    ["B:WK5,K13,K21:BK32", "Black may claim the 13 count (APCA rule 28)"],
    ["B:WK5,21,22:BK32", "Black may claim the 38 count (APCA rule 27)"],
  ]) {
    await openApp(page, env.server.url, `?mode=analysis&variant=pool&fen=${encodeURIComponent(fen)}`);
    await page.waitForSelector("#count-line:not([hidden])");
    assert.equal(await countLine(page), line, fen);
    assert.equal(await page.isVisible("#claim-count"), false, "nobody to claim it on the analysis board");
  }
  // Equal points, and American checkers (no counts): no line.
  for (const [variant, fen] of [["pool", "B:W21,22:BK32"], ["american", "B:WK5,K13,K21:BK32"]]) {
    await openApp(page, env.server.url, `?mode=analysis&variant=${variant}&fen=${encodeURIComponent(fen)}`);
    await page.waitForFunction(() => window.crownApp.state.mode === "analysis");
    assert.equal(await page.isVisible("#count-line"), false, `${variant} ${fen}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
