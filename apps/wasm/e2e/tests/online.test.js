// Two players and a spectator in three separate browser sessions against the real crown-server:
// create a game, share the link, join, watch, move by clicking, see the other side's moves arrive
// over the WebSocket, a draw offer declined, a resignation. Needs CROWN_SERVER_BIN (cargo xtask e2e
// sets it); without a server binary the test is skipped with the reason.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startCrownServer, launch, newPage, openApp, screenshot, clickSquare, moveList } from "./harness.js";

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

const waitMoves = (page, n) =>
  page.waitForFunction((n) => document.querySelectorAll("#movelist .mv:not(.empty)").length === n, n, {
    timeout: 10000,
  });

test("create, share, join, spectate, play, decline a draw, resign — three browser sessions", async (t) => {
  if (!server) {
    t.skip("CROWN_SERVER_BIN is not set: no crown-server to play online against");
    return;
  }
  // Player A creates a game as Black (first player in checkers) with a 5+3 clock.
  const a = await newPage(browser);
  await openApp(a, server.url);
  await a.click("#mode-online");
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  await a.check("#form-online input[name=variant][value=american]");
  await a.check("#form-online input[name=side][value=first]");
  await a.selectOption("#form-online select[name=clock]", "300+3");
  await a.click("#online-ok");
  await a.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"));
  const link = await a.inputValue("#share-link");
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/g\/[0-9a-f]+$/);
  assert.match(await a.textContent("#status"), /Waiting for your friend/);
  await screenshot(a, "40-online-created");

  // Player B opens the link in another session and takes the free seat.
  const b = await newPage(browser);
  await b.goto(link);
  await b.waitForSelector("#dlg-choice[open] #join-seat");
  assert.equal(await b.textContent("#join-seat"), "Play as White");
  await b.click("#join-seat");
  await b.waitForFunction(() => /friend's move/.test(document.querySelector("#status").textContent));
  await a.waitForFunction(() => /Your move/.test(document.querySelector("#status").textContent));

  // A spectator opens the same link: no seat is free, so it watches.
  const c = await newPage(browser);
  await c.goto(link);
  await c.waitForFunction(() => /Watching/.test(document.querySelector("#status").textContent));

  // Clocks are shown and Black's runs.
  assert.equal(await a.isVisible("#clock-top"), true);

  // A (Black) plays 11-15 by clicking; B and the spectator see it.
  await clickSquare(a, 11);
  await clickSquare(a, 15);
  await waitMoves(a, 1);
  await waitMoves(b, 1);
  await waitMoves(c, 1);
  assert.deepEqual(await moveList(b), ["11-15"]);
  // B (White) answers 23-19 by dragging... by clicking; A sees it.
  await b.waitForFunction(() => /Your move/.test(document.querySelector("#status").textContent));
  await clickSquare(b, 23);
  await clickSquare(b, 19);
  await waitMoves(a, 2);
  await waitMoves(c, 2);
  assert.deepEqual(await moveList(c), ["11-15", "23-19"]);

  // The spectator cannot move: clicking a Black man shows no destinations.
  await clickSquare(c, 9);
  assert.equal(await c.$$eval("#board .hints [data-hint]", (e) => e.length), 0);
  // A player cannot move out of turn either: a move entered then is only a premove, not sent,
  // and Escape cancels it.
  await clickSquare(b, 22);
  await clickSquare(b, 18);
  await b.waitForSelector("#premove:not([hidden])");
  assert.equal(await b.textContent("#premove-text"), "Premove: 22-18");
  assert.deepEqual(await moveList(b), ["11-15", "23-19"]);
  await b.keyboard.press("Escape");
  await b.waitForSelector("#premove", { state: "hidden" });

  await screenshot(a, "41-online-black");
  await screenshot(b, "42-online-white");
  await screenshot(c, "43-online-spectator");

  // B offers a draw; A sees "Accept draw" but plays on, which ends the offer.
  await b.click("#online-offer-draw");
  await a.waitForFunction(() => document.querySelector("#online-offer-draw").textContent === "Accept draw");
  await clickSquare(a, 8);
  await clickSquare(a, 11);
  await waitMoves(b, 3);
  await a.waitForFunction(() => document.querySelector("#online-offer-draw").textContent === "Offer draw");

  // Resigning asks first: "Keep playing" leaves the game going on every board.
  await b.click("#online-resign");
  await b.waitForSelector("#dlg-confirm[open]");
  await b.click("#confirm-no");
  await b.waitForTimeout(1000);
  for (const p of [a, b, c]) assert.equal(await p.isVisible("#dlg-over[open]"), false);
  // B resigns: everybody sees the result and the reason.
  await b.click("#online-resign");
  await b.waitForSelector("#dlg-confirm[open]");
  await b.click("#confirm-yes");
  for (const p of [a, b, c]) {
    await p.waitForSelector("#dlg-over[open]", { timeout: 10000 });
    assert.match(await p.textContent("#over-reason"), /Black wins: the opponent resigned/);
    assert.equal(await p.textContent("#over-result"), "1-0");
  }
  assert.equal(await a.textContent("#over-title"), "You won!");
  assert.equal(await b.textContent("#over-title"), "You lost");
  assert.equal(await c.textContent("#over-title"), "Black wins");
  await screenshot(c, "44-online-over-spectator");

  // A reload keeps A's seat (the token is in this browser's storage) and the finished game.
  await a.reload();
  await a.waitForFunction(() => document.querySelectorAll("#movelist .mv:not(.empty)").length === 3);
  assert.match(await a.textContent("#status"), /1-0/);
  for (const p of [a, b, c]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});
