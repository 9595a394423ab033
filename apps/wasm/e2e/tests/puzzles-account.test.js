// Puzzles on the account (issue 43, docs/api.md "Puzzles") with the real crown-server: a guest's
// solve kept locally, merged into the account at sign-up (the server's rating is the local one, the
// dashboard says so), a failure sent to the server (the dashboard's themes and weakest themes, the
// player page's puzzle rating), a second log-in not merging again, and the local record back after
// log-out. Needs CROWN_SERVER_BIN; without it the tests are skipped with the reason.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startCrownServer, launch, newPage, clickSquare, repoRoot } from "./harness.js";

let server;
let browser;

before(async () => {
  server = await startCrownServer();
  if (server) browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

const T = { timeout: 60000 };

/** The committed American puzzles, one object per line. */
const PUZZLES = fs
  .readFileSync(path.join(repoRoot, "crates/puzzle/puzzles/american.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

const squares = (text) => text.split(/[-x]/).map(Number);

/** Open puzzle `id` by its address and wait until it is ready for a move (and the account followed). */
async function openPuzzle(page, id) {
  await page.goto(`${server.url}?mode=puzzles&variant=american&puzzle=${encodeURIComponent(id)}`);
  await page.waitForFunction(() => document.body.dataset.account === "ready", null, T);
  await page.waitForFunction(
    (id) => {
      const s = window.crownApp && window.crownApp.state;
      const p = s && s.puzzle;
      return s.mode === "puzzles" && p && p.puzzle && p.puzzle.id === id && s.history.length === 0 && !p.pending;
    },
    id,
    T,
  );
}

/** Solve `puzzle` by clicking its solution's moves (the forced replies played by the page). */
async function solveByClicks(page, puzzle) {
  for (let k = 0; k < puzzle.solution.length; k += 2) {
    for (const n of squares(puzzle.solution[k])) await clickSquare(page, n);
    const plies = Math.min(k + 2, puzzle.solution.length);
    await page.waitForFunction(
      (n) => window.crownApp.state.history.length === n && !window.crownApp.state.puzzle.pending,
      plies,
      T,
    );
  }
  await page.waitForSelector('#puzzle-feedback[data-kind="solved"]', T);
}

/** Play a one-step legal move of the puzzle on screen other than its solution's first. */
async function playWrongMove(page, puzzle) {
  const legal = await page.evaluate(() => window.crownApp.board.moves.map((m) => ({ text: m.text, from: m.from, to: m.to, path: m.path })));
  const wrong = legal.find((m) => m.text !== puzzle.solution[0] && m.path.length === 1);
  assert.ok(wrong, `puzzle ${puzzle.id} has another legal move`);
  await clickSquare(page, wrong.from);
  await clickSquare(page, wrong.to);
  await page.waitForSelector('#puzzle-feedback[data-kind="wrong"]', T);
}

async function signUpInPage(page, name, pass) {
  await page.click("#account-signup");
  await page.waitForSelector("#dlg-auth[open]");
  await page.fill("#auth-username", name);
  await page.fill("#auth-password", pass);
  await page.press("#auth-password", "Enter");
  await page.waitForSelector("#dlg-auth", { state: "hidden" });
}

/** GET `path` of the API from the page (with its session cookie). */
const api = (page, p) => page.evaluate(async (p) => (await fetch(`api/${p}`)).json(), p);

test("a guest's solve is merged at sign-up, a failure is rated on the account, log-out shows the local record", async (t) => {
  if (!server) {
    t.skip("CROWN_SERVER_BIN is not set: no crown-server for puzzles on the account");
    return;
  }
  const page = await newPage(browser, { width: 1280, height: 900 });
  const [a, b] = PUZZLES.filter((p) => p.solution.length >= 1 && p.themes.length > 0);
  // A guest solves a: rated in the local record only.
  await openPuzzle(page, a.id);
  await solveByClicks(page, a);
  const local = Number(await page.getAttribute("#puzzle-rating", "data-rating"));
  assert.ok(local > 1500, `a solve raises the local rating: ${local}`);
  assert.equal(await page.isVisible("#puzzle-dashboard"), false, "no dashboard for a guest");

  // Sign-up: the local record is merged into the account, and the page shows the server's.
  await signUpInPage(page, "Solver1", "password one");
  await page.waitForSelector('#puzzle-dashboard[data-state="server"]', T);
  assert.match(await page.textContent("#puzzle-account"), /1 puzzle of this browser merged/);
  const me = await api(page, "puzzles/me");
  assert.equal(me.attempts, 1);
  assert.equal(me.history[0].puzzle, a.id);
  assert.equal(me.history[0].merged, true);
  assert.ok(Math.abs(me.rating - local) < 0.05, `the merge replays the local solve: ${me.rating} vs ${local}`);
  assert.equal(Number(await page.getAttribute("#puzzle-rating", "data-rating")), Number(me.rating.toFixed(1)));

  // A failure of b is sent to the server: the dashboard counts it by theme, weakest first.
  await openPuzzle(page, b.id);
  await page.waitForSelector('#puzzle-dashboard[data-state="server"]', T);
  await playWrongMove(page, b);
  await page.waitForFunction(() => window.crownApp.state.puzzle.account && window.crownApp.state.puzzle.account.attempts === 2, null, T);
  const after = await api(page, "puzzles/me");
  assert.equal(after.failed, 1);
  assert.ok(after.rating < me.rating, "the failure lowers the account's rating");
  const weakest = (await page.getAttribute("#puzzle-weakest", "data-themes")).split(",");
  assert.ok(weakest.length > 0 && weakest.every((t) => b.themes.includes(t)), `the weakest themes are b's: ${weakest}`);
  for (const theme of b.themes) {
    const row = await page.textContent(`#puzzle-themes tr[data-theme="${theme}"]`);
    assert.match(row, /1\s*$/, `${theme}: one failure in ${row}`);
  }
  // The player page's puzzle rating.
  const user = await api(page, "users/solver1");
  assert.equal(user.puzzles.attempts, 2);
  assert.equal(user.puzzles.rating, Math.round(after.rating));

  // A reload (a new page with the session): no second merge, the same record.
  await openPuzzle(page, a.id);
  await page.waitForSelector('#puzzle-dashboard[data-state="server"]', T);
  assert.equal((await api(page, "puzzles/me")).attempts, 2);
  assert.doesNotMatch(await page.textContent("#puzzle-account"), /merged/);

  // Log-out: the local record again (the failure was the account's only).
  await page.click("#account-user");
  await page.click("#account-logout");
  await page.waitForSelector("#puzzle-dashboard", { state: "hidden" });
  await page.waitForFunction((r) => Number(document.getElementById("puzzle-rating").dataset.rating) === r, local, T);
});
