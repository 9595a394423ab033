// The browser's engine takes a human-like time to answer at levels 1–7 (1.5 s at level 1, 0.4 s at
// level 7), and a takeback during that pause cancels its move.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, openApp } from "./harness.js";

const env = serverAndBrowser();

test("the engine takes a human-like time at levels 1–7 (1.5 s at level 1, 0.4 s at level 7)", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url);
  for (const [level, floor] of [
    [1, 1500],
    [7, 400],
  ]) {
    await page.evaluate((level) => window.crownApp.app.play.newGame({ variant: "american", side: "first", level }), level);
    const mv = await page.evaluate(() => window.crownApp.board.moves[0].text);
    const t0 = Date.now();
    await page.fill("#move-input", mv);
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => window.crownApp.state.game.plyCount() === 2, null, { timeout: 30000 });
    const ms = Date.now() - t0;
    console.log(`level ${level}: the engine answered in ${ms} ms`);
    assert.ok(ms >= floor - 50, `level ${level} answered in ${ms} ms, before ${floor} ms`);
    assert.ok(ms < floor + 5000, `level ${level} answered in ${ms} ms`);
  }
  // a takeback during the pause: the engine's move is not played afterwards
  await page.evaluate(() => window.crownApp.app.play.newGame({ variant: "american", side: "first", level: 1 }));
  const mv = await page.evaluate(() => window.crownApp.board.moves[0].text);
  await page.fill("#move-input", mv);
  await page.press("#move-input", "Enter");
  await page.waitForTimeout(300);
  await page.click("#takeback");
  await page.waitForTimeout(1800);
  assert.equal(await page.evaluate(() => window.crownApp.state.game.plyCount()), 0, "taken back, and no engine move came after");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
