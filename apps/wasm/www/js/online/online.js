// Online play through crown-server (docs/api.md): create a game (private link, public seek in the
// lobby, or the server's engine), share its link, join, spectate, chat, rematch.
// Moves go over HTTP with the seat token; every change comes back over the game's WebSocket as the
// whole game view, so the board is always the server's. The online game is kept apart from the
// local games (online/ctrl.js has a table of its own): only the server's view builds its board.
// The requests and the seats kept are api.js's; the panel's views are view.js's.
// A move made while the server is unreachable waits (shown as "not sent yet") and is sent when the
// connection is back (safe: it carries its ply); if the server refuses it the board goes back to
// the server's position and says so.

import { $, cap, other } from "../shared/util.js";
import { Chat } from "./chat.js";
import { Lobby } from "./lobby.js";
import { formatClock, timeControl } from "../shared/clock.js";
import { Api, Seats, apiBase, storedName, rememberName } from "./api.js";
import { accountName } from "../account/ctrl.js";
import { COUNT_RULES } from "../play/view.js";
import { confirmThen } from "../shared/dialogs.js";
import { abortedText, askJoin, renderActions, renderConn, renderDeadline, renderFirstMove, renderOverAgain, renderOverRatings, renderRatedLine, renderRatedSwitch, renderShare } from "./view.js";
import { Premove, premoveMoves } from "../shared/premove.js";

export class Online {
  constructor(hooks) {
    this.hooks = hooks;
    this.gameId = null;
    this.seat = null; // my colour, or null when watching
    this.token = null;
    this.view = null;
    this.ws = null;
    this.clockAt = 0; // performance.now() when the clock of `view` was received
    this.closing = false;
    this.api = new Api(() => this.token);
    this.seats = new Seats();
    this.conn = "none"; // none | connecting | connected | reconnecting
    this.pending = null; // {move, ply}: a move not yet accepted by the server
    this.pre = new Premove({ toast: hooks.toast, arrow: hooks.premoveArrow }); // shared/premove.js
    this.lowWarned = -1; // the ply at which the low-time sound was played
    this.baseTitle = document.title;
    const api = (path, opts) => this.#fetch(path, opts);
    this.chat = new Chat(api, hooks.toast);
    this.lobby = new Lobby(api, (id, o = {}) => this.#openFromLobby(id, o), hooks.toast);
    this.#wire();
    // no game yet: nothing to resign or offer
    for (const id of ["online-resign", "online-offer-draw", "online-takeback", "online-abort"]) $(id).hidden = true;
    this.#renderConn();
  }

  #wire() {
    // the engine's level range and default come from the wasm module (crown_ai::level)
    const level = $("online-level");
    level.min = this.hooks.crown.minLevel();
    level.max = this.hooks.crown.maxLevel();
    level.value = this.hooks.crown.defaultLevel();
    $("online-new").addEventListener("click", () => this.openCreateDialog());
    // Create: the dialog stays open until the server has made the game, and shows its refusal
    // (a rated game's login_required, rated_needs_clock, …) in its alert line
    $("form-online").addEventListener("submit", (e) => {
      if (!e.submitter || e.submitter.value !== "ok") return;
      e.preventDefault();
      this.#create(new FormData($("form-online")));
    });
    this.syncForm = () => {
      const f = new FormData($("form-online"));
      $("online-custom").hidden = f.get("clock") !== "custom";
      $("online-level-row").hidden = f.get("opponent") !== "engine";
      renderRatedSwitch($("form-online"), !!accountName());
    };
    $("form-online").addEventListener("change", this.syncForm);
    this.syncForm();
    // Resigning cannot be undone: ask first, with the same dialog as against the engine.
    $("online-resign").addEventListener("click", () => {
      const dlg = $("dlg-confirm");
      dlg.returnValue = "";
      dlg.onclose = () => {
        if (dlg.returnValue === "ok") this.#action("resign");
      };
      dlg.showModal();
      $("confirm-no").focus();
    });
    $("online-offer-draw").addEventListener("click", () => {
      const v = this.view;
      if (v && v.draw_offer && v.draw_offer !== this.seat) this.#action("draw/accept");
      else this.#action("draw/offer");
    });
    $("online-decline-draw").addEventListener("click", () => this.#action("draw/decline"));
    // An APCA count (pool): the rule's words first, as against the engine; the server checks the claim
    $("online-claim-count").addEventListener("click", () => {
      const v = this.view;
      const rule = v && v.count_claimable && v.count_claimable[this.seat];
      if (!rule) return;
      confirmThen(COUNT_RULES[rule].title, COUNT_RULES[rule].text, "Claim", () => this.#action("count"));
    });
    $("online-takeback").addEventListener("click", () => {
      const v = this.view;
      if (v && v.takeback_request && v.takeback_request !== this.seat) this.#action("takeback/accept");
      else this.#action("takeback/request");
    });
    $("online-decline-takeback").addEventListener("click", () => this.#action("takeback/decline"));
    $("online-cancel").addEventListener("click", () => this.#action("cancel"));
    // Before both first moves: the game ends with no result (nothing to confirm, nothing lost)
    $("online-abort").addEventListener("click", () => this.#action("abort"));
    $("online-rematch").addEventListener("click", () => this.#rematch());
    // A spectator follows the rematch (the finished game's view carries its id).
    $("online-watch-rematch").addEventListener("click", () => this.#watchRematch());
    $("online-lobby").addEventListener("click", () => this.showLobby());
    $("copy-link").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($("share-link").value);
        this.hooks.toast("Link copied");
      } catch (_) {
        $("share-link").select();
      }
    });
    document.addEventListener("visibilitychange", () => this.#title());
  }

  openCreateDialog() {
    const name = $("form-online").elements.name;
    if (!name.value) name.value = storedName();
    $("online-error").textContent = "";
    this.syncForm(); // the Rated switch follows the account (logged in or out since)
    $("dlg-online").showModal();
  }

  /** The lobby and "my games", without leaving the game shown (if any). */
  showLobby() {
    this.lobby.show(this.gameId);
  }


  async #create(form) {
    const body = { variant: form.get("variant") };
    const side = form.get("side");
    const first = body.variant === "impasse" ? "white" : "black";
    body.color = side === "first" ? first : side === "random" ? "random" : other(first);
    const opponent = form.get("opponent") || "friend";
    if (opponent === "engine") {
      body.opponent = "engine";
      body.level = Number(form.get("level")) || this.hooks.crown.defaultLevel();
    } else {
      body.opponent = "human";
      if (opponent === "seek") body.public = true;
    }
    if (form.get("rated") === "on") body.rated = true;
    const name = String(form.get("name") || "").trim();
    if (name) {
      body.name = name;
      rememberName(name);
    }
    const ok = $("online-ok");
    let r;
    try {
      const tc = timeControl(form.get("clock"), form.get("base_min"), form.get("inc_s"));
      if (tc) body.time_control = tc;
      ok.disabled = true;
      r = await this.#fetch("games", { method: "POST", body });
    } catch (e) {
      // not made: said in the dialog, which stays open to change the choice
      $("online-error").textContent = e.message;
      if (e.network) this.#showError(e);
      return;
    } finally {
      ok.disabled = false;
    }
    $("dlg-online").close("ok");
    this.#rememberSeat(r.id, r.color, r.token, body.variant);
    try {
      await this.open(r.id);
    } catch (e) {
      this.#showError(e);
    }
  }

  #showShare() {
    renderShare(this.view, this.seat);
  }

  #renderConn() {
    renderConn(this.conn, this.connText, this.pending);
  }

  #fetch(path, opts) {
    return this.api.fetch(path, opts);
  }

  #rememberSeat(id, color, token, variant) {
    this.seats.remember(id, color, token, variant);
  }

  #storedSeat(id) {
    return this.seats.stored(id);
  }

  #showError(e) {
    if (e.network) this.#setConn(this.api.reached ? "reconnecting" : "none", e.message);
    else this.hooks.toast(e.message, 6000);
  }


  /** Open game `id` from a link: play with a stored seat, offer the open seat, or watch. */
  async join(id) {
    try {
      await this.open(id, { offerSeat: true });
    } catch (e) {
      this.#showError(e);
    }
  }

  async #openFromLobby(id, { accept = false } = {}) {
    this.hooks.enterOnline();
    try {
      await this.open(id, { accept });
    } catch (e) {
      this.#showError(e);
    }
  }

  async open(id, { offerSeat = false, accept = false } = {}) {
    this.close();
    this.gameId = id;
    this.everConnected = false;
    this.pending = null;
    this.pre.move = null; // the line and arrow are redrawn with the game's first view
    const stored = this.#storedSeat(id);
    this.token = stored ? stored.token : null;
    this.seat = stored ? stored.color : null;
    let view = await this.#fetch(`games/${id}`, { auth: true });
    if (!view.you) {
      this.token = null;
      this.seat = null;
    }
    if ((offerSeat || accept) && !this.seat && view.status === "open") {
      const openColor = view.black.joined ? "white" : "black";
      // Accepting a seek asks for a name once (then the remembered one is used, as for a seek).
      const known = storedName();
      const name = accept && known ? known : await askJoin(openColor, known, accept);
      if (name !== null) {
        const r = await this.#fetch(`games/${id}/join`, { method: "POST" });
        this.#rememberSeat(id, r.color, r.token, r.game.variant);
        this.token = r.token;
        this.seat = r.color;
        view = r.game;
        if (name) {
          rememberName(name);
          try {
            view = await this.#fetch(`games/${id}/name`, { method: "POST", body: { name }, auth: true });
          } catch (e) {
            this.hooks.toast(e.message, 5000);
          }
        }
      }
    }
    const url = new URL(location.href);
    url.searchParams.set("game", id);
    history.replaceState(null, "", url);
    this.view = null;
    if (this.hooks.active()) this.hooks.flip(this.seat === "black");
    this.#apply(view, true);
    this.#showShare();
    const joined = (offerSeat || accept) && !!this.seat;
    this.lobby.hide();
    // a seat just taken from the lobby (scrolled down on a phone): the board comes back on screen
    if (joined && this.hooks.active()) window.scrollTo({ top: 0 });
    this.chat.open(id, !!this.seat);
    this.#renderChat();
    this.#connect();
  }



  /** The chat box: shown for a game between players, not against the server's engine (nobody to talk to). */
  #renderChat() {
    const v = this.view;
    const engine = !!v && ["black", "white"].some((c) => v[c] && v[c].kind === "engine");
    $("chat").hidden = !this.chat.gameId || engine;
  }

  #setConn(state, text = "") {
    this.conn = state;
    this.connText = text;
    this.#renderConn();
  }


  #connect() {
    if (!this.gameId) return;
    const url = new URL(`games/${this.gameId}/ws`, apiBase());
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (this.token) url.searchParams.set("token", this.token);
    const ws = new WebSocket(url);
    this.ws = ws;
    this.closing = false;
    if (this.conn !== "reconnecting") this.#setConn("connecting");
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.api.reached = true;
      this.#setConn("connected");
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (_) {
        return;
      }
      if (msg.type === "state" && msg.game && msg.game.id === this.gameId) {
        this.#apply(msg.game);
        if (msg.event === "snapshot") {
          this.#flushPending();
          if (this.everConnected) this.chat.reload();
          this.everConnected = true;
        }
      } else if (msg.type === "chat" && this.gameId) {
        this.chat.add(msg.message);
      }
    };
    ws.onclose = () => {
      if (this.ws === ws && !this.closing) {
        // the server restarted or the network dropped: reconnect, the first message is a snapshot
        this.#setConn("reconnecting");
        setTimeout(() => {
          if (this.ws === ws && !this.closing) this.#connect();
        }, 1500);
      }
    };
  }

  close() {
    this.closing = true;
    if (this.ws) this.ws.close();
    this.ws = null;
    this.#setConn("none");
  }

  /** Bring the board back to the server's view (after the page showed a local game). */
  resync() {
    if (!this.view) return;
    this.hooks.flip(this.seat === "black");
    this.#apply(this.view, true);
  }

  /** Bring the online game to the server's view (one new move is animated). */
  #apply(view, fresh = false) {
    const prev = this.view;
    const older =
      view.updated_ms < prev?.updated_ms || (view.updated_ms === prev?.updated_ms && view.ply < prev.ply);
    if (!fresh && prev && prev.id === view.id && older) {
      // an older view arriving late (a move's HTTP answer after the socket pushed the next move,
      // maybe an engine's book move made in the same millisecond): the board never goes back to it
      return;
    }
    this.view = view;
    this.clockAt = performance.now();
    if (!this.hooks.active()) {
      // another mode is on screen: keep the view only; the board is rebuilt when online returns
      this.#title();
      return;
    }
    let g = this.hooks.getGame();
    const p = this.pending;
    if (p && view.ply === p.ply && view.status === "ongoing" && g && g.plyCount() === p.ply + 1) {
      // our move is not on the server yet: keep showing it until it is sent or refused
      this.#afterApply(prev);
      return;
    }
    if (p) {
      // the server moved on without our move (the game ended, a takeback): it is dropped
      if (view.ply <= p.ply) this.hooks.toast(`Your move ${p.move} was not played: the game changed on the server`, 6000);
      this.pending = null;
    }
    const sameGame = !fresh && prev && prev.id === view.id && g && g.startFen() === view.start_fen;
    if (sameGame && g.plyCount() === view.ply && g.fen() === view.fen) {
      // nothing moved (an offer, a join, a clock)
    } else if (sameGame && g.plyCount() + 1 === view.ply) {
      const before = g.pieces();
      try {
        const m = g.play(view.moves[view.ply - 1]);
        if (g.fen() !== view.fen) throw new Error("position differs");
        this.#applyOutcome(g, view);
        this.hooks.remoteMove(before, m);
        this.#moveSounds(m, view);
        this.#afterApply(prev);
        return;
      } catch (_) {
        g = this.#rebuild(view);
      }
    } else {
      g = this.#rebuild(view);
    }
    this.#applyOutcome(g, view);
    this.hooks.refresh();
    this.#afterApply(prev);
  }

  #moveSounds(m, view) {
    const s = this.hooks.sounds;
    s.play(m.captures && m.captures.length ? "capture" : "move");
    if (this.seat && view.status === "ongoing" && view.side_to_move === this.seat) s.play("turn");
  }

  #rebuild(view) {
    const crown = this.hooks.crown;
    const g = crown.Game.fromFen(view.variant, view.start_fen);
    for (const m of view.moves) g.play(m);
    this.hooks.setGame(g, view.variant);
    return g;
  }

  #applyOutcome(g, view) {
    const o = view.outcome;
    // a cancelled or expired game has no result: nothing to record on the board
    if (!o || o.result === "*" || g.outcome()) return;
    const reason = String(o.reason || "").toLowerCase();
    const c = view.count;
    if (!o.winner && c && c.moves >= c.limit && this.#countDraw(g, view)) return;
    if (!o.winner) g.agreeDraw();
    else if (reason.includes("time")) g.loseOnTime(other(o.winner));
    else g.resign(other(o.winner));
  }

  /**
   * A pool game the server ended by an APCA count: make the claim on the board's game `g` too,
   * before the claimant's last `limit` moves, so that its outcome is the count's draw (worded as
   * the rules word it) rather than an agreement; false when that does not replay.
   */
  #countDraw(g, view) {
    const c = view.count;
    let counted = 0;
    while (counted < c.limit && g.plyCount() > 0) {
      g.undo();
      if (g.sideToMove() === c.by) counted += 1;
    }
    let claimed = true;
    try {
      g.claimCount(c.by, c.rule);
    } catch (_) {
      claimed = false;
    }
    for (const m of view.moves.slice(g.plyCount())) g.play(m);
    return claimed && g.outcome() !== null;
  }

  #afterApply(prev) {
    const v = this.view;
    const over = v.status === "finished" || !!v.outcome;
    const theirs = (x) => x && x !== this.seat;
    renderActions(v, this.seat);
    renderRatedLine(v);
    renderOverRatings(v);
    renderOverAgain(v);
    const r = v.rematch;
    if (prev && prev.id === v.id && this.seat && !over) {
      if (theirs(v.draw_offer) && prev.draw_offer !== v.draw_offer) this.hooks.toast(`${cap(v.draw_offer)} offers a draw`, 5000);
      if (theirs(v.takeback_request) && prev.takeback_request !== v.takeback_request) {
        this.hooks.toast(`${cap(v.takeback_request)} asks to take back a move`, 5000);
      }
      if (prev.draw_offer === this.seat && !v.draw_offer && v.ply === prev.ply) this.hooks.toast("Your draw offer was declined", 4000);
      if (prev.takeback_request === this.seat && !v.takeback_request && v.ply === prev.ply) {
        this.hooks.toast("Your takeback request was declined", 4000);
      }
    }
    if (prev && prev.id === v.id && r && !prev.rematch && r.by !== this.seat && this.seat) {
      this.hooks.toast("Your opponent offers a rematch", 6000);
    }
    $("online-watch-rematch").hidden = !(r && !this.seat);
    if (prev && prev.id === v.id && r && !prev.rematch && !this.seat) {
      const who = (v[r.by] && v[r.by].name) || cap(r.by);
      this.hooks.toast(`${who} asked for a rematch: “Watch the rematch” follows it`, 6000);
    }
    this.chat.setWritable(!!this.seat);
    this.#renderChat();
    this.#showShare();
    this.#renderConn();
    this.#title();
    this.pre.render();
    this.renderFirstMove();
    if (this.pre.move && this.myTurn()) setTimeout(() => this.#playPremove(), 0);
  }

  /**
   * The note "the game is aborted in … s" while the side to move has not made its first move
   * (the view's `first_move_deadline_ms`, counted down locally like the clocks); a correspondence
   * game's move deadline (`renderDeadline`); hidden otherwise.
   */
  renderFirstMove() {
    const v = this.view;
    if (v && v.days) {
      // a correspondence game: its move deadline in place of clocks (days: the local clock will do)
      renderDeadline(v, this.seat, Date.now());
      return;
    }
    const deadline = v && !v.outcome && v.status === "ongoing" ? v.first_move_deadline_ms : null;
    if (deadline == null || !v.clock) {
      renderFirstMove(v, this.seat, null);
      return;
    }
    const left = deadline - v.clock.server_time_ms - (performance.now() - this.clockAt);
    renderFirstMove(v, this.seat, left);
  }

  #title() {
    const v = this.view;
    const myTurn = this.myTurn();
    document.title = myTurn && v ? `▶ Your move · ${this.baseTitle}` : this.baseTitle;
  }

  myTurn() {
    const v = this.view;
    return !!(v && this.seat && v.status === "ongoing" && !v.outcome && v.side_to_move === this.seat && !this.pending);
  }

  async #action(path) {
    if (!this.gameId || !this.token) return;
    try {
      const view = await this.#fetch(`games/${this.gameId}/${path}`, { method: "POST", auth: true });
      this.#apply(view);
    } catch (e) {
      this.#showError(e);
    }
  }

  async #rematch() {
    if (!this.gameId || !this.token) return;
    const variant = this.view && this.view.variant;
    try {
      const r = await this.#fetch(`games/${this.gameId}/rematch`, { method: "POST", auth: true });
      this.#rememberSeat(r.id, r.color, r.token, variant);
      await this.open(r.id);
    } catch (e) {
      this.#showError(e);
    }
  }

  /** Watch the rematch of the game shown (a spectator's page; players switch by asking). */
  async #watchRematch() {
    const r = this.view && this.view.rematch;
    if (!r) return;
    try {
      await this.open(r.id);
    } catch (e) {
      this.#showError(e);
    }
  }

  /** The board made move `m` (before it is played locally): send it, or keep it as a premove. */
  async sendMove(m) {
    const ply = this.hooks.getGame().plyCount();
    this.pending = { move: m.longText, ply };
    this.hooks.sounds.play(m.captures && m.captures.length ? "capture" : "move");
    this.#title();
    await this.#send();
  }

  async #send() {
    const p = this.pending;
    if (!p || this.sending) return;
    this.sending = true;
    try {
      const view = await this.#fetch(`games/${this.gameId}/moves`, {
        method: "POST",
        auth: true,
        body: { move: p.move, ply: p.ply },
      });
      if (this.pending === p) this.pending = null;
      this.#apply(view);
    } catch (e) {
      if (e.network) {
        // keep the move; it is sent again when the socket is back (the ply makes a retry safe)
        this.#setConn("reconnecting");
      } else {
        if (this.pending === p) this.pending = null;
        this.hooks.toast(`Your move ${p.move} was not played: ${e.message}. The board shows the server's position.`, 7000);
        try {
          const view = await this.#fetch(`games/${this.gameId}`, { auth: true });
          this.#apply(view, true);
        } catch (_) {
          /* the socket brings the next snapshot */
        }
      }
    } finally {
      this.sending = false;
    }
  }

  #flushPending() {
    if (this.pending) this.#send();
  }

  canMove(side) {
    const v = this.view;
    return !!(v && this.seat && v.status === "ongoing" && side === this.seat && !this.pending);
  }

  // ---- premoves ----------------------------------------------------------------------------------

  /** The premove kept ({longText, from, to}), or null. */
  get premove() {
    return this.pre.move;
  }

  /**
   * While the opponent is to move: the moves this seat could make in the current position if it
   * were its turn, to enter one premove ({moves, capturers}), or null.
   */
  premoveMoves() {
    const v = this.view;
    if (!v || !this.seat || v.status !== "ongoing" || v.outcome || v.side_to_move === this.seat || this.pre.move) {
      return null;
    }
    return premoveMoves(this.hooks.crown, v.variant, this.hooks.getGame().fen(), this.seat);
  }

  /** Keep `m` (entered while the opponent is to move) to play when it is this seat's turn. */
  setPremove(m) {
    this.pre.set(m);
    this.hooks.refresh();
  }

  /** Drop the premove; true when there was one. */
  cancelPremove() {
    if (!this.pre.cancel()) return false;
    this.hooks.refresh();
    return true;
  }

  #playPremove() {
    if (!this.pre.move || !this.myTurn()) return;
    const m = this.pre.take(this.hooks.getGame());
    if (!m) {
      this.hooks.refresh();
      return;
    }
    this.hooks.playMove(m);
  }

  // ---- names, clocks, status ---------------------------------------------------------------------

  /** The name for `color` on the board bars. */
  nameOf(color) {
    const v = this.view;
    if (!v) return cap(color);
    const s = v[color];
    if (s && s.kind === "engine") return `Crown engine · level ${s.level}`;
    if (s && !s.joined) return `${cap(color)} — waiting for a player`;
    const name = s && s.name;
    if (color === this.seat) return name ? `${name} (you)` : `You (${cap(color)})`;
    if (name) return name;
    if (!this.seat) return cap(color);
    return v.public ? `Opponent (${cap(color)})` : `Friend (${cap(color)})`;
  }

  /** The name for `color` in PDN tags (the player's own name, the engine, or "Player"). */
  pdnName(color) {
    const v = this.view;
    const s = v && v[color];
    if (s && s.kind === "engine") return `Crown engine (level ${s.level})`;
    return (s && s.name) || "Player";
  }

  /** The clocks as the board bars show them: {black, white, running}, counting down locally. */
  clock() {
    const v = this.view;
    if (!v || !v.clock) return null;
    const c = { black: v.clock.black_ms, white: v.clock.white_ms, running: v.clock.running };
    if (c.running && !v.outcome) c[c.running] -= performance.now() - this.clockAt;
    else c.running = null;
    if (c.running && c.running === this.seat && c[c.running] < 10000 && this.lowWarned !== v.ply && this.hooks.active()) {
      this.lowWarned = v.ply;
      this.hooks.sounds.play("low");
    }
    return c;
  }

  /** A clock's text (tenths under 10 s). */
  clockText(ms) {
    return formatClock(ms);
  }

  statusText(side) {
    const v = this.view;
    if (!v) return "Create a game, accept a seek in the lobby, or open a link";
    if (v.status === "aborted" && v.outcome) return abortedText(String(v.outcome.reason || ""));
    if (v.outcome && v.outcome.result === "*") return `No game: ${v.outcome.reason}`;
    if (v.status === "open") {
      if (!this.seat) return "Waiting for players";
      if (v.black.joined && v.white.joined) return "Starting…";
      return v.public
        ? "Waiting for an opponent: your seek is in the lobby"
        : "Waiting for your friend — send them the link";
    }
    if (this.pending) return `Sending your move ${this.pending.move}…`;
    if (!this.seat) return `Watching · ${cap(side)} to move`;
    if (side === this.seat) return "Your move";
    const opp = v[other(this.seat)];
    if (opp && opp.kind === "engine") return "The engine is thinking…";
    return v.public ? "Your opponent's move" : "Your friend's move";
  }
}
