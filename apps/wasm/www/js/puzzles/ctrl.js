// The puzzles page's controller ("find the shot", issue 25): the committed puzzle sets of a game,
// one puzzle after another, on its own table. The puzzle logic is the wasm PuzzleSession (crown-ai's
// puzzle_session, the one the TUI uses): the player's move is checked there; the right move gets
// the opponent's forced reply, a wrong one the engine's refutation (shown as arrows and text).
// Ratings are Glicko-2 (crown_arena::glicko through the wasm `ratePuzzle`), kept in localStorage.
//
// An attempt is rated once, as soon as its result is known: the first wrong move, the first hint
// or giving up is a loss; a solve with neither is a win (the TUI's rule). A puzzle rated before
// (its id among the stored ratings' puzzles, or in the solved list) is not rated again and leaves
// the streak alone, so reopening its address cannot farm the rating; the puzzles not rated yet are
// served first.

import { cap, other } from "../shared/util.js";
import { Table } from "../shared/table.js";
import * as storage from "../shared/storage.js";
import { renderPanel, wirePanel, THEME_NAMES } from "./view.js";

/** How long (ms) the player's move stays on the board before the forced reply is played. */
export const REPLY_DELAY_MS = 350;

/** The colours of the arrows: the wrong move, the refutation, a hint or the solution. */
const ARROW = { wrong: "#c0392b", refute: "#e67e22", hint: "#2e7d32" };

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
    this.session = null; // the wasm PuzzleSession
    this.puzzle = null; // its view {id, variant, fen, solver, goal, themes, difficulty, source}
    this.rated = false; // this attempt's result is known (and in the ratings, unless ratedBefore)
    this.ratedBefore = false; // the puzzle was rated in an earlier attempt: this one is not rated
    this.helped = false; // this attempt had a wrong move, a hint or a give-up (kept over a retry)
    this.pending = false; // the forced reply is about to be played
    this.arrows = [];
    this.feedback = { kind: "", text: "" };
    this.fetching = new Map(); // variant -> the promise of its set being fetched
    const saved = storage.loadPuzzles();
    this.ratings = saved.ratings || crown.newPuzzleRatings();
    this.streak = saved.streak || 0;
    this.solved = new Set(saved.solved || []);
    wirePanel(this);
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
    const at = id ? entry.list.findIndex((p) => p.id === id) : -1;
    const index = at >= 0 ? at : this.nextIndex(-1);
    if (index < 0) {
      this.feedback = { kind: "error", text: `No ${variant} puzzle has the theme ${this.theme}.` };
      renderPanel(this);
      return;
    }
    this.start(index);
  }

  /** The index of the next puzzle to serve after `from`: with the theme, not solved before first. */
  nextIndex(from) {
    const list = this.sets.get(this.variant).list;
    const n = list.length;
    const order = [];
    for (let k = 1; k <= n; k++) order.push((from + k + n) % n);
    const fits = order.filter((i) => !this.theme || list[i].themes.includes(this.theme));
    const fresh = fits.find((i) => !this.isRated(list[i].id) && i !== from);
    if (fresh !== undefined) return fresh;
    const again = fits.find((i) => i !== from);
    return again !== undefined ? again : fits.length ? fits[0] : -1;
  }

  /** Whether puzzle `id` was rated before (in the stored ratings or the solved list). */
  isRated(id) {
    const rated = this.ratings && this.ratings.puzzles;
    return this.solved.has(id) || !!(rated && Object.prototype.hasOwnProperty.call(rated, id));
  }

  /** Start puzzle `index` of the current set (again, with `keepRated`, for a retry). */
  start(index, { keepRated = false } = {}) {
    const entry = this.sets.get(this.variant);
    if (this.session) this.session.free();
    this.index = index;
    this.session = entry.set.session(index);
    this.puzzle = entry.list[index];
    if (!keepRated) {
      this.rated = false;
      this.helped = false;
      this.ratedBefore = this.isRated(this.puzzle.id);
    }
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
    const ans = this.session.playIndex(m.index);
    if (ans.kind === "wrong") {
      this.#rate(false);
      const line = ans.refutation.map((r) => r.text).join(" ");
      this.arrows = [{ from: m.from, to: m.to, color: ARROW.wrong }];
      if (ans.refutation.length) {
        const r = ans.refutation[0];
        this.arrows.push({ from: r.from, to: r.to, color: ARROW.refute });
      }
      this.feedback = {
        kind: "wrong",
        text: line
          ? `${ans.played.text} is not the move: the answer is ${line}.`
          : `${ans.played.text} is not the move.`,
        refutation: line,
      };
      this.app.refresh();
      return;
    }
    if (ans.kind !== "correct") return;
    this.arrows = [];
    this.sounds.play(m.captures && m.captures.length ? "capture" : "move");
    const before = this.app.playOnTable(m);
    if (!before) return;
    if (ans.solved) {
      this.#solved();
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

  /** The line is played to its end. */
  #solved() {
    // a retry starts a new session: the help of the attempt's earlier tries counts too
    const clean = this.session.solvedClean() && !this.helped;
    this.#rate(clean);
    this.solved.add(this.puzzle.id);
    this.#store();
    const head = clean ? "Solved!" : "Solved (with help).";
    this.feedback = {
      kind: "solved",
      text: this.ratedBefore ? `${head.replace(/[.!]$/, "")} — already rated. Next puzzle?` : `${head} Next puzzle?`,
    };
  }

  /**
   * Rate this attempt once: a win when `clean`. A puzzle rated before is not rated again and
   * neither extends nor ends the streak.
   */
  #rate(clean) {
    if (!clean) this.helped = true;
    if (this.rated) return;
    this.rated = true;
    if (this.ratedBefore) return;
    this.ratings = this.crown.ratePuzzle(this.ratings, this.puzzle.id, this.puzzle.difficulty, clean);
    this.streak = clean ? this.streak + 1 : 0;
    this.ratings.best_streak = Math.max(this.ratings.best_streak || 0, this.streak);
    this.#store();
  }

  #store() {
    storage.savePuzzles({ ratings: this.ratings, streak: this.streak, solved: [...this.solved] });
  }

  /** Hint: the piece to move, then the move (a loss for the ratings). */
  hint() {
    if (!this.session || this.session.isOver() || this.pending) return;
    const h = this.session.hint();
    if (!h) return;
    this.#rate(false);
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
    const rest = this.session.giveUp();
    this.#rate(false);
    for (const m of rest) this.table.game.play(m.longText);
    this.arrows = rest.length ? [{ from: rest[0].from, to: rest[0].to, color: ARROW.hint }] : [];
    this.feedback = { kind: "gaveup", text: `The solution: ${rest.map((m) => m.text).join(" ")}.` };
    this.app.refresh();
  }

  /** Try the puzzle again from its position (an attempt is rated once). */
  retry() {
    if (this.index >= 0) this.start(this.index, { keepRated: true });
  }

  /** The next puzzle (the streak ends when this one was not solved clean). */
  next() {
    if (!this.sets.has(this.variant)) return;
    if (this.session && !this.ratedBefore && !this.session.solvedClean()) {
      this.streak = 0;
      this.#store();
    }
    const i = this.nextIndex(this.index);
    if (i >= 0) this.start(i);
  }

  /** The rating shown: {rating, deviation, volatility, streak, best, solved}. */
  shownRating() {
    const p = this.ratings.player;
    return {
      rating: p.rating,
      deviation: p.deviation,
      volatility: p.volatility,
      streak: this.streak,
      best: this.ratings.best_streak || 0,
      solved: this.solved.size,
    };
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
