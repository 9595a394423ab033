// The tournament pages (issue 42), against the real crown-server: an account opens Tournaments
// from the site's navigation, creates a Swiss in the create dialog (a missing name and the
// server's refusal of a start time are shown next to their fields), two accounts join, the creator
// starts it, and each player's game 1 opens by itself with the seat the server gives; the
// tournament page then shows the round's pairings, the standings and the crosstable; when game 1
// ends, game 2 (colours swapped, APCA rule 32) opens by itself too. And the tournament page and
// the list at 320 px (a phone) in both themes: nothing wider than the screen, axe-core clean.
// Needs CROWN_SERVER_BIN (skipped without it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, clickSquare, screenshot, tempDir, spawnCrownServer, stopCrownServer, axeCount, signUp } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
const T = { timeout: 60000 };

let server;
let browser;

before(async () => {
  if (!BIN) return;
  server = await spawnCrownServer(path.join(tempDir("crown-e2e-tournaments-"), "crown.db"));
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopCrownServer(server);
});

/** `method path` of the API from the test itself (JSON `body`, session `cookie`): [status, JSON, cookie]. */
async function api(method, p, body, cookie = null) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (cookie) headers.cookie = cookie;
  const r = await fetch(server.url.replace(/\/$/, "") + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const set = r.headers.get("set-cookie");
  return [r.status, await r.json(), set ? set.split(";")[0] : cookie];
}

/** Wait until the tournament page shows tournament `id` as the server has it after `pred(t)`. */
const waitLoaded = (page, re) =>
  page.waitForFunction((src) => new RegExp(src).test(document.getElementById("tournaments-page")?.dataset.loaded || ""), re.source, T);

/** Wait until page `p` shows game `id` on the online page with a seat; the seat's colour. */
async function waitMyGame(p, id) {
  await p.waitForFunction((g) => window.crownApp.state.mode === "online" && window.crownApp.online()?.gameId === g && !!window.crownApp.online().seat && !!window.crownApp.online().view, id, T);
  return p.evaluate(() => window.crownApp.online().seat);
}

const waitStatus = (p, re) => p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, T);

test("create a Swiss in the dialog, two accounts join, the creator starts it: pairings shown and each player's game opens by itself", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for tournaments");
  const A = "Tour_Ann";
  const B = "Tour_Bob";
  const a = await newPage(browser);
  const b = await newPage(browser, { width: 1280, height: 844, mobile: true });
  await openApp(a, server.url);
  await openApp(b, server.url);
  await signUp(a, A, "ann password 1");
  await signUp(b, B, "bob password 1");
  // Bob plays on a phone (the header's Sign up is there from 900 px)
  await b.setViewportSize({ width: 390, height: 844 });

  // the site's navigation opens the list, in place, with its own address
  await a.click("#nav-tournaments");
  await waitLoaded(a, /^tournaments$/);
  assert.equal(new URL(a.url()).searchParams.get("mode"), "tournaments");
  assert.equal(await a.isVisible("#board"), false, "the list is shown in place of the board");
  assert.equal(await a.isVisible("#tl-upcoming-empty"), true, "no tournament yet");

  // the create dialog: a missing name is refused next to the field, nothing is sent
  await a.click("#tl-create");
  await a.waitForSelector("#dlg-tournament[open]");
  assert.equal(await a.isVisible("#tc-rounds"), true, "a Swiss asks for its rounds");
  await a.selectOption("#tc-format", "round_robin");
  assert.equal(await a.isVisible("#tc-rounds"), false, "a round robin has no rounds to give");
  await a.selectOption("#tc-format", "swiss");
  assert.deepEqual(await a.$$eval("#tc-openings option", (o) => o.map((x) => x.value)), ["acf", "eleven", "start"], "the opening rules of checkers");
  await a.selectOption("#tc-variant", "impasse");
  assert.deepEqual(await a.$$eval("#tc-openings option", (o) => o.map((x) => x.value)), ["impasse_seed", "impasse_steere"], "Impasse's setups");
  await a.selectOption("#tc-variant", "american");
  await a.click("#tc-ok");
  await a.waitForSelector("#tc-err-name", { state: "visible", ...T });
  assert.match(await a.textContent("#tc-err-name"), /name/);
  assert.equal(await a.getAttribute("#tc-name", "aria-invalid"), "true");
  assert.equal(await a.evaluate(() => document.activeElement.id), "tc-name", "the bad field takes the focus");
  const listed = await api("GET", "/api/tournaments");
  assert.equal(listed[1].upcoming.length, 0, "nothing was created");

  // the server's refusal (a start more than 30 days ahead: bad_start) under the start time
  await a.fill("#tc-name", "Spring Swiss");
  await a.fill("#tc-rounds", "1");
  await a.selectOption("#tc-clock", "300+3");
  // from the starting position, so that Black (the first player of game 1) has the first move
  await a.selectOption("#tc-openings", "start");
  const far = await a.evaluate(() => {
    const d = new Date(Date.now() + 40 * 24 * 3600 * 1000);
    const two = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T12:00`;
  });
  await a.fill("#tc-starts", far);
  await a.click("#tc-ok");
  await a.waitForSelector("#tc-err-starts", { state: "visible", ...T });
  assert.match(await a.textContent("#tc-err-starts"), /30 days/);
  assert.equal(await a.isVisible("#tc-err-name"), false, "the name is fine now");
  assert.equal(await a.getAttribute("#tc-starts", "aria-describedby"), "tc-hint-starts tc-err-starts", "the error is the field's description");
  await axeCount(a, "tournament create dialog with a refusal");
  await screenshot(a, "tournament-create-refused");

  // created: the tournament's page
  await a.fill("#tc-starts", "");
  await a.click("#tc-ok");
  await waitLoaded(a, /^tournament\/[0-9a-f]{8}\/created\/0$/);
  assert.equal(await a.isVisible("#dlg-tournament"), false);
  const id = new URL(a.url()).searchParams.get("id");
  assert.match(id, /^[0-9a-f]{8}$/);
  assert.equal(await a.textContent("#tt-title"), "Spring Swiss");
  assert.match(await a.textContent("#tt-meta"), /American checkers · 5\+3 · Swiss, 1 round · Casual · The starting position · created by Tour_Ann/);
  assert.match(await a.textContent("#tt-countdown"), /Starts when Tour_Ann starts it/);
  assert.equal(await a.isVisible("#tt-start"), true, "the creator may start it");
  assert.equal(await a.isVisible("#tt-pdn"), false, "no games yet: no PDN");
  await a.click("#tt-join");
  await a.waitForSelector("#tt-withdraw", { state: "visible", ...T });
  assert.match(await a.textContent("#tt-phase"), /1 player joined, you among them/);

  // on the phone: the top bar's icon opens the list, and the create dialog fits the screen
  await b.click("#nav-tournaments");
  await waitLoaded(b, /^tournaments$/);
  await b.waitForSelector(`#tl-upcoming li[data-id="${id}"]`, T);
  // the list says who created it and when it starts, not "started by" a tournament not started
  const meta = await b.textContent(`#tl-upcoming li[data-id="${id}"] .tour-meta`);
  assert.match(meta, /created by Tour_Ann · starts when its creator starts it/);
  assert.doesNotMatch(meta, /started by/);
  await b.click("#tl-create");
  await b.waitForSelector("#dlg-tournament[open]");
  const box = await b.evaluate(() => {
    const r = document.getElementById("dlg-tournament").getBoundingClientRect();
    return { left: r.left, right: r.right, page: document.documentElement.scrollWidth };
  });
  assert.ok(box.left >= 0 && box.right <= 390 && box.page <= 390, `the dialog within 390 px: ${JSON.stringify(box)}`);
  await axeCount(b, "tournament create dialog (phone)");
  await b.keyboard.press("Escape");
  await b.waitForSelector("#dlg-tournament:not([open])", { state: "attached", ...T });

  // the second account opens the tournament's address on a phone and joins
  await openApp(b, server.url, `?mode=tournament&id=${id}`);
  await waitLoaded(b, new RegExp(`^tournament/${id}/created/`));
  assert.equal(await b.isVisible("#tt-start"), false, "only the creator starts it");
  await b.click("#tt-join");
  await b.waitForSelector("#tt-withdraw", { state: "visible", ...T });
  // withdrawing asks first; before the start the player may join again
  await b.click("#tt-withdraw");
  await b.waitForSelector("#dlg-confirm[open]");
  assert.equal(await b.textContent("#confirm-title"), "Withdraw from Spring Swiss?");
  await b.click("#confirm-yes");
  await b.waitForSelector("#tt-join", { state: "visible", ...T });
  assert.match(await b.textContent("#tt-phase"), /^1 player joined\.$/);
  await b.click("#tt-join");
  await b.waitForSelector("#tt-withdraw", { state: "visible", ...T });
  // the creator's page reads the tournament again by itself
  await a.waitForFunction(() => /2 players joined/.test(document.querySelector("#tt-phase").textContent), null, T);
  assert.equal(await a.$$eval("#tt-players li", (l) => l.length), 2);
  await axeCount(b, "tournament page before the start (phone)");

  // the start: round 1 is paired, and each player's game 1 opens by itself with a seat
  await a.click("#tt-start");
  const g1 = `${id}r1b1g1`; // docs/api.md: {tournament}r{round}b{board}g{game}
  const g2 = `${id}r1b1g2`;
  const seatA = await waitMyGame(a, g1);
  const seatB = await waitMyGame(b, g1);
  const [, tour] = await api("GET", `/api/tournaments/${id}`);
  assert.equal(tour.phase, "running", JSON.stringify(tour));
  const m = tour.pairings[0].pairings[0];
  assert.deepEqual([m.first_name, m.second_name].sort(), [A, B]);
  assert.equal(m.games[0].id, g1);
  // game 1: the match's first player moves first, Black in American checkers (APCA rules 7, 32)
  const colour1 = { [m.first_name]: "black", [m.second_name]: "white" };
  const [first, second] = m.first_name === A ? [a, b] : [b, a];
  assert.equal(seatA, colour1[A], "Ann's seat in game 1");
  assert.equal(seatB, colour1[B], "Bob's seat in game 1");
  assert.equal(new URL(a.url()).searchParams.get("game"), g1, "the game's address");
  await waitStatus(first, /Your move/);

  // back on the tournament page (the site's navigation, then the list): round 1's pairings, the
  // standings and the crosstable; the game already opened is not opened again
  await a.click("#nav-tournaments");
  await waitLoaded(a, /^tournaments$/);
  await a.waitForSelector(`#tl-running li[data-id="${id}"] a`, T);
  await a.click(`#tl-running li[data-id="${id}"] a`);
  await waitLoaded(a, new RegExp(`^tournament/${id}/running/1$`));
  const row = await a.$$eval("#tt-pairings tbody tr", (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.deepEqual(row, [["1", `${m.first_name} vs ${m.second_name}`, "Game 1: playingGame 2: after game 1", ""]]);
  assert.equal(await a.getAttribute("#tt-pairings a.tour-game", "href"), `g/${g1}`);
  assert.match(await a.textContent("#tt-phase"), /Round 1 of 1 is being played/);
  assert.equal(await a.$$eval("#tt-standings tbody tr", (r) => r.length), 2);
  assert.equal(await a.$$eval("#tt-cross tbody tr", (r) => r.length), 2);
  assert.match(await a.textContent("#tt-play"), /Play your game 1 \(round 1, board 1\)/);
  assert.equal(await a.isVisible("#tt-pdn"), true, "the PDN of the games begun");
  await axeCount(a, "tournament page while round 1 is played");
  await screenshot(a, "tournament-running-1280");
  await a.click("#tt-play");
  await waitMyGame(a, g1);

  // game 1 ends (the first player moves, the second resigns): game 2 opens by itself on both
  // pages, colours swapped
  await waitStatus(first, /Your move/);
  await clickSquare(first, 11);
  await clickSquare(first, 15);
  await waitStatus(second, /Your move/);
  await second.click("#online-resign");
  await second.waitForSelector("#dlg-confirm[open]");
  await second.click("#confirm-yes");
  assert.equal(await waitMyGame(a, g2), colour1[A] === "black" ? "white" : "black", "Ann's seat in game 2");
  assert.equal(await waitMyGame(b, g2), colour1[B] === "black" ? "white" : "black", "Bob's seat in game 2");
  assert.equal(await a.isVisible("#dlg-over"), false, "game 1's game-over dialog is not left over game 2");
  await waitStatus(second, /Your move/);
  await screenshot(b, "tournament-game2-phone");
  // game 2 ends (the round's last game): the game-over dialog leads back to the tournament, not to a new game
  await clickSquare(second, 11);
  await clickSquare(second, 15);
  await waitStatus(first, /Your move/);
  await first.click("#online-resign");
  await first.waitForSelector("#dlg-confirm[open]");
  await first.click("#confirm-yes");
  await a.waitForSelector("#dlg-over[open]", T);
  assert.equal(await a.textContent("#over-again"), "Back to the tournament");
  await a.click("#over-again");
  await waitLoaded(a, new RegExp(`^tournament/${id}/`));
  assert.equal(await a.isVisible("#dlg-online"), false, "no create dialog");
  // each won one game: a tied match, shown as 1–1 with what decides between the two
  await a.waitForFunction(() => /tied/.test(document.querySelector("#tt-pairings tbody tr .tour-match")?.textContent || ""), null, T);
  assert.equal(await a.textContent("#tt-pairings tbody tr .tour-match"), "1–1: tied match, 1 match point each (the tie-breaks rank them)");
  assert.match(await a.textContent("#tt-tiebreaks"), /level on match points are ranked by game points, then Buchholz/);
  assert.deepEqual(await a.$$eval("#tt-standings tbody tr", (rows) => rows.map((r) => r.cells[2].textContent)), ["1", "1"], "1 match point each");
  assert.match(await a.textContent("#tt-meta"), /created by Tour_Ann/);
  await screenshot(a, "tournament-tied-match");
  // the browser logs the one refusal asked for (400 bad_start), and nothing else
  assert.deepEqual(a.errors, ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test("the tournament page and the list at 320 px in both themes: nothing wider than the screen, axe-core clean; a player's page and back; the countdown to the start", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set: no crown-server for tournaments");
  // a round robin of three accounts with long names, started, made through the API
  const names = ["Narrow_Caroline_1", "Narrow_Desmond_22", "Narrow_Evangeline"];
  const cookies = [];
  for (const n of names) {
    const [s, , cookie] = await api("POST", "/api/signup", { username: n, password: `${n} password` });
    assert.equal(s, 201);
    cookies.push(cookie);
  }
  const body = { name: "Round robin for the whole club, with a long name", variant: "pool", format: "round_robin", time_control: { initial_ms: 600000, increment_ms: 5000 }, rated: true };
  const [s, created] = await api("POST", "/api/tournaments", body, cookies[0]);
  assert.equal(s, 201, JSON.stringify(created));
  const id = created.id;
  for (const c of cookies) assert.equal((await api("POST", `/api/tournaments/${id}/join`, undefined, c))[0], 200);
  const [s2, started] = await api("POST", `/api/tournaments/${id}/start`, undefined, cookies[0]);
  assert.equal(s2, 200, JSON.stringify(started));

  for (const colorScheme of ["dark", "light"]) {
    const page = await newPage(browser, { width: 320, height: 640, mobile: true, colorScheme });
    await openApp(page, server.url, `?mode=tournament&id=${id}`);
    await waitLoaded(page, new RegExp(`^tournament/${id}/running/1$`));
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), colorScheme);
    const fit = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      // every box of the page inside the screen, except the tables' rows in their own scrolling box
      wide: [...document.querySelectorAll("#tournaments-page *")]
        .filter((e) => e.getClientRects().length && !e.closest(".table-scroll"))
        .filter((e) => e.getBoundingClientRect().right > 320.5)
        .map((e) => e.id || e.className || e.tagName),
    }));
    assert.ok(fit.page <= 320, `page ${fit.page} px wide at 320 px (${colorScheme})`);
    assert.deepEqual(fit.wide, [], `boxes wider than 320 px (${colorScheme})`);
    for (const sel of ["#tt-title", "#tt-meta", "#tt-phase", "#tt-pairings", "#tt-standings", "#tt-cross", "#tt-pdn", "#nav-tournaments"]) {
      assert.equal(await page.isVisible(sel), true, `${sel} shown at 320 px`);
    }
    assert.equal(await page.$$eval("#tt-pairings tbody tr", (r) => r.length), 2, "a match and a bye in round 1 of three players");
    await axeCount(page, `tournament page at 320 px (${colorScheme})`);
    await screenshot(page, `tournament-320-${colorScheme}`);
    await page.click("#tour-to-list");
    await waitLoaded(page, /^tournaments$/);
    await page.waitForSelector(`#tl-running li[data-id="${id}"]`, T);
    const listW = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(listW <= 320, `list ${listW} px wide at 320 px (${colorScheme})`);
    assert.match(await page.textContent("#tl-create"), /Log in to create a tournament/, "a guest is asked to log in");
    await axeCount(page, `tournament list at 320 px (${colorScheme})`);
    if (colorScheme === "dark") {
      // a player's link opens the player's page in place of the tournament's; back returns to it
      await page.click("#tl-running li a.tour-name");
      await waitLoaded(page, new RegExp(`^tournament/${id}/`));
      await page.click(`#tt-standings a[href$="name=${names[1]}"]`);
      await page.waitForFunction((n) => document.getElementById("players-page")?.dataset.loaded === `player/${n}`, names[1], T);
      assert.equal(await page.isVisible("#tournaments-page"), false, "one page at a time");
      await page.goBack();
      await page.waitForSelector("#tt-standings", { state: "visible", ...T });
      assert.equal(await page.isVisible("#players-page"), false);
      assert.equal(new URL(page.url()).searchParams.get("id"), id);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }

  // an upcoming tournament with a start time: the countdown to it
  const startsMs = Date.now() + 3600 * 1000;
  const [s3, soon] = await api("POST", "/api/tournaments", { ...body, name: "Evening blitz", starts_ms: startsMs }, cookies[1]);
  assert.equal(s3, 201, JSON.stringify(soon));
  const page = await newPage(browser, { width: 320, height: 640, mobile: true });
  await openApp(page, server.url, `?mode=tournament&id=${soon.id}`);
  await waitLoaded(page, new RegExp(`^tournament/${soon.id}/created/0$`));
  // one hour ahead: "Starts in 1:00:00" in its first second (the seconds are rounded up), 59:59,
  // or 59:58 on a slow machine; then it counts down
  assert.match(await page.textContent("#tt-countdown"), /^Starts in (1:00:00|59:5\d) \(/);
  const first = await page.textContent("#tt-countdown");
  await page.waitForFunction((f) => document.querySelector("#tt-countdown").textContent !== f, first, T);
  assert.match(await page.textContent("#tt-login"), /Log in to join/, "a guest is asked to log in to join");
  await axeCount(page, "upcoming tournament at 320 px");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
