// Puzzles on the account (issue 43, docs/api.md "Puzzles") with the real crown-server: a guest's
// solve kept locally, merged into the account at sign-up (the server's rating is the local one, the
// dashboard says so), a failure sent to the server (the dashboard's themes and weakest themes, the
// player page's puzzle rating), a second log-in not merging again, and the local record back after
// log-out. Needs CROWN_SERVER_BIN; without it the tests are skipped with the reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { crownServerAndBrowser, newPage, committedPuzzles, solveByClicks, playWrongMove, signUp, screenshot } from "./harness.js";

const env = crownServerAndBrowser();
const T = { timeout: 60000 };
const PUZZLES = committedPuzzles("american");

/** Open puzzle `id` by its address and wait until it is ready for a move (and the account followed). */
async function openPuzzle(page, id) {
  await page.goto(`${env.server.url}?mode=puzzles&variant=american&puzzle=${encodeURIComponent(id)}`);
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

/** GET `path` of the API from the page (with its session cookie). */
const api = (page, p) => page.evaluate(async (p) => (await fetch(`api/${p}`)).json(), p);

test("a guest's solve is merged at sign-up, a failure is rated on the account, log-out shows the local record", async (t) => {
  if (!env.server) {
    t.skip("CROWN_SERVER_BIN is not set: no crown-server for puzzles on the account");
    return;
  }
  const page = await newPage(env.browser, { width: 1280, height: 900 });
  const [a, b] = PUZZLES.filter((p) => p.solution.length >= 1 && p.themes.length > 0);
  // A guest solves a: rated in the local record only.
  await openPuzzle(page, a.id);
  await solveByClicks(page, a);
  const local = Number(await page.getAttribute("#puzzle-rating", "data-rating"));
  assert.ok(local > 1500, `a solve raises the local rating: ${local}`);
  assert.equal(await page.isVisible("#puzzle-dashboard"), false, "no dashboard for a guest");

  // Sign-up: the local record is merged into the account, and the page shows the server's.
  await signUp(page, "Solver1", "password one");
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
  // no theme tried 3 times yet: none is named weakest, and the page says why
  assert.equal(await page.getAttribute("#puzzle-weakest", "data-themes"), "");
  assert.equal(await page.textContent("#puzzle-weakest"), "none yet");
  assert.match(await page.textContent("#puzzle-weakest-rule"), /share solved, lowest first, among the themes you tried at least 3 times/);
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

  // Two more failures of b's first theme (sent as the page sends them): it is tried 3 times or
  // more, so it is named weakest, and only themes tried 3 times or more are.
  const theme = b.themes[0];
  const more = PUZZLES.filter((p) => p.themes.includes(theme) && p.id !== a.id && p.id !== b.id).slice(0, 2);
  for (const p of more) {
    const r = await page.evaluate(async (id) => (await fetch("api/puzzles/attempts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ puzzle: id, solved: false }) })).json(), p.id);
    assert.equal(r.rated, true, JSON.stringify(r));
  }
  await openPuzzle(page, a.id);
  await page.waitForSelector('#puzzle-dashboard[data-state="server"]', T);
  const named = (await page.getAttribute("#puzzle-weakest", "data-themes")).split(",");
  assert.ok(named.includes(theme), `${theme} is named weakest: ${named}`);
  for (const t of named) {
    const [solved, failed] = await page.$$eval(`#puzzle-themes tr[data-theme="${t}"] td`, (tds) => tds.slice(1).map((td) => Number(td.textContent)));
    assert.ok(solved + failed >= 3 && failed > 0, `${t}: ${solved} solved, ${failed} failed`);
  }
  await page.evaluate(() => document.getElementById("puzzle-dashboard").scrollIntoView());
  await screenshot(page, "puzzle-dashboard-weakest");

  // Log-out: the local record again (the failure was the account's only).
  await page.click("#account-user");
  await page.click("#account-logout");
  await page.waitForSelector("#puzzle-dashboard", { state: "hidden" });
  await page.waitForFunction((r) => Number(document.getElementById("puzzle-rating").dataset.rating) === r, local, T);
});
