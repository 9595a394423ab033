// Issue 26, "Also expected": the conventions around play a lidraughts player expects, in headless
// Chromium — zen mode, coordinates on the board's edge, the piece enlarged under a finger,
// premoves against the engine, confirming an online move, and Rematch after an aborted online
// game. Every option is remembered across a reload. The online tests need CROWN_SERVER_BIN (cargo
// xtask e2e sets it).
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serverAndBrowser, newPage, openApp, screenshot, clickSquare, squareCenter, moveList, boardPieces, repoRoot } from "./harness.js";

const env = serverAndBrowser();
const BIN = process.env.CROWN_SERVER_BIN;
const AXE = path.join(repoRoot, "apps/wasm/e2e/node_modules/axe-core/axe.min.js");

const waitStatus = (p, re, timeout = 60000) =>
  p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, { timeout });
const waitMoves = (p, n, timeout = 60000) =>
  p.waitForFunction((n) => document.querySelectorAll("#movelist .mv:not(.empty)").length === n, n, { timeout });
const reloadApp = async (p) => {
  await p.reload();
  await p.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1" && document.querySelectorAll(".board .piece").length > 0);
};

/** axe-core's findings on the page as it is (rule id and node count each). */
async function axeFindings(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
}

/** Player `a` creates an untimed friend game as Black ("Ann"); player `b` takes White ("Bob"). */
async function friendGame(a, b) {
  await openApp(a, env.server.url);
  if (!(await a.isVisible("#online-new"))) await a.click("#mode-online");
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  await a.check("#form-online input[name=opponent][value=friend]");
  await a.check("#form-online input[name=variant][value=american]");
  await a.check("#form-online input[name=side][value=first]");
  await a.selectOption("#form-online select[name=clock]", "");
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

const visible = (p, sel) => p.isVisible(sel);
const zenOn = (p) => p.evaluate(() => document.body.classList.contains("zen"));

test("zen mode: z or the switch shows the board, names and clocks only; Escape or Leave zen ends it; remembered; play and online pages only", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url);
  assert.equal(await zenOn(page), false, "off by default");
  for (const sel of [".topbar", "#movelist", "#actions-play", "#status"]) assert.equal(await visible(page, sel), true, sel);
  const boardBefore = (await page.$eval("#board", (e) => e.getBoundingClientRect().width));
  await page.keyboard.press("z");
  assert.equal(await zenOn(page), true, "z turns zen mode on");
  for (const sel of ["nav.modes", "#sound-toggle", "#movelist", "#actions-play", "#status", "#move-form", ".settings", "#nav-first"]) {
    assert.equal(await visible(page, sel), false, `${sel} hidden in zen mode`);
  }
  for (const sel of ["#board", "#name-top", "#name-bottom", "#zen-exit"]) assert.equal(await visible(page, sel), true, `${sel} shown`);
  const boardZen = await page.$eval("#board", (e) => e.getBoundingClientRect().width);
  assert.ok(boardZen > boardBefore, `the board takes the room freed: ${boardBefore} → ${boardZen}`);
  // the page still fits 1280×800 and is keyboard reachable: the first Tab stop leaves zen mode
  const fit = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));
  assert.ok(fit.h <= 800 && fit.w <= 1280, `zen page ${fit.w}×${fit.h}`);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "zen-exit");
  assert.deepEqual(await axeFindings(page), [], "axe in zen mode");
  await screenshot(page, "conv-zen-1280");
  // remembered across a reload
  await reloadApp(page);
  assert.equal(await zenOn(page), true, "zen mode after a reload");
  // Escape leaves it
  await page.keyboard.press("Escape");
  assert.equal(await zenOn(page), false, "Escape leaves zen mode");
  await reloadApp(page);
  assert.equal(await zenOn(page), false, "off after a reload");
  // the switch in the settings, then the Leave zen button
  await page.check("#zen-mode");
  assert.equal(await zenOn(page), true, "the switch turns it on");
  assert.equal(await page.evaluate(() => document.activeElement.id), "zen-exit", "the focus is not lost on a hidden switch");
  await page.keyboard.press("Enter");
  assert.equal(await zenOn(page), false, "Leave zen (Enter on the focused button)");
  assert.equal(await page.isChecked("#zen-mode"), false);
  // z again toggles it off
  await page.keyboard.press("z");
  await page.keyboard.press("z");
  assert.equal(await zenOn(page), false, "z toggles");
  // other pages: the analysis board shows its tools even with zen mode on, and z does nothing there
  await page.keyboard.press("z");
  await page.goto(env.server.url + "?mode=analysis&variant=american");
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  assert.equal(await zenOn(page), false, "no zen mode on the analysis page");
  assert.equal(await visible(page, "#movelist"), true);
  await page.click("#show-numbers"); // a checkbox has the focus: keys still reach the page
  await page.click("#show-numbers");
  await page.keyboard.press("z");
  assert.equal(await zenOn(page), false, "z does nothing on the analysis page");
  await page.click("#mode-play");
  assert.equal(await zenOn(page), true, "back on the play page: zen mode (still on)");
  await page.context().close();

  // a phone (390×844) and the narrowest screen (320 px): the board and both bars on screen, no sideways scrolling
  for (const [w, h] of [[390, 844], [320, 640]]) {
    const p = await newPage(env.browser, { width: w, height: h, mobile: true });
    await openApp(p, env.server.url);
    // the options in the panel fit too (no sideways scrolling)
    assert.ok((await p.evaluate(() => document.documentElement.scrollWidth)) <= w, `the panel with the options fits ${w} px`);
    const opts = await p.$eval("#confirm-moves", (e) => e.getBoundingClientRect().right);
    assert.ok(opts <= w, `the play options within ${w} px: ${opts}`);
    await p.keyboard.press("z");
    assert.equal(await zenOn(p), true);
    const box = await p.evaluate(() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      return { board: r("#board"), bottom: r("#bar-bottom").bottom, scrollW: document.documentElement.scrollWidth };
    });
    assert.ok(box.scrollW <= w, `no horizontal scrolling at ${w} px: ${box.scrollW}`);
    assert.ok(box.board.left >= 0 && box.board.right <= w, `board within ${w} px`);
    assert.ok(box.bottom <= h, `the bottom bar on screen at ${w}×${h}: ${box.bottom}`);
    if (w === 390) assert.deepEqual(await axeFindings(p), [], "axe in zen mode at 390×844");
    await screenshot(p, `conv-zen-${w}`);
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("coordinates on the edge: a–h and 1–8 around the board, turned with it, clear of the pieces, readable, remembered", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  // every man and king on the board: the coordinates must stay clear of the discs
  const kings = "B:WK21,K22,K23,K24,K25,K26,K27,K28,K29,K30,K31,K32:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12";
  await openApp(page, env.server.url, `?mode=analysis&variant=american&fen=${encodeURIComponent(kings)}`);
  assert.equal(await page.isChecked("#show-coords"), false, "off by default");
  assert.equal(await page.$$eval("#board .coord", (e) => e.length), 0);
  await page.check("#show-coords");
  /** The labels on screen: the files along the bottom left to right, the ranks up the left side top to bottom. */
  const labels = () =>
    page.evaluate(() => {
      const byPos = (cls, key) =>
        [...document.querySelectorAll(`#board .coord.${cls}`)]
          .map((t) => ({ t: t.textContent, r: t.getBoundingClientRect() }))
          .sort((a, b) => a.r[key] - b.r[key]);
      const files = byPos("file", "left");
      const ranks = byPos("rank", "top");
      const sq = (n) => document.querySelector(`#board rect.sq[data-square="${n}"]`).getBoundingClientRect();
      return { files: files.map((x) => x.t).join(""), ranks: ranks.map((x) => x.t).join(""), fileBoxes: files.map((x) => x.r), rankBoxes: ranks.map((x) => x.r), sq1: sq(1), sq4: sq(4), sq29: sq(29) };
    });
  const within = (inner, outer) => inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;
  let l = await labels();
  assert.equal(await page.evaluate(() => window.crownApp.state.flipped), false);
  assert.equal(l.files, "abcdefgh");
  assert.equal(l.ranks, "87654321");
  // the standard numbering: square 29 is a1 (Black at the top, square 1 = b8): both its labels lie on it
  assert.ok(within(l.fileBoxes[0], l.sq29), "'a' on square 29 (a1)");
  assert.ok(within(l.rankBoxes[7], l.sq29), "'1' on square 29 (a1)");
  // turned with the board: h8 (square 4) at the lower left
  await page.click("#flip");
  l = await labels();
  assert.equal(l.files, "hgfedcba");
  assert.equal(l.ranks, "12345678");
  assert.ok(within(l.fileBoxes[0], l.sq4) && within(l.rankBoxes[7], l.sq4), "'h' and '8' on square 4 (h8) when flipped");
  await page.click("#flip");
  // the square numbers stay an option of their own
  assert.equal(await page.$$eval("#board .sq-num", (e) => e.length), 32);
  await page.uncheck("#show-numbers");
  assert.equal(await page.$$eval("#board .sq-num", (e) => e.length), 0);
  assert.equal(await page.$$eval("#board .coord", (e) => e.length), 16, "coordinates without numbers");
  await page.check("#show-numbers");
  // clear of every disc (the nearest point of each label's box lies outside each disc's ellipse)
  const hits = await page.evaluate(() => {
    const boxes = [...document.querySelectorAll("#board .coord")].map((t) => [t.textContent, t.getBBox()]);
    const out = [];
    for (const c of document.querySelectorAll("#board .pieces circle.disc, #board .pieces ellipse.disc-edge")) {
      const cx = Number(c.getAttribute("cx"));
      const cy = Number(c.getAttribute("cy"));
      const rx = Number(c.getAttribute("r") || c.getAttribute("rx"));
      const ry = Number(c.getAttribute("r") || c.getAttribute("ry"));
      for (const [t, b] of boxes) {
        const px = Math.max(b.x, Math.min(cx, b.x + b.width));
        const py = Math.max(b.y, Math.min(cy, b.y + b.height));
        if (((px - cx) / rx) ** 2 + ((py - cy) / ry) ** 2 < 1) out.push(t);
      }
    }
    return out;
  });
  assert.deepEqual(hits, [], "coordinates clear of every disc");
  // readable in both page themes: WCAG contrast of each label against its square at least 4.5:1
  for (const theme of ["dark", "light"]) {
    await page.selectOption("#theme-select", theme);
    const worst = await page.evaluate(() => {
      const lum = (css) => {
        const [r, g, b] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      let min = Infinity;
      for (const t of document.querySelectorAll("#board .coord")) {
        const r = t.getBoundingClientRect();
        const under = document
          .elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2)
          .find((e) => e.matches && e.matches("#board rect.sq"));
        const [a, b] = [lum(getComputedStyle(t).fill), lum(getComputedStyle(under).fill)];
        min = Math.min(min, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
      }
      return min;
    });
    assert.ok(worst >= 4.5, `coordinates' contrast in the ${theme} theme: ${worst.toFixed(2)}`);
  }
  await screenshot(page, "conv-coords");
  assert.deepEqual(await axeFindings(page), [], "axe with the coordinates and the options");
  // remembered
  await reloadApp(page);
  assert.equal(await page.isChecked("#show-coords"), true);
  assert.equal(await page.$$eval("#board .coord", (e) => e.length), 16);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a piece dragged with a finger is drawn twice as large above it; with a mouse, as it is under the pointer", async () => {
  const page = await newPage(env.browser, { width: 390, height: 844, mobile: true });
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  /** Drag from square `from` towards square `to` with `pointerType`; the drawn piece's disc and the pointer, then drop. */
  const drag = async (from, to, pointerType) => {
    const a = await squareCenter(page, from);
    const b = await squareCenter(page, to);
    return page.evaluate(
      ({ a, b, pointerType }) => {
        const svg = document.querySelector("#board svg");
        const fire = (type, p) =>
          svg.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: 7, pointerType, isPrimary: true, button: 0, buttons: type === "pointerup" ? 0 : 1, clientX: p.x, clientY: p.y }));
        fire("pointerdown", a);
        fire("pointermove", { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
        fire("pointermove", b);
        const disc = document.querySelector("#board .drag .piece.dragging circle.disc");
        const still = document.querySelector('#board .pieces .piece[data-square="1"] circle.disc');
        const over = document.querySelector("#board .drag .drag-over:not([hidden])");
        const r = disc.getBoundingClientRect();
        const out = {
          width: r.width,
          normal: still.getBoundingClientRect().width,
          cx: r.left + r.width / 2,
          cy: r.top + r.height / 2,
          bottom: r.bottom,
          over: over ? over.getBoundingClientRect() : null,
        };
        fire("pointerup", b);
        return out;
      },
      { a, b, pointerType },
    );
  };
  const sq15 = await squareCenter(page, 15);
  const touch = await drag(11, 15, "touch");
  const ratio = touch.width / touch.normal;
  assert.ok(ratio > 1.8 && ratio < 2.2, `twice as large under a finger: ${ratio.toFixed(2)}`);
  assert.ok(touch.bottom < sq15.y, `drawn above the finger: the disc ends at ${touch.bottom}, the finger at ${sq15.y}`);
  assert.ok(Math.abs(touch.cx - sq15.x) < 2, "straight above the finger");
  assert.ok(touch.over && touch.over.left <= sq15.x && touch.over.right >= sq15.x && touch.over.top <= sq15.y && touch.over.bottom >= sq15.y, "the square under the finger is marked");
  // the move is the square under the finger, not under the drawn piece
  await waitMoves(page, 1);
  assert.deepEqual(await moveList(page), ["11-15"]);
  await screenshot(page, "conv-touch-drag");
  const sq18 = await squareCenter(page, 18);
  const mouse = await drag(22, 18, "mouse");
  const r2 = mouse.width / mouse.normal;
  assert.ok(r2 > 0.9 && r2 < 1.1, `a mouse drag draws the piece at its size: ${r2.toFixed(2)}`);
  assert.ok(Math.abs(mouse.cy - sq18.y) < 12 && Math.abs(mouse.cx - sq18.x) < 2, "under the mouse pointer");
  assert.equal(mouse.over, null, "no mark under a mouse");
  await waitMoves(page, 2);
  assert.deepEqual(await moveList(page), ["11-15", "22-18"]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Open the play page on a saved game against the engine (level 1: it takes at least 1.5 s a move) from `fen`, Black (the player) to move. */
async function engineGame(page, fen) {
  // written from a page of the site without the app (the app saves its own game when it is left)
  await page.goto(env.server.url + "img/crown.svg");
  await page.evaluate((fen) => {
    localStorage.setItem("crown.localGame.v1", JSON.stringify({ mode: "play", variant: "american", setup: "seed", startFen: fen, moves: [], human: "black", level: 1, flipped: true, clock: null }));
  }, fen);
  await openApp(page, env.server.url);
  await waitStatus(page, /Your move/);
  assert.equal(await page.evaluate(() => window.crownApp.state.level), 1);
}

const thinking = (page) => page.waitForFunction(() => window.crownApp.state.thinking === true, null, { timeout: 60000 });

test("premoves against the engine: entered while it thinks, played at once if legal, else dropped with a note; right-click and Escape cancel", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  // Black men on 1 (b8) and 4 (h8), White's man on 29 (a1). After 4-8 White's only move is 29-25
  // (a man moves one square diagonally forward; a1 is on the edge), which leaves 1-5 legal.
  await engineGame(page, "B:W29:B1,4");
  await clickSquare(page, 4);
  await clickSquare(page, 8);
  await thinking(page);
  await clickSquare(page, 1);
  await clickSquare(page, 5);
  await page.waitForSelector("#premove:not([hidden])");
  assert.equal(await page.textContent("#premove-text"), "Premove: 1-5");
  assert.deepEqual(await moveList(page), ["4-8"], "a premove is not played before the engine's move");
  assert.equal(await page.$$eval("#board .arrows line", (e) => e.length), 1, "the premove's arrow");
  await waitMoves(page, 3);
  assert.deepEqual(await moveList(page), ["4-8", "29-25", "1-5"], "played at once after the engine's move");
  assert.equal(await page.isHidden("#premove"), true);
  assert.equal((await boardPieces(page))[5], "black man");
  await screenshot(page, "conv-premove-engine");

  // Dropped: Black's man on 13 (a5), White's on 21 (a3). After 4-8 White's only move is 21-17 (b4);
  // then Black must jump 13x22 (jumping is compulsory), so the premove 8-11 is not legal.
  await engineGame(page, "B:W21:B4,13");
  await clickSquare(page, 4);
  await clickSquare(page, 8);
  await thinking(page);
  await clickSquare(page, 8);
  await clickSquare(page, 11);
  await page.waitForSelector("#premove:not([hidden])");
  await waitMoves(page, 2);
  await page.waitForFunction(() => /Premove 8-11 is not legal now/.test(document.querySelector("#toast").textContent));
  assert.equal(await page.isVisible("#toast"), true, "the note is on screen");
  assert.deepEqual(await moveList(page), ["4-8", "21-17"], "the illegal premove is dropped");
  assert.equal(await page.isHidden("#premove"), true);
  await waitStatus(page, /Your move.*must capture/);

  // Cancelled with a right-click on the board, then with Escape: the engine's move comes, nothing more.
  await engineGame(page, "B:W29:B1,4");
  await clickSquare(page, 4);
  await clickSquare(page, 8);
  await thinking(page);
  await clickSquare(page, 1);
  await clickSquare(page, 5);
  await page.waitForSelector("#premove:not([hidden])");
  const c = await squareCenter(page, 20);
  await page.mouse.click(c.x, c.y, { button: "right" });
  assert.equal(await page.isHidden("#premove"), true, "a right-click cancels the premove");
  assert.equal(await page.$$eval("#board .arrows line", (e) => e.length), 0, "and its arrow");
  await waitStatus(page, /Your move/);
  assert.deepEqual(await moveList(page), ["4-8", "29-25"]);
  await clickSquare(page, 8);
  await clickSquare(page, 11);
  await thinking(page);
  await clickSquare(page, 1);
  await clickSquare(page, 5);
  await page.waitForSelector("#premove:not([hidden])");
  await page.keyboard.press("Escape");
  assert.equal(await page.isHidden("#premove"), true, "Escape cancels the premove");
  await waitStatus(page, /Your move/);
  assert.equal((await moveList(page)).length, 4, "the engine moved, the cancelled premove was not played");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("confirm online moves (off by default): the move is shown with Confirm / Cancel, sent only when confirmed; keyboard; zen; remembered", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(env.browser, { width: 1280, height: 800 });
  const b = await newPage(env.browser, { width: 1280, height: 800 });
  await friendGame(a, b);
  assert.equal(await a.inputValue("#confirm-moves"), "never", "off by default");
  const serverPly = (p) => p.evaluate(async () => (await (await fetch(`api/games/${window.crownApp.online().gameId}`)).json()).ply);
  // off: a move is sent at once
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await waitMoves(b, 1);
  await clickSquare(b, 22);
  await clickSquare(b, 18);
  await waitMoves(a, 2);
  await waitStatus(a, /Your move/);
  // on: Black must jump 15x22; the move is shown, not sent
  await a.selectOption("#confirm-moves", "always");
  await clickSquare(a, 15);
  await clickSquare(a, 22);
  await a.waitForSelector("#move-confirm:not([hidden])");
  assert.equal(await a.textContent("#move-confirm-ok"), "Confirm 15x22");
  let pieces = await boardPieces(a);
  assert.equal(pieces[22], "black man", "the move is shown on the board");
  assert.equal(pieces[15], undefined);
  assert.equal(pieces[18], undefined, "the jumped man is gone from the board shown");
  assert.equal(await serverPly(a), 2, "not sent");
  assert.match(await a.textContent("#status"), /Confirm your move 15x22/);
  await a.waitForFunction(() => document.activeElement && document.activeElement.id === "move-confirm-ok");
  assert.deepEqual(await axeFindings(a), [], "axe with the Confirm / Cancel pair");
  await screenshot(a, "conv-confirm");
  // Cancel restores the position
  await a.click("#move-confirm-cancel");
  assert.equal(await a.isHidden("#move-confirm"), true);
  pieces = await boardPieces(a);
  assert.deepEqual([pieces[15], pieces[18], pieces[22]], ["black man", "white man", undefined], "the position is back");
  await waitStatus(a, /Your move/);
  // the keyboard: Escape cancels, Enter on the focused Confirm sends
  await clickSquare(a, 15);
  await clickSquare(a, 22);
  await a.waitForFunction(() => document.activeElement && document.activeElement.id === "move-confirm-ok");
  await a.keyboard.press("Escape");
  assert.equal(await a.isHidden("#move-confirm"), true, "Escape cancels");
  assert.equal((await boardPieces(a))[15], "black man");
  assert.equal(await serverPly(a), 2);
  await clickSquare(a, 15);
  await clickSquare(a, 22);
  await a.waitForFunction(() => document.activeElement && document.activeElement.id === "move-confirm-ok");
  await a.keyboard.press("Enter");
  await waitMoves(b, 3);
  assert.deepEqual(await moveList(b), ["11-15", "22-18", "15x22"]);
  assert.equal(await a.isHidden("#move-confirm"), true);
  // zen mode on the online page: board, names, clocks; the Confirm pair is there too
  await a.keyboard.press("z");
  assert.equal(await zenOn(a), true);
  for (const sel of ["nav.modes", "#chat", "#online-resign", "#movelist"]) assert.equal(await a.isVisible(sel), false, `${sel} hidden in zen mode`);
  await clickSquare(b, 25); // White takes back: 25x18
  await clickSquare(b, 18);
  await waitMoves(a, 4);
  // the move entered with the keyboard on the board (Enter on a square, Enter on its destination)
  await a.focus('#board rect.sq[data-square="9"]');
  await a.keyboard.press("Enter");
  await a.focus('#board rect.sq[data-square="14"]');
  await a.keyboard.press("Enter");
  await a.waitForSelector("#move-confirm:not([hidden])");
  await a.waitForFunction(() => document.activeElement && document.activeElement.id === "move-confirm-ok");
  await screenshot(a, "conv-confirm-zen");
  assert.equal(await a.evaluate(() => window.crownApp.online().view.ply), 4, "not sent before Confirm");
  await a.keyboard.press("Enter");
  await waitMoves(b, 5);
  assert.deepEqual((await moveList(b)).slice(3), ["25x18", "9-14"]);
  // remembered (and zen mode with it)
  await reloadApp(a);
  assert.equal(await a.inputValue("#confirm-moves"), "always");
  assert.equal(await zenOn(a), true);
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("a premove goes through on the player's turn without Confirm, even with Confirm online moves: Always", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(env.browser, { width: 1280, height: 800 });
  const b = await newPage(env.browser, { width: 1280, height: 800 });
  await friendGame(a, b);
  const serverPly = (p) => p.evaluate(async () => (await (await fetch(`api/games/${window.crownApp.online().gameId}`)).json()).ply);
  await a.selectOption("#confirm-moves", "always");
  // a move on the player's own turn still waits for Confirm
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await a.waitForSelector("#move-confirm:not([hidden])");
  await a.click("#move-confirm-ok");
  await waitMoves(b, 1);
  // while White is to move, Black enters the premove 9-13
  await clickSquare(a, 9);
  await clickSquare(a, 13);
  await a.waitForSelector("#premove:not([hidden])");
  assert.equal(await a.textContent("#premove-text"), "Premove: 9-13");
  // White plays 24-20 (no jump for Black after it): the premove is legal and is sent at once
  await clickSquare(b, 24);
  await clickSquare(b, 20);
  await waitMoves(b, 3);
  assert.deepEqual(await moveList(b), ["11-15", "24-20", "9-13"]);
  assert.equal(await serverPly(a), 3, "the premove reached the server");
  assert.equal(await a.isHidden("#move-confirm"), true, "no Confirm asked for the premove");
  assert.doesNotMatch(await a.textContent("#status"), /Confirm your move/);
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("an aborted online game offers Rematch; the opponent accepts it", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(env.browser);
  const b = await newPage(env.browser);
  await friendGame(a, b);
  const first = await a.evaluate(() => window.crownApp.online().gameId);
  await a.click("#online-abort");
  for (const p of [a, b]) {
    await waitStatus(p, /^Game aborted by Black/);
    await p.waitForSelector("#online-rematch:not([hidden])");
  }
  await a.click("#online-rematch");
  await b.waitForFunction(() => document.querySelector("#online-rematch").textContent === "Accept rematch");
  await b.click("#online-rematch");
  // the rematch: a new game, colours swapped (docs/api.md)
  await a.waitForFunction((id) => window.crownApp.online().gameId !== id, first);
  await b.waitForFunction((id) => window.crownApp.online().gameId !== id, first);
  assert.equal(await a.evaluate(() => window.crownApp.online().gameId), await b.evaluate(() => window.crownApp.online().gameId));
  assert.equal(await a.evaluate(() => window.crownApp.online().seat), "white");
  assert.equal(await b.evaluate(() => window.crownApp.online().seat), "black");
  await waitStatus(b, /Your move/);
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});
