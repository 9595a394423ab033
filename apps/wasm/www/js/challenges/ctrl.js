// Challenges in the web app (issue 42; docs/api.md "Challenges"): a logged-in player challenges
// another from the other's page (?mode=player&name=…: the "Challenge" button and its dialog), sees
// the challenges received in the top bar (a button with their count, opening their list: accept,
// or decline with a reason; cancel one's own), and both players are taken to the game once the
// challenge is accepted: the accepting player by the answer's seat, the challenger by reading its
// challenge until the server says it was accepted (POST …/seat then gives its seat).
//
// The server has no push channel for challenges: while logged in the page reads its challenges
// every POLL_MS, which also tells the server the challenger is still there (a challenge whose
// challenger is gone expires).

import { call, currentAccount, ACCOUNT_EVENT } from "../account/ctrl.js";
import { Seats } from "../online/api.js";
import { toast } from "../shared/dialogs.js";
import { timeControl } from "../shared/clock.js";
import * as view from "./view.js";

/** Open game `id` (my seat kept in this browser) on `app`'s online page, in place of any page. */
export async function openGame(app, id) {
  const over = document.getElementById("dlg-over");
  if (over && over.open) over.close("");
  for (const page of [app.players, app.tournaments]) if (page && page.isOpen) page.close({ push: false });
  history.replaceState(null, "", new URL("./", document.baseURI).href);
  app.setMode("online");
  await app.online.client.join(id);
}

/** How often the challenges are read, in ms. */
export const POLL_MS = 2000;

/** The challenges of the page: the top bar's list, the player page's button, the one I wait on. */
export class ChallengesCtrl {
  /** `app`: the router (the game opens on its online page). */
  constructor({ app }) {
    this.app = app;
    this.v = view.build();
    this.seats = new Seats();
    this.player = null; // the name of the player whose page is shown
    this.statusFor = null; // the player whose page the status line speaks of
    this.waiting = null; // my last challenge, waiting for an answer ({id, dest, variant}): the status line's
    this.watched = new Map(); // my challenges pending, by id ({id, dest, variant})
    this.polling = false;
    this.data = { in: [], out: [] };
    this.#wire();
    document.addEventListener(ACCOUNT_EVENT, () => this.#onAccount());
    setInterval(() => this.#tick(), POLL_MS);
  }

  #wire() {
    const v = this.v;
    const d = v.dialog;
    v.challenge.addEventListener("click", () => this.#openDialog());
    v.cancel.addEventListener("click", () => {
      if (this.waiting) this.#cancel(this.waiting);
    });
    d.clock.addEventListener("change", () => {
      d.custom.hidden = d.clock.value !== "custom";
      this.#ratedAllowed();
    });
    d.cancel.addEventListener("click", () => d.dlg.close());
    d.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.#send();
    });
    v.button.addEventListener("click", () => {
      this.v.list.error.textContent = "";
      v.list.dlg.showModal();
      this.#tick(true);
    });
    v.list.close.addEventListener("click", () => v.list.dlg.close());
  }

  /** A rated game needs a clock (or correspondence days): the box is off and disabled without one. */
  #ratedAllowed() {
    const d = this.v.dialog;
    d.rated.disabled = !d.clock.value;
    if (d.rated.disabled) d.rated.checked = false;
  }

  /** The player page of `name` is shown (null: none): its Challenge button, for another account. */
  showFor(name) {
    this.player = name;
    this.#renderPlayer();
  }

  #renderPlayer() {
    const v = this.v;
    const me = currentAccount();
    const same = (a, b) => !!(a && b && a.toLowerCase() === b.toLowerCase());
    const mine = !!(this.waiting && same(this.waiting.dest, this.player));
    v.challenge.hidden = !(me && this.player && !same(me.name, this.player)) || mine;
    v.cancel.hidden = !mine;
    v.status.hidden = !same(this.statusFor, this.player);
  }

  #onAccount() {
    const me = currentAccount();
    this.v.button.hidden = !me;
    if (!me) {
      this.waiting = null;
      this.watched.clear();
      this.data = { in: [], out: [] };
    }
    this.#renderPlayer();
    this.#tick(true);
  }

  #openDialog() {
    const d = this.v.dialog;
    d.title.textContent = `Challenge ${this.player}`;
    d.error.textContent = "";
    this.#ratedAllowed();
    d.dlg.showModal();
    d.variant.focus();
  }

  /** Say `text` on the page of player `name` (shown while that page is). */
  #status(text, name) {
    this.v.status.textContent = text;
    this.statusFor = name;
    this.#renderPlayer();
  }

  async #send() {
    const d = this.v.dialog;
    const body = { variant: d.variant.value, color: d.color.value, rated: d.rated.checked };
    // "days:3": a correspondence game, 3 days per move, instead of a clock
    const days = /^days:(\d+)$/.exec(d.clock.value);
    if (days) body.days = Number(days[1]);
    else {
      try {
        const tc = timeControl(d.clock.value, d.base.value, d.inc.value);
        if (tc) body.time_control = tc;
      } catch (e) {
        d.error.textContent = e.message;
        return;
      }
    }
    d.ok.disabled = true;
    d.error.textContent = "";
    try {
      const c = await call(`challenge/${encodeURIComponent(this.player)}`, "POST", body);
      d.dlg.close();
      this.waiting = { id: c.id, dest: c.dest_user.name, variant: c.variant };
      this.watched.set(c.id, this.waiting);
      this.#status(`Waiting for ${c.dest_user.name} to accept your challenge (${view.settingsText(c)})…`, c.dest_user.name);
    } catch (e) {
      d.error.textContent = e.message;
    } finally {
      d.ok.disabled = false;
    }
  }

  async #cancel(w) {
    this.watched.delete(w.id);
    try {
      await call(`challenge/${encodeURIComponent(w.id)}/cancel`, "POST");
      if (this.waiting && this.waiting.id === w.id) {
        this.waiting = null;
        this.#status("Challenge canceled.", w.dest);
      }
    } catch (e) {
      toast(`The challenge could not be canceled: ${e.message}`, 6000);
    }
    this.#renderPlayer();
    this.#tick(true);
  }

  async #accept(c) {
    const l = this.v.list;
    l.error.textContent = "";
    try {
      const r = await call(`challenge/${encodeURIComponent(c.id)}/accept`, "POST");
      this.seats.remember(r.id, r.color, r.token, c.variant);
      l.dlg.close();
      await openGame(this.app, r.id);
    } catch (e) {
      l.error.textContent = `The challenge could not be accepted: ${e.message}`;
    }
    // answered either way: the count in the top bar follows at once, not at the next poll
    this.#tick(true);
  }

  async #decline(c, reason) {
    const l = this.v.list;
    l.error.textContent = "";
    try {
      await call(`challenge/${encodeURIComponent(c.id)}/decline`, "POST", { reason });
    } catch (e) {
      l.error.textContent = `The challenge could not be declined: ${e.message}`;
    }
    this.#tick(true);
  }

  /** My challenge `w` was accepted: take my seat and open the game. */
  async #taken(w) {
    this.waiting = null;
    try {
      const r = await call(`challenge/${encodeURIComponent(w.id)}/seat`, "POST");
      this.seats.remember(r.id, r.color, r.token, w.variant);
      this.#status(`${w.dest} accepted your challenge.`, w.dest);
      await openGame(this.app, r.id);
    } catch (e) {
      this.#status(`${w.dest} accepted, but your seat could not be taken: ${e.message}`, w.dest);
    }
  }

  /** Read my challenges (every POLL_MS, or at once with `now`), and follow up those I made. */
  async #tick(now = false) {
    if (!currentAccount() || (this.polling && !now)) return;
    this.polling = true;
    try {
      const data = await call("challenge");
      this.data = data;
      view.renderList(this.v, data, { accept: (c) => this.#accept(c), decline: (c, r) => this.#decline(c, r), cancel: (c) => this.#cancel({ id: c.id, dest: c.dest_user.name }) });
      document.body.dataset.challenges = `${data.in.length}/${data.out.length}`;
      // my challenges pending, followed until answered (also those sent before a reload)
      for (const c of data.out) if (!this.watched.has(c.id)) this.watched.set(c.id, { id: c.id, dest: c.dest_user.name, variant: c.variant });
      for (const [id, w] of [...this.watched]) {
        // (another read running at once may have followed it up already)
        if (data.out.some((c) => c.id === id) || !this.watched.has(id)) continue;
        // answered (or expired): what became of it
        this.watched.delete(id);
        const c = await call(`challenge/${encodeURIComponent(id)}`);
        if (c.status === "accepted") {
          await this.#taken(w);
          break;
        }
        if (this.waiting && this.waiting.id === id) {
          this.waiting = null;
          const why = c.status === "declined" ? `${w.dest} declined your challenge: “${c.decline_reason}”` : `Your challenge to ${w.dest} ${c.status === "expired" ? "expired unanswered" : "was canceled"}.`;
          this.#status(why, w.dest);
        }
      }
    } catch (_) {
      /* offline or no server: the next tick tries again */
    } finally {
      this.polling = false;
    }
  }
}
