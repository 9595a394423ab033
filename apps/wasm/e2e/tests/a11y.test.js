// Keyboard and screen readers (issue 13): moves typed as text ("11-15", "6>10", "x14") read by the
// wasm move reader, the board's squares focusable with names, moves announced in an aria-live
// region, and an axe-core audit of the page (its findings count is printed; serious ones fail), also
// with a refused typed move's error shown, in both themes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startServer, launch, newPage, openApp, screenshot, moveList, boardPieces, repoRoot } from "./harness.js";

const AXE = path.join(repoRoot, "apps/wasm/e2e/node_modules/axe-core/axe.min.js");

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

async function typeMove(page, text) {
  await page.fill("#move-input", text);
  await page.press("#move-input", "Enter");
}

test("typed moves: 11-15, then an illegal one is refused with the reader's message", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  await typeMove(page, "11-15");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), ["11-15"]);
  // announced to screen readers
  await page.waitForFunction(() => document.querySelector("#announce").textContent.length > 0);
  assert.equal(await page.textContent("#announce"), "Black 11-15.");
  // White cannot move 11-15 again (not White's man, square empty)
  await typeMove(page, "11-15");
  await page.waitForSelector("#move-error:not([hidden])");
  assert.ok((await page.textContent("#move-error")).length > 0);
  assert.equal(await page.getAttribute("#move-input", "aria-invalid"), "true");
  assert.deepEqual(await moveList(page), ["11-15"]);
  await typeMove(page, "23-19");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 2);
  assert.equal(await page.isHidden("#move-error"), true);
  await page.context().close();
});

test("typed Impasse moves in Crown's notation: transpose 6>10 and impasse removal x14", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  // White's double on 6 and single on 10: the top checker of the double goes onto the single
  // (Impasse rule sheet, transpose; docs/notation.md writes it 6>10).
  await openApp(page, server.url, analysis("impasse", "W:WK6,10:B28"));
  await typeMove(page, "6>10");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), ["6>10"]);
  let pieces = await boardPieces(page);
  assert.equal(pieces[6], "white man", "a single is left on 6");
  assert.equal(pieces[10], "white king", "a double on 10");
  assert.equal(await page.textContent("#announce"), "White 6>10.");
  await page.context().close();

  // White's single on 14 is blocked by Black's singles on 9 and 10: no basic move, so White removes
  // a checker (Impasse rule), written x14; removing its last checker wins.
  const p2 = await newPage(browser, { width: 1280, height: 800 });
  await openApp(p2, server.url, analysis("impasse", "W:W14:B10,9"));
  await typeMove(p2, "x14");
  await p2.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(p2), ["x14"]);
  pieces = await boardPieces(p2);
  assert.equal(pieces[14], undefined);
  assert.match(await p2.textContent("#announce"), /^White x14, impasse removal\. White wins/);
  await p2.context().close();
});

test("typed checkers capture 10x19: played, the captured man gone, announced", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  // Black's man on 10 jumps White's man on 15 and lands on 19 (American rule 6: the jump is
  // compulsory, and the only move).
  await openApp(page, server.url, analysis("american", "B:W15,30:B10,1"));
  await typeMove(page, "10x19");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), ["10x19"]);
  const pieces = await boardPieces(page);
  assert.equal(pieces[19], "black man");
  assert.equal(pieces[15], undefined, "the white man on 15 was taken");
  assert.match(await page.textContent("#announce"), /Black 10x19, captures 15/);
  await page.context().close();
});

test("the board is playable with the keyboard alone: focus, arrows, Enter", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  const label = await page.getAttribute('#board rect.sq[data-square="11"]', "aria-label");
  assert.equal(label, "11, black man, can move");
  assert.equal(await page.getAttribute('#board rect.sq[data-square="20"]', "aria-label"), "20, empty");
  // focus square 11, Enter selects, arrows reach 15, Enter plays 11-15
  await page.focus('#board rect.sq[data-square="11"]');
  await page.keyboard.press("Enter");
  assert.match(await page.getAttribute('#board rect.sq[data-square="11"]', "aria-label"), /selected/);
  assert.match(await page.getAttribute('#board rect.sq[data-square="15"]', "aria-label"), /a destination/);
  await page.keyboard.press("ArrowDown"); // from 11 (row 3) to row 4: squares 15 or 16
  const f = await page.evaluate(() => document.activeElement.dataset.square);
  if (f !== "15") await page.keyboard.press(f === "16" ? "ArrowLeft" : "ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.square), "15");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 1);
  assert.deepEqual(await moveList(page), ["11-15"]);
  await screenshot(page, "80-keyboard");
  await page.context().close();
});

for (const theme of ["dark", "light"]) {
  test(`axe-core audit with a refused typed move shown (${theme} theme): #move-error is readable`, async () => {
    const page = await newPage(browser, { width: 1280, height: 800 });
    await openApp(page, server.url, "?mode=analysis&variant=american");
    await page.selectOption("#theme-select", theme);
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    // 1-5 is no move at the start: Black's man on 1 has no empty square ahead (5 and 6 are Black's)
    await typeMove(page, "1-5");
    await page.waitForSelector("#move-error:not([hidden])");
    await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ["violations"] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
    });
    assert.deepEqual(result, [], `no axe-core findings with the move error shown (${theme})`);
    await page.context().close();
  });
}

for (const theme of ["dark", "light"]) {
  test(`axe-core audit of the game-over dialog (${theme} theme): its result "0-1" is readable`, async () => {
    const page = await newPage(browser, { width: 1280, height: 800 });
    await openApp(page, server.url);
    await page.selectOption("#theme-select", theme);
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    // resigning as Black before a move: White wins, 0-1 (the result is from the first player's side)
    await page.click("#resign");
    await page.click("#confirm-yes");
    await page.waitForSelector("#dlg-over[open]");
    assert.equal(await page.textContent("#over-result"), "0-1");
    await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run("#dlg-over", { resultTypes: ["violations"] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
    });
    assert.deepEqual(result, [], `no axe-core findings in the game-over dialog (${theme})`);
    await page.context().close();
  });
}

for (const [name, q, size] of [
  ["play, 1280×800", "", { width: 1280, height: 800 }],
  ["analysis, 390×844", "?mode=analysis&variant=impasse&setup=steere", { width: 390, height: 844, mobile: true }],
]) {
  test(`axe-core audit (${name}): no serious or critical findings`, async () => {
    const page = await newPage(browser, size);
    await openApp(page, server.url, q);
    await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ["violations"] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
    });
    const count = result.reduce((a, v) => a + v.nodes, 0);
    console.log(`axe-core (${name}): ${result.length} rules violated, ${count} nodes: ${JSON.stringify(result)}`);
    const serious = result.filter((v) => v.impact === "serious" || v.impact === "critical");
    assert.deepEqual(serious, [], "no serious or critical accessibility findings");
    assert.equal(count, 0, "no findings at all");
    await page.context().close();
  });
}
