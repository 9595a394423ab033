// Online items of issue 13 that outlive one game page, in headless Chromium against the real
// crown-server: a spectator follows a rematch (the finished game's view carries the new game's id,
// pushed to its sockets), and the chat is stored with the game, so it survives a server restart.
// Needs CROWN_SERVER_BIN (cargo xtask e2e sets it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { launch, newPage, openApp, screenshot, tempDir, spawnCrownServer as startServer, stopCrownServer as stopServer } from "./harness.js";

const BIN = process.env.CROWN_SERVER_BIN;
let browser;
let server; // {url, port, db, child, log}

before(async () => {
  if (!BIN) return;
  const dir = tempDir("crown-e2e-follow-");
  server = await startServer(path.join(dir, "crown.db"));
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopServer(server);
});

const waitStatus = (p, re, timeout = 10000) =>
  p.waitForFunction((src) => new RegExp(src).test(document.querySelector("#status").textContent), re.source, {
    timeout,
  });
const waitMoves = (page, n, timeout = 10000) =>
  page.waitForFunction((n) => document.querySelectorAll("#movelist .mv:not(.empty)").length === n, n, { timeout });
const chatTexts = (p) => p.$$eval("#chat-log .chat-text", (els) => els.map((e) => e.textContent));
const gameId = (p) => p.evaluate(() => window.crownApp.online().gameId);

/** Player A creates a private game against a friend (A is Black); returns the share link. */
async function createGame(a, name) {
  if (!(await a.isVisible("#online-new"))) await a.click("#mode-online");
  await a.click("#online-new");
  await a.waitForSelector("#dlg-online[open]");
  await a.check("#form-online input[name=opponent][value=friend]");
  await a.check("#form-online input[name=variant][value=american]");
  await a.check("#form-online input[name=side][value=first]");
  await a.fill("#form-online input[name=name]", name);
  await a.click("#online-ok");
  await a.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"));
  return a.inputValue("#share-link");
}

/** Player B opens `link` and takes the free seat under `name`. */
async function joinGame(b, link, name) {
  await b.goto(link);
  await b.waitForSelector("#dlg-choice[open] #join-seat");
  await b.fill("#join-name", name);
  await b.click("#join-seat");
  await waitStatus(b, /move|thinking/);
}

/** `p` sends chat message `text`. */
async function say(p, text) {
  await p.fill("#chat-input", text);
  await p.click("#chat-send");
  await p.waitForFunction((t) => [...document.querySelectorAll("#chat-log .chat-text")].some((e) => e.textContent === t), text);
}

test("a spectator is offered the rematch and follows it", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(browser);
  await openApp(a, server.url);
  const link = await createGame(a, "Ann");
  const b = await newPage(browser);
  await joinGame(b, link, "Bob");
  const c = await newPage(browser);
  await c.goto(link);
  await waitStatus(c, /Watching/);
  const first = await gameId(c);
  assert.equal(await c.isHidden("#online-watch-rematch"), true, "no rematch to follow yet");

  // Bob resigns; Ann asks for a rematch.
  await b.click("#online-resign");
  await b.waitForSelector("#dlg-confirm[open]");
  await b.click("#confirm-yes");
  for (const p of [a, b, c]) {
    await p.waitForSelector("#dlg-over[open]");
    await p.keyboard.press("Escape");
  }
  await a.waitForSelector("#online-rematch:not([hidden])");
  await a.click("#online-rematch");
  const second = await a.evaluate(async (first) => {
    while (window.crownApp.online().gameId === first) await new Promise((r) => setTimeout(r, 50));
    return window.crownApp.online().gameId;
  }, first);
  assert.notEqual(second, first);

  // The spectator's page gets the new game's id over its socket and offers to follow it; it
  // holds no seat, so it has no rematch button of its own.
  await c.waitForSelector("#online-watch-rematch:not([hidden])");
  assert.equal(await c.isHidden("#online-rematch"), true);
  await c.waitForFunction(() => /^Ann asked for a rematch/.test(document.querySelector("#toast").textContent));
  await screenshot(c, "60-spectator-rematch-offered");
  await c.click("#online-watch-rematch");
  await c.waitForFunction((id) => window.crownApp.online().gameId === id, second);
  // the address bar follows once the new game's view has been fetched (gameId is set before)
  await c.waitForFunction((id) => new URL(location.href).searchParams.get("game") === id, second);
  assert.equal(await c.evaluate(() => window.crownApp.online().seat), null, "the spectator still only watches");
  assert.match(new URL(c.url()).searchParams.get("game"), new RegExp(`^${second}$`));

  // Bob accepts; colours are swapped (Bob is Black now) and his move reaches the spectator.
  await b.waitForFunction(() => document.querySelector("#online-rematch").textContent === "Accept rematch");
  await b.click("#online-rematch");
  await waitStatus(b, /Your move/);
  await waitStatus(c, /Watching · Black to move/);
  // Typed, not clicked: Bob's board turns round for the new colours, and a click made while it
  // turns can land on another square (seen once in CI).
  await b.fill("#move-input", "11-15");
  await b.press("#move-input", "Enter");
  await waitMoves(b, 1);
  await waitMoves(c, 1, 20000);
  assert.equal(await c.textContent("#movelist .mv:not(.empty)"), "11-15");
  await waitStatus(c, /Watching · White to move/);
  await screenshot(c, "61-spectator-follows-rematch");
  for (const p of [a, b, c]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("the chat is stored with the game and survives a server restart", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(browser);
  await openApp(a, server.url);
  const link = await createGame(a, "Ann");
  const b = await newPage(browser);
  await joinGame(b, link, "Bob");
  await say(a, "good luck");
  await say(b, "you too");
  await a.waitForFunction(() => document.querySelectorAll("#chat-log .chat-msg").length === 2);

  // Restart the server on the same port and database.
  await stopServer(server);
  server = await startServer(server.db, server.port);
  await a.waitForFunction(() => document.querySelector("#conn-state").dataset.state === "connected", null, {
    timeout: 20000,
  });

  // A spectator arriving after the restart reads the whole chat, in order, with the names.
  const c = await newPage(browser);
  await c.goto(link);
  await waitStatus(c, /Watching/);
  await c.waitForFunction(() => document.querySelectorAll("#chat-log .chat-msg").length === 2);
  assert.deepEqual(await chatTexts(c), ["good luck", "you too"]);
  assert.deepEqual(
    await c.$$eval("#chat-log .chat-who", (els) => els.map((e) => e.textContent)),
    ["Ann: ", "Bob: "],
  );
  // The chat goes on after the restart: numbered after the stored messages, seen by everyone once.
  await say(b, "still here");
  for (const p of [a, b, c]) {
    await p.waitForFunction(() => document.querySelectorAll("#chat-log .chat-msg").length === 3);
    assert.deepEqual(await chatTexts(p), ["good luck", "you too", "still here"]);
  }
  await screenshot(c, "62-chat-after-restart");
  for (const p of [a, b, c]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("the chat form at 390×844: a finger-sized Send button, and toasts never cover the chat input", async (t) => {
  if (!BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const a = await newPage(browser);
  await openApp(a, server.url);
  const link = await createGame(a, "Ann");
  const b = await newPage(browser, { width: 390, height: 844, mobile: true });
  await joinGame(b, link, "Bob");
  // Target size: at least 44×44 CSS px (WCAG 2.5.5) for Send and the input, side by side.
  const send = await b.locator("#chat-send").boundingBox();
  const input = await b.locator("#chat-input").boundingBox();
  assert.ok(send.width >= 44 && send.height >= 44, `Send is ${send.width}×${send.height}`);
  assert.ok(input.height >= 44, `the chat input is ${input.height} px high`);
  assert.ok(Math.abs(send.y - input.y) < 2 && send.x > input.x + input.width - 1, "input and Send on one row");
  assert.ok(send.x + send.width <= 390, "Send fits the screen");
  assert.ok(input.width >= 2 * send.width, `the input (${input.width} px) is the row's main part, Send ${send.width} px`);
  // The input at the bottom of the screen (as when a phone's keyboard opens), then at the top:
  // the toast Ann's draw offer raises must cover it in neither case.
  for (const block of ["end", "start", "center"]) {
    await b.evaluate((block) => document.querySelector("#chat-form").scrollIntoView({ block }), block);
    await b.focus("#chat-input");
    await a.click("#online-offer-draw");
    await b.waitForFunction(() => !document.querySelector("#toast").hidden && /offers a draw/.test(document.querySelector("#toast").textContent));
    const toast = await b.locator("#toast").boundingBox();
    const box = await b.locator("#chat-form").boundingBox();
    const hit = toast.x < box.x + box.width && box.x < toast.x + toast.width &&
      toast.y < box.y + box.height && box.y < toast.y + toast.height;
    assert.ok(!hit, `the toast covers the chat form (form scrolled to the ${block})`);
    assert.ok(toast.y >= 0 && toast.y + toast.height <= 844, "the toast is on screen");
    if (block === "end") await screenshot(b, "63-chat-form-390x844-toast");
    await b.click("#online-decline-draw");
    await a.waitForFunction(() => /declined/.test(document.querySelector("#toast").textContent));
    await b.waitForFunction(() => document.querySelector("#toast").hidden, null, { timeout: 10000 });
  }
  // Typing and tapping Send works at this size.
  await b.fill("#chat-input", "gg");
  await b.tap("#chat-send");
  await a.waitForFunction(() => [...document.querySelectorAll("#chat-log .chat-text")].some((e) => e.textContent === "gg"));
  // The lobby's Refresh button keeps its size beside the heading (the phone's half-width action
  // buttons had stretched it into a thin bar across the panel).
  await b.click("#online-lobby");
  await b.waitForSelector("#lobby:not([hidden])");
  const refresh = await b.locator("#lobby-refresh").boundingBox();
  const heading = await b.locator("#lobby h2").first().boundingBox();
  assert.ok(refresh.width < heading.width / 2, `Refresh is ${refresh.width} px of the heading's ${heading.width} px`);
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});
