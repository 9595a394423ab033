// "Your turn" in the web app (issue 42; docs/api.md `GET /api/me/turns`): while logged in the top
// bar counts my ongoing games where it is my move — correspondence and live — and its button opens
// their list; each opens on the online page with my seat: the one kept in this browser, else a
// fresh seat token from the game's `seat_url` (a challenge's or a tournament's game).
//
// The server has no push channel for it: the page reads the list every POLL_MS, and at once after
// the account changes or the list is opened.

import { call, currentAccount, ACCOUNT_EVENT } from "../account/ctrl.js";
import { openGame } from "../challenges/ctrl.js";
import { Seats } from "../online/api.js";
import * as view from "./view.js";

/** How often the games are read, in ms. */
export const POLL_MS = 3000;

/** The top bar's "your turn" button and list. */
export class TurnsCtrl {
  /** `app`: the router (a game opens on its online page). */
  constructor({ app }) {
    this.app = app;
    this.v = view.build();
    this.seats = new Seats();
    this.polling = false;
    this.data = { count: 0, games: [] };
    this.v.button.addEventListener("click", () => {
      this.v.list.error.textContent = "";
      this.v.list.dlg.showModal();
      this.#tick(true);
    });
    this.v.list.close.addEventListener("click", () => this.v.list.dlg.close());
    document.addEventListener(ACCOUNT_EVENT, () => this.#onAccount());
    setInterval(() => this.#tick(), POLL_MS);
  }

  #onAccount() {
    const me = currentAccount();
    this.v.button.hidden = !me;
    if (!me) this.#render({ count: 0, games: [] });
    this.#tick(true);
  }

  #render(data) {
    this.data = data;
    view.render(this.v, data, (g) => this.#open(g));
    document.body.dataset.turns = String(data.count);
  }

  /** Open game `g` with my seat (taking a fresh one from its `seat_url` when this browser has none). */
  async #open(g) {
    const l = this.v.list;
    l.error.textContent = "";
    try {
      if (!this.seats.stored(g.id) && g.seat_url) {
        const r = await call(g.seat_url.replace(/^\/api\//, ""), "POST");
        this.seats.remember(g.id, r.color, r.token, g.variant);
      }
      l.dlg.close();
      await openGame(this.app, g.id);
    } catch (e) {
      l.error.textContent = `The game could not be opened: ${e.message}`;
    }
  }

  /** Read my turns (every POLL_MS, or at once with `now`). */
  async #tick(now = false) {
    if (!currentAccount() || (this.polling && !now)) return;
    this.polling = true;
    try {
      this.#render(await call("me/turns"));
    } catch (_) {
      /* offline or no server: the next tick tries again */
    } finally {
      this.polling = false;
    }
  }
}
