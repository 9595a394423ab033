// The lobby of public seeks (GET /api/lobby; accept = join) and "My games": the games this browser
// holds a seat of (the seat tokens kept in localStorage by api.js).

import { $, cap, VARIANT_NAMES } from "../shared/util.js";
import { timeControlText } from "../shared/clock.js";
import { leaderboardHref, playerLink, ratingText } from "../shared/rating.js";
import { accountName } from "../account/ctrl.js";

/** The seats this browser holds: [{id, color, variant, at}], newest first. */
export function mySeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k || !k.startsWith("crown-seat-")) continue;
      try {
        const s = JSON.parse(localStorage.getItem(k));
        out.push({ id: k.slice("crown-seat-".length), color: s.color, variant: s.variant, at: s.at || 0 });
      } catch (_) {
        /* a broken entry: skip it */
      }
    }
  } catch (_) {
    /* no storage */
  }
  return out.sort((a, b) => b.at - a.at);
}

export class Lobby {
  /** `api` is Online's fetch; `openGame(id, {offerSeat, accept})` opens or accepts a game. */
  constructor(api, openGame, toast) {
    this.api = api;
    this.openGame = openGame;
    this.toast = toast;
    this.timer = 0;
    this.myId = null;
    $("lobby-refresh").addEventListener("click", () => this.refresh());
  }

  /** Show the lobby and keep it fresh (every 4 s) until `hide()`. */
  show(currentId = null) {
    this.myId = currentId;
    $("lobby").hidden = false;
    this.refresh();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), 4000);
  }

  hide() {
    clearInterval(this.timer);
    this.timer = 0;
    $("lobby").hidden = true;
  }

  async refresh() {
    this.#renderMine();
    let seeks;
    try {
      seeks = (await this.api("lobby")).seeks;
    } catch (e) {
      $("lobby-empty").textContent = e.message;
      $("lobby-empty").hidden = false;
      $("lobby-list").replaceChildren();
      return;
    }
    const mine = new Set(mySeats().map((s) => s.id));
    const list = $("lobby-list");
    list.replaceChildren();
    for (const s of seeks) {
      const li = document.createElement("li");
      li.className = "seek";
      li.dataset.id = s.id;
      const what = document.createElement("span");
      what.className = "seek-what";
      what.textContent = `${VARIANT_NAMES[s.variant] || s.variant} · ${timeControlText(s.time_control)}${s.setup ? " · set-up position" : ""}`;
      // rated or casual, as lidraughts and lichess mark their seeks
      const kind = document.createElement("span");
      kind.className = `seek-kind${s.rated ? " rated" : ""}`;
      kind.textContent = s.rated ? "Rated" : "Casual";
      what.append(" · ", kind);
      li.dataset.rated = String(!!s.rated);
      const who = document.createElement("span");
      who.className = "seek-who";
      // the creator's account links to its page, with its rating for this game and speed
      if (s.account) {
        who.append(playerLink(s.account, s.name && s.name !== s.account ? `${s.name} (${s.account})` : s.account));
        const r = ratingText(s.rating, s.provisional);
        if (r) who.append(" ", Object.assign(document.createElement("span"), { className: "seek-rating", textContent: r }));
      } else who.append(s.name || "Guest");
      who.append(` · you play ${cap(s.color)}`);
      const b = document.createElement("button");
      b.type = "button";
      if (mine.has(s.id)) {
        b.textContent = "Yours";
        b.className = "seek-open";
        b.addEventListener("click", () => this.openGame(s.id));
      } else if (s.rated && !accountName()) {
        // a rated game is between two accounts: a guest is sent to the log-in dialog first
        b.textContent = "Log in to play rated";
        b.className = "seek-login";
        b.addEventListener("click", () => {
          this.toast("A rated game is played between two accounts: log in or sign up, then accept.", 5000);
          const login = document.getElementById("account-login");
          if (login) login.click();
        });
      } else {
        b.textContent = "Accept";
        b.className = "seek-accept primary";
        b.addEventListener("click", () => this.openGame(s.id, { accept: true }));
      }
      li.append(what, who, b);
      list.appendChild(li);
    }
    $("lobby-empty").textContent = "No public seeks right now: create one.";
    $("lobby-empty").hidden = seeks.length > 0;
  }

  #renderMine() {
    const list = $("my-games");
    list.replaceChildren();
    const seats = mySeats().slice(0, 12);
    for (const s of seats) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "my-game" + (s.id === this.myId ? " current" : "");
      b.dataset.id = s.id;
      const when = s.at ? new Date(s.at).toLocaleString() : "";
      b.textContent = `${VARIANT_NAMES[s.variant] || "Game"} ${s.id.slice(0, 6)} · ${cap(s.color || "?")} ${when ? "· " + when : ""}`;
      b.addEventListener("click", () => this.openGame(s.id));
      li.appendChild(b);
      list.appendChild(li);
    }
    $("my-games-box").hidden = seats.length === 0;
  }
}
