// Accounts in the web app (issue 26): sign up, log out, log in, a reload keeping the session, a
// change of password, all with the real crown-server (docs/api.md "Accounts"), a keyboard-only
// flow, and axe-core at 0 findings with each dialog open and in the logged-in header. Needs
// CROWN_SERVER_BIN; without it the tests are skipped with the reason.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startCrownServer, startStaticServer, launch, newPage, openApp, axeCount } from "./harness.js";


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
const skip = (t) => {
  if (server) return false;
  t.skip("CROWN_SERVER_BIN is not set: no crown-server for accounts");
  return true;
};

async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.account === "ready", null, T);
}

async function fillAuth(page, user, pass) {
  await page.fill("#auth-username", user);
  await page.fill("#auth-password", pass);
  await page.press("#auth-password", "Enter"); // Enter submits
}

test("sign up (a taken name is refused in the dialog), log out, log in (wrong, then right), reload, change password", async (t) => {
  if (skip(t)) return;
  // an account taken before the browser tries the same name in another case
  const taken = await fetch(`${server.url}api/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "Taken1", password: "password one" }),
  });
  assert.equal(taken.status, 201);

  const page = await newPage(browser);
  await openApp(page, server.url);
  await ready(page);
  assert.equal(await page.isVisible("#account-login"), true, "a guest sees Log in");
  assert.equal(await page.isVisible("#account-signup"), true, "a guest sees Sign up");
  assert.equal(await page.isVisible("#toast"), false, "no toast at start");

  await page.click("#account-signup");
  await page.waitForSelector("#dlg-auth[open]");
  assert.equal(await page.textContent("#dlg-auth-title"), "Sign up");
  assert.equal(await page.getAttribute("#auth-username", "autocomplete"), "username");
  assert.equal(await page.getAttribute("#auth-password", "autocomplete"), "new-password");
  await axeCount(page, "sign-up dialog");
  await fillAuth(page, "taken1", "password two");
  // the server's answer (409 username_taken) in the dialog's live region, not a toast
  await page.waitForFunction(() => document.querySelector("#dlg-auth-error").textContent.length > 0, null, T);
  const msg = await page.textContent("#dlg-auth-error");
  assert.match(msg, /taken/i);
  assert.equal(await page.getAttribute("#dlg-auth-error", "role"), "alert");
  assert.equal(await page.isVisible("#dlg-auth"), true, "the dialog stays open");
  assert.equal(await page.isVisible("#toast"), false, "no toast");

  await fillAuth(page, "Alice", "correct horse");
  await page.waitForSelector("#account-user", { state: "visible", ...T });
  assert.equal(await page.textContent("#account-name"), "Alice");
  assert.equal(await page.isVisible("#dlg-auth"), false);
  assert.equal(await page.evaluate(() => window.crownApp.account().name), "Alice");
  // the password is kept nowhere in the page's storage
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  assert.equal(stored.includes("correct horse"), false, "the password is not in storage");
  assert.equal(await page.evaluate(() => document.cookie.includes("crown_session")), false, "HttpOnly cookie");

  // logged-in header with the menu open
  await page.click("#account-user");
  await page.waitForSelector("#account-menu", { state: "visible" });
  assert.equal(await page.getAttribute("#account-user", "aria-expanded"), "true");
  await axeCount(page, "logged-in header, menu open");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#account-menu", { state: "hidden" });

  // online play: the create dialog's name is the account's
  await page.click("#mode-online");
  await page.click("#online-new");
  await page.waitForSelector("#dlg-online[open]");
  assert.equal(await page.inputValue("#form-online input[name=name]"), "Alice");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#dlg-online:not([open])", { state: "attached" });

  // reload keeps the session (the cookie)
  await page.reload();
  await page.waitForFunction(() => window.crownApp && document.body.dataset.account === "ready", null, T);
  await page.waitForSelector("#account-user", { state: "visible", ...T });
  assert.equal(await page.textContent("#account-name"), "Alice");

  // log out
  await page.click("#account-user");
  await page.click("#account-logout");
  await page.waitForSelector("#account-login", { state: "visible", ...T });
  const me = await page.evaluate(async () => (await fetch("api/me", { credentials: "same-origin" })).status);
  assert.equal(me, 401, "the session is ended on the server");

  // log in: a wrong password first (the server's message), then the right one
  await page.click("#account-login");
  await page.waitForSelector("#dlg-auth[open]");
  assert.equal(await page.textContent("#dlg-auth-title"), "Log in");
  assert.equal(await page.getAttribute("#auth-password", "autocomplete"), "current-password");
  await axeCount(page, "log-in dialog");
  await fillAuth(page, "alice", "wrong horse");
  await page.waitForFunction(() => document.querySelector("#dlg-auth-error").textContent.length > 0, null, T);
  assert.equal(await page.textContent("#dlg-auth-error"), "wrong username or password");
  await fillAuth(page, "alice", "correct horse");
  await page.waitForSelector("#account-user", { state: "visible", ...T });
  assert.equal(await page.textContent("#account-name"), "Alice", "the name as spelled at sign-up");

  // change the password (a wrong current one first), log out, log in with the new one
  await page.click("#account-user");
  await page.click("#account-password");
  await page.waitForSelector("#dlg-password[open]");
  assert.equal(await page.getAttribute("#pw-old", "autocomplete"), "current-password");
  assert.equal(await page.getAttribute("#pw-new", "autocomplete"), "new-password");
  await axeCount(page, "change-password dialog");
  await page.fill("#pw-old", "not it at all");
  await page.fill("#pw-new", "battery staple");
  await page.press("#pw-new", "Enter");
  await page.waitForFunction(() => document.querySelector("#dlg-password-error").textContent.length > 0, null, T);
  assert.equal(await page.isVisible("#dlg-password"), true);
  await page.fill("#pw-old", "correct horse");
  await page.fill("#pw-new", "battery staple");
  await page.press("#pw-new", "Enter");
  await page.waitForSelector("#dlg-password:not([open])", { state: "attached", ...T });
  await page.click("#account-user");
  await page.click("#account-logout");
  await page.waitForSelector("#account-login", { state: "visible", ...T });
  await page.click("#account-login");
  await fillAuth(page, "Alice", "correct horse");
  await page.waitForFunction(() => document.querySelector("#dlg-auth-error").textContent.length > 0, null, T);
  assert.equal(await page.textContent("#dlg-auth-error"), "wrong username or password", "the old password no longer works");
  await fillAuth(page, "Alice", "battery staple");
  await page.waitForSelector("#account-user", { state: "visible", ...T });
  assert.equal(await page.textContent("#account-name"), "Alice");
  const all = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  assert.equal(all.includes("battery staple"), false);
  await page.context().close();
});

test("keyboard only: Tab to Sign up, type, Enter; the menu with Enter and Escape; Log out", async (t) => {
  if (skip(t)) return;
  const page = await newPage(browser);
  await openApp(page, server.url);
  await ready(page);
  await page.focus("#account-signup");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#dlg-auth[open]");
  assert.equal(await page.evaluate(() => document.activeElement.id), "auth-username", "focus in the dialog");
  await page.keyboard.type("Kbd_user");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "auth-password");
  await page.keyboard.type("keyboard only");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#account-user", { state: "visible", ...T });
  assert.equal(await page.textContent("#account-name"), "Kbd_user");
  assert.equal(await page.evaluate(() => document.activeElement.id), "account-user", "focus back on the account");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#account-menu", { state: "visible" });
  // the menu's first item has the focus: My profile, then Leaderboard, Change password, API tokens,
  // Log out
  assert.equal(await page.evaluate(() => document.activeElement.id), "account-profile");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#account-menu", { state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.id), "account-user");
  await page.keyboard.press("Enter");
  for (const id of ["account-leaderboard", "account-password", "account-tokens", "account-logout"]) {
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), id);
  }
  await page.keyboard.press("Enter");
  await page.waitForSelector("#account-login", { state: "visible", ...T });
  assert.equal(await page.evaluate(() => document.activeElement.id), "account-login");
  await page.context().close();
});

test("without an API (offline, a static host): a guest, no error toast, the app plays", async () => {
  const stat = await startStaticServer();
  const own = browser || (await launch());
  try {
    const page = await newPage(own);
    await openApp(page, stat.url);
    await ready(page);
    assert.equal(await page.isVisible("#account-login"), true);
    assert.equal(await page.isVisible("#account-user"), false);
    assert.equal(await page.isVisible("#toast"), false, "no error toast");
    await page.context().close();
  } finally {
    if (own !== browser) await own.close();
    await stat.close();
  }
});
