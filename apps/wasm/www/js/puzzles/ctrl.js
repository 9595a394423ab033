// The puzzles page's controller ("find the shot", issue 25): the committed puzzle sets of a game,
// one puzzle after another, on its own table. The puzzle logic and the trainer's rules are the wasm
// PuzzleTrainer (crown-puzzle's PuzzleTrainer, the one the TUI uses): the player's move is checked
// there; the right move gets the opponent's forced reply, a wrong one the engine's refutation
// (shown as arrows and text, said to be the refutation: the solution is shown only on Give up).
// The trainer rates each attempt once (Glicko-2), keeps the streak and picks the next puzzle (not
// yet rated and nearest the player's rating first); its state is kept in localStorage.
// Logged in (docs/api.md "Puzzles"), the record is the server's: the trainer opens with the
// account's ratings (GET /api/puzzles/me), each attempt it rates is sent (POST
// /api/puzzles/attempts) and the server's rating is shown; the local record is merged into the
// account once (POST /api/puzzles/merge, in parts) and left as it was for when logged out.

import { cap, other } from "../shared/util.js";
import { Table } from "../shared/table.js";
import * as storage from "../shared/storage.js";
import { ACCOUNT_EVENT, call, currentAccount } from "../account/ctrl.js";
import { renderPanel, wirePanel, THEME_NAMES } from "./view.js";

/** How long (ms) the player's move stays on the board before the forced reply is played. */
export const REPLY_DELAY_MS = 350;

/** Most puzzles of the local record in one merge request (the server's MERGE_MAX). */
export const MERGE_PART = 64;

/** localStorage: the ids of the accounts this browser's local record was merged into. */
const MERGED_KEY = "crown.puzzles.merged";

function mergedInto() {
  try {
    const v = JSON.parse(localStorage.getItem(MERGED_KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch (_) {
    return [];
  }
}

function setMergedInto(ids) {
  try {
    localStorage.setItem(MERGED_KEY, JSON.stringify(ids));
  } catch (_) {
    /* private mode: merged again next time (the merge is idempotent) */
  }
}

/**
 * The parts of the local record `saved` to merge, in the order its puzzles were played (the
 * record's `ratings.played`; puzzles it does not list, rated before it was kept, first in id
 * order): `{ratings: {puzzles, played}}` of at most MERGE_PART puzzles each, sent one after the
 * other, so that the server replays them as they were played (docs/api.md).
 */
export function mergeParts(saved) {
  const ratings = (saved && saved.ratings) || {};
  const played = Array.isArray(ratings.played) ? ratings.played : [];
  const at = new Map();
  played.forEach((id, i) => {
    if (!at.has(id)) at.set(id, i);
  });
  const puzzles = Object.entries(ratings.puzzles || {});
  const key = ([id]) => (at.has(id) ? at.get(id) : -1);
  puzzles.sort((x, y) => key(x) - key(y) || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  const parts = [];
  for (let i = 0; i < puzzles.length; i += MERGE_PART) {
    const part = puzzles.slice(i, i + MERGE_PART);
    parts.push({ ratings: { puzzles: Object.fromEntries(part), played: part.filter(([id]) => at.has(id)).map(([id]) => id) } });
  }
  return parts;
}

/** The colours of the arrows: the wrong move, the refutation, a hint or the solution. */
const ARROW = { wrong: "#c0392b", refute: "#e67e22", hint: "#2e7d32" };

/**
 * What a wrong move `played` is told: the engine's `line` after it is the opponent's refutation,
 * never the solution (that is shown only on Give up). Every other move of a draw-save puzzle loses;
 * every other move of a win puzzle fails to win (docs/puzzles.md).
 */
export function wrongText(played, line, goal) {
  if (!line) return `${played} is not the move.`;
  return goal === "win"
    ? `${played} is not the move: it does not win against ${line}.`
    : `${played} is not the move: it loses to ${line}.`;
}

/** The puzzles page. */
export class PuzzlesCtrl {
  /** `app`: the router; `crown`: the wasm module; `sounds`: the move sounds. */
  constructor({ app, crown, sounds }) {
    this.app = app;
    this.crown = crown;
    this.sounds = sounds;
    this.table = new Table(crown);
    this.sets = new Map(); // variant -> {set: PuzzleSet, list: [puzzle views]} (fetched on first use)
    this.variant = "american";
    this.theme = ""; // "" = every theme
    this.index = -1; // the puzzle's index in its set
    this.session = null; // the wasm PuzzleTrainer once a puzzle is open (its session, its rules)
    this.puzzle = null; // its view {id, variant, fen, solver, goal, themes, difficulty, source}
    this.pending = false; // the forced reply is about to be played
    this.arrows = [];
    this.feedback = { kind: "", text: "" };
    this.fetching = new Map(); // variant -> the promise of its set being fetched
    this.trainer = new crown.PuzzleTrainer(storage.loadPuzzles());
    this.server = null; // logged in: the account's record (GET /api/puzzles/me), else null
    this.serverNote = ""; // what the dashboard says of the server (an error, the merge)
    this.startedAt = Date.now(); // when the current puzzle was put on the board (the attempt's time)
    this.sync = Promise.resolve(); // the account's record being read (tests wait for it)
    wirePanel(this);
    document.addEventListener(ACCOUNT_EVENT, () => this.#follow());
    this.#follow();
  }

  // ---- the account ------------------------------------------------------------------------------

  /** Follow the account: logged in, the server's record (the local one merged once); else the local one. */
  #follow() {
    this.sync = this.#syncAccount().then(() => {
      if (this.app.mode === "puzzles") this.app.refresh();
      else renderPanel(this);
    });
    return this.sync;
  }

  async #syncAccount() {
    const acc = currentAccount();
    if (!acc) {
      this.server = null;
      this.serverNote = "";
      this.#reopen(storage.loadPuzzles());
      return;
    }
    try {
      if (!mergedInto().includes(acc.id)) {
        let rated = 0;
        for (const part of mergeParts(storage.loadPuzzles())) rated += (await call("puzzles/merge", "POST", part)).rated;
        setMergedInto([...mergedInto(), acc.id]);
        this.serverNote = rated ? `${rated} puzzle${rated === 1 ? "" : "s"} of this browser merged into your account.` : "";
      }
      this.server = await call("puzzles/me");
    } catch (e) {
      // the server cannot be reached: the local record until it can
      this.server = null;
      this.serverNote = `Your account's puzzles could not be read: ${e.message}`;
      return;
    }
    if (currentAccount() !== acc) return; // logged out meanwhile
    const solved = this.server.history.filter((h) => h.solved).map((h) => h.puzzle);
    this.#reopen({ ratings: this.server.ratings, streak: this.server.streak, solved });
  }

  /** A new trainer with the record `saved`, on the puzzle on screen if any (its attempt anew). */
  #reopen(saved) {
    this.trainer = new this.crown.PuzzleTrainer(saved);
    const entry = this.sets.get(this.variant);
    if (!this.puzzle || !entry) {
      this.session = null;
      return;
    }
    try {
      this.start(this.trainer.open(entry.set, this.puzzle.id, this.theme));
    } catch (_) {
      this.session = null;
    }
  }

  /** Whether the current puzzle is rated in the trainer's record now. */
  #ratedNow() {
    const r = this.trainer.saved().ratings;
    return !!(this.puzzle && r && r.puzzles && this.puzzle.id in r.puzzles);
  }

  /**
   * After an action: logged out, store the trainer's record; logged in, send the attempt the action
   * rated (`wasRated`: the puzzle was rated before it) and show the server's answer.
   */
  #after(wasRated) {
    if (!this.server) {
      this.#store();
      return;
    }
    if (wasRated || !this.#ratedNow()) return;
    const body = { puzzle: this.puzzle.id, solved: this.session.solvedClean(), time_ms: Math.max(0, Date.now() - this.startedAt) };
    this.sync = (async () => {
      try {
        await call("puzzles/attempts", "POST", body);
        this.server = await call("puzzles/me");
        this.serverNote = "";
      } catch (e) {
        this.serverNote = `The attempt could not be sent: ${e.message}`;
      }
      renderPanel(this);
    })();
  }

  // ---- the sets ---------------------------------------------------------------------------------

  /** The set of `variant`, fetched and read the first time (`pkg/puzzles/<variant>.jsonl`). */
  loadSet(variant) {
    if (this.sets.has(variant)) return Promise.resolve(this.sets.get(variant));
    if (!this.fetching.has(variant)) {
      const p = (async () => {
        const res = await fetch(`pkg/puzzles/${variant}.jsonl`);
        if (!res.ok) throw new Error(`The ${variant} puzzles could not be loaded (HTTP ${res.status}).`);
        const set = this.crown.PuzzleSet.fromJsonl(await res.text());
        const entry = { set, list: set.list() };
        this.sets.set(variant, entry);
        return entry;
      })();
      this.fetching.set(variant, p);
      p.catch(() => {}).finally(() => this.fetching.delete(variant));
    }
    return this.fetching.get(variant);
  }

  /** The themes the puzzles of `variant`'s set have, in the order of THEME_NAMES. */
  themesOf(variant) {
    const e = this.sets.get(variant);
    if (!e) return [];
    const have = new Set(e.list.flatMap((p) => p.themes));
    return Object.keys(THEME_NAMES).filter((t) => have.has(t));
  }

  /**
   * Open the puzzles of `variant` with the theme filter `theme`: puzzle `id` when given and in
   * the set, else the next one to serve.
   */
  async open({ variant = this.variant, theme = this.theme, id = null } = {}) {
    if (!["american", "pool", "impasse"].includes(variant)) variant = "american";
    this.variant = variant;
    this.theme = theme || "";
    this.feedback = { kind: "", text: "Loading the puzzles…" };
    renderPanel(this);
    let entry;
    try {
      entry = await this.loadSet(variant);
    } catch (e) {
      if (this.variant !== variant) return;
      this.feedback = { kind: "error", text: e.message };
      renderPanel(this);
      return;
    }
    // another game was picked meanwhile: that one is opened
    if (this.variant !== variant) return;
    if (this.theme && !this.themesOf(variant).includes(this.theme)) this.theme = "";
    // the puzzle `id` when the set has it, else the next to serve (the trainer's rule)
    let index;
    try {
      index = this.trainer.open(entry.set, id || undefined, this.theme);
    } catch (e) {
      this.feedback = { kind: "error", text: `No ${variant} puzzle has the theme ${this.theme}.` };
      renderPanel(this);
      return;
    }
    this.start(index);
  }

  /** Show puzzle `index` of the current set, the trainer's current one (anew after a retry). */
  start(index) {
    const entry = this.sets.get(this.variant);
    this.index = index;
    this.session = this.trainer;
    this.puzzle = entry.list[index];
    this.startedAt = Date.now();
    this.pending = false;
    this.arrows = [];
    const goal = this.puzzle.goal === "win" ? "win" : "save the draw";
    this.feedback = { kind: "", text: `${cap(this.puzzle.solver)} to move and ${goal}.` };
    this.#setBoard();
    this.app.setFlipped(this.puzzle.solver === "black");
    if (this.app.mode === "puzzles") {
      this.app.refresh();
      this.app.syncUrl();
    }
  }

  /** The table's game at the session's position (no draw rules: the line decides). */
  #setBoard() {
    const g = this.crown.Game.fromFen(this.variant, this.session.fen());
    g.setDrawRules(false, false);
    this.table.set(g, this.variant);
    this.table.viewPly = null;
    this.table.overShown = false;
  }

  /** The page comes on screen: the puzzle being solved, or the first one of the set. */
  enter() {
    if (this.session) {
      this.app.setFlipped(this.puzzle.solver === "black");
      return;
    }
    // until the set is there the local game's board takes no move
    this.app.board.setMoves([]);
    // first the puzzle the page's address names ({variant, theme, id}), if any
    const wanted = this.app.puzzlesWanted || {};
    this.app.puzzlesWanted = null;
    this.open(wanted);
  }

  // ---- the player's actions ----------------------------------------------------------------------

  /** A move on the board (or typed): the session says whether it is the move. */
  onBoardMove(m) {
    if (!this.session || this.pending) return;
    const wasRated = this.#ratedNow();
    const ans = this.session.playIndex(m.index);
    if (ans.kind === "wrong") {
      this.#after(wasRated);
      const line = ans.refutation.map((r) => r.text).join(" ");
      this.arrows = [{ from: m.from, to: m.to, color: ARROW.wrong }];
      if (ans.refutation.length) {
        const r = ans.refutation[0];
        this.arrows.push({ from: r.from, to: r.to, color: ARROW.refute });
      }
      this.feedback = { kind: "wrong", text: wrongText(ans.played.text, line, this.puzzle.goal), refutation: line };
      this.app.refresh();
      return;
    }
    if (ans.kind !== "correct") return;
    this.arrows = [];
    this.sounds.play(m.captures && m.captures.length ? "capture" : "move");
    const before = this.app.playOnTable(m);
    if (!before) return;
    if (ans.solved) {
      this.#solved(wasRated);
      this.app.refresh({ animateMove: m, before });
      return;
    }
    this.feedback = { kind: "correct", text: `Correct! The reply: ${ans.reply.text}. Your move.` };
    this.pending = true;
    this.app.refresh({ animateMove: m, before });
    setTimeout(() => this.#reply(ans.reply), REPLY_DELAY_MS);
  }

  /** Play the opponent's forced reply `r` on the table. */
  #reply(r) {
    this.pending = false;
    if (this.app.mode !== "puzzles" || !this.table.game) {
      // the page was left meanwhile: the board follows the session when it comes back
      this.#setBoard();
      return;
    }
    const before = this.table.game.pieces();
    try {
      this.table.game.play(r.longText);
    } catch (_) {
      this.#setBoard();
    }
    this.sounds.play(r.captures.length ? "capture" : "move");
    this.app.refresh({ animateMove: r, before });
  }

  /** The line is played to its end (the trainer has rated the attempt). */
  #solved(wasRated) {
    // clean: no wrong move and no hint in any try of the attempt (a retry starts a new session)
    const clean = this.session.solvedClean();
    this.#after(wasRated);
    const head = clean ? "Solved!" : "Solved (with help).";
    this.feedback = {
      kind: "solved",
      text: this.session.ratedBefore() ? `${head.replace(/[.!]$/, "")} — already rated. Next puzzle?` : `${head} Next puzzle?`,
    };
  }

  /** Store the trainer's state: {ratings, streak, solved}. */
  #store() {
    storage.savePuzzles(this.trainer.saved());
  }

  /** Hint: the piece to move, then the move (a loss for the ratings). */
  hint() {
    if (!this.session || this.session.isOver() || this.pending) return;
    const wasRated = this.#ratedNow();
    const h = this.session.hint();
    if (!h) return;
    this.#after(wasRated);
    if (h.kind === "from") {
      this.arrows = [];
      this.feedback = { kind: "hint", text: `Hint: move the piece on ${h.square}.`, square: h.square };
    } else {
      this.arrows = [{ from: h.from, to: h.to, color: ARROW.hint }];
      this.feedback = { kind: "hint", text: `Hint: ${h.text}.` };
    }
    this.app.refresh();
  }

  /** Give up: the rest of the solution is played on the board (a loss for the ratings). */
  giveUp() {
    if (!this.session || this.session.isOver()) return;
    this.pending = false;
    this.#setBoard();
    const wasRated = this.#ratedNow();
    const rest = this.session.giveUp();
    this.#after(wasRated);
    for (const m of rest) this.table.game.play(m.longText);
    this.arrows = rest.length ? [{ from: rest[0].from, to: rest[0].to, color: ARROW.hint }] : [];
    this.feedback = { kind: "gaveup", text: `The solution: ${rest.map((m) => m.text).join(" ")}.` };
    this.app.refresh();
  }

  /** Try the puzzle again from its position (an attempt is rated once). */
  retry() {
    if (this.index < 0 || !this.session) return;
    this.session.retry();
    this.start(this.index);
  }

  /** The next puzzle (leaving one unfinished and not rated ends the streak). */
  next() {
    if (!this.sets.has(this.variant) || !this.session) return;
    let i = -1;
    try {
      i = this.trainer.next(this.theme);
    } catch (_) {
      // no puzzle has the theme: the current one stays
    }
    if (!this.server) this.#store();
    if (i >= 0) this.start(i);
  }

  /** The rating shown: {rating, deviation, volatility, streak, best, solved} (logged in: the server's). */
  shownRating() {
    const s = this.server;
    if (!s) return this.trainer.shownRating();
    return { rating: s.rating, deviation: s.deviation, volatility: s.volatility, streak: s.streak, best: s.best_streak, solved: s.solved };
  }

  /** What the tests and the console read: the puzzle, whether it is over, the feedback. */
  state() {
    return {
      variant: this.variant,
      theme: this.theme,
      puzzle: this.puzzle,
      over: this.session ? this.session.isOver() : false,
      solvedNow: this.session ? this.session.isSolved() : false,
      pending: this.pending,
      feedback: this.feedback,
      rating: this.shownRating(),
      account: this.server ? { attempts: this.server.attempts, weakest: this.server.weakest, weakest_min_attempts: this.server.weakest_min_attempts, themes: this.server.themes } : null,
    };
  }

  // ---- what the router asks every page ----------------------------------------------------------

  /** The title's mode name. */
  modeName() {
    return "puzzles";
  }

  /** Whether a move may be entered now: the solver's turn in a puzzle that goes on. */
  canMove() {
    const g = this.table.game;
    if (!g || !this.session || this.session.isOver() || this.pending || this.table.viewPly != null) return false;
    return g.sideToMove() === this.puzzle.solver;
  }

  /** The name on `color`'s bar. */
  nameOf(color) {
    if (!this.puzzle) return cap(color);
    return color === this.puzzle.solver ? "You" : `${cap(other(this.puzzle.solver))} (forced replies)`;
  }

  /** The status line while the line goes on. */
  statusText(side, must) {
    if (!this.session) return "Puzzles";
    if (this.session.isSolved()) return "Solved!";
    if (this.session.isOver()) return "Given up: the solution is on the board";
    if (side !== this.puzzle.solver) return `${cap(side)} replies…`;
    const goal = this.puzzle.goal === "win" ? "find the winning move" : "find the move that saves the draw";
    return `Your move (${cap(side)}): ${goal}${must}`;
  }

  /** The status line when the line ends the game. */
  outcomeText(o) {
    const head = this.session && this.session.isSolved() ? "Solved! · " : "";
    return `${head}${o.result} · ${o.text}`;
  }

  /** The game-over dialog is not shown on this page (the panel says it). */
  overTitle(o) {
    return o.winner == null ? "Draw" : `${cap(o.winner)} wins`;
  }

  /** The PDN Event tag. */
  pdnEvent() {
    return this.puzzle ? `Crown puzzle ${this.puzzle.id}` : "Crown puzzle";
  }

  /** The PDN name of `color`'s player. */
  pdnName(color) {
    return this.nameOf(color);
  }

  /** After the board's position is set: the arrows of a refutation, hint or solution. */
  afterPosition(board) {
    board.setArrows(this.arrows);
  }

  /** The page's own part of a refresh: the panel. */
  afterRender() {
    renderPanel(this);
  }

  /** The address of the puzzle on screen: ?mode=puzzles&variant=…&puzzle=… (&theme=…). */
  syncUrl() {
    if (!this.puzzle) return;
    const q = new URLSearchParams({ mode: "puzzles", variant: this.variant, puzzle: this.puzzle.id });
    if (this.theme) q.set("theme", this.theme);
    const s = `?${q}`;
    if (location.search !== s) history.replaceState(null, "", location.pathname + s);
  }

  /** Nothing of the page is saved with the local game (the ratings are kept apart). */
  save() {}
}
