// "Review game" in the analysis mode: the same review as `crown annotate` and the TUI
// (crown_ai::review, in its own Web Worker), marks in the move list, the graph and the key moments.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, newPage, openApp, screenshot } from "./harness.js";

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

test("review marks the shot 3-7?? 16-11! and jumps to it", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, "?mode=analysis&variant=american");
  // Black's king walks into 16-11 7x16 20x11, which takes the last black piece (proved by brute
  // force in crates/ai/tests/review.rs); 3-8 was the move.
  const pdn = '[Event "A shot"]\n[SetUp "1"]\n[FEN "B:W16,20:BK3"]\n\n1. 3-7 16-11 2. 7x16 20x11 0-1\n';
  await page.click("#pdn-import");
  await page.fill("#pdn-text", pdn);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 4);
  await page.click("#review-game");
  await page.waitForFunction(() => !document.querySelector("#review-box").hidden, null, { timeout: 30000 });
  const marks = await page.$$eval("#movelist .mark", (els) => els.map((e) => e.textContent));
  assert.deepEqual(marks, ["??", "!"]);
  assert.match(await page.textContent("#review-summary"), /Black: 0 \?!, 0 \?, 1 \?\?, 0 ! · White: 0 \?!, 0 \?, 0 \?\?, 1 !/);
  assert.equal(await page.$$eval("#review-graph circle", (els) => els.length), 2);
  const moments = await page.$$eval("#review-moments button", (els) => els.map((e) => e.textContent));
  assert.deepEqual(moments, ["3-7??"]);
  await page.click("#review-moments button");
  assert.equal(await page.evaluate(() => window.crownApp.state.viewPly), 1);
  await screenshot(page, "40-review");
  await page.context().close();
});
