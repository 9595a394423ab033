// The Watch page (issue 42; lichess's TV as the model): the ongoing public and rated games of
// crown-server, highest rated first (GET /api/tv), and the game of the day, in the online page's
// panel; the top game is followed live on the board as a spectator (online/online.js: the
// game's WebSocket), and any game opened from the list is followed instead. Until one is chosen,
// the page follows the top game, and moves on to the new top game once the one shown has ended.
// The list is read again every POLL_MS while the page is open (the server has no push channel
// for it). Its address is ?mode=watch.

import { $ } from "../shared/util.js";
import { toast } from "../shared/dialogs.js";
import { apiBase } from "../online/api.js";
import { render } from "./view.js";

/** How often the list is read while the page is open, in ms. */
export const POLL_MS = 4000;

/** The Watch page on the online page's panel. */
export class WatchCtrl {
  /** `app`: the router (the games are shown on its online page). */
  constructor({ app }) {
    this.app = app;
    this.isOpen = false;
    this.timer = 0;
    this.chosen = null; // the game opened from the list; null: follow the top game
    // the top bar's link (from 701 px) and the lobby's (every width)
    for (const id of ["nav-watch", "lobby-watch"]) {
      $(id).addEventListener("click", (e) => {
        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        this.open();
      });
    }
    $("watch-refresh").addEventListener("click", () => this.refresh());
    // the online page's other panels put the list away
    for (const id of ["online-lobby", "online-new"]) $(id).addEventListener("click", () => this.hide());
  }

  /** Open the page: the online page with the list, following the top game. */
  async open() {
    const app = this.app;
    for (const page of [app.players, app.tournaments]) if (page && page.isOpen) page.close({ push: false });
    app.setMode("online");
    app.online.client.lobby.hide();
    this.isOpen = true;
    this.chosen = null;
    $("watch").hidden = false;
    const url = new URL("./", document.baseURI);
    url.searchParams.set("mode", "watch");
    history.replaceState(null, "", url);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), POLL_MS);
    await this.refresh();
  }

  /** Put the list away (the game shown stays). */
  hide() {
    this.isOpen = false;
    clearInterval(this.timer);
    this.timer = 0;
    $("watch").hidden = true;
  }

  /** Read the list again and draw it; follow the top game when none was chosen and the one shown is over. */
  async refresh() {
    if (!this.isOpen) return;
    const client = this.app.online.client;
    let tv;
    try {
      const res = await fetch(apiBase() + "tv");
      tv = await res.json();
      if (!res.ok) throw new Error((tv && tv.message) || `the server answered ${res.status}`);
    } catch (e) {
      render(null, client.gameId, (id) => this.follow(id), e.message);
      return;
    }
    if (!this.isOpen) return;
    const top = tv.games[0];
    const shownOver = !client.view || client.view.status !== "ongoing";
    if (!this.chosen && top && top.id !== client.gameId && (!client.gameId || shownOver)) await this.#show(top.id);
    render(tv, client.gameId, (id) => this.follow(id));
  }

  /** Follow game `id` (opened from the list) on the board. */
  async follow(id) {
    this.chosen = id;
    await this.#show(id);
    await this.refresh();
  }

  async #show(id) {
    const app = this.app;
    if (app.mode !== "online") app.setMode("online");
    try {
      await app.online.client.open(id);
    } catch (e) {
      toast(e.message, 5000);
    }
    // open() puts the game's address in the bar: the page keeps its own
    const url = new URL("./", document.baseURI);
    url.searchParams.set("mode", "watch");
    history.replaceState(null, "", url);
  }
}
