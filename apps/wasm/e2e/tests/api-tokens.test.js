// The account's API tokens in the web app (issue 42; docs/api.md "API tokens and bot accounts"),
// in headless Chromium against the real crown-server: a logged-in player opens "API tokens" from
// the account menu, creates a token with the bot:play scope (shown once, and it works: the
// server answers the event stream's owner with it), sees it listed without its secret, creates
// a second, and revokes the first (the server refuses it from then on). Needs CROWN_SERVER_BIN
// (cargo xtask e2e sets it); skipped without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { crownServerAndBrowser, newPage, openApp, screenshot, signUp } from "./harness.js";

const env = crownServerAndBrowser("the API tokens dialog");

const T = { timeout: 60000 };

/** The descriptions of the tokens listed in `p`'s dialog. */
const listed = (p) => p.$$eval("#token-list .token-description", (els) => els.map((e) => e.textContent));

/** The status of `GET /api/challenge` with `token` alone (no session): 200 while it works, 401 once revoked. */
async function tokenStatus(token) {
  const r = await fetch(new URL("api/challenge", env.server.url), { headers: { authorization: `Bearer ${token}` } });
  return r.status;
}

/** Create a token in `p`'s open dialog with `description` and `scopes`; returns the token shown. */
async function create(p, description, scopes) {
  await p.fill("#token-description", description);
  for (const s of scopes) await p.check(`#token-form input[name=scope][value="${s}"]`);
  await p.click("#token-create");
  await p.waitForSelector("#token-new:not([hidden])");
  await p.waitForFunction((d) => [...document.querySelectorAll("#token-list .token-description")].some((e) => e.textContent === d), description);
  return p.inputValue("#token-new-value");
}

test("a player creates, lists and revokes API tokens from the account menu", T, async (t) => {
  if (env.skip(t)) return;
  const p = await newPage(env.browser);
  await openApp(p, env.server.url);
  await signUp(p, "tokenuser", "token password");
  await p.click("#account-user");
  await p.click("#account-tokens");
  await p.waitForSelector("#dlg-tokens[open]");
  await p.waitForSelector("#token-empty:not([hidden])");

  // No scope: the server's refusal is shown, nothing is made.
  await p.fill("#token-description", "nothing");
  await p.click("#token-create");
  await p.waitForFunction(() => document.querySelector("#token-error").textContent.length > 0);
  assert.deepEqual(await listed(p), []);

  const first = await create(p, "my bot", ["bot:play"]);
  assert.match(first, /^crown_[0-9a-f]{40}$/);
  assert.equal(await tokenStatus(first), 200, "the new token acts as the account");
  assert.match(await p.textContent("#token-list .token"), /bot:play/);
  // the list never carries a token itself
  assert.equal((await p.textContent("#token-list")).includes(first), false);
  await screenshot(p, "tokens-80-created");

  const second = await create(p, "challenges", ["challenge:write"]);
  assert.notEqual(second, first);
  assert.deepEqual(await listed(p), ["my bot", "challenges"]);

  // Revoke the first: it leaves the list and stops working at once.
  await p.click('#token-list .token-revoke[aria-label="Revoke my bot"]');
  await p.waitForFunction(() => document.querySelectorAll("#token-list .token").length === 1);
  assert.deepEqual(await listed(p), ["challenges"]);
  assert.equal(await tokenStatus(first), 401);
  assert.equal(await tokenStatus(second), 200);

  // Closed and opened again: the new token is not shown any more, the list is read again.
  await p.click("#dlg-tokens-close");
  await p.click("#account-user");
  await p.click("#account-tokens");
  await p.waitForSelector("#dlg-tokens[open]");
  await p.waitForFunction(() => document.querySelectorAll("#token-list .token").length === 1);
  assert.equal(await p.isHidden("#token-new"), true);
  assert.equal(await p.inputValue("#token-new-value"), "");
  assert.deepEqual(p.errors.filter((e) => !/40[01]/.test(e)), [], "no page error");
});
