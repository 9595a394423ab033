// The lobby as a guest (issue 26 review): a rated seek is offered as "Log in to play rated", which
// opens the log-in dialog instead of a join the server refuses (a rated game is between two
// accounts, docs/api.md "Ratings"); and a seek accepted on a phone, with the page scrolled down to
// the lobby, brings the board back on screen. Needs CROWN_SERVER_BIN; skipped without it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startCrownServer, launch, newPage, openApp, screenshot } from "./harness.js";

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

/** `POST path` on the server with a JSON body (and a session `cookie`): [status, JSON, set-cookie]. */
async function post(path, body, cookie = null) {
  const headers = { "content-type": "application/json" };
  if (cookie) headers.cookie = cookie;
  const r = await fetch(server.url.replace(/\/$/, "") + path, { method: "POST", headers, body: JSON.stringify(body) });
  const set = r.headers.get("set-cookie");
  return [r.status, await r.json(), set ? set.split(";")[0] : null];
}

test("a guest is sent to log in for a rated seek; accepting on a phone shows the board", async (t) => {
  if (!server) return t.skip("CROWN_SERVER_BIN is not set");
  // Rita (an account) posts a rated public seek; a guest posts a casual one.
  const [s1, , cookie] = await post("/api/signup", { username: "Rita", password: "password-r" });
  assert.equal(s1, 201);
  const blitz = { initial_ms: 180000, increment_ms: 2000 };
  const [s2, rated] = await post("/api/games", { variant: "american", color: "black", public: true, rated: true, time_control: blitz }, cookie);
  assert.equal(s2, 201, JSON.stringify(rated));
  const [s3, casual] = await post("/api/games", { variant: "american", color: "black", public: true, time_control: blitz, name: "Carl" });
  assert.equal(s3, 201, JSON.stringify(casual));

  const b = await newPage(browser, { width: 390, height: 844, mobile: true });
  await openApp(b, server.url);
  await b.click("#mode-online");
  const ratedSeek = `#lobby-list .seek[data-id="${rated.id}"]`;
  const casualSeek = `#lobby-list .seek[data-id="${casual.id}"]`;
  await b.waitForSelector(`${ratedSeek} button`, T);
  await b.waitForSelector(`${casualSeek} .seek-accept`, T);
  // The rated seek: no Accept for a guest, but the way to an account.
  assert.equal(await b.textContent(`${ratedSeek} button`), "Log in to play rated");
  assert.equal(await b.locator(`${ratedSeek} .seek-accept`).count(), 0);
  await b.locator(`${ratedSeek} button`).scrollIntoViewIfNeeded();
  await b.click(`${ratedSeek} button`);
  await b.waitForSelector("#dlg-auth[open]", T);
  assert.equal(await b.getAttribute("#dlg-auth", "data-mode"), "login");
  await b.keyboard.press("Escape");
  await b.waitForFunction(() => !document.querySelector("#dlg-auth").open, null, T);
  // Nothing was joined: the rated seek is still open in the lobby.
  assert.equal(await b.locator(ratedSeek).count(), 1);

  // The casual seek, accepted with the page scrolled down to the lobby.
  await b.locator(`${casualSeek} .seek-accept`).scrollIntoViewIfNeeded();
  const scrolled = await b.evaluate(() => window.scrollY);
  assert.ok(scrolled > 0, `the lobby is below the board on a phone (scrollY ${scrolled})`);
  await b.click(`${casualSeek} .seek-accept`);
  await b.waitForSelector("#dlg-choice[open] #join-name", T);
  await b.fill("#join-name", "Gus");
  await b.click("#join-seat");
  await b.waitForFunction(() => /move/i.test(document.querySelector("#status").textContent), null, T);
  // The board is on screen again: its top edge within the viewport.
  await b.waitForFunction(() => {
    const r = document.querySelector("#board").getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight / 2;
  }, null, T);
  await screenshot(b, "lobby-rated-phone-joined");
  assert.deepEqual(b.errors, []);
  await b.context().close();
});
