// The APCA counts of pool checkers (rules 27 and 28) in the web app's local game: the claim is
// offered when it applies, worded as the rules word it, and the running count is shown, counted per
// move of the claimant, kept across a reload and taken back with the moves.
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
