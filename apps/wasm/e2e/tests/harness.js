// Shared helpers of the browser end-to-end tests: a static server for apps/wasm/www (or crown-server),
// Debian's headless Chromium driven by playwright-core, screenshots in target/e2e-artifacts/.
import { chromium } from "playwright-core";
import { before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "../../../..");
export const wwwRoot = path.join(repoRoot, "apps/wasm/www");
export const artifacts = path.join(repoRoot, "target/e2e-artifacts");
fs.mkdirSync(artifacts, { recursive: true });

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".png": "image/png",
};

/** A tiny static file server for apps/wasm/www on a free localhost port. */
export async function startStaticServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    let p = path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, "");
    if (p.endsWith("/")) p += "index.html";
    const file = path.join(wwwRoot, p);
    if (!file.startsWith(wwwRoot) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end("not found");
      return;
    }
    res.writeHead(200, { "content-type": MIME[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** The flags every Chromium of these tests is started with (no network beyond localhost). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launch Debian's Chromium headless with a fresh profile (playwright-core gives each launch a new
 * empty --user-data-dir in a temporary directory).
 */
export async function launch() {
  const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
  if (!fs.existsSync(executablePath)) {
    throw new Error(
      `${executablePath} not found: install Debian's chromium (apt-get install -y chromium chromium-driver)`,
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS, "--headless"],
  });
}

/**
 * Make `context` a returning visitor: the first visit's welcome (js/shared/welcome.js, key
 * `crown.welcomed.v1`) is marked as seen before any page script runs, so the tests of the board see
 * the page a player sees from the second visit on. The welcome's own test opens a first visit.
 */
export async function returningVisitor(context) {
  await context.addInitScript(() => {
    try {
      if (localStorage.getItem("crown.welcomed.v1") === null) localStorage.setItem("crown.welcomed.v1", "1");
    } catch (_) {
      /* about:blank and the like: no storage */
    }
  });
  return context;
}

/**
 * A new page with console errors collected into `page.errors`; `firstVisit`: the welcome is shown
 * (else the page is a returning visitor's, see `returningVisitor`).
 */
export async function newPage(browser, { width = 1280, height = 900, mobile = false, firstVisit = false, colorScheme } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 1,
    isMobile: mobile,
    hasTouch: mobile,
    acceptDownloads: true,
    ...(colorScheme ? { colorScheme } : {}),
  });
  if (!firstVisit) await returningVisitor(context);
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(m.text());
  });
  return page;
}

/** Open the app and wait until the wasm module is loaded and the board drawn. */
export async function openApp(page, baseUrl, query = "") {
  await page.goto(baseUrl + query);
  await page.waitForFunction(() => window.crownApp && document.querySelectorAll(".board .piece").length > 0);
}

export async function screenshot(page, name) {
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Screen coordinates of the centre of square n on the main board. */
export async function squareCenter(page, n, boardSel = "#board") {
  return page.evaluate(
    ({ n, boardSel }) => {
      const r = document.querySelector(`${boardSel} rect.sq[data-square="${n}"]`).getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    { n, boardSel },
  );
}

export async function clickSquare(page, n, boardSel = "#board") {
  const c = await squareCenter(page, n, boardSel);
  await page.mouse.click(c.x, c.y);
}

export async function dragSquare(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** Texts of the moves in the move list. */
export async function moveList(page) {
  return page.$$eval("#movelist .mv:not(.empty)", (els) => els.map((e) => e.textContent));
}

/** Pieces on the main board: {square: "black man"} */
export async function boardPieces(page) {
  return page.$$eval("#board .pieces .piece:not(.ghost)", (els) =>
    Object.fromEntries(els.map((e) => [Number(e.dataset.square), `${e.dataset.color} ${e.dataset.role}`])),
  );
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Start crown-server (binary from env CROWN_SERVER_BIN) on `port` (0: a free one) with database
 * `db`, serving apps/wasm/www, with the environment variables `env` added (e.g. a server option
 * such as `CROWN_ABORT_AFTER_SECS`); resolves to {url, port, db, child, log} when it listens.
 * Every browser of the suite connects from 127.0.0.1, like many players behind one proxy, and
 * Chromium keeps idle keep-alive connections of closed contexts open: the per-address connection
 * cap (64 by default, docs/scaling.md) is raised so it counts the suite, not one player.
 * `--no-egdb`: the suite does not depend on the machine's endgame databases (the per-user
 * directory, ~/.local/share/crown/egdb, is filled by any earlier run of Crown there); with its
 * ≤4-piece files served to the page, the engine solves a 4-piece position at depth 1 and the
 * analysis test waiting for depth 3 never sees it. It also starts no background build.
 */
export function spawnCrownServer(db, port = 0, { env = {} } = {}) {
  const child = spawn(
    process.env.CROWN_SERVER_BIN,
    ["--port", String(port), "--db", db, "--static-dir", wwwRoot, "--sync", "normal", "--max-conns-per-ip", "4096", "--no-egdb"],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CROWN_LOG: "warn", ...env } },
  );
  let log = "";
  child.stderr.on("data", (d) => (log += d));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`crown-server did not start:\n${log}`)), 20000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        const url = m[1].endsWith("/") ? m[1] : `${m[1]}/`;
        resolve({ url, port: Number(new URL(url).port), db, child, log: () => log });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`crown-server exited with ${code}:\n${log}`));
    });
  });
}

/** Stop a server from `spawnCrownServer` with `signal` (SIGKILL after 5 s). */
export function stopCrownServer(s, signal = "SIGTERM") {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
    s.child.once("exit", () => resolve());
    s.child.kill(signal);
    setTimeout(() => s.child.kill("SIGKILL"), 5000).unref();
  });
}

/**
 * Start crown-server (binary from env CROWN_SERVER_BIN) on a free port with a fresh database,
 * serving apps/wasm/www. Returns {url, close} or null when no server binary is configured.
 */
export async function startCrownServer() {
  const bin = process.env.CROWN_SERVER_BIN;
  if (!bin) return null;
  if (!fs.existsSync(bin)) throw new Error(`CROWN_SERVER_BIN=${bin} does not exist`);
  const s = await spawnCrownServer(path.join(tempDir("crown-e2e-db-"), "crown.db"));
  return { url: s.url, log: s.log, close: () => stopCrownServer(s) };
}

/** The server the tests use: crown-server when CROWN_SERVER_BIN is set, else a static server. */
export async function startServer() {
  if (process.env.CROWN_E2E_URL) return { url: process.env.CROWN_E2E_URL, close() {} };
  return (await startCrownServer()) || startStaticServer();
}

/**
 * Start crown-server (`startCrownServer`) and Chromium before a test file's tests and stop both
 * after, for tests that need the real server; returns the object whose `server` and `browser` are
 * set once `before` has run, and whose `skip(t)` skips test `t` (saying why, naming `what`) and
 * returns true when CROWN_SERVER_BIN is not set.
 */
export function crownServerAndBrowser(what = "these tests") {
  const env = {
    server: null,
    browser: null,
    skip(t) {
      if (env.server) return false;
      t.skip(`CROWN_SERVER_BIN is not set: no crown-server for ${what}`);
      return true;
    },
  };
  before(async () => {
    env.server = await startCrownServer();
    if (env.server) env.browser = await launch();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.close();
  });
  return env;
}

/**
 * Start the server (`startServer`) and Chromium before a test file's tests and stop both after;
 * returns the object whose `server` and `browser` are set once `before` has run.
 */
export function serverAndBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.close();
  });
  return env;
}

/**
 * Run axe-core (apps/wasm/e2e/node_modules/axe-core) on `page` and fail the test unless it finds
 * no violation of any impact; the findings are logged under `name`.
 */
export async function axeCount(page, name) {
  if (!(await page.evaluate(() => !!window.axe))) {
    await page.addScriptTag({ path: path.join(repoRoot, "apps/wasm/e2e/node_modules/axe-core/axe.min.js") });
  }
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
  const count = result.reduce((a, v) => a + v.nodes, 0);
  console.log(`axe-core (${name}): ${result.length} rules violated, ${count} nodes: ${JSON.stringify(result)}`);
  assert.equal(count, 0, `no axe findings (${name})`);
}

/**
 * Sign up account `name` with `password` in the page's header (the session cookie is the page's
 * from then on; the page knows it is logged in, as after a person's sign-up).
 */
export async function signUp(page, name, password) {
  await authDialog(page, "#account-signup", name, password);
}

/** Open the account dialog with `button` (sign up or log in), fill it, send it and wait for the account. */
async function authDialog(page, button, name, password) {
  const T = { timeout: 60000 };
  await page.waitForFunction(() => document.body.dataset.account === "ready", null, T);
  await page.click(button);
  await page.waitForSelector("#dlg-auth[open]");
  await page.fill("#auth-username", name);
  await page.fill("#auth-password", password);
  await page.press("#auth-password", "Enter");
  await page.waitForSelector("#account-user", { state: "visible", ...T });
}

/** Log in as `name` with `password` in page `page` (the app open, logged out). */
export async function logIn(page, name, password) {
  await authDialog(page, "#account-login", name, password);
}

/** Open the page of player `name` in `page` (the app at `baseUrl`) and wait until it is loaded. */
export async function openPlayer(page, baseUrl, name) {
  await openApp(page, baseUrl, `?mode=player&name=${name}`);
  await page.waitForFunction((n) => document.getElementById("players-page")?.dataset.loaded === `player/${n}`, name, { timeout: 60000 });
}

/** Wait until `page` shows game `id` on the online page with a seat; the seat's colour. */
export async function waitMyGame(page, id) {
  await page.waitForFunction((g) => window.crownApp.state.mode === "online" && window.crownApp.online()?.gameId === g && !!window.crownApp.online().seat && !!window.crownApp.online().view, id, { timeout: 60000 });
  return page.evaluate(() => window.crownApp.online().seat);
}

/** The committed puzzles of `variant` (crates/puzzle/puzzles/<variant>.jsonl), one object per line. */
export function committedPuzzles(variant = "american") {
  return fs
    .readFileSync(path.join(repoRoot, `crates/puzzle/puzzles/${variant}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** The squares a move text names (`27-23`, `19x26`, `11x18x25`). */
export const moveSquares = (text) => text.split(/[-x]/).map(Number);

/** Solve `puzzle` on the Puzzles page by clicking its solution's moves; waits for each forced reply, then "solved". */
export async function solveByClicks(page, puzzle) {
  for (let k = 0; k < puzzle.solution.length; k += 2) {
    for (const n of moveSquares(puzzle.solution[k])) await clickSquare(page, n);
    const plies = Math.min(k + 2, puzzle.solution.length);
    await page.waitForFunction(
      (n) => window.crownApp.state.history.length === n && !window.crownApp.state.puzzle.pending,
      plies,
      { timeout: 30000 },
    );
  }
  await page.waitForSelector('#puzzle-feedback[data-kind="solved"]', { timeout: 30000 });
}

/** Play a legal one-step move of `puzzle` (the one on the page) that is not its solution's first move. */
export async function playWrongMove(page, puzzle) {
  const legal = await page.evaluate(() => window.crownApp.board.moves.map((m) => ({ text: m.text, from: m.from, to: m.to, path: m.path })));
  const wrong = legal.find((m) => m.text !== puzzle.solution[0] && m.path.length === 1);
  assert.ok(wrong, `puzzle ${puzzle.id} has a legal move other than ${puzzle.solution[0]}`);
  await clickSquare(page, wrong.from);
  await clickSquare(page, wrong.to);
  await page.waitForSelector('#puzzle-feedback[data-kind="wrong"]', { timeout: 30000 });
  return wrong;
}
