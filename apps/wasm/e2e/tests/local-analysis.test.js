// Local play and the analysis board (issue 13, part 3): hot seat on one device, an imported game's
// players in the player bars, the analysis panel readable at 1280×800 (and on phones), the
// evaluation graph without a review, promote / delete a variation (checked in the exported PDN),
// the virtualised game picker of big PDN files with progress, typed-move errors shown as typed, and
// on phones the chat's Send button and messages that never cover the board or the chat input.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startServer, launch, newPage, openApp, screenshot, clickSquare, moveList, artifacts, repoRoot } from "./harness.js";

const shared = process.env.CROWN_SHARED || path.join(repoRoot, "../shared");
const TINSLEY = path.join(shared, "data/pdn/tinsley.pdn");
const BALLOTS = path.join(shared, "data/pdn/ballots-11-man-english.pdn");

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

/** The tag blocks of a PDN file, read here with a regular expression (independent of the app). */
function tagBlocks(text) {
  const games = [];
  let cur = null;
  for (const line of text.split(/\r?\n/)) {
    const tags = [...line.matchAll(/\[(\w+)\s+"([^"]*)"\]/g)];
    if (tags.length && line.trim().startsWith("[")) {
      if (!cur) games.push((cur = {}));
      for (const m of tags) cur[m[1]] = m[2];
      if (line.replace(/\[[^\]]*\]/g, "").trim()) cur = null; // movetext on the same line
    } else if (line.trim()) {
      cur = null;
    }
  }
  return games;
}

async function download(page, click) {
  const [d] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = path.join(artifacts, `download-${Date.now()}.pdn`);
  await d.saveAs(file);
  return fs.readFileSync(file, "utf8");
}

const rect = (page, sel) =>
  page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  });
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const ready = (page) => page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");

/** Import a PDN file through the dialog; resolves when the picker lists its games (ms taken). */
async function importFile(page, file) {
  await page.click("#pdn-import");
  await page.setInputFiles("#pdn-file", file);
  const size = fs.statSync(file).size;
  await page.waitForFunction((n) => document.querySelector("#pdn-text").value.length > n * 0.9, size);
  // watch the progress bar: shown while the worker reads the file
  await page.evaluate(() => {
    window.__progressSeen = 0;
    const p = document.querySelector("#games-progress");
    new MutationObserver(() => {
      if (!p.hidden) window.__progressSeen++;
    }).observe(p, { attributes: true });
  });
  const t0 = Date.now();
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelector("#dlg-games[open]") && !document.querySelector("#games-search").disabled);
  return Date.now() - t0;
}

test("hot seat: two players on this device, both sides by clicking, names, clock, saved and restored", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url);
  await page.click("#new-game");
  await page.check("#opponent-hotseat");
  assert.equal(await page.isVisible("#name-black"), true, "names asked for");
  assert.equal(await page.isVisible("#level-range"), false, "no engine level in a hot-seat game");
  await page.fill("#name-black", "Alice");
  await page.fill("#name-white", "Bob");
  await page.selectOption("#form-new select[name=clock]", "300+3");
  await screenshot(page, "80-hotseat-dialog");
  await page.click("#new-ok");
  await page.waitForFunction(() => window.crownApp.state.hotseat === true);
  const names = async () => ({
    black: await page.textContent(".player-bar.black .player-name"),
    white: await page.textContent(".player-bar.white .player-name"),
  });
  assert.deepEqual(await names(), { black: "Alice", white: "Bob" });
  assert.match(await page.textContent("#status"), /^Alice to move \(Black\)/);
  assert.equal(await page.textContent("#game-title"), "American checkers · two players");
  // Black (first in American checkers) and White both move by clicking: no engine answers
  await clickSquare(page, 11);
  await clickSquare(page, 15);
  assert.match(await page.textContent("#status"), /^Bob to move \(White\)/);
  await clickSquare(page, 23);
  await clickSquare(page, 19);
  await clickSquare(page, 8);
  await clickSquare(page, 11);
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11"]);
  assert.equal(await page.evaluate(() => window.crownApp.state.thinking), false);
  // both clocks run: 5 min + 3 s, each player got the increment for their moves
  assert.equal(await page.isVisible("#clock-top"), true);
  assert.equal(await page.isVisible("#clock-bottom"), true);
  const clock = await page.evaluate(() => ({ ...window.crownApp.state.clock }));
  assert.equal(clock.inc, 3000);
  assert.equal(clock.running, "white");
  await screenshot(page, "81-hotseat-game");

  // a reload restores the game, its players and the hot seat
  await page.reload();
  await ready(page);
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11"]);
  assert.equal(await page.evaluate(() => window.crownApp.state.hotseat), true);
  assert.deepEqual(await names(), { black: "Alice", white: "Bob" });
  await clickSquare(page, 22);
  await clickSquare(page, 17);
  assert.equal((await moveList(page)).length, 4, "White moves again after the reload");

  // take back is one ply; the player to move resigns (asked first) and the other wins
  await page.click("#takeback");
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11"]);
  await page.click("#resign");
  await page.waitForSelector("#dlg-confirm[open]");
  assert.equal(await page.textContent("#confirm-title"), "Bob resigns?");
  await page.click("#confirm-yes");
  await page.waitForSelector("#dlg-over[open]");
  assert.equal(await page.textContent("#over-title"), "Alice wins");
  assert.equal(await page.textContent("#over-result"), "1-0");
  // the dialog of the online resignation reads as before
  assert.equal(await page.textContent("#confirm-title"), "Resign?");
  // the PDN names the players
  const out = await download(page, () => page.click("#over-pdn"));
  assert.match(out, /\[Black "Alice"\]/);
  assert.match(out, /\[White "Bob"\]/);
  await page.context().close();
});

test("an imported game's players are in the player bars; the panel is readable at 1280×800, 390×844 and 844×390", async () => {
  const text = fs.readFileSync(TINSLEY, "utf8");
  const first = tagBlocks(text)[0];
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  await importFile(page, TINSLEY);
  await page.click('#games-list .game-row[data-index="1"]');
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length > 20);
  assert.equal(await page.textContent(".player-bar.black .player-name"), first.Black);
  assert.equal(await page.textContent(".player-bar.white .player-name"), first.White);
  // 1280×800: nothing scrolls the page; status, engine line, graph, game, a tall move list and the
  // navigation are on screen without scrolling the panel
  await page.check("#analysis-engine");
  const docH = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(docH <= 800, `page height ${docH}`);
  const panelTop = await page.$eval(".panel", (p) => p.scrollTop);
  assert.equal(panelTop, 0);
  for (const sel of ["#status", "#eval-box", "#graph-box", "#game-info", ".movelist-wrap", ".nav-buttons", "#tree-tools"]) {
    const r = await rect(page, sel);
    assert.ok(r.top >= 0 && r.bottom <= 800, `${sel} on screen: ${JSON.stringify(r)}`);
  }
  const list = await rect(page, ".movelist-wrap");
  assert.ok(list.height >= 240, `the move list is ${list.height} px high`);
  assert.ok(list.width >= 260, `the move list is ${list.width} px wide`);
  await screenshot(page, "82-analysis-1280x800");

  // 390×844: nothing wider than the screen, the move list still shows several moves
  await page.setViewportSize({ width: 390, height: 844 });
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 390, `page width ${w}`);
  const phoneList = await rect(page, ".movelist-wrap");
  assert.ok(phoneList.height >= 150, `the move list is ${phoneList.height} px high at 390×844`);
  await screenshot(page, "83-analysis-390x844");

  // 844×390: side by side, the page does not scroll; the panel scrolls on its own
  await page.setViewportSize({ width: 844, height: 390 });
  const s = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));
  assert.ok(s.h <= 390 && s.w <= 844, `page ${s.w}×${s.h}`);
  const board = await rect(page, "#board");
  const panel = await rect(page, ".panel");
  assert.ok(panel.left >= board.right, "panel beside the board");
  const land = await rect(page, ".movelist-wrap");
  assert.ok(land.height >= 80 && land.bottom <= 390, `move list at 844×390: ${JSON.stringify(land)}`);
  await screenshot(page, "84-analysis-844x390");
  await page.context().close();
});

test("evaluation graph while analysing, without a review: filled in the background, a click goes to that ply", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  const moves = ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10-17", "21-14"];
  await openApp(page, server.url, `?mode=analysis&variant=american&moves=${moves.join(",")}`);
  assert.equal(await page.isVisible("#graph-box"), true, "the graph is there in analysis");
  assert.equal(await page.isVisible("#review-box"), false, "no review was asked for");
  // one point per position (start + 8 plies), all evaluated by the background worker
  await page.waitForFunction(() => {
    const g = document.querySelector("#eval-graph");
    return g.dataset.points === "9" && g.dataset.filled === "9";
  }, null, { timeout: 60000 });
  assert.ok((await page.$$("#eval-graph .graph-line")).length >= 1, "a curve is drawn");
  await screenshot(page, "85-eval-graph");
  // click the point of ply 3 (the graph spans plies 0..8 left to right)
  const g = await rect(page, "#eval-graph");
  await page.mouse.click(g.left + (g.width * 3) / 8, g.top + g.height / 2);
  assert.equal(await page.evaluate(() => window.crownApp.state.viewPly), 3);
  assert.equal(await page.textContent("#movelist .mv.current"), "8-11", "the position after the third move");
  // a variation: its new position is added to the graph of the line on the board
  await clickSquare(page, 22);
  await clickSquare(page, 18);
  // a variation: the main column keeps the main line (issue 26, defect 4), the board the variation
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14"]);
  assert.deepEqual(await page.evaluate(() => window.crownApp.state.history.map((h) => h.text)), ["11-15", "23-19", "8-11", "22-18"]);
  await page.waitForFunction(() => {
    const g = document.querySelector("#eval-graph");
    return g.dataset.points === "5" && g.dataset.filled === "5";
  }, null, { timeout: 60000 });
  await page.context().close();
});

test("variations: make main line and delete, written so in the exported PDN", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  const pdn =
    '[Event "Promote test"]\n[Black "A"]\n[White "B"]\n[Result "1-0"]\n\n' +
    "1. 11-15 23-19 (22-18 {a cross} 15x22) (24-20) 2. 8-11 22-17 1-0\n";
  await page.click("#pdn-import");
  await page.fill("#pdn-text", pdn);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 4);
  assert.equal(await page.isDisabled("#var-promote"), true, "the main line is on the board");
  // promote 22-18 beside its variation: it becomes the main line; the old main line a variation
  await page.click('#movelist .vtool.promote[aria-label="Make 1… 22-18 the main line"]');
  let out = await download(page, () => page.click("#pdn-download"));
  assert.match(out, /1\. 11-15 22-18 \{a cross\}\s+\(1\.\.\. 23-19 2\. 8-11 22-17\)\s+\(1\.\.\. 24-20\)\s+2\. 15x22\s+\*/, out);
  assert.match(out, /\[Result "\*"\]/, "the resignation belonged to the other line");
  assert.match(await page.textContent("#info-event"), /Promote test · \*$/, "the shown result is the new main line's");
  // the message of the change covers neither the board nor the moves column
  await page.waitForSelector("#toast:not([hidden])");
  const toast = await rect(page, "#toast");
  for (const sel of ["#board", "#moves-col .movelist-wrap", "#move-input", ".nav-buttons"]) {
    assert.ok(!overlap(toast, await rect(page, sel)), `toast over ${sel}: ${JSON.stringify(toast)}`);
  }
  await screenshot(page, "86-variation-promoted");
  // delete 24-20
  await page.click('#movelist .vtool.delete[aria-label="Delete the variation 1… 24-20"]');
  out = await download(page, () => page.click("#pdn-download"));
  assert.ok(!out.includes("24-20"), out);
  // go into the 23-19 line, make it the main line again with the button under the list: the result comes back
  await page.click('#movelist .variation .vmove:has-text("8-11")');
  assert.deepEqual(await page.evaluate(() => window.crownApp.state.history.map((h) => h.text)), ["11-15", "23-19", "8-11", "22-17"]);
  assert.deepEqual(await moveList(page), ["11-15", "22-18", "15x22"], "the main column keeps the main line");
  assert.equal(await page.isDisabled("#var-promote"), false);
  await page.click("#var-promote");
  out = await download(page, () => page.click("#pdn-download"));
  assert.match(out, /1\. 11-15 23-19\s+\(1\.\.\. 22-18 \{a cross\} 2\. 15x22\)\s+2\. 8-11 22-17 1-0/, out);
  assert.match(out, /\[Result "1-0"\]/);
  // go into 22-18 and delete it with the button under the list: back to the position before it
  await page.click('#movelist .variation .vmove:has-text("22-18")');
  assert.deepEqual((await page.evaluate(() => window.crownApp.state.history.map((h) => h.text))).slice(0, 2), ["11-15", "22-18"]);
  await page.click("#var-delete");
  assert.equal(await page.evaluate(() => window.crownApp.state.viewPly), 1);
  assert.deepEqual(await moveList(page), ["11-15", "23-19", "8-11", "22-17"]);
  out = await download(page, () => page.click("#pdn-download"));
  assert.ok(!out.includes("22-18") && !out.includes("("), out);
  assert.match(out, /1\. 11-15 23-19 2\. 8-11 22-17 1-0/);
  // the tree survives a reload as edited
  await page.reload();
  await ready(page);
  assert.equal(await page.$$eval("#movelist .variation", (els) => els.length), 0);
  await page.context().close();
});

test("game picker: tinsley.pdn (724 games) and the 2,400-game ballots file, read off the main thread, virtualised list", async () => {
  const tins = tagBlocks(fs.readFileSync(TINSLEY, "utf8"));
  const ballots = tagBlocks(fs.readFileSync(BALLOTS, "utf8"));
  assert.equal(tins.length, 724);
  assert.equal(ballots.length, 2400);
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  const ms = await importFile(page, TINSLEY);
  const workerMs = await page.evaluate(() => window.crownApp.state.pdnIndexMs);
  console.log(`tinsley.pdn (724 games, 343 KB): picker ready ${ms} ms after Open (worker indexing ${Math.round(workerMs)} ms)`);
  assert.ok((await page.evaluate(() => window.__progressSeen)) >= 1, "the progress bar was shown");
  assert.equal(await page.textContent("#games-count"), "724 games");
  const rows = () => page.$$eval("#games-list li", (els) => els.length);
  assert.ok((await rows()) < 40, `only the visible rows are in the page: ${await rows()}`);
  // scroll to the end: the last game is drawn, and still only a few rows
  await page.$eval("#games-scroll", (s) => (s.scrollTop = s.scrollHeight));
  await page.waitForSelector('#games-list .game-row[data-index="724"]');
  assert.ok((await rows()) < 40);
  const last = tins[723];
  assert.match(await page.textContent('#games-list .game-row[data-index="724"]'), new RegExp(last.Black.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  await screenshot(page, "87-picker-end");
  // a game from the end of the file opens with its tags and its number in the file
  await page.click('#games-list .game-row[data-index="724"]');
  await page.waitForFunction(() => !document.querySelector("#dlg-games[open]"));
  assert.equal(await page.textContent("#info-number"), "Game 724 of 724");
  assert.equal(await page.textContent("#info-players"), `${last.Black} (Black) – ${last.White} (White)`);

  // the ballots file: 2,400 games, scrolled through in steps (frames timed for the report)
  const ms2 = await importFile(page, BALLOTS);
  console.log(`ballots-11-man-english.pdn (2,400 games, 175 KB): picker ready ${ms2} ms after Open`);
  assert.equal(await page.textContent("#games-count"), "2400 games");
  // the same page's frames with no scrolling, for comparison (the machine's load shows here)
  const idle = await page.evaluate(async () => {
    const times = [];
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      await new Promise((r) => requestAnimationFrame(() => r()));
      times.push(performance.now() - t);
    }
    return times.reduce((a, b) => a + b, 0) / times.length;
  });
  console.log(`ballots picker idle frames: mean ${idle.toFixed(1)} ms`);
  const frames = await page.evaluate(async () => {
    const s = document.querySelector("#games-scroll");
    const times = [];
    let max = 0;
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      s.scrollTop += s.clientHeight;
      await new Promise((r) => requestAnimationFrame(() => r()));
      times.push(performance.now() - t);
      max = Math.max(max, document.querySelectorAll("#games-list li").length);
    }
    return { mean: times.reduce((a, b) => a + b, 0) / times.length, worst: Math.max(...times), maxRows: max };
  });
  console.log(`ballots picker scroll: 60 pages, frame mean ${frames.mean.toFixed(1)} ms, worst ${frames.worst.toFixed(1)} ms, at most ${frames.maxRows} rows`);
  assert.ok(frames.maxRows < 40, `rows in the page while scrolling: ${frames.maxRows}`);
  // wheel-like steps of 40 px back up: rows kept, new ones added in order
  const steps = await page.evaluate(async () => {
    const s = document.querySelector("#games-scroll");
    const times = [];
    for (let i = 0; i < 120; i++) {
      const t = performance.now();
      s.scrollTop -= 40;
      await new Promise((r) => requestAnimationFrame(() => r()));
      times.push(performance.now() - t);
    }
    const order = [...document.querySelectorAll("#games-list .game-row")].map((b) => Number(b.dataset.index));
    return { mean: times.reduce((a, b) => a + b, 0) / times.length, worst: Math.max(...times), order };
  });
  console.log(`ballots picker scroll: 120 steps of 40 px, frame mean ${steps.mean.toFixed(1)} ms, worst ${steps.worst.toFixed(1)} ms`);
  assert.deepEqual(steps.order, [...steps.order].sort((a, b) => a - b), "rows in list order");
  assert.equal(steps.order[steps.order.length - 1] - steps.order[0] + 1, steps.order.length, "contiguous rows");
  // search still covers all games: the ballots with a man on 13 … counted here from the FEN tags
  await page.fill("#games-search", "B4,3,2,1,8,7,6,5,11,10,14");
  const want = ballots.map((t, i) => [t, i + 1]).filter(([t]) => t.FEN.includes("B4,3,2,1,8,7,6,5,11,10,14"));
  assert.ok(want.length > 0);
  assert.equal(await page.textContent("#games-count"), `${want.length} of 2400 games match`);
  await page.click("#games-list li:first-child .game-row");
  await page.waitForFunction(() => !document.querySelector("#dlg-games[open]"));
  assert.equal(await page.textContent("#info-number"), `Game ${want[0][1]} of 2400`);
  // the ballot's position: Black men on the FEN's squares (read here from the tag)
  const blackSquares = want[0][0].FEN.split(":B")[1].split(",").map(Number).sort((a, b) => a - b);
  const onBoard = await page.evaluate(() => window.crownApp.state.game.pieces().filter((p) => p.color === "black").map((p) => p.square).sort((a, b) => a - b));
  assert.deepEqual(onBoard, blackSquares);
  await page.context().close();
});

test("a typed move's error shows the input as typed: markup as text, control characters escaped", async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url);
  await page.fill("#move-input", "12-16<script>");
  await page.press("#move-input", "Enter");
  await page.waitForSelector("#move-error:not([hidden])");
  const err = await page.textContent("#move-error");
  assert.ok(err.includes("“12-16<script>”"), err);
  assert.equal(err.split("12-16<script>").length - 1, 1, `the input quoted once: ${err}`);
  assert.equal(await page.$$eval("#move-error *", (els) => els.length), 0, "no element made from the input");
  await page.evaluate(() => {
    const i = document.querySelector("#move-input");
    i.value = "11-\u000015";
  });
  await page.press("#move-input", "Enter");
  const err2 = await page.textContent("#move-error");
  assert.ok(err2.includes("“11-\\u000015”"), JSON.stringify(err2));
  assert.ok(!err2.includes("\u0000"), "no raw NUL in the message");
  await screenshot(page, "88-typed-error");
  await page.context().close();
});

test("390×844: the chat's Send button is not oversized; messages cover neither the board nor the chat input", async () => {
  const page = await newPage(browser, { width: 390, height: 844, mobile: true });
  await openApp(page, server.url);
  // show the chat form as an online game does (the form is in the page; no server needed for its look)
  await page.evaluate(() => {
    document.querySelector("#actions-play").hidden = true;
    document.querySelector("#actions-online").hidden = false;
    document.querySelector("#chat").hidden = false;
  });
  const send = await rect(page, "#chat-send");
  const input = await rect(page, "#chat-input");
  assert.ok(send.width <= 100, `Send is ${send.width} px wide`);
  assert.ok(input.width >= 2 * send.width, `the input (${input.width} px) is the wide part`);
  // a long message, with the chat input scrolled into view and at the top of the page
  for (const scroll of ["top", "chat"]) {
    if (scroll === "chat") await page.$eval("#chat-input", (e) => e.scrollIntoView({ block: "end" }));
    else await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => {
      const t = document.querySelector("#toast");
      t.textContent = "Your move 11-15 was not played: the game changed on the server while you were away";
      t.hidden = false;
    });
    const toast = await rect(page, "#toast");
    assert.ok(!overlap(toast, await rect(page, "#board")), `toast over the board (${scroll}): ${JSON.stringify(toast)}`);
    assert.ok(!overlap(toast, await rect(page, "#chat-input")), `toast over the chat input (${scroll})`);
    assert.ok(!overlap(toast, await rect(page, "#chat-send")), `toast over Send (${scroll})`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "89-phone-chat-toast");
  await page.context().close();
});

test("axe-core audit of the new parts: analysis with variations and graph at 1280×800, the game picker, the hot-seat dialog", async () => {
  const AXE = path.join(repoRoot, "apps/wasm/e2e/node_modules/axe-core/axe.min.js");
  const page = await newPage(browser, { width: 1280, height: 800 });
  await openApp(page, server.url, "?mode=analysis&variant=american");
  await page.addScriptTag({ path: AXE });
  const audit = async (name, context = "document") => {
    const result = await page.evaluate(async (ctx) => {
      const r = await window.axe.run(ctx === "document" ? document : document.querySelector(ctx), { resultTypes: ["violations"] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
    }, context);
    const count = result.reduce((a, v) => a + v.nodes, 0);
    console.log(`axe-core (${name}): ${result.length} rules violated, ${count} nodes: ${JSON.stringify(result)}`);
    assert.equal(count, 0, `${name}: no findings`);
  };
  await page.click("#pdn-import");
  await page.fill("#pdn-text", '[Event "Audit"]\n\n1. 11-15 23-19 (22-18 {a cross}) 2. 8-11 22-17 *\n');
  await page.click("#pdn-ok");
  await page.waitForSelector("#movelist .vtool.promote");
  await page.waitForFunction(() => document.querySelector("#eval-graph").dataset.filled === "5", null, { timeout: 60000 });
  await audit("analysis with a variation and the graph, 1280×800");
  await importFile(page, TINSLEY);
  await audit("game picker of tinsley.pdn", "#dlg-games");
  await page.keyboard.press("Escape");
  await page.click("#mode-play");
  await page.click("#new-game");
  await page.check("#opponent-hotseat");
  await audit("new game dialog, hot seat", "#dlg-new");
  await page.context().close();
});
