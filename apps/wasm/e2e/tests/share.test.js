// Shared games (issue 43; docs/api.md "Shared games"), with the real crown-server: a PDN with a
// comment and a variation pasted on the analysis board is shared with the Share button, the link
// /a/<id> opens it in another browser with the same comment and variation in the move list, the
// importer puts it in the archive and the player page lists it labelled "Imported" (and its PDN
// export holds it, tagged [Imported "/a/<id>"]), and an unknown
// link says so; axe-core finds nothing in the dialog or the list. Needs CROWN_SERVER_BIN; without it the tests are skipped with the reason.
import { test } from "node:test";
import assert from "node:assert/strict";
import { crownServerAndBrowser, newPage, openApp, moveList, screenshot, axeCount } from "./harness.js";

const env = crownServerAndBrowser("shared games");
const T = { timeout: 60000 };

// American checkers: 11-15, 8-11 Black men forward, 23-19, 22-17 White men forward; the variation
// 22-17 15-18 answers the first move otherwise.
const PDN =
  '[Event "Share test"]\n[Black "Alice"]\n[White "Bob"]\n[Result "*"]\n\n' +
  "1. 11-15 {the Old Faithful} 23-19 (22-17 {a sidestep} 15-18) 2. 8-11 22-17 *\n";

/** The comments and the variations' moves of the move list. */
async function extras(page) {
  return page.evaluate(() => ({
    comments: [...document.querySelectorAll("#movelist .comment")].map((e) => e.textContent.trim()),
    variations: [...document.querySelectorAll("#movelist .variation .vmove")].map((e) => e.textContent.trim()),
  }));
}

/** Paste `text` in the analysis board's PDN import and open it. */
async function paste(page, text) {
  await page.click("#pdn-import");
  await page.fill("#pdn-text", text);
  await page.click("#pdn-ok");
  await page.waitForFunction(() => window.crownApp.state.pdnInfo && !document.querySelector("#dlg-pdn[open]"), null, T);
}

test("Share gives a link that opens the game with its comments and variation; the archive lists it as imported", async (t) => {
  if (env.skip(t)) return;
  // an account, logged in through the API in this browser context (the session cookie)
  const page = await newPage(env.browser);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  const signup = await page.evaluate(async () => {
    const r = await fetch("api/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "sharer", password: "share password" }),
    });
    // the page asks GET /api/me at start only after a log-in here (account/ctrl.js)
    localStorage.setItem("crown-account", "1");
    return r.status;
  });
  assert.equal(signup, 201);
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  await page.waitForFunction(() => document.body.dataset.account === "ready" && window.crownApp.account(), null, T);
  await paste(page, PDN);
  const here = await extras(page);
  assert.deepEqual(here.comments.slice(0, 1), ["the Old Faithful"]);

  await page.click("#analysis-share");
  await page.waitForSelector("#dlg-shared[open]");
  await page.waitForFunction(() => !document.querySelector("#shared-link-row").hidden, null, T);
  const link = await page.inputValue("#shared-link");
  assert.match(link, /\/a\/[0-9a-f]{10}$/, link);
  assert.equal(await page.isVisible("#shared-archive-row"), true, "a logged-in player may archive it");
  await screenshot(page, "share-dialog");
  await axeCount(page, "share dialog");
  await page.check("#shared-archive");
  const id = link.slice(-10);
  await page.waitForFunction(
    async (id) => (await (await fetch(`api/imports/${id}`)).json()).archived === true,
    id,
    T,
  );
  await page.click("#shared-close");

  // the link in another browser (no session): the same game, comments and variation
  const guest = await newPage(env.browser);
  await guest.goto(link);
  await guest.waitForFunction(() => window.crownApp && window.crownApp.state.pdnInfo && document.body.dataset.ready === "1", null, T);
  assert.equal(await guest.evaluate(() => document.body.dataset.mode), "analysis");
  assert.deepEqual(await moveList(guest), await moveList(page));
  assert.deepEqual(await moveList(guest), ["11-15", "23-19", "8-11", "22-17"]);
  const there = await extras(guest);
  assert.deepEqual(there, await extras(page));
  assert.ok(there.comments.includes("a sidestep"), JSON.stringify(there));
  assert.ok(there.variations.some((m) => m.includes("22-17")), JSON.stringify(there));
  assert.ok(there.variations.some((m) => m.includes("15-18")), JSON.stringify(there));
  assert.equal(new URL(guest.url()).pathname, `/a/${id}`, "the address stays the shared link");
  await screenshot(guest, "share-opened");

  // the importer's player page lists it, labelled imported
  await page.goto(`${env.server.url}?mode=player&name=sharer`);
  await page.waitForSelector("#pl-imports li", T);
  const item = await page.$eval("#pl-imports li", (li) => ({
    id: li.dataset.id,
    text: li.textContent,
    href: li.querySelector("a").getAttribute("href"),
  }));
  assert.equal(item.id, id);
  assert.match(item.text, /Imported/);
  assert.match(item.text, /Alice vs Bob/);
  assert.match(item.text, /Not rated/);
  assert.ok(item.href.endsWith(`/a/${id}`), item.href);
  // the archive's PDN export holds it (the player has no other game), labelled imported
  await page.waitForSelector("#pl-export", { state: "visible", ...T });
  const exported = await page.evaluate(async () => {
    const r = await fetch(document.getElementById("pl-export").href);
    return [r.status, await r.text()];
  });
  assert.equal(exported[0], 200, exported[1]);
  assert.ok(exported[1].startsWith(`[Imported "/a/${id}"]\n`), exported[1]);
  assert.match(exported[1], /\[Black "Alice"\]/);
  assert.match(exported[1], /the Old Faithful/, "the shared text with its comments");
  await axeCount(page, "player page with an imported game");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(guest.errors, []);
});

test("an unknown shared link says so and shows the analysis board's start, not the previous game", async (t) => {
  if (env.skip(t)) return;
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  // a game of this browser's before: four moves on the analysis board
  await openApp(page, env.server.url, "?mode=analysis&variant=american");
  await paste(page, PDN);
  assert.equal((await moveList(page)).length, 4);
  await page.goto(`${env.server.url}a/zzzzzzzzzz`);
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, T);
  await page.waitForFunction(() => /No shared game has this link/.test(document.querySelector("#toast").textContent), null, T);
  assert.equal(await page.evaluate(() => document.body.dataset.mode), "analysis");
  assert.deepEqual(await moveList(page), [], "no move of the previous game under the dead link");
  assert.equal((await page.$$("#board .piece")).length, 24, "the start: 12 men a side");
  assert.equal(await page.evaluate(() => window.crownApp.state.pdnInfo), null, "not the previous game's PDN");
  // the message covers none of the top bar's controls (Log in, Sign up)
  const overlaps = await page.evaluate(() => {
    const t = document.querySelector("#toast").getBoundingClientRect();
    const ov = (b) => t.left < b.right && b.left < t.right && t.top < b.bottom && b.top < t.bottom;
    return [...document.querySelectorAll(".topbar a, .topbar button")].filter((e) => e.offsetParent !== null && ov(e.getBoundingClientRect())).map((e) => e.id || e.textContent.trim());
  });
  assert.deepEqual(overlaps, [], "the toast is clear of the top bar");
  assert.equal(await page.isVisible("#account-signup"), true);
  await screenshot(page, "share-dead-link");
});
