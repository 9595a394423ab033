// Board interaction in a real headless Chromium: drawing, click-click, drag-and-drop, legal
// destinations, must-capture marks, multi-jump path choice, Impasse crown choice, game over, phone width.
// Positions and expected moves come from the rules (docs/rules.md), not from the program's output.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startServer,
  launch,
  newPage,
  openApp,
  screenshot,
  clickSquare,
  dragSquare,
  moveList,
  boardPieces,
} from "./harness.js";

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

const analysis = (variant, fen) => `?mode=analysis&variant=${variant}&fen=${encodeURIComponent(fen)}`;

test("the start position is drawn with 32 numbered dark squares and 24 men", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, "?mode=analysis");
  const dark = await page.$$eval("#board rect.sq.dark", (e) => e.length);
  const light = await page.$$eval("#board rect.sq.light", (e) => e.length);
  assert.equal(dark, 32);
  assert.equal(light, 32);
  const nums = await page.$$eval("#board .sq-num", (e) => e.map((t) => Number(t.textContent)).sort((a, b) => a - b));
  assert.deepEqual(nums, Array.from({ length: 32 }, (_, i) => i + 1));
  const pieces = await boardPieces(page);
  // Black men on 1-12, White men on 21-32 (American rule 2)
  for (let n = 1; n <= 12; n++) assert.equal(pieces[n], "black man", `square ${n}`);
  for (let n = 21; n <= 32; n++) assert.equal(pieces[n], "white man", `square ${n}`);
  assert.equal(Object.keys(pieces).length, 24);
  await screenshot(page, "01-start-american");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("click a man: its legal destinations are shown; click one to move", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, "?mode=analysis");
  await clickSquare(page, 11);
  // 11 (e7... standard square 11) steps to 15 or 16
  const hints = await page.$$eval("#board .hints [data-hint]", (e) => e.map((h) => Number(h.dataset.hint)).sort((a, b) => a - b));
  assert.deepEqual(hints, [15, 16]);
  await screenshot(page, "02-legal-destinations");
  await clickSquare(page, 15);
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), ["11-15"]);
  const pieces = await boardPieces(page);
  assert.equal(pieces[15], "black man");
  assert.equal(pieces[11], undefined);
  // last move highlighted on 11 and 15
  const marks = await page.$$eval("#board .marks rect", (e) => e.map((r) => r.getAttribute("class")));
  assert.deepEqual(marks.sort(), ["last-from", "last-to"]);
  // White replies by drag and drop: 23-19
  await dragSquare(page, 23, 19);
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 2);
  assert.deepEqual(await moveList(page), ["11-15", "23-19"]);
  await screenshot(page, "03-after-drag");
  // navigation: back one move shows 19 empty again
  await page.click("#nav-prev");
  assert.equal((await boardPieces(page))[19], undefined);
  await page.keyboard.press("End");
  assert.equal((await boardPieces(page))[19], "white man");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("pieces that must capture are marked and a two-way capture asks for the path", async () => {
  const page = await newPage(browser);
  // Black to move must capture: 10x26 via 17 (takes 14, 22) or via 19 (takes 15, 23).
  await openApp(page, server.url, analysis("american", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"));
  const marked = await page.$$eval("#board .piece.must-capture", (e) => e.map((p) => Number(p.dataset.square)).sort((a, b) => a - b));
  assert.ok(marked.includes(10), `marked ${marked}`);
  assert.match(await page.textContent("#status"), /must capture/);
  await screenshot(page, "04-must-capture");
  await clickSquare(page, 10);
  await clickSquare(page, 26);
  await page.waitForSelector("#dlg-choice[open]");
  const choices = await page.$$eval("#choices button", (e) => e.map((b) => b.textContent));
  assert.equal(choices.length, 2);
  assert.ok(choices.some((c) => c.startsWith("10x17x26")));
  assert.ok(choices.some((c) => c.startsWith("10x19x26")));
  await page.hover("#choices button:nth-child(2)");
  await screenshot(page, "05-path-choice");
  const second = choices[1].split(" ")[0];
  await page.click("#choices button:nth-child(2)");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), [second]);
  const pieces = await boardPieces(page);
  assert.equal(pieces[26], "black man");
  assert.equal(pieces[10], undefined);
  await page.context().close();
});

test("a multi-jump can be entered square by square", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, analysis("american", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"));
  await clickSquare(page, 10);
  await clickSquare(page, 17); // first landing square: only one way on (x26)
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), ["10x17x26"]);
  const pieces = await boardPieces(page);
  assert.equal(pieces[14], undefined, "14 captured");
  assert.equal(pieces[22], undefined, "22 captured");
  assert.equal(pieces[15], "white man");
  await page.context().close();
});

test("Impasse: singles and doubles read differently; a crown asks which single to stack", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, "?mode=analysis&variant=impasse&setup=steere");
  const pieces = await boardPieces(page);
  // Steere setup: doubles on 1,3,6,8 (White) and 25,27,30,32 (Black)
  for (const n of [1, 3, 6, 8]) assert.equal(pieces[n], "white king", `square ${n}`);
  for (const n of [25, 27, 30, 32]) assert.equal(pieces[n], "black king", `square ${n}`);
  assert.equal(pieces[26], "white man");
  await screenshot(page, "06-impasse-steere");
  await page.context().close();

  const p2 = await newPage(browser);
  // The White single on 5 slides to 1 (furthest row): stack 22 or 27 onto it.
  await openApp(p2, server.url, analysis("impasse", "W:W5,22,27:B12"));
  await clickSquare(p2, 5);
  await clickSquare(p2, 1);
  await p2.waitForSelector("#banner:not([hidden])");
  const cands = await p2.$$eval("#board .piece.crown-candidate", (e) => e.map((p) => Number(p.dataset.square)).sort((a, b) => a - b));
  assert.deepEqual(cands, [22, 27]);
  await screenshot(p2, "07-impasse-crown-choice");
  await clickSquare(p2, 27);
  await p2.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(p2), ["5-1=27"]);
  const after = await boardPieces(p2);
  assert.equal(after[1], "white king", "a double on 1");
  assert.equal(after[27], undefined);
  assert.equal(after[22], "white man");
  assert.deepEqual(p2.errors, []);
  await p2.context().close();
});

test("Impasse: with no basic move the player removes a checker and can win", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, analysis("impasse", "W:W5:B1"));
  await clickSquare(page, 5);
  const remove = await page.$$eval("#board .hint-remove", (e) => e.length);
  assert.equal(remove, 1);
  await clickSquare(page, 5);
  await page.waitForSelector("#dlg-over[open]");
  assert.match(await page.textContent("#over-reason"), /White wins: all of its checkers are removed/);
  assert.equal(await page.textContent("#over-result"), "1-0");
  await screenshot(page, "08-impasse-game-over");
  await page.context().close();
});

test("the game-over dialog gives the reason", async () => {
  const page = await newPage(browser);
  // Black 14x23 takes White's last piece (American rule 9: no pieces left loses).
  await openApp(page, server.url, analysis("american", "B:W18:B14"));
  await clickSquare(page, 14);
  await clickSquare(page, 23);
  await page.waitForSelector("#dlg-over[open]");
  assert.match(await page.textContent("#over-reason"), /Black wins: the opponent has no pieces left/);
  assert.equal(await page.textContent("#over-result"), "1-0");
  await screenshot(page, "09-game-over");
  await page.context().close();
});

test("flip turns the board around", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, "?mode=analysis");
  const y = async (n) =>
    page.$eval(`#board rect.sq[data-square="${n}"]`, (r) => r.getBoundingClientRect().top);
  assert.ok((await y(1)) < (await y(32)), "square 1 at the top");
  await page.click("#flip");
  assert.ok((await y(1)) > (await y(32)), "square 1 at the bottom after flip");
  await page.context().close();
});

test("the page fits a phone screen", async () => {
  const page = await newPage(browser, { width: 390, height: 844, mobile: true });
  await openApp(page, server.url, "?mode=analysis");
  const box = await page.$eval("#board", (b) => {
    const r = b.getBoundingClientRect();
    return { left: r.left, right: r.right, width: r.width };
  });
  assert.ok(box.left >= 0 && box.right <= 390, `board inside the screen: ${JSON.stringify(box)}`);
  assert.ok(box.width >= 340, `board uses the width: ${box.width}`);
  const scrollW = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollW <= 390, `no horizontal scrolling (${scrollW})`);
  // the top bar is one row: the sound switch beside the mode buttons, not on a row of its own
  const bar = await page.evaluate(() => {
    const top = (sel) => document.querySelector(sel).getBoundingClientRect().top;
    return { modes: top("#mode-play"), last: top("#mode-puzzles"), sound: top("#sound-toggle"), height: document.querySelector(".topbar").getBoundingClientRect().height };
  });
  assert.ok(Math.abs(bar.modes - bar.sound) < 8 && Math.abs(bar.last - bar.sound) < 8 && bar.height < 56, `top bar in one row: ${JSON.stringify(bar)}`);
  // a move by touch-sized clicks still works
  await clickSquare(page, 9);
  await clickSquare(page, 13);
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  // a long message without spaces (the FEN) wraps inside the toast instead of running off the screen
  await page.click("#fen-copy");
  await page.waitForSelector("#toast:not([hidden])");
  const toast = await page.$eval("#toast", (t) => {
    const r = t.getBoundingClientRect();
    return { right: r.right, scrollW: t.scrollWidth, clientW: t.clientWidth, text: t.textContent };
  });
  assert.match(toast.text, /W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13/);
  assert.ok(toast.right <= 390, `toast inside the screen: ${JSON.stringify(toast)}`);
  assert.ok(toast.scrollW <= toast.clientW, `the FEN is not clipped: ${JSON.stringify(toast)}`);
  await screenshot(page, "10-phone");
  await page.context().close();
});

test("the position editor builds a FEN and rejects an illegal one", async () => {
  const page = await newPage(browser);
  await openApp(page, server.url, "?mode=analysis");
  await page.click("#edit-position");
  await page.waitForSelector("#dlg-editor[open]");
  await page.click("#editor-clear");
  await page.click('.palette button[data-piece="white-man"]');
  await clickSquare(page, 1, "#editor-board"); // a White man on its king row: illegal
  assert.equal(await page.isVisible("#editor-error"), true);
  assert.equal(await page.isDisabled("#editor-ok"), true);
  await clickSquare(page, 1, "#editor-board"); // toggles it off again
  await clickSquare(page, 18, "#editor-board");
  await page.click('.palette button[data-piece="black-king"]');
  await clickSquare(page, 14, "#editor-board");
  await page.selectOption("#editor-side", "black");
  assert.equal(await page.inputValue("#editor-fen"), "B:W18:BK14");
  await screenshot(page, "11-editor");
  await page.click("#editor-ok");
  // The position is set by the dialog's close event, which fires after the dialog has closed:
  // wait for the board to change instead of reading it as soon as the dialog is gone.
  await page.waitForFunction(
    () => document.querySelectorAll("#board .pieces .piece:not(.ghost)").length === 2,
    null,
    { timeout: 10000 },
  );
  const pieces = await boardPieces(page);
  assert.deepEqual(pieces, { 14: "black king", 18: "white man" });
  await page.context().close();
});
