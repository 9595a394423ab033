// Which games offer a draw and a chat: no draw offer in Impasse (against the browser's engine or
// online), no chat in a game against the server's engine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, openApp } from "./harness.js";

const env = serverAndBrowser();

test("no Offer draw in Impasse", async () => {
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url);
  assert.equal(await page.isVisible("#offer-draw"), true, "American: a draw may be offered");
  await page.click("#new-game");
  await page.check("#form-new input[name=variant][value=impasse]");
  await page.click("#new-ok");
  await page.waitForFunction(() => window.crownApp.state.variant === "impasse");
  assert.equal(await page.isVisible("#offer-draw"), false, "Impasse has no draws");
  await page.context().close();
});

test("no chat in a game against the server's engine; no draw offer in an online Impasse game", async (t) => {
  if (!process.env.CROWN_SERVER_BIN) return t.skip("CROWN_SERVER_BIN is not set");
  const page = await newPage(env.browser, { width: 1280, height: 800 });
  await openApp(page, env.server.url);
  const create = async ({ variant, opponent }) => {
    if (!(await page.isVisible("#online-new"))) await page.click("#mode-online");
    await page.click("#online-new");
    await page.waitForSelector("#dlg-online[open]");
    await page.check(`#form-online input[name=opponent][value=${opponent}]`);
    await page.check(`#form-online input[name=variant][value=${variant}]`);
    await page.check("#form-online input[name=side][value=first]");
    await page.fill("#form-online input[name=name]", "Ann");
    await page.click("#online-ok");
    await page.waitForFunction(() => document.querySelector("#share-link").value.includes("/g/"));
  };
  await create({ variant: "american", opponent: "engine" });
  await page.waitForFunction(() => /Crown engine/.test(document.querySelector("#name-top").textContent));
  assert.equal(await page.isVisible("#chat"), false, "no chat with the engine");
  assert.equal(await page.isVisible("#online-offer-draw"), true, "American: a draw may be offered");
  await create({ variant: "impasse", opponent: "friend" });
  await page.waitForFunction(() => window.crownApp.state.variant === "impasse");
  assert.equal(await page.isVisible("#chat"), true, "a game between players has its chat");
  assert.equal(await page.isVisible("#online-offer-draw"), false, "Impasse has no draws");
  await page.context().close();
});
