// The rating pages (issue 26): the leaderboard (?mode=leaderboard&variant=american&speed=blitz) and
// a player's page (?mode=player&name=alice, with the archive's filters &variant=&speed=&rated=&result=),
// from crown-server's GET /api/leaderboard, /api/users/{name} and /api/users/{name}/games
// (docs/api.md "Ratings"). They are not board pages: while one is open the board's layout is put
// aside (the game on it goes on: an online game keeps its socket) and the page is shown in its
// place. Links marked `data-route` open them in place with an address of their own
// (history.pushState), so reload, back and forward work; the mode buttons and "Back to the board"
// bring the board back. A game of the archive opens on the analysis board from its PDN; the games
// the player shared (GET /api/users/{name}/imports) are listed after it, labelled "Imported", and
// the archive's PDN export holds them too (after the games, each tagged [Imported "/a/<id>"]).

import { call } from "../account/ctrl.js";
import { toast } from "../shared/dialogs.js";
import { boardAddress, closePage, wireRoutedPage } from "../shared/pages.js";
import { GAMES, SPEEDS } from "../shared/rating.js";
import * as view from "./view.js";

/** How many games of the archive one request asks for. */
const PAGE = 30;

/** The rating page an address's query `params` names ({page, …}), or null for a board page. */
export function routeOf(params) {
  const mode = params.get("mode");
  const pick = (k, allowed) => (allowed.includes(params.get(k)) ? params.get(k) : "");
  if (mode === "leaderboard") {
    return { page: "leaderboard", variant: pick("variant", Object.keys(GAMES)) || "american", speed: pick("speed", Object.keys(SPEEDS)) || "blitz" };
  }
  if (mode === "player" && params.get("name")) {
    return {
      page: "player",
      name: params.get("name"),
      variant: pick("variant", Object.keys(GAMES)),
      speed: pick("speed", Object.keys(SPEEDS)),
      rated: pick("rated", ["true", "false"]),
      result: pick("result", ["win", "draw", "loss"]),
    };
  }
  return null;
}

/** The address (a query string) of `route`. */
export function hrefOf(route) {
  const q = new URLSearchParams({ mode: route.page });
  if (route.page === "player") q.set("name", route.name);
  for (const k of ["variant", "speed", "rated", "result"]) if (route[k]) q.set(k, route[k]);
  return `?${q}`;
}

/** The archive's filters of a player route, as the games endpoints take them. */
function filterQuery(route) {
  const q = new URLSearchParams();
  for (const k of ["variant", "speed", "rated", "result"]) if (route[k]) q.set(k, route[k]);
  return q;
}

/**
 * How many of the shared games `imports` of a player's archive its PDN export holds under the
 * filters of `route` (docs/api.md, games.pdn): those of its variant, none when it asks for rated
 * games, a speed or a result, which a shared game has not.
 */
export function exportedImports(route, imports) {
  if (route.speed || route.result || route.rated === "true") return 0;
  return imports.filter((g) => !route.variant || g.variant === route.variant).length;
}

/** The leaderboard and player pages. */
export class PlayersCtrl {
  /** `app`: the router (its analysis page opens archived games; its addresses are kept in step). */
  constructor({ app }) {
    this.app = app;
    this.v = view.build();
    this.route = null; // the page shown, null while the board is
    this.boardUrl = null; // the board's address, to go back to
    this.seq = 0; // answers to an older request are dropped
    this.importsSeq = 0; // the same for the list of imported games
    this.profile = null; // the player's profile shown
    this.imports = []; // its shared games in the archive (GET /api/users/{name}/imports)
    this.next = null; // the archive's next page (before_ms), null at its end
    this.#wire();
  }

  /** Whether a rating page is on screen. */
  get isOpen() {
    return this.route !== null;
  }

  #wire() {
    const v = this.v;
    // links to the rating pages open them in place; back, forward, the mode buttons
    wireRoutedPage(this, routeOf, v.back);
    v.lbForm.addEventListener("submit", (e) => e.preventDefault());
    v.lbForm.addEventListener("change", () => {
      const f = v.lbForm.elements;
      this.open({ page: "leaderboard", variant: f["lb-variant"].value, speed: f["lb-speed"].value }, { replace: true });
    });
    v.gForm.addEventListener("submit", (e) => e.preventDefault());
    v.gForm.addEventListener("change", () => {
      const f = v.gForm.elements;
      const r = this.route;
      if (!r || r.page !== "player") return;
      const route = { ...r, variant: f["f-variant"].value, speed: f["f-speed"].value, rated: f["f-rated"].value, result: f["f-result"].value };
      this.route = route;
      history.replaceState(null, "", hrefOf(route));
      this.#loadGames(route);
    });
    document.getElementById("pl-chart-pick").addEventListener("change", (e) => {
      if (this.profile) view.renderChart(v, this.profile.history, e.target.value);
    });
    v.more.addEventListener("click", () => {
      if (this.route && this.route.page === "player" && this.next != null) this.#loadGames(this.route, this.next);
    });
  }

  /**
   * Show the page of `route` ({page: "leaderboard", variant, speed} or {page: "player", name,
   * variant, speed, rated, result}); `push`: a new history entry (else the address is left, or
   * replaced with `replace`).
   */
  open(route, { push = true, replace = false } = {}) {
    if (!this.isOpen) {
      // the board's address to return to (from a tournament page: the one it goes back to)
      this.boardUrl = boardAddress(this.app.tournaments, routeOf);
      if (this.app.engine) this.app.engine.stop();
    }
    const href = hrefOf(route);
    if (replace) history.replaceState(null, "", href);
    else if (push) history.pushState(null, "", href);
    const samePage = this.route && this.route.page === route.page;
    this.route = route;
    document.body.dataset.page = "players";
    const v = this.v;
    v.page.hidden = false;
    v.lb.hidden = route.page !== "leaderboard";
    v.pl.hidden = route.page !== "player";
    const title = route.page === "leaderboard" ? v.lbTitle : v.plTitle;
    if (!samePage || !replace) title.focus();
    window.scrollTo(0, 0);
    if (route.page === "leaderboard") this.#loadLeaderboard(route);
    else this.#loadPlayer(route);
  }

  /** Put the page away without touching the address or the board (a tournament page takes its place). */
  hide() {
    if (this.app.challenges) this.app.challenges.showFor(null);
    this.route = null;
    this.profile = null;
    this.v.page.hidden = true;
    if (document.body.dataset.page === "players") delete document.body.dataset.page;
  }

  /** Bring the board back (`push`: with a history entry of the board's address). */
  close({ push = true } = {}) {
    closePage(this, this.app, push);
  }

  async #loadLeaderboard(route) {
    const v = this.v;
    const seq = ++this.seq;
    const f = v.lbForm.elements;
    f["lb-variant"].value = route.variant;
    f["lb-speed"].value = route.speed;
    v.lbTitle.textContent = `Leaderboard · ${GAMES[route.variant]} · ${SPEEDS[route.speed]}`;
    v.lbStatus.hidden = false;
    v.lbStatus.textContent = "Loading…";
    try {
      const q = new URLSearchParams({ variant: route.variant, speed: route.speed, limit: "50" });
      const data = await call(`leaderboard?${q}`);
      if (seq !== this.seq) return;
      view.renderLeaderboard(v, data);
      v.page.dataset.loaded = `leaderboard/${route.variant}/${route.speed}`;
    } catch (e) {
      if (seq !== this.seq) return;
      v.lbBody.replaceChildren();
      v.lbStatus.textContent = `The leaderboard could not be loaded: ${e.message}`;
    }
  }

  async #loadPlayer(route) {
    const v = this.v;
    const seq = ++this.seq;
    const f = v.gForm.elements;
    for (const k of ["variant", "speed", "rated", "result"]) f[`f-${k}`].value = route[k] || "";
    v.plTitle.textContent = route.name;
    v.plStatus.hidden = false;
    v.plStatus.textContent = "Loading…";
    document.getElementById("pl-body").hidden = true;
    delete v.page.dataset.loaded;
    let data;
    try {
      data = await call(`users/${encodeURIComponent(route.name)}`);
    } catch (e) {
      if (seq !== this.seq) return;
      v.plStatus.textContent = e.code === "not_found" ? `No player is called ${route.name}.` : `The player could not be loaded: ${e.message}`;
      return;
    }
    if (seq !== this.seq) return;
    this.profile = data;
    this.imports = [];
    view.renderProfile(v, data);
    // another account's page offers a challenge (challenges/ctrl.js)
    if (this.app.challenges) this.app.challenges.showFor(data.user.name);
    v.plStatus.hidden = true;
    v.plStatus.textContent = "";
    document.getElementById("pl-body").hidden = false;
    await this.#loadGames(route);
    await this.#loadImports(data.user.name);
  }

  /** The games player `name` shared and put in the archive (the newest 100), unless another page is shown by then. */
  async #loadImports(name) {
    const v = this.v;
    const seq = ++this.importsSeq;
    const current = () => seq === this.importsSeq && this.profile && this.profile.user.name === name;
    try {
      const data = await call(`users/${encodeURIComponent(name)}/imports?limit=100`);
      if (!current()) return;
      this.imports = data.imports;
      view.renderImports(v, data.imports);
    } catch (_) {
      // a server without shared games (an older one): no list
      if (current()) view.renderImports(v, []);
    }
    if (current()) this.#showExport();
  }

  /**
   * The export link is shown when the export holds a game: one of the archive's games listed, or
   * a shared game of the archive under the filters (the server answers 404 no_games otherwise).
   */
  #showExport() {
    const r = this.route && this.route.page === "player" ? this.route : {};
    this.v.exportLink.hidden = this.v.games.children.length === 0 && exportedImports(r, this.imports) === 0;
  }

  /** The archive of the player `route` names with its filters (`before`: the next page's before_ms). */
  async #loadGames(route, before = null) {
    const v = this.v;
    const seq = ++this.seq;
    const name = (this.profile && this.profile.user.name) || route.name;
    const q = filterQuery(route);
    v.exportLink.href = new URL(`api/users/${encodeURIComponent(name)}/games.pdn${q.size ? `?${q}` : ""}`, document.baseURI).href;
    v.exportLink.setAttribute("download", `crown-${name}-games.pdn`);
    q.set("limit", String(PAGE));
    if (before != null) q.set("before_ms", String(before));
    v.gStatus.textContent = "Loading…";
    v.more.disabled = true;
    try {
      const data = await call(`users/${encodeURIComponent(name)}/games?${q}`);
      if (seq !== this.seq) return;
      view.renderGames(v, data.games, { append: before != null, onAnalyse: (g) => this.analyse(g) });
      this.next = data.next_before_ms ?? null;
      const shown = v.games.children.length;
      v.gStatus.textContent = shown ? `${shown} game${shown === 1 ? "" : "s"} shown` : "No game matches.";
      // The server has no PDN of no games (404 no_games): no export link then.
      this.#showExport();
      v.more.hidden = this.next == null;
      v.page.dataset.loaded = `player/${name}`;
    } catch (e) {
      if (seq !== this.seq) return;
      v.gStatus.textContent = `The games could not be loaded: ${e.message}`;
    } finally {
      v.more.disabled = false;
    }
  }

  /** Open archived game `g` on the analysis board (its PDN from GET /api/games/{id}/pdn). */
  async analyse(g) {
    let text;
    try {
      const res = await fetch(new URL(`api/games/${encodeURIComponent(g.id)}/pdn`, document.baseURI).href);
      text = await res.text();
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
    } catch (e) {
      this.v.gStatus.textContent = `The game could not be opened: ${e.message}`;
      return;
    }
    const app = this.app;
    this.close();
    try {
      if (app.mode === "online") app.setMode("analysis");
      // at its last position, with how it ended (the archive's reason; the PDN has only the result)
      app.analysis.pdn.openGame(text, 1, 1, 1, { atEnd: true, ending: g.reason || null });
    } catch (e) {
      toast(`The game could not be opened: ${e.message}`, 8000);
    }
  }
}
