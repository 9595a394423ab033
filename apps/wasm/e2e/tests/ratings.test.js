// Rated games in the web app (issue 26), against the real crown-server: two browsers sign up two
// accounts, one creates a rated 3+2 seek (the create dialog's Rated switch, its reasons when off and
// the server's refusal shown in the dialog), the other accepts it from the lobby (rated marker and
// the creator's rating), they play, one resigns; then the player bars and the game-over dialog show
// the rating changes, and BOTH player pages, the archive and the leaderboard show the ratings that
// Glicko-2 gives. The expected ratings come from Glickman's Glicko-2 written out below, step by step,
// independently of the server (checked first against Glickman's own published example). axe-core
// at 0 findings on the leaderboard and the player page; the pages fit 320 px; reload and back keep
// the page. Needs CROWN_SERVER_BIN (skipped without it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, clickSquare, screenshot, tempDir, spawnCrownServer, stopCrownServer, axeCount, signUp } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const T = { timeout: 60000 };

// ---- Glicko-2, as Mark Glickman describes it ("Example of the Glicko-2 system", 2013) ----------

/** The Glicko-2 scale factor: μ = (r − 1500) / 173.7178, φ = RD / 173.7178. */
const SCALE = 173.7178;

/**
 * One rating period of Glicko-2 for a player {r, rd, vol} with results `games`
 * ([{r, rd, s}], s = 1 win, 0.5 draw, 0 loss) and system constant `tau`: {r, rd, vol}.
 */
export function glicko2(player, games, tau = 0.5) {
  // Step 2: to the Glicko-2 scale
  const mu = (player.r - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.vol;
  const g = (p) => 1 / Math.sqrt(1 + (3 * p * p) / (Math.PI * Math.PI));
  const E = (m, mj, pj) => 1 / (1 + Math.exp(-g(pj) * (m - mj)));
  const opp = games.map((o) => ({ mu: (o.r - 1500) / SCALE, phi: o.rd / SCALE, s: o.s }));
  // Step 3: the estimated variance v of the rating from the game outcomes alone
  let vInv = 0;
  for (const o of opp) {
    const e = E(mu, o.mu, o.phi);
    vInv += g(o.phi) ** 2 * e * (1 - e);
  }
  const v = 1 / vInv;
  // Step 4: the estimated improvement Δ
  let sum = 0;
  for (const o of opp) sum += g(o.phi) * (o.s - E(mu, o.mu, o.phi));
  const delta = v * sum;
  // Step 5: the new volatility σ' (the Illinois algorithm, ε = 0.000001)
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  const eps = 0.000001;
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > eps) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Step 6: the pre-rating-period deviation φ*
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  // Step 7: the new deviation and rating
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  // Step 8: back to the Glicko scale (the Glicko-2 scale's values too, for the published example)
  return { r: SCALE * muNew + 1500, rd: SCALE * phiNew, vol: sigmaNew, v, delta, mu: muNew, phi: phiNew };
}

test("Glicko-2 as written here reproduces Glickman's published example", () => {
  const out = glicko2(
    { r: 1500, rd: 200, vol: 0.06 },
    [
      { r: 1400, rd: 30, s: 1 },
      { r: 1550, rd: 100, s: 0 },
      { r: 1700, rd: 300, s: 0 },
    ],
    0.5,
  );
  // the paper's intermediate values, as printed: v = 1.7785 and Δ = −0.4834 (worked out from its
  // rounded g and E: within 0.001 here), μ' = −0.2069 and φ' = 0.8722 (to the digit), σ' = 0.05999
  assert.ok(Math.abs(out.v - 1.7785) < 0.001, `v = ${out.v}`);
  assert.ok(Math.abs(out.delta - -0.4834) < 0.001, `Δ = ${out.delta}`);
  assert.equal(out.mu.toFixed(4), "-0.2069");
  assert.equal(out.phi.toFixed(4), "0.8722");
  assert.ok(Math.abs(out.vol - 0.05999) < 0.00001, `σ' = ${out.vol}`); // 0.0599960 (the paper cuts to 5 digits)
  // r' = 1464.06 and RD' = 151.52: the paper converts its rounded μ' and φ' (173.7178 × −0.2069 +
  // 1500 = 1464.06); unrounded, the same steps give 1464.05 and 151.52, within 0.01 of both
  assert.equal((SCALE * Number(out.mu.toFixed(4)) + 1500).toFixed(2), "1464.06");
  assert.equal((SCALE * Number(out.phi.toFixed(4))).toFixed(2), "151.52");
  assert.ok(Math.abs(out.r - 1464.06) < 0.01, `r' = ${out.r}`);
  assert.ok(Math.abs(out.rd - 151.52) < 0.01, `RD' = ${out.rd}`);
});

// ---- the browsers --------------------------------------------------------------------------------

let server;
let browser;

before(async () => {
  if (!BIN) return;
  // The leaderboard ranks only established ratings by default (10 rated games of 10 plies or more,
  // opponents from 5 sign-up networks, RD ≤ 110), and a rated game changes the ratings from 10
  // plies on; this suite plays one game of 3 plies between two new accounts (from loopback: no
  // network recorded, each its own), so it rates from 3 plies and ranks every rating.
  server = await spawnCrownServer(path.join(tempDir("crown-e2e-ratings-"), "crown.db"), 0, {
    env: {
      CROWN_RATED_MIN_PLIES: "3",
      CROWN_LEADERBOARD_MIN_GAMES: "1",
      CROWN_LEADERBOARD_MIN_OPPONENTS: "1",
      CROWN_LEADERBOARD_MIN_PLIES: "0",
      CROWN_LEADERBOARD_MAX_DEVIATION: "350",
    },
  });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopCrownServer(server);
});

const waitStatus = (p, re) => p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, T);
const waitMoves = (p, n) => p.waitForFunction((n) => document.querySelectorAll("#movelist .mv:not(.empty)").length === n, n, T);

/** Play `from`-`to` on page `p` when it is its move, then wait until `other` has it too. */
async function move(p, other, from, to, n) {
  await waitStatus(p, /Your move/);
  await clickSquare(p, from);
  await clickSquare(p, to);
  await waitMoves(other, n);
}

/** Open the page of `route` through the address (a reload) and wait until its data is shown. */
async function openRoute(page, query, loaded) {
  await openApp(page, server.url, query);
  await page.waitForFunction((l) => document.getElementById("players-page")?.dataset.loaded === l, loaded, T);
}

/** The rows of the player page's ratings table: {"american/blitz": "1662?"}. */
const ratingsOf = (page) =>
  page.$$eval("#pl-ratings tbody tr", (rows) => Object.fromEntries(rows.map((r) => [`${r.dataset.variant}/${r.dataset.speed}`, r.cells[2].textContent])));

test("a rated 3+2 game between two accounts: lobby, bars, game-over dialog, player pages, archive, leaderboard as Glicko-2 says", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for rated games");
  const A = "Rater_Ann";
  const B = "Rater_Bob";
  const a = await newPage(browser);
  const b = await newPage(browser);
  await openApp(a, server.url);
  await openApp(b, server.url);

  // a guest cannot ask for a rated game: the switch is off, with the reason
  await a.click("#mode-online");
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  assert.equal(await a.isDisabled("#online-rated"), true, "a guest's Rated switch is disabled");
  assert.match(await a.textContent("#online-rated-note"), /Log in/);
  await a.keyboard.press("Escape");

  await signUp(a, A, "ann password 1");
  await signUp(b, B, "bob password 1");

  // the create dialog: a clock and a human opponent are needed; the server's refusal is in the dialog
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  await a.check("#form-online input[name=opponent][value=seek]");
  await a.check("#form-online input[name=variant][value=american]");
  await a.check("#form-online input[name=side][value=first]");
  await a.selectOption("#form-online select[name=clock]", "");
  assert.equal(await a.isDisabled("#online-rated"), true, "no clock: not rated");
  assert.match(await a.textContent("#online-rated-note"), /clock/);
  await a.selectOption("#form-online select[name=clock]", "180+2");
  await a.check("#form-online input[name=opponent][value=engine]");
  assert.equal(await a.isDisabled("#online-rated"), true, "the engine: not rated");
  assert.match(await a.textContent("#online-rated-note"), /engine/);
  await a.check("#form-online input[name=opponent][value=seek]");
  assert.equal(await a.isDisabled("#online-rated"), false, "logged in, 3+2, a person: rated may be chosen");
  await a.check("#online-rated");
  assert.match(await a.textContent("#online-rated-note"), /changes both ratings/);
  await axeCount(a, "create dialog with the Rated switch on");
  // the session ends behind the page's back: the server refuses (401 login_required), the dialog says so
  assert.equal(await a.evaluate(async () => (await fetch("api/logout", { method: "POST" })).status), 204);
  await a.click("#online-ok");
  await a.waitForFunction(() => document.querySelector("#online-error").textContent.length > 0, null, T);
  assert.equal(await a.isVisible("#dlg-online"), true, "the dialog stays open with the refusal");
  assert.match(await a.textContent("#online-error"), /log/i);
  const relog = await a.evaluate(
    async (body) => (await fetch("api/login", { method: "POST", headers: { "content-type": "application/json" }, body })).status,
    JSON.stringify({ username: A, password: "ann password 1" }),
  );
  assert.equal(relog, 200);
  await a.click("#online-ok");
  await a.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"), null, T);
  assert.equal(await a.isVisible("#dlg-online"), false);
  const gameId = await a.evaluate(() => window.crownApp.online().gameId);
  assert.equal(await a.evaluate(() => window.crownApp.online().view.rated), true, "the game is rated");

  // the lobby: rated marker, the creator's account linked with its (provisional) rating
  await b.click("#mode-online");
  const seek = `#lobby-list li[data-id="${gameId}"]`;
  await b.waitForSelector(seek, T);
  assert.equal(await b.getAttribute(seek, "data-rated"), "true");
  assert.match(await b.textContent(`${seek} .seek-what`), /3\+2 · Rated/);
  assert.equal(await b.textContent(`${seek} .seek-who a.player-link`), A);
  assert.equal(await b.textContent(`${seek} .seek-rating`), "1500?", "a new player: 1500, provisional");
  await b.click(`${seek} .seek-accept`);
  await waitStatus(b, /move/);
  // both see that the game is rated, under the status
  for (const p of [a, b]) await p.waitForFunction(() => document.querySelector("#rated-line")?.textContent === "Rated", null, T);

  // the bars: names and ratings before the game (provisional "?"), links to the players' pages
  await a.waitForFunction(() => document.querySelector("#rating-top")?.textContent.endsWith("1500?"), null, T);
  assert.equal(await a.getAttribute("#rating-top", "href"), `?mode=player&name=${B}`);
  assert.match(await a.textContent("#rating-bottom"), /1500\?$/);

  await move(a, b, 11, 15, 1);
  await move(b, a, 23, 19, 2);
  await move(a, b, 9, 13, 3);
  // Bob resigns: Ann (Black) wins
  await waitStatus(b, /Your move/);
  await b.click("#online-resign");
  await b.waitForSelector("#dlg-confirm[open]");
  await b.click("#confirm-yes");

  // Glicko-2 (Glickman's steps above): two new players 1500/350/0.06, one game in the period
  const fresh = { r: 1500, rd: 350, vol: 0.06 };
  const annNew = glicko2(fresh, [{ r: 1500, rd: 350, s: 1 }]);
  const bobNew = glicko2(fresh, [{ r: 1500, rd: 350, s: 0 }]);
  const annR = Math.round(annNew.r);
  const bobR = Math.round(bobNew.r);
  assert.ok(annNew.rd > 110 && bobNew.rd > 110, "both still provisional after one game");
  const plus = `+${annR - 1500}`;
  const minus = `\u2212${1500 - bobR}`;
  console.log(`Glicko-2: Ann ${annNew.r.toFixed(2)} (RD ${annNew.rd.toFixed(2)}), Bob ${bobNew.r.toFixed(2)} (RD ${bobNew.rd.toFixed(2)})`);

  // the bars show the change, and so does the game-over dialog
  for (const [p, mine, theirs] of [
    [a, plus, minus],
    [b, minus, plus],
  ]) {
    await p.waitForFunction((d) => document.querySelector("#rating-diff-bottom")?.textContent === d, mine, T);
    assert.equal(await p.textContent("#rating-diff-top"), theirs);
    await p.waitForSelector("#dlg-over[open]", T);
    const line = await p.textContent("#over-rating");
    assert.ok(line.includes(`${A} 1500? → ${annR} (${plus})`), line);
    assert.ok(line.includes(`${B} 1500? → ${bobR} (${minus})`), line);
    await p.keyboard.press("Escape");
    await p.waitForSelector("#dlg-over:not([open])", { state: "attached", ...T });
  }
  await screenshot(a, "ratings-game-over");

  // the player pages: Ann's from the account menu, Bob's from a link on it (in place: pushState)
  await a.click("#account-user");
  await a.click("#account-profile");
  await a.waitForFunction((l) => document.getElementById("players-page").dataset.loaded === l, `player/${A}`, T);
  assert.equal(new URL(a.url()).search, `?mode=player&name=${A}`);
  assert.equal(await a.isVisible("main.layout"), false, "the board is put aside");
  assert.deepEqual(await ratingsOf(a), { "american/blitz": `${annR}?` });
  assert.equal(await a.textContent("#count-games"), "1");
  assert.equal(await a.textContent("#count-wins"), "1");
  assert.equal(await a.textContent("#count-losses"), "0");
  assert.equal(await a.getAttribute("#pl-chart", "data-points"), "2", "the chart: before and after the game");
  assert.match(await a.getAttribute("#pl-chart", "aria-label"), new RegExp(`1500 → ${annR}`));
  const annGame = `#pl-games li[data-id="${gameId}"]`;
  await a.waitForSelector(annGame, T);
  assert.match(await a.textContent(`${annGame} .archive-head`), new RegExp(`^Win vs ${B} \\${plus}$`));
  assert.match(await a.textContent(`${annGame} .archive-meta`), /American checkers · Blitz · Rated · as Black/);
  await axeCount(a, "player page");
  await screenshot(a, "ratings-player");

  // the archive's filters: a loss filter hides the win, rated shows it; the address follows
  await a.selectOption("#f-result", "loss");
  await a.waitForFunction(() => /No game/.test(document.querySelector("#pl-games-status").textContent), null, T);
  assert.match(new URL(a.url()).search, /result=loss/);
  assert.equal(await a.isVisible("#pl-export"), false, "no export link when no game matches (the server has no PDN of no games)");
  await a.selectOption("#f-result", "");
  await a.selectOption("#f-rated", "true");
  await a.waitForSelector(annGame, T);
  assert.equal(await a.isVisible("#pl-export"), true, "the export link is back with a game");
  // Export all as one PDN: the server's file with this game, the players' ratings in it
  const exportHref = await a.getAttribute("#pl-export", "href");
  assert.match(exportHref, new RegExp(`api/users/${A}/games\\.pdn\\?rated=true$`));
  const pdn = await a.evaluate(async (h) => (await fetch(h)).text(), exportHref);
  assert.match(pdn, new RegExp(`\\[Black "${A}"\\]`));
  assert.match(pdn, /\[BlackElo "1500"\]/);
  assert.match(pdn, /\[Result "1-0"\]/);

  // the opponent's page, opened from the archive's link; back returns to Ann's page
  await a.click(`${annGame} a.player-link`);
  await a.waitForFunction((l) => document.getElementById("players-page").dataset.loaded === l, `player/${B}`, T);
  assert.deepEqual(await ratingsOf(a), { "american/blitz": `${bobR}?` });
  assert.equal(await a.textContent("#count-losses"), "1");
  const bobGame = `#pl-games li[data-id="${gameId}"]`;
  await a.waitForSelector(bobGame, T);
  assert.equal(await a.textContent(`${bobGame} .archive-head`), `Loss vs ${A} ${minus}`);
  await a.goBack();
  await a.waitForFunction((l) => document.getElementById("players-page").dataset.loaded === l, `player/${A}`, T);

  // Bob's own browser: his page from his menu agrees
  await b.click("#account-user");
  await b.click("#account-profile");
  await b.waitForFunction((l) => document.getElementById("players-page").dataset.loaded === l, `player/${B}`, T);
  assert.deepEqual(await ratingsOf(b), { "american/blitz": `${bobR}?` });

  // the leaderboard of American blitz: Ann above Bob; axe; the page at 320 px
  await a.click("#account-user");
  await a.click("#account-leaderboard");
  await a.waitForFunction(() => document.getElementById("players-page").dataset.loaded === "leaderboard/american/blitz", null, T);
  const rows = await a.$$eval("#lb-body tr", (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, [
    ["1", A, `${annR}?`, "1"],
    ["2", B, `${bobR}?`, "1"],
  ]);
  await axeCount(a, "leaderboard");
  await screenshot(a, "ratings-leaderboard");
  // pool blitz has nobody yet
  await a.selectOption("#lb-variant", "pool");
  await a.waitForFunction(() => document.getElementById("players-page").dataset.loaded === "leaderboard/pool/blitz", null, T);
  assert.equal(await a.$$eval("#lb-body tr", (r) => r.length), 0);
  assert.match(new URL(a.url()).search, /variant=pool/);

  // reload keeps the page; a mode button brings the board back; back goes to the page again
  const narrow = await newPage(browser, { width: 320, height: 700 });
  await openRoute(narrow, `?mode=player&name=${A}`, `player/${A}`);
  await narrow.waitForSelector(annGame, T);
  const fit = await narrow.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  assert.ok(fit.sw <= fit.cw, `the player page fits 320 px: ${JSON.stringify(fit)}`);
  await screenshot(narrow, "ratings-player-320");
  await openRoute(narrow, "?mode=leaderboard&variant=american&speed=blitz", "leaderboard/american/blitz");
  const fit2 = await narrow.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  assert.ok(fit2.sw <= fit2.cw, `the leaderboard fits 320 px: ${JSON.stringify(fit2)}`);
  await narrow.click("#mode-analysis");
  await narrow.waitForSelector("main.layout", { state: "visible", ...T });
  assert.equal(await narrow.isVisible("#players-page"), false);
  await narrow.goBack();
  await narrow.waitForSelector("#players-page", { state: "visible", ...T });
  assert.equal(await narrow.isVisible("main.layout"), false);

  // keyboard: Tab reaches the archive's Analyse button; Enter opens the game on the analysis board
  await openRoute(narrow, `?mode=player&name=${A}`, `player/${A}`);
  await narrow.waitForSelector(annGame, T);
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await narrow.keyboard.press("Tab");
    reached = await narrow.evaluate(() => document.activeElement && document.activeElement.classList.contains("archive-analyse"));
  }
  assert.ok(reached, "the Analyse button is reached with Tab");
  await narrow.keyboard.press("Enter");
  await narrow.waitForFunction(() => window.crownApp.state.mode === "analysis" && window.crownApp.state.game.plyCount() === 3, null, T);
  assert.equal(await narrow.isVisible("#players-page"), false);
  assert.deepEqual(await narrow.evaluate(() => window.crownApp.state.game.history().map((h) => h.mv.longText)), ["11-15", "23-19", "9-13"]);

  for (const p of [a, b, narrow]) {
    assert.deepEqual(p.errors.filter((e) => !/status of 40[14]/.test(e)), [], "no console errors");
    await p.context().close();
  }
  played = { A, B, gameId, annR, bobR, plus, minus };
});

/** The rated game of the test above (null when it did not run to its end). */
let played = null;

test("the rating chart has axes: round ratings and the day of the games, readable and named", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for rated games");
  assert.ok(played, "the rated game of the test above was played");
  const { A, annR } = played;
  const page = await newPage(browser, { width: 1280, height: 900 });
  await openRoute(page, `?mode=player&name=${A}`, `player/${A}`);
  // the chart: a vertical axis of round ratings covering the line, the game's day on the time axis
  const chart = await page.evaluate(() => {
    const s = document.querySelector("#pl-chart");
    return {
      y: [...s.querySelectorAll(".y-label")].map((e) => Number(e.textContent)),
      x: [...s.querySelectorAll(".x-label")].map((e) => e.textContent),
      axes: s.querySelectorAll(".chart-axis-line").length,
      labelPx: Math.min(...[...s.querySelectorAll(".chart-label")].map((e) => e.getBoundingClientRect().height)),
      name: s.getAttribute("aria-label"),
    };
  });
  const day = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });
  assert.equal(chart.axes, 2, "two axis lines");
  assert.ok(chart.y.length >= 2 && Math.min(...chart.y) <= 1500 && Math.max(...chart.y) >= annR, `the rating axis covers 1500 to ${annR}: ${chart.y}`);
  assert.ok(chart.y.every((v, i) => i === 0 || v > chart.y[i - 1]) && chart.y.every((v) => v % 10 === 0), `round rising values: ${chart.y}`);
  assert.deepEqual(chart.x, [day], "the time axis names the day of the game");
  assert.ok(chart.labelPx >= 11, `the labels are readable: ${chart.labelPx} px`);
  assert.match(chart.name, new RegExp(`1500 → ${annR} over 1 rated game on ${day}`));
  await screenshot(page, "ratings-chart-axes");
  await axeCount(page, "player page with the chart's axes");
  assert.deepEqual(page.errors.filter((e) => !/status of 40[14]/.test(e)), [], "no console errors");
  await page.context().close();
});

test("Analyse from the archive opens the game at its last position with how it ended and the players' ratings", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for rated games");
  assert.ok(played, "the rated game of the test above was played");
  const { A, B, gameId, annR, bobR, plus, minus } = played;
  const page = await newPage(browser, { width: 1280, height: 900 });
  await openRoute(page, `?mode=player&name=${A}`, `player/${A}`);
  await page.waitForSelector(`#pl-games li[data-id="${gameId}"]`, T);
  // the last position (ply 3 of 3), how it ended and both ratings with their change
  await page.click(`#pl-games li[data-id="${gameId}"] .archive-analyse`);
  await page.waitForFunction(() => window.crownApp.state.mode === "analysis" && window.crownApp.state.game.plyCount() === 3, null, T);
  const shown = await page.evaluate(() => {
    const s = window.crownApp.state;
    return s.viewPly == null ? s.history.length : s.viewPly;
  });
  assert.equal(shown, 3, "the board shows the final position");
  assert.match(await page.textContent("#status"), /1-0 · .*resign/i, "the status says how the game ended");
  assert.equal(await page.isVisible("#info-ending"), true);
  assert.match(await page.textContent("#info-ending"), /resign/i);
  assert.equal(await page.textContent("#info-players"), `${A} 1500 ${plus} (Black) – ${B} 1500 ${minus} (White)`);
  assert.equal(await page.isVisible("#dlg-over"), false, "no game-over dialog on opening");
  await screenshot(page, "ratings-archive-analyse");
  assert.ok(annR > 1500 && bobR < 1500);
  assert.deepEqual(page.errors.filter((e) => !/status of 40[14]/.test(e)), [], "no console errors");
  await page.context().close();
});

test("a rated game resigned before the minimum of plies: Rated while it goes on, then why it is not rated, and the archive says so", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for rated games");
  // this suite's server rates from 3 plies (CROWN_RATED_MIN_PLIES above): resigned at 2, too short
  const C = "Short_Cas";
  const D = "Short_Dee";
  const c = await newPage(browser);
  const d = await newPage(browser);
  await openApp(c, server.url);
  await openApp(d, server.url);
  await signUp(c, C, "cas password 1");
  await signUp(d, D, "dee password 1");
  await c.click("#mode-online");
  await c.click("#online-new");
  await c.waitForSelector("#dlg-online[open]");
  await c.check("#form-online input[name=opponent][value=seek]");
  await c.check("#form-online input[name=variant][value=american]");
  await c.check("#form-online input[name=side][value=first]");
  await c.selectOption("#form-online select[name=clock]", "180+2");
  await c.check("#online-rated");
  await c.click("#online-ok");
  await c.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"), null, T);
  const gameId = await c.evaluate(() => window.crownApp.online().gameId);
  await d.click("#mode-online");
  const seek = `#lobby-list li[data-id="${gameId}"]`;
  await d.waitForSelector(seek, T);
  await d.click(`${seek} .seek-accept`);
  await waitStatus(d, /move/);
  for (const p of [c, d]) await p.waitForFunction(() => document.querySelector("#rated-line")?.textContent === "Rated", null, T);
  await move(c, d, 11, 15, 1);
  await move(d, c, 23, 19, 2);
  await waitStatus(c, /Your move/);
  await c.click("#online-resign");
  await c.waitForSelector("#dlg-confirm[open]");
  await c.click("#confirm-yes");
  const why = "Not rated: the game ended before the minimum number of moves";
  for (const p of [c, d]) {
    await p.waitForSelector("#dlg-over[open]", T);
    await p.waitForFunction((w) => document.querySelector("#over-rating")?.textContent === w, why, T);
    assert.equal(await p.textContent("#rated-line"), why);
    assert.equal(await p.evaluate(() => window.crownApp.online().view.unrated_reason), "too_short");
  }
  // the archive: created rated, not counted
  await openRoute(c, `?mode=player&name=${C}`, `player/${C}`);
  const row = `#pl-games li[data-id="${gameId}"]`;
  await c.waitForSelector(row, T);
  assert.equal(await c.getAttribute(row, "data-rated"), "false");
  assert.match(await c.textContent(`${row} .archive-meta`), /American checkers · Blitz · Rated · not counted \(too short\) · as Black/);
  await c.context().close();
  await d.context().close();
});
