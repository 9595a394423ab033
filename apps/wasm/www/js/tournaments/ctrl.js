// The tournament pages (issue 42): the list (?mode=tournaments: upcoming, running, finished, and
// the create dialog) and one tournament (?mode=tournament&id=…), from crown-server's
// /api/tournaments endpoints (docs/api.md "Tournaments"). Like the rating pages (players/ctrl.js)
// they are shown in place of the board, with an address of their own (history.pushState), opened
// in place by links marked `data-route`.
//
// The server has no push channel for tournaments: an open tournament page reads it again every
// POLL_MS. A player of a running tournament is followed while the page is open and while their
// tournament game is on screen: when the server pairs them (a new round, or game 2 of the match
// once game 1 is over) the page takes the seat (POST …/games/{game}/seat) and opens that game;
// in an arena, each new game as soon as the server pairs them.

import { call, accountName } from "../account/ctrl.js";
import { Seats } from "../online/api.js";
import { confirmThen, toast } from "../shared/dialogs.js";
import { timeControl } from "../shared/clock.js";
import { boardAddress, closePage, wireRoutedPage } from "../shared/pages.js";
import * as view from "./view.js";

/** How often an open tournament (and a followed one) is read again, in ms. */
export const POLL_MS = 2000;

/** A tournament id as the server writes them (8 hex digits). */
const ID = /^[0-9a-f]{8}$/i;

/** The tournament page an address's query `params` names ({page, id}), or null. */
export function routeOf(params) {
  const mode = params.get("mode");
  if (mode === "tournaments") return { page: "tournaments" };
  if (mode === "tournament" && ID.test(params.get("id") || "")) return { page: "tournament", id: params.get("id") };
  return null;
}

/** The address (a query string) of `route`. */
export function hrefOf(route) {
  return route.page === "tournament" ? view.tournamentHref(route.id) : "?mode=tournaments";
}

/** The create dialog's field of each error code the server may answer (docs/api.md). */
const FIELD_OF_CODE = {
  bad_settings: "name",
  bad_variant: "variant",
  bad_format: "format",
  bad_rounds: "rounds",
  bad_duration: "minutes",
  bad_time_control: "clock",
  bad_start: "starts",
  bad_openings: "openings",
  bad_password: "password",
};

/** The words for a refusal whose server message names the API's field rather than the dialog's. */
const FIELD_TEXT = {
  bad_start: "The start time must be in the future and at most 30 days ahead.",
};

/** The player id of the account logged in among `t`'s players (not withdrawn), or null. */
export function myPlayer(t) {
  const me = accountName();
  if (!me || !t || !t.players_list) return null;
  const p = t.players_list.find((p) => p.name === me && !p.withdrawn);
  return p ? p.id : null;
}

/**
 * My next game of tournament `t` (player `me`): the first game of my match in the last round
 * that has no result yet ({id, game, board}), or null (not running, a bye, or both games done).
 */
export function myNextGame(t, me) {
  if (!t || t.phase !== "running" || me == null) return null;
  if (t.format === "arena") {
    const g = (t.games || []).find((g) => g.result == null && (g.first === me || g.second === me));
    return g ? { id: g.id, game: g.number, arena: true } : null;
  }
  if (!t.pairings.length) return null;
  const round = t.pairings[t.pairings.length - 1];
  const m = round.pairings.find((p) => p.bye == null && (p.first === me || p.second === me));
  if (!m) return null;
  const g = m.games.find((g) => g.result == null);
  return g ? { id: g.id, game: g.game, board: m.board, round: round.number } : null;
}

/** The list and tournament pages. */
export class TournamentsCtrl {
  /** `app`: the router (the board comes back when a page closes; my game opens on its online page). */
  constructor({ app }) {
    this.app = app;
    this.v = view.build();
    this.route = null; // the page shown, null while the board is
    this.boardUrl = null; // the board's address, to go back to
    this.seq = 0; // answers to an older request are dropped
    this.t = null; // the tournament shown or followed (GET /api/tournaments/{id})
    this.shownRound = null; // the round picked for the pairings (null: the last)
    this.following = null; // the id of the tournament whose next game of mine opens by itself
    this.opened = new Set(); // my games opened by the page (once each: the player may leave one)
    this.drawn = null; // the account and tournament last drawn
    this.seats = new Seats();
    this.#wire();
    setInterval(() => this.#tick(), 1000);
    this.lastPoll = 0;
  }

  /** Whether a tournament page is on screen. */
  get isOpen() {
    return this.route !== null;
  }

  /** The page's controls: the routes, the list's create button, the tournament's actions, the dialog. */
  #wire() {
    const v = this.v;
    wireRoutedPage(this, routeOf, v.back);
    v.create.addEventListener("click", () => {
      if (!accountName()) document.getElementById("account-login").click();
      else this.#openDialog();
    });
    v.login.addEventListener("click", () => document.getElementById("account-login").click());
    v.join.addEventListener("click", () => this.#act("join"));
    v.withdraw.addEventListener("click", () => {
      const t = this.t;
      if (!t) return;
      // once it runs, a Swiss pairs the player no more and a round robin's later games are forfeits
      const text =
        t.phase === "created"
          ? "You leave the tournament before its start; you may join again."
          : t.format === "arena"
            ? "You are paused: paired no more until you join again, keeping your points. A game in progress goes on."
            : "You are paired no more; a round robin's later games are lost by forfeit. Games in progress go on.";
      const verb = t.phase === "running" && t.format === "arena" ? "Pause" : "Withdraw";
      confirmThen(`${verb === "Pause" ? "Pause in" : "Withdraw from"} ${t.name}?`, text, verb, () => this.#act("withdraw"));
    });
    v.start.addEventListener("click", () => this.#act("start"));
    v.roundPick.addEventListener("change", () => {
      const n = Number(v.roundPick.value);
      this.shownRound = this.t && n === this.t.pairings.length ? null : n;
      this.drawn = null;
      if (this.t) this.#renderTournament(this.t);
    });
    v.myGame.addEventListener("click", (e) => {
      const b = e.target instanceof Element ? e.target.closest("button[data-game]") : null;
      if (b && this.t) this.openGame(this.t, b.dataset.game);
    });
    const d = v.d;
    d.variant.addEventListener("change", () => view.fillOpenings(d));
    d.format.addEventListener("change", () => this.#dialogFields());
    d.clock.addEventListener("change", () => this.#dialogFields());
    d.cancel.addEventListener("click", () => d.dlg.close());
    d.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.#submit();
    });
  }

  /**
   * Show the page of `route` ({page: "tournaments"} or {page: "tournament", id}); `push`: a new
   * history entry (else the address is left as it is).
   */
  open(route, { push = true } = {}) {
    if (!this.isOpen) {
      // the board's address to return to (from a rating page: the one it goes back to)
      this.boardUrl = boardAddress(this.app.players, routeOf);
      if (this.app.engine) this.app.engine.stop();
    }
    if (push) history.pushState(null, "", hrefOf(route));
    const same = this.route && this.route.page === route.page && this.route.id === route.id;
    this.route = route;
    document.body.dataset.page = "tournaments";
    const v = this.v;
    v.page.hidden = false;
    v.list.hidden = route.page !== "tournaments";
    v.one.hidden = route.page !== "tournament";
    (route.page === "tournaments" ? v.listTitle : v.tTitle).focus();
    window.scrollTo(0, 0);
    if (route.page === "tournaments") this.#loadList();
    else {
      if (!same) {
        this.t = null;
        this.shownRound = null;
        v.one.querySelector("#tt-body").hidden = true;
        delete v.page.dataset.loaded;
      }
      this.#loadTournament(route.id);
    }
  }

  /** Put the page away without touching the address or the board (another page takes its place). */
  hide() {
    this.route = null;
    this.v.page.hidden = true;
    if (document.body.dataset.page === "tournaments") delete document.body.dataset.page;
  }

  /** Bring the board back (`push`: with a history entry of the board's address). */
  close({ push = true } = {}) {
    closePage(this, this.app, push);
  }

  // ---- the list ---------------------------------------------------------------------------------

  /** Read and show the lists of `GET /api/tournaments`. */
  async #loadList() {
    const v = this.v;
    const seq = ++this.seq;
    this.#renderCreate();
    v.listStatus.textContent = "Loading…";
    v.listStatus.hidden = false;
    try {
      const data = await call("tournaments");
      if (seq !== this.seq) return;
      view.renderList(v, data);
      v.listStatus.hidden = true;
      v.listStatus.textContent = "";
      v.page.dataset.loaded = "tournaments";
    } catch (e) {
      if (seq !== this.seq) return;
      v.listStatus.textContent = `The tournaments could not be loaded: ${e.message}`;
    }
  }

  /** The create button: for an account; a guest is asked to log in first. */
  #renderCreate() {
    const v = this.v;
    const guest = !accountName();
    v.create.textContent = guest ? "Log in to create a tournament" : "Create a tournament";
    v.createNote.textContent = guest ? "Tournaments are played between accounts." : "";
    v.createNote.hidden = !guest;
  }

  // ---- the create dialog ------------------------------------------------------------------------

  /** Open the create dialog with its defaults (5+3, the game's default openings), no error shown. */
  #openDialog() {
    const d = this.v.d;
    d.form.reset();
    d.clock.value = "300+3";
    view.fillOpenings(d);
    view.showFieldErrors(d, {});
    d.error.textContent = "";
    this.#dialogFields();
    d.ok.disabled = false;
    d.dlg.showModal();
    d.name.focus();
  }

  /** Rounds for a Swiss only, the duration for an arena only; the custom clock's fields for "Custom…". */
  #dialogFields() {
    const d = this.v.d;
    d.roundsField.hidden = d.format.value !== "swiss";
    d.minutesField.hidden = d.format.value !== "arena";
    d.custom.hidden = d.clock.value !== "custom";
  }

  /** The request of the dialog's values, or {errors} naming the fields that are wrong. */
  #request() {
    const d = this.v.d;
    const errors = {};
    const body = { name: d.name.value.trim(), variant: d.variant.value, format: d.format.value, rated: d.rated.checked, openings: d.openings.value };
    if (!body.name) errors.name = "Give the tournament a name (1 to 80 characters).";
    else if ([...body.name].length > 80) errors.name = "At most 80 characters.";
    if (body.format === "swiss") {
      const r = Number(d.rounds.value);
      if (!Number.isInteger(r) || r < 1 || r > 15) errors.rounds = `A Swiss has 1 to 15 rounds, not '${d.rounds.value}'.`;
      else body.rounds = r;
    }
    if (body.format === "arena") {
      const m = Number(d.minutes.value);
      if (!Number.isInteger(m) || m < 1 || m > 180) errors.minutes = `An arena lasts 1 to 180 minutes, not '${d.minutes.value}'.`;
      else body.minutes = m;
    }
    try {
      body.time_control = timeControl(d.clock.value, d.base.value, d.inc.value);
    } catch (e) {
      errors.clock = `The ${e.message}.`;
    }
    if (d.starts.value) {
      const ms = new Date(d.starts.value).getTime();
      if (!Number.isFinite(ms)) errors.starts = "Not a date and time.";
      else if (ms <= Date.now()) errors.starts = "The start time is in the past.";
      else body.starts_ms = ms;
    }
    if (d.password.value) body.password = d.password.value;
    return Object.keys(errors).length ? { errors } : { body };
  }

  /** Send the dialog's tournament (`POST /api/tournaments`) and open its page; a refusal is shown at its field. */
  async #submit() {
    const d = this.v.d;
    d.error.textContent = "";
    const { body, errors } = this.#request();
    view.showFieldErrors(d, errors || {});
    if (errors) return;
    d.ok.disabled = true;
    try {
      const r = await call("tournaments", "POST", body);
      d.dlg.close();
      this.open({ page: "tournament", id: r.id });
    } catch (e) {
      const f = FIELD_OF_CODE[e.code];
      if (f) view.showFieldErrors(d, { [f]: FIELD_TEXT[e.code] || e.message });
      else d.error.textContent = e.code === "not_logged_in" ? "Your session has ended: log in again to create a tournament." : e.message;
    } finally {
      d.ok.disabled = false;
    }
  }

  // ---- one tournament ---------------------------------------------------------------------------

  /** Read tournament `id` (`GET /api/tournaments/{id}`) and show it. */
  async #loadTournament(id) {
    const v = this.v;
    const seq = ++this.seq;
    if (!this.t) {
      v.tStatus.hidden = false;
      v.tStatus.textContent = "Loading…";
    }
    let t;
    try {
      t = await call(`tournaments/${encodeURIComponent(id)}`);
    } catch (e) {
      if (seq !== this.seq) return;
      v.tStatus.hidden = false;
      v.tStatus.textContent = e.code === "not_found" ? "There is no such tournament." : `The tournament could not be loaded: ${e.message}`;
      return;
    }
    if (seq !== this.seq || !this.route || this.route.id !== id) return;
    this.#show(t);
  }

  /** Tournament `t` as read: shown, followed when I play in it, my next game opened. */
  #show(t) {
    this.t = t;
    this.lastPoll = Date.now();
    const me = myPlayer(t);
    this.following = me != null && t.phase !== "finished" ? t.id : this.following === t.id ? null : this.following;
    if (this.isOpen && this.route.page === "tournament" && this.route.id === t.id) {
      // drawn again only when it changed (a focused link or an open round picker stays as it is)
      const key = `${accountName()}\n${JSON.stringify(t)}`;
      if (key !== this.drawn || this.v.one.querySelector("#tt-body").hidden) this.#renderTournament(t);
      this.drawn = key;
      this.v.page.dataset.loaded = `tournament/${t.id}/${t.phase}/${t.format === "arena" ? (t.games_total ?? t.games.length) : t.pairings.length}`;
    }
    this.#maybeOpenMyGame(t);
  }

  /** Draw tournament `t`: settings, phase, the account's actions, my game, a round's pairings, standings, players, crosstable. */
  #renderTournament(t) {
    const v = this.v;
    const me = myPlayer(t);
    const account = accountName();
    v.tStatus.hidden = true;
    v.tStatus.textContent = "";
    v.one.querySelector("#tt-body").hidden = false;
    v.tTitle.textContent = t.name;
    const opening = view.OPENINGS[t.openings] ? view.OPENINGS[t.openings].name : t.openings;
    v.tMeta.textContent = `${view.settingsText(t)} · ${opening} · created by ${t.creator}${t.password ? " · password" : ""}`;
    const arena = t.format === "arena";
    const n = arena ? 0 : t.pairings.length;
    v.phase.textContent =
      t.phase === "created"
        ? `${t.players} player${t.players === 1 ? "" : "s"} joined${me != null ? ", you among them" : ""}.`
        : t.phase === "running" && arena
          ? "The arena is running: each player is paired again as soon as their game ends."
          : t.phase === "running"
          ? `Round ${n} of ${t.rounds} is being played: the next round is paired as soon as every game of this one has ended.`
          : t.cancelled
            ? `Cancelled: ${t.cancelled}.`
            : "Finished.";
    v.page.dataset.phase = t.phase;
    this.#renderCountdown();
    // the actions the account may take
    const created = t.phase === "created";
    // an arena is joined while it runs too, and a paused player comes back so
    v.join.hidden = !(account && (created || (arena && t.phase === "running")) && me == null);
    v.join.textContent = arena && t.phase === "running" && t.players_list.some((p) => p.name === account) ? "Come back" : "Join";
    v.withdraw.textContent = arena && t.phase === "running" ? "Pause" : "Withdraw";
    v.pwLabel.hidden = v.join.hidden || !t.password;
    v.withdraw.hidden = !(me != null && t.phase !== "finished");
    v.start.hidden = !(created && account && account === t.creator);
    v.login.hidden = !(!account && created);
    v.pdn.hidden = created;
    v.pdn.href = new URL(`api/tournaments/${encodeURIComponent(t.id)}/pdn`, document.baseURI).href;
    v.pdn.setAttribute("download", `crown-tournament-${t.id}.pdn`);
    // my game
    const next = myNextGame(t, me);
    v.myGame.hidden = !next;
    if (next) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.dataset.game = next.id;
      b.id = "tt-play";
      b.textContent = next.arena ? `Play your game (game ${next.game} of the arena)` : `Play your game ${next.game} (round ${next.round}, board ${next.board})`;
      v.myGame.replaceChildren(b);
    }
    v.one.querySelector("#tt-tiebreaks").textContent = arena ? view.TIEBREAKS.arena : view.TIEBREAKS.rounds;
    v.one.querySelector("#tt-pairings-title").textContent = arena ? "Games" : "Pairings";
    v.one.querySelector("#tt-cross-title").hidden = arena;
    v.crossWrap.hidden = arena;
    if (arena) {
      v.roundLabel.hidden = true;
      v.noPairings.textContent = "Players are paired when the arena starts.";
      v.noPairings.hidden = t.games.length > 0;
      v.pairings.parentElement.hidden = t.games.length === 0;
      view.renderArenaGames(v, t, me);
      view.renderArenaStandings(v, t, me);
      view.renderPlayers(v, t);
      return;
    }
    v.noPairings.textContent = "The first round is paired when the tournament starts.";
    // the pairings of the round picked (the last by default)
    const shown = this.shownRound && this.shownRound <= n ? this.shownRound : n;
    v.roundLabel.hidden = n < 2;
    v.roundPick.replaceChildren(...t.pairings.map((r) => new Option(`${r.number}${r.number === n ? " (current)" : ""}`, String(r.number))));
    v.roundPick.value = String(shown);
    v.noPairings.hidden = n > 0;
    v.pairings.parentElement.hidden = n === 0;
    if (n > 0) view.renderRound(v, t.pairings[shown - 1], me);
    else v.opening.textContent = "";
    view.renderStandings(v, t, me);
    view.renderPlayers(v, t);
    view.renderCrosstable(v, t);
  }

  /** The countdown to the start (a start time set), or to a running arena's end, every second. */
  #renderCountdown() {
    const v = this.v;
    const t = this.t;
    if (t && t.format === "arena" && t.phase === "running" && t.ends_ms) {
      v.countdown.hidden = false;
      const left = t.ends_ms - Date.now();
      v.countdown.textContent = left > 0 ? `Ends in ${view.countdownText(left)} (${view.whenText(t.ends_ms)}).` : "Ending…";
      return;
    }
    const at = t && t.phase === "created" && t.starts_ms ? t.starts_ms : null;
    v.countdown.hidden = !at && !(t && t.phase === "created");
    if (!t || t.phase !== "created") return;
    if (!at) v.countdown.textContent = `Starts when ${t.creator} starts it.`;
    else if (at > Date.now()) v.countdown.textContent = `Starts in ${view.countdownText(at - Date.now())} (${view.whenText(at)}), with two players or more.`;
    else v.countdown.textContent = t.players >= 2 ? "Starting…" : "Waiting for a second player to start.";
  }

  /** Join, withdraw or start the tournament shown; a refusal is shown under the buttons. */
  async #act(what) {
    const v = this.v;
    const t = this.t;
    if (!t) return;
    v.actionError.textContent = "";
    const body = what === "join" && t.password ? { password: v.password.value } : undefined;
    for (const b of [v.join, v.withdraw, v.start]) b.disabled = true;
    try {
      const r = await call(`tournaments/${encodeURIComponent(t.id)}/${what}`, "POST", body);
      v.password.value = "";
      this.#show(r);
    } catch (e) {
      v.actionError.textContent = e.message;
    } finally {
      for (const b of [v.join, v.withdraw, v.start]) b.disabled = false;
    }
  }

  // ---- my next game -----------------------------------------------------------------------------

  /**
   * Open my next game of `t` when the server has paired me and the player is where it should
   * take them: on this tournament's page, or on a tournament game of theirs that is over.
   */
  #maybeOpenMyGame(t) {
    const next = myNextGame(t, myPlayer(t));
    if (!next || this.opened.has(next.id)) return;
    const here = this.isOpen && this.route.page === "tournament" && this.route.id === t.id;
    const client = this.app.online && this.app.online.client;
    const onGame = !this.isOpen && this.app.mode === "online" && client && client.gameId && client.gameId.startsWith(t.id);
    const over = onGame && client.view && !["open", "ongoing"].includes(client.view.status);
    if (here || over) this.openGame(t, next.id);
  }

  /**
   * Take my seat in game `id` of tournament `t` and open it on the online page. A seat kept in
   * this browser is used again; when its token no longer works (another browser took the seat
   * since), the seat is taken again.
   */
  async openGame(t, id) {
    this.opened.add(id);
    const claim = async () => {
      const r = await call(`tournaments/${encodeURIComponent(t.id)}/games/${encodeURIComponent(id)}/seat`, "POST");
      this.seats.remember(r.id, r.color, r.token, t.variant);
    };
    const kept = !!this.seats.stored(id);
    if (!kept) {
      try {
        await claim();
      } catch (e) {
        this.v.actionError.textContent = `Your game could not be opened: ${e.message}`;
        this.opened.delete(id);
        return;
      }
    }
    const app = this.app;
    // the previous game's "game over" dialog would act on this game (Analyse, Rematch): closed
    const over = document.getElementById("dlg-over");
    if (over && over.open) over.close("");
    if (this.isOpen) this.close();
    history.replaceState(null, "", new URL("./", document.baseURI).href);
    app.setMode("online");
    const client = app.online.client;
    await client.join(id);
    if (kept && !client.seat && client.gameId === id) {
      try {
        await claim();
        await client.join(id);
      } catch (e) {
        toast(`Your seat could not be taken: ${e.message}`, 6000);
      }
    }
  }

  /** Every second: the countdown; every POLL_MS the tournament shown or followed is read again. */
  #tick() {
    if (this.isOpen && this.route.page === "tournament") this.#renderCountdown();
    const id = this.isOpen && this.route.page === "tournament" ? this.route.id : this.following;
    if (!id || this.polling || Date.now() - this.lastPoll < POLL_MS) return;
    if (this.t && this.t.id === id && this.t.phase === "finished") return;
    this.polling = true;
    this.lastPoll = Date.now();
    call(`tournaments/${encodeURIComponent(id)}`)
      .then((t) => {
        // the page may have moved to another tournament meanwhile
        const shownId = this.isOpen && this.route.page === "tournament" ? this.route.id : this.following;
        if (shownId === t.id) this.#show(t);
      })
      .catch(() => {
        /* the next tick tries again */
      })
      .finally(() => {
        this.polling = false;
      });
  }
}
