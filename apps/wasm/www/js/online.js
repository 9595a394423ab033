// Online play through crown-server (docs/api.md): create a game, share its link, join, spectate.
// Moves go over HTTP with the seat token; every change comes back over the game's WebSocket as the
// whole game view, so the board is always the server's.

const $ = (id) => document.getElementById(id);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const other = (c) => (c === "black" ? "white" : "black");

function apiBase() {
  // the page may be /, /index.html, /g/<id> (with <base>), or a sub-path
  return new URL("api/", document.baseURI).href;
}

function seatKey(id) {
  return `crown-seat-${id}`;
}

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
    this.#wire();
  }

  #wire() {
    $("online-new").addEventListener("click", () => this.openCreateDialog());
    $("dlg-online").addEventListener("close", () => {
      if ($("dlg-online").returnValue === "ok") this.#create(new FormData($("form-online")));
    });
    $("online-resign").addEventListener("click", () => this.#action("resign"));
    $("online-offer-draw").addEventListener("click", () => {
      const v = this.view;
      if (v && v.draw_offer && v.draw_offer !== this.seat) this.#action("draw/accept");
      else this.#action("draw/offer");
    });
    $("copy-link").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($("share-link").value);
        this.hooks.toast("Link copied");
      } catch (_) {
        $("share-link").select();
      }
    });
  }

  openCreateDialog() {
    $("dlg-online").showModal();
  }

  async #fetch(path, { method = "GET", body, auth = false } = {}) {
    const headers = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (auth && this.token) headers.authorization = `Bearer ${this.token}`;
    let res;
    try {
      res = await fetch(apiBase() + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new Error("cannot reach the Crown server: online play needs crown-server");
    }
    const text = await res.text();
    let data = null;
    try {
      data = JSON.parse(text);
    } catch (_) {
      /* not JSON */
    }
    if (!res.ok) {
      const msg = data && data.error ? data.error.message : `${res.status} ${res.statusText}`;
      const err = new Error(msg);
      err.code = data && data.error ? data.error.code : String(res.status);
      throw err;
    }
    if (data === null) throw new Error("the server did not answer with JSON: is this crown-server?");
    return data;
  }

  async #create(form) {
    const body = { variant: form.get("variant"), opponent: "human" };
    const side = form.get("side");
    const first = body.variant === "impasse" ? "white" : "black";
    body.color = side === "first" ? first : other(first);
    const clock = form.get("clock");
    if (clock) {
      const [base, inc] = clock.split("+").map(Number);
      body.time_control = { initial_ms: base * 1000, increment_ms: inc * 1000 };
    }
    try {
      const r = await this.#fetch("games", { method: "POST", body });
      this.#rememberSeat(r.id, r.color, r.token);
      await this.open(r.id);
    } catch (e) {
      this.hooks.toast(e.message, 6000);
    }
  }

  #rememberSeat(id, color, token) {
    try {
      localStorage.setItem(seatKey(id), JSON.stringify({ color, token }));
    } catch (_) {
      /* private mode: the seat lasts for this page only */
    }
    this.memSeats = this.memSeats || {};
    this.memSeats[id] = { color, token };
  }

  #storedSeat(id) {
    if (this.memSeats && this.memSeats[id]) return this.memSeats[id];
    try {
      const s = localStorage.getItem(seatKey(id));
      return s ? JSON.parse(s) : null;
    } catch (_) {
      return null;
    }
  }

  /** Open game `id` from a link: play with a stored seat, offer the open seat, or watch. */
  async join(id) {
    try {
      await this.open(id, { offerSeat: true });
    } catch (e) {
      this.hooks.toast(e.message, 8000);
    }
  }

  async open(id, { offerSeat = false } = {}) {
    this.close();
    this.gameId = id;
    const stored = this.#storedSeat(id);
    this.token = stored ? stored.token : null;
    this.seat = stored ? stored.color : null;
    let view = await this.#fetch(`games/${id}`, { auth: true });
    if (!view.you) {
      this.token = null;
      this.seat = null;
    }
    if (offerSeat && !this.seat && view.status === "open") {
      const openColor = view.black.joined ? "white" : "black";
      const want = await this.#askJoin(openColor);
      if (want) {
        const r = await this.#fetch(`games/${id}/join`, { method: "POST" });
        this.#rememberSeat(id, r.color, r.token);
        this.token = r.token;
        this.seat = r.color;
        view = r.game;
      }
    }
    const url = new URL(location.href);
    url.searchParams.set("game", id);
    history.replaceState(null, "", url);
    this.hooks.flip(this.seat === "black");
    this.#apply(view, true);
    this.#showShare();
    this.#connect();
  }

  #askJoin(color) {
    return new Promise((resolve) => {
      const box = $("choices");
      box.replaceChildren();
      $("choice-title").textContent = "A seat is free in this game";
      const join = document.createElement("button");
      join.type = "button";
      join.id = "join-seat";
      join.textContent = `Play as ${cap(color)}`;
      const watch = document.createElement("button");
      watch.type = "button";
      watch.id = "just-watch";
      watch.textContent = "Just watch";
      let answer = false;
      join.addEventListener("click", () => {
        answer = true;
        $("dlg-choice").close("chosen");
      });
      watch.addEventListener("click", () => $("dlg-choice").close("chosen"));
      box.append(join, watch);
      $("dlg-choice").onclose = () => resolve(answer);
      $("dlg-choice").showModal();
    });
  }

  #showShare() {
    const v = this.view;
    const share = $("online-share");
    share.hidden = !v;
    if (!v) return;
    const link = new URL(`g/${v.id}`, document.baseURI).href;
    $("share-link").value = link;
    $("watch-link").value = link;
    // the invitation is for the creator while the other seat is free
    $("invite").hidden = !(this.seat && v.status === "open");
  }

  #connect() {
    if (!this.gameId) return;
    const url = new URL(`games/${this.gameId}/ws`, apiBase());
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (this.token) url.searchParams.set("token", this.token);
    const ws = new WebSocket(url);
    this.ws = ws;
    this.closing = false;
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (_) {
        return;
      }
      if (msg.type === "state" && msg.game && msg.game.id === this.gameId) this.#apply(msg.game);
    };
    ws.onclose = () => {
      if (this.ws === ws && !this.closing) {
        // the server restarted or the network dropped: reconnect, the first message is a snapshot
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
  }

  /** Bring the local game to the server's view (one new move is animated). */
  #apply(view, fresh = false) {
    const crown = this.hooks.crown;
    const prev = this.view;
    this.view = view;
    this.clockAt = performance.now();
    let g = this.hooks.getGame();
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
        this.#afterApply();
        return;
      } catch (_) {
        g = this.#rebuild(view);
      }
    } else {
      g = this.#rebuild(view);
    }
    this.#applyOutcome(g, view);
    this.hooks.refresh();
    this.#afterApply();
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
    if (!o || g.outcome()) return;
    const reason = String(o.reason || "").toLowerCase();
    if (!o.winner) g.agreeDraw();
    else if (reason.includes("time")) g.loseOnTime(other(o.winner));
    else g.resign(other(o.winner));
  }

  #afterApply() {
    const v = this.view;
    const over = v.status === "finished" || v.outcome;
    $("online-resign").disabled = !this.seat || !!over || v.status === "open";
    const offerBtn = $("online-offer-draw");
    offerBtn.disabled = !this.seat || !!over || v.status === "open" || v.draw_offer === this.seat;
    offerBtn.textContent =
      v.draw_offer && v.draw_offer !== this.seat && this.seat ? "Accept draw" : "Offer draw";
    if (v.draw_offer && this.seat && v.draw_offer !== this.seat && !over) {
      this.hooks.toast(`${cap(v.draw_offer)} offers a draw`, 5000);
    }
    this.#showShare();
  }

  async #action(path) {
    if (!this.gameId || !this.token) return;
    try {
      const view = await this.#fetch(`games/${this.gameId}/${path}`, { method: "POST", auth: true });
      this.#apply(view);
    } catch (e) {
      this.hooks.toast(e.message, 5000);
    }
  }

  /** The board made move `m` (before it is played locally): send it. */
  async sendMove(m) {
    const ply = this.hooks.getGame().plyCount();
    try {
      const view = await this.#fetch(`games/${this.gameId}/moves`, {
        method: "POST",
        auth: true,
        body: { move: m.longText, ply },
      });
      this.#apply(view);
    } catch (e) {
      this.hooks.toast(e.message, 6000);
      // back to the server's position
      try {
        const view = await this.#fetch(`games/${this.gameId}`, { auth: true });
        this.#apply(view, true);
      } catch (_) {
        /* keep the board; the socket will bring the next snapshot */
      }
    }
  }

  canMove(side) {
    const v = this.view;
    return !!(v && this.seat && v.status === "ongoing" && side === this.seat);
  }

  nameOf(color) {
    const v = this.view;
    if (!v) return cap(color);
    const s = v[color];
    if (color === this.seat) return `You (${cap(color)})`;
    if (s && s.kind === "engine") return `Crown engine · level ${s.level}`;
    if (s && !s.joined) return `${cap(color)} — waiting for a player`;
    return this.seat ? `Friend (${cap(color)})` : cap(color);
  }

  /** The clocks as the board bars show them: {black, white, running}, counting down locally. */
  clock() {
    const v = this.view;
    if (!v || !v.clock) return null;
    const c = { black: v.clock.black_ms, white: v.clock.white_ms, running: v.clock.running };
    if (c.running && !v.outcome) c[c.running] -= performance.now() - this.clockAt;
    else c.running = null;
    return c;
  }

  statusText(side) {
    const v = this.view;
    if (!v) return "Create a game and send the link to a friend";
    if (v.status === "open") {
      return this.seat ? "Waiting for your friend — send them the link" : "Waiting for players";
    }
    if (!this.seat) return `Watching · ${cap(side)} to move`;
    return side === this.seat ? "Your move" : "Your friend's move";
  }
}
