// The opening explorer of the analysis page (#explorer-box): for the position on the board, the
// moves played there in the loaded PDN archive (games, White/draw/Black percentages) and the moves
// of the embedded opening book (score, weight). The archive's index lives in a worker
// (explorer-worker.js); the counting and the percentages are crown-notation's (wasm `Explorer`).
// The panel is switched on and off with #explorer-toggle (remembered in the settings).

import { $ } from "../shared/util.js";
import * as storage from "../shared/storage.js";

/** The archive's index in a worker; the same on the page when workers are unavailable. */
class ArchiveClient {
  constructor(crown) {
    this.crown = crown;
    this.worker = null;
    this.local = null; // the wasm Explorer on the page (no worker)
    this.pending = new Map(); // probe id -> {resolve, reject}
    this.nextId = 1;
  }

  /** Index `text`; `onProgress(done, total)` in bytes. Resolves the counts (`Explorer.stats`). */
  load(text, onProgress) {
    this.close();
    try {
      this.worker = new Worker(new URL("./explorer-worker.js", import.meta.url), { type: "module" });
    } catch (_) {
      this.local = new this.crown.Explorer();
      this.local.add(text);
      return Promise.resolve(this.local.stats());
    }
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        const m = e.data;
        if (m.type === "progress") onProgress(m.done, m.total);
        else if (m.type === "loaded") resolve(m.stats);
        else if (m.type === "probed" || (m.type === "error" && m.id)) {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (p && m.type === "probed") p.resolve(m.result);
          else if (p) p.reject(new Error(m.message));
        } else if (m.type === "error") reject(new Error(m.message));
      };
      worker.onerror = (e) => reject(new Error(e.message || "the explorer failed"));
      worker.postMessage({ type: "load", text });
    });
  }

  /** What the archive says about `fen` (see the wasm `Explorer.probe`). */
  probe(variant, fen) {
    if (this.local) return Promise.resolve(this.local.probe(variant, fen));
    if (!this.worker) return Promise.reject(new Error("no archive is loaded"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "probe", id, variant, fen });
    });
  }

  /** Forget the archive (the worker and its index go). */
  close() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    if (this.local) this.local.free();
    this.local = null;
    for (const p of this.pending.values()) p.reject(new Error("the archive was replaced"));
    this.pending.clear();
  }
}

/** `n` games in words. */
const gamesText = (n) => `${n} ${n === 1 ? "game" : "games"}`;

/**
 * The bar of a tally's percentages (White, draws, Black, unknown), with the numbers written on the
 * segments wide enough for them; the words are in the row's screen-reader text.
 */
function resultBar(p) {
  const bar = document.createElement("div");
  bar.className = "wdb";
  bar.setAttribute("aria-hidden", "true");
  for (const [cls, v] of [["w", p.white], ["d", p.draws], ["b", p.black], ["u", p.unknown]]) {
    if (!v) continue;
    const s = document.createElement("span");
    s.className = cls;
    s.style.width = `${v}%`;
    if (v >= 30 && cls !== "u") s.textContent = `${v}%`;
    bar.appendChild(s);
  }
  return bar;
}

/** The words of a tally's percentages ("White 25%, draw 50%, Black 25%"; unknown when any). */
export function percentText(p) {
  const parts = [`White ${p.white}%`, `draw ${p.draws}%`, `Black ${p.black}%`];
  if (p.unknown) parts.push(`result unknown ${p.unknown}%`);
  return parts.join(", ");
}

/** The explorer panel of analysis controller `ctrl`. */
export class ExplorerPanel {
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.crown = ctrl.crown;
    this.archive = new ArchiveClient(ctrl.crown);
    // {name, state: "reading" | "ready" | "failed", done, total, stats, message}; null: none loaded
    this.source = null;
    this.version = 0; // bumped when the archive changes: every shown answer is asked again
    this.shown = ""; // the key (archive version, variant, FEN) of the position the panel shows
    const settings = storage.loadSettings();
    this.on = settings.explorer === true;
    const toggle = $("explorer-toggle");
    toggle.checked = this.on;
    toggle.addEventListener("change", () => {
      this.on = toggle.checked;
      storage.saveSettings({ explorer: this.on });
      this.render(this.ctrl.app.mode === "analysis");
    });
  }

  /** Index the PDN `text` (`name`: the file's name) as the explorer's archive. */
  load(text, name) {
    const version = ++this.version;
    this.source = { name, state: "reading", done: 0, total: text.length };
    this.shown = "";
    this.render(this.ctrl.app.mode === "analysis");
    this.archive
      .load(text, (done, total) => {
        if (version !== this.version) return;
        Object.assign(this.source, { done, total });
        this.#renderSource();
      })
      .then((stats) => {
        if (version !== this.version) return;
        Object.assign(this.source, { state: "ready", stats });
        this.shown = "";
        this.render(this.ctrl.app.mode === "analysis");
      })
      .catch((err) => {
        if (version !== this.version) return;
        Object.assign(this.source, { state: "failed", message: err.message });
        this.shown = "";
        this.render(this.ctrl.app.mode === "analysis");
      });
  }

  /** Draw the panel for the position on the board (`active`: the analysis page is on screen). */
  render(active) {
    const box = $("explorer-box");
    box.hidden = !(active && this.on);
    if (box.hidden) return;
    const t = this.ctrl.table;
    if (!t.game) return;
    const fen = t.fenAt(t.shownPly());
    const key = `${this.version}|${t.variant}|${fen}`;
    if (key === this.shown) return;
    this.shown = key;
    // a move played from the panel by keyboard: the focus goes on to the new position's moves
    const focused = document.activeElement;
    this.refocus = !!(focused && focused.classList.contains("ex-move") && box.contains(focused));
    this.#renderSource();
    this.#renderBook(t.variant, fen);
    const s = this.source;
    const table = $("explorer-games");
    const empty = $("explorer-empty");
    if (!s || s.state !== "ready") {
      table.hidden = true;
      empty.hidden = true;
      box.dataset.state = s ? s.state : "none";
      this.#restoreFocus();
      return;
    }
    this.archive
      .probe(t.variant, fen)
      .then((r) => {
        if (this.shown !== key) return; // the board moved on meanwhile
        this.#renderGames(r);
        box.dataset.state = "ready";
        this.#restoreFocus();
      })
      .catch((err) => {
        if (this.shown !== key) return;
        table.hidden = true;
        empty.hidden = false;
        empty.textContent = err.message;
      });
  }

  /** After a move played from the panel by keyboard: focus the first move shown (else the switch). */
  #restoreFocus() {
    if (!this.refocus) return;
    this.refocus = false;
    const next = $("explorer-box").querySelector("table:not([hidden]) .ex-move") || $("explorer-toggle");
    next.focus();
  }

  /** The line about the archive: its name and games, the reading's progress, or none loaded. */
  #renderSource() {
    const s = this.source;
    const el = $("explorer-source");
    if (!s) el.textContent = "No PDN archive loaded: import a PDN file to see the moves of its games. The book is below.";
    else if (s.state === "reading") el.textContent = `Reading ${s.name}… ${Math.round((100 * s.done) / Math.max(1, s.total))}%`;
    else if (s.state === "failed") el.textContent = `${s.name}: ${s.message}`;
    else {
      const st = s.stats;
      const notes = [];
      if (st.stoppedEarly) notes.push(`${st.stoppedEarly} up to an illegal move`);
      if (st.skipped) notes.push(`${st.skipped} unreadable, left out`);
      // pasted text has no file name (pdn.js calls it "the games")
      const name = s.name === "the games" ? "Imported PDN" : s.name;
      el.textContent = `${name}: ${gamesText(st.indexed)}${notes.length ? ` (${notes.join("; ")})` : ""}`;
    }
  }

  /** The archive's moves of the position (`r`: the wasm `Explorer.probe` answer). */
  #renderGames(r) {
    const table = $("explorer-games");
    const body = $("explorer-moves");
    const empty = $("explorer-empty");
    body.replaceChildren();
    empty.hidden = r.games > 0;
    empty.textContent = "No games reach this position.";
    table.hidden = r.games === 0;
    $("explorer-total").textContent = r.games ? `${gamesText(r.games)} ${r.games === 1 ? "reaches" : "reach"} this position` : "";
    for (const m of r.moves) {
      const tr = document.createElement("tr");
      tr.className = "explorer-row";
      tr.dataset.move = m.longText;
      tr.dataset.games = String(m.games);
      tr.dataset.white = String(m.percent.white);
      tr.dataset.draws = String(m.percent.draws);
      tr.dataset.black = String(m.percent.black);
      tr.dataset.unknown = String(m.percent.unknown);
      const words = percentText(m.percent);
      tr.append(this.#moveCell(m, `Play ${m.text} (${gamesText(m.games)}: ${words})`));
      const games = document.createElement("td");
      games.className = "num";
      games.textContent = String(m.games);
      const bar = document.createElement("td");
      bar.className = "bar";
      bar.title = words;
      const sr = document.createElement("span");
      sr.className = "sr-only";
      sr.textContent = words;
      bar.append(resultBar(m.percent), sr);
      tr.append(games, bar);
      body.appendChild(tr);
    }
  }

  /** The embedded book's moves of the position (best first), on the page. */
  #renderBook(variant, fen) {
    const body = $("explorer-book-moves");
    body.replaceChildren();
    let moves = [];
    try {
      moves = typeof this.crown.bookMoves === "function" ? this.crown.bookMoves(variant, fen) : [];
    } catch (_) {
      moves = [];
    }
    $("explorer-book").hidden = !moves.length;
    $("explorer-book-empty").hidden = moves.length > 0;
    for (const m of moves) {
      const tr = document.createElement("tr");
      tr.className = "book-row";
      tr.dataset.move = m.longText;
      tr.append(this.#moveCell(m, `Play ${m.text} (book, score ${m.scoreText} for the side to move)`));
      const score = document.createElement("td");
      score.className = "num";
      score.textContent = m.scoreText;
      const weight = document.createElement("td");
      weight.className = "num";
      weight.textContent = String(m.weight);
      tr.append(score, weight);
      body.appendChild(tr);
    }
  }

  /** A cell with the button that plays move `m` ({text, longText}) on the board. */
  #moveCell(m, label) {
    const td = document.createElement("td");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ex-move";
    b.textContent = m.text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => this.play(m.longText));
    td.appendChild(b);
    return td;
  }

  /** Play the move with long text `long` in the position on the board (as a move on the board). */
  play(long) {
    const app = this.ctrl.app;
    const t = this.ctrl.table;
    let m = (app.board.moves || []).find((x) => x.longText === long);
    if (!m) {
      const g = this.crown.Game.fromFen(t.variant, t.fenAt(t.shownPly()));
      m = g.legalMoves().find((x) => x.longText === long);
      g.free();
    }
    if (m && this.ctrl.canMove()) app.onBoardMove(m);
  }
}
