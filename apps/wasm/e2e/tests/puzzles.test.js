// The Puzzles page (issue 25): a puzzle solved by clicking the board as a player would (the
// solution read here from the committed crates/puzzle/puzzles/american.jsonl, not from the page), the
// forced replies played by the page, "Solved" and the Glicko-2 rating up; a wrong legal move
// refuted (text and arrows: said to be the refutation, not the answer) and the rating down; the
// rating kept over a reload (localStorage); puzzles served near the player's rating; an axe-core
// audit of the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { serverAndBrowser, newPage, clickSquare, screenshot, repoRoot, solveByClicks, playWrongMove } from "./harness.js";

const AXE = path.join(repoRoot, "apps/wasm/e2e/node_modules/axe-core/axe.min.js");
const env = serverAndBrowser();

/** The committed American puzzles, one object per line. */
const PUZZLES = fs
  .readFileSync(path.join(repoRoot, "crates/puzzle/puzzles/american.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

/**
 * The trainer's rule (docs/puzzles.md) over the file: of the puzzles not in `rated` other than
 * index `from` (-1: none), the one whose difficulty is nearest `rating`; equally near ones in file
 * order from after `from`.
 */
function nearestUnrated(rating, from, rated = new Set()) {
  let best = null;
  for (let k = 1; k <= PUZZLES.length; k++) {
    const i = (from + k) % PUZZLES.length;
    if (i === from || rated.has(PUZZLES[i].id)) continue;
    const d = Math.abs(PUZZLES[i].difficulty - rating);
    if (best === null || d < best.d) best = { i, d };
  }
  return best.i;
}

/** The player's exact puzzle rating on the page. */
const exactRating = (page) => page.evaluate(() => window.crownApp.state.puzzle.rating.rating);

/** The squares a move text names (`27-23`, `19x26`, `11x18x25`). */
const squares = (text) => text.split(/[-x]/).map(Number);

/** The puzzle's rating shown on the page (its exact value is in data-rating). */
const shownRating = (page) => page.getAttribute("#puzzle-rating", "data-rating").then(Number);

/** Wait until the page shows a puzzle (`id`, when given) at its start, ready for a move. */
async function waitForPuzzle(page, id = null) {
  await page.waitForFunction(
    (id) => {
      const s = window.crownApp && window.crownApp.state;
      if (!s || s.mode !== "puzzles") return false;
      const p = s.puzzle;
      return p && p.puzzle && (!id || p.puzzle.id === id) && s.history.length === 0 && !p.pending;
    },
    id,
    { timeout: 30000 },
  );
}

/** Play a legal one-step move of the page's puzzle that is not its solution's first move. */
async function playWrongMoveHere(page) {
  const id = await page.getAttribute("#puzzle-info", "data-puzzle");
  return playWrongMove(page, PUZZLES.find((p) => p.id === id));
}

/** Open puzzle `id` of the American set by its address and wait until it is ready for a move. */
async function openPuzzle(page, id) {
  await page.goto(`${env.server.url}?mode=puzzles&variant=american&puzzle=${encodeURIComponent(id)}`);
  await waitForPuzzle(page, id);
}

test("solve a puzzle by clicking, fail the next with a wrong move, the rating survives a reload", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  // A puzzle with a forced reply in its line (at least two moves of the solver), each move named
  // by its squares.
  const solve = PUZZLES.find((p) => p.solution.length >= 3);
  assert.ok(solve, "the American set has a puzzle with a forced reply");
  await page.goto(`${env.server.url}?mode=puzzles&variant=american&puzzle=${encodeURIComponent(solve.id)}`);
  await waitForPuzzle(page, solve.id);
  assert.equal(await page.getAttribute("#puzzle-info", "data-puzzle"), solve.id);
  assert.equal(await page.isVisible("#actions-puzzles"), true);
  const r0 = await shownRating(page);
  assert.equal(r0, 1500, "a new player starts at 1500");
  // The board is turned to the side to move (the FEN's first letter): Black at the bottom when
  // Black solves.
  const solver = solve.fen.startsWith("B") ? "black" : "white";
  assert.equal(await page.evaluate(() => window.crownApp.state.flipped), solver === "black");

  for (let k = 0; k < solve.solution.length; k += 2) {
    const sq = squares(solve.solution[k]);
    for (const n of sq) await clickSquare(page, n);
    // the player's move, then (unless it was the last) the page's forced reply
    const plies = Math.min(k + 2, solve.solution.length);
    await page.waitForFunction(
      (n) => window.crownApp.state.history.length === n && !window.crownApp.state.puzzle.pending,
      plies,
      { timeout: 30000 },
    );
    const played = await page.evaluate(() => window.crownApp.state.history.map((h) => h.text));
    assert.deepEqual(played, solve.solution.slice(0, plies), "the line as the file has it");
  }
  await page.waitForSelector('#puzzle-feedback[data-kind="solved"]');
  assert.match(await page.textContent("#puzzle-feedback"), /^Solved!/);
  assert.match(await page.textContent("#status"), /Solved/);
  const r1 = await shownRating(page);
  assert.ok(r1 > r0, `the rating rises after a clean solve (${r0} → ${r1})`);
  assert.match(await page.textContent("#puzzle-streak"), /^1 /);
  await screenshot(page, "puzzles-solved");

  // Next: a puzzle not solved yet; a legal move that is not its solution's first move.
  await page.click("#puzzle-next");
  await page.waitForFunction((id) => {
    const p = window.crownApp.state.puzzle.puzzle;
    return p && p.id !== id && window.crownApp.state.history.length === 0;
  }, solve.id);
  const id2 = await page.getAttribute("#puzzle-info", "data-puzzle");
  const fail = PUZZLES.find((p) => p.id === id2);
  assert.ok(fail, `the page serves a puzzle of the file (${id2})`);
  const legal = await page.evaluate(() => window.crownApp.board.moves.map((m) => ({ text: m.text, from: m.from, to: m.to, path: m.path })));
  const wrong = legal.find((m) => m.text !== fail.solution[0] && m.path.length === 1);
  assert.ok(wrong, `puzzle ${id2} has a legal move other than ${fail.solution[0]}`);
  await clickSquare(page, wrong.from);
  await clickSquare(page, wrong.to);
  await page.waitForSelector('#puzzle-feedback[data-kind="wrong"]', { timeout: 30000 });
  const said = await page.textContent("#puzzle-feedback");
  assert.ok(said.startsWith(`${wrong.text} is not the move`), said);
  // the refutation: the engine's answer as text, and arrows on the board (the wrong move, the answer)
  const refutation = await page.evaluate(() => window.crownApp.state.puzzle.feedback.refutation);
  assert.ok(refutation && said.includes(refutation), `${said} names the refutation ${refutation}`);
  // ... as the opponent's refutation, not as the answer to the puzzle: every other move of a win
  // puzzle fails to win, of a draw save loses (docs/puzzles.md); the solution is not given away
  const how = fail.goal === "win" ? "it does not win against" : "it loses to";
  assert.equal(said, `${wrong.text} is not the move: ${how} ${refutation}.`);
  assert.doesNotMatch(said, /answer|solution/i, "the refutation is not called the answer");
  assert.ok((await page.$$("#board line.arrow")).length >= 2, "the wrong move and the answer drawn as arrows");
  // the board stays at the puzzle position: no move was played
  assert.equal(await page.evaluate(() => window.crownApp.state.history.length), 0);
  const r2 = await shownRating(page);
  assert.ok(r2 < r1, `the rating falls after a wrong move (${r1} → ${r2})`);
  assert.match(await page.textContent("#puzzle-streak"), /^0 /);
  await screenshot(page, "puzzles-wrong");

  // axe-core on the page with the refutation shown
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  assert.deepEqual(result, [], "no axe-core findings on the puzzles page");

  // Give up shows the solution on the board; the rating is not lowered twice for one attempt.
  await page.click("#puzzle-giveup");
  await page.waitForSelector('#puzzle-feedback[data-kind="gaveup"]');
  assert.equal(await page.textContent("#puzzle-feedback"), `The solution: ${fail.solution.join(" ")}.`);
  assert.equal(await shownRating(page), r2);

  // A reload keeps the rating and the streak (localStorage) and reopens the puzzle of the address.
  await page.reload();
  await waitForPuzzle(page, id2);
  assert.equal(await shownRating(page), r2);
  assert.match(await page.textContent("#puzzle-solved"), /^1$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("keyboard: the Puzzles page is reached and its buttons used with the keyboard alone", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.crownApp && document.body.dataset.ready === "1");
  await page.focus("#mode-puzzles");
  await page.keyboard.press("Enter");
  await waitForPuzzle(page);
  const first = await page.getAttribute("#puzzle-info", "data-puzzle");
  // a new player (1500) is served a puzzle near 1500 first, not the file's first (2300)
  const near = PUZZLES[nearestUnrated(1500, -1)];
  assert.equal(near.difficulty, 1500, "the American set has puzzles of 1500");
  assert.equal(first, near.id);
  assert.match(await page.textContent("#puzzle-info"), / · difficulty 1500 · /);
  await page.focus("#puzzle-hint");
  await page.keyboard.press("Enter");
  await page.waitForSelector('#puzzle-feedback[data-kind="hint"]');
  const from = squares(near.solution[0])[0];
  assert.equal(await page.textContent("#puzzle-feedback"), `Hint: move the piece on ${from}.`);
  await page.keyboard.press("Enter");
  await page.waitForFunction((t) => document.querySelector("#puzzle-feedback").textContent === `Hint: ${t}.`, near.solution[0]);
  // the hints rated the puzzle a loss: the next one served is the unrated one nearest the new rating
  const r = await exactRating(page);
  assert.ok(r < 1500, `the hint is a loss (${r})`);
  await page.click("#puzzle-next");
  const nextIndex = nearestUnrated(r, PUZZLES.indexOf(near), new Set([near.id]));
  await waitForPuzzle(page, PUZZLES[nextIndex].id);
  assert.ok(PUZZLES[nextIndex].difficulty < 1500, `an easier puzzle after a loss (${PUZZLES[nextIndex].difficulty})`);
  // the theme filter: every puzzle served has the theme
  await page.selectOption("#puzzle-theme", "multi-jump");
  await page.waitForFunction(() => window.crownApp.state.puzzle.theme === "multi-jump" && window.crownApp.state.puzzle.puzzle);
  const id = await page.getAttribute("#puzzle-info", "data-puzzle");
  assert.ok(PUZZLES.find((p) => p.id === id).themes.includes("multi-jump"), `${id} is a multi-jump puzzle`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a puzzle rated before is not rated again: no rating farming by reopening its address", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  const a = PUZZLES[1];
  await openPuzzle(page, a.id);
  await solveByClicks(page, a);
  const r1 = await shownRating(page);
  assert.ok(r1 > 1500, `the first clean solve is rated (${r1})`);
  assert.equal(await page.getAttribute("#puzzle-rating", "data-streak"), "1");
  // the address reopens the same puzzle: solved again, it is not rated again
  await page.reload();
  await waitForPuzzle(page, a.id);
  await solveByClicks(page, a);
  assert.equal(await page.textContent("#puzzle-feedback"), "Solved — already rated. Next puzzle?");
  assert.equal(await shownRating(page), r1, "the rating is unchanged");
  assert.equal(await page.getAttribute("#puzzle-rating", "data-streak"), "1", "the streak is unchanged");
  // a wrong move rates puzzle 3 (a loss); Next from puzzle 0 serves the puzzles not rated yet
  // first, nearest the rating: 1 (solved) and 3 (failed) are passed over
  await openPuzzle(page, PUZZLES[3].id);
  await playWrongMoveHere(page);
  const r2 = await shownRating(page);
  assert.ok(r2 < r1, `the wrong move is rated (${r1} → ${r2})`);
  await openPuzzle(page, PUZZLES[0].id);
  const rated = new Set([PUZZLES[1].id, PUZZLES[3].id]);
  const exact = await exactRating(page);
  const n1 = nearestUnrated(exact, 0, rated);
  await page.click("#puzzle-next");
  await waitForPuzzle(page, PUZZLES[n1].id);
  // leaving a puzzle unfinished rates nothing: the same rating picks the next
  const n2 = nearestUnrated(exact, n1, rated);
  await page.click("#puzzle-next");
  await waitForPuzzle(page, PUZZLES[n2].id);
  assert.ok(![1, 3].includes(n1) && ![1, 3].includes(n2), `rated puzzles passed over (${n1}, ${n2})`);
  // and a failed puzzle reopened and solved is not rated as a win
  await openPuzzle(page, PUZZLES[3].id);
  await solveByClicks(page, PUZZLES[3]);
  assert.equal(await page.textContent("#puzzle-feedback"), "Solved — already rated. Next puzzle?");
  assert.equal(await shownRating(page), r2);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("hint, retry, then a solve: the page says it was solved with help, the rating falls once", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  const p = PUZZLES[1];
  await openPuzzle(page, p.id);
  await page.click("#puzzle-hint");
  await page.waitForSelector('#puzzle-feedback[data-kind="hint"]');
  const r1 = await shownRating(page);
  assert.ok(r1 < 1500, `the hint is a loss (${r1})`);
  await page.click("#puzzle-retry");
  await waitForPuzzle(page, p.id);
  await solveByClicks(page, p);
  assert.equal(await page.textContent("#puzzle-feedback"), "Solved (with help). Next puzzle?");
  assert.equal(await shownRating(page), r1, "the attempt is rated once");
  assert.equal(await page.getAttribute("#puzzle-rating", "data-streak"), "0");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("390×844 phone: after a wrong move the feedback and the puzzle buttons are on screen without scrolling", async () => {
  const page = await newPage(env.browser, { width: 390, height: 844, mobile: true });
  await openPuzzle(page, PUZZLES[0].id);
  await playWrongMoveHere(page);
  const boxes = await page.evaluate(() =>
    ["#board", "#puzzle-feedback", "#puzzle-retry", "#puzzle-hint", "#puzzle-giveup", "#puzzle-next"].map((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return { sel, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    }),
  );
  assert.equal(await page.evaluate(() => window.scrollY), 0, "the page is not scrolled");
  for (const b of boxes) {
    assert.ok(b.top >= 0 && b.bottom <= 844 && b.left >= 0 && b.right <= 390, `${b.sel} on screen: ${JSON.stringify(b)}`);
  }
  await screenshot(page, "puzzles-phone-wrong");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
