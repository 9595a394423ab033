// The analysis page's controller: the analysis board with its variation tree (tree.js), the
// engine's live evaluation, the evaluation graph, the game review, the position editor, PDN import
// (one game, or a file of many through the game picker), the opening explorer of the imported file
// and the book (explorer.js), the board's link in the address bar and its shared link /a/<id>
// (share.js).
// It owns its state (the tree and the line on the board, the imported game's tags, the review)
// and works on the local game's table, which it shares with the play page.

import { $, cap, moveTexts, scoreText, startGame } from "../shared/util.js";
import { toast, setStatus } from "../shared/dialogs.js";
import * as storage from "../shared/storage.js";
import { EngineClient } from "../shared/engine.js";
import { EvalGraph } from "../shared/graph.js";
import * as tree from "./tree.js";
import * as view from "./view.js";
import { Editor } from "./editor.js";
import { PdnImport } from "./pdn.js";
import { ExplorerPanel } from "./explorer.js";
import { ShareLink } from "./share.js";

/** Endings the board does not show (a PDN resignation, time, agreement): kept on the tree's nodes. */
const BOARD_LESS_ENDS = ["resignation", "time", "agreement"];

/**
 * The search budget of each position of a game review: a fixed depth with a node cap, never a
 * time, so that the same game gets the same verdicts every time on any machine (issue 26). Depth
 * 14 costs about as much as the 100 ms per position it replaces: Tinsley's game 14 (43 plies)
 * takes 5–6 s in V8 on one core.
 */
export const REVIEW_BUDGET = { depth: 14, nodes: 300000 };

/** The analysis page: the board with its variation tree, evaluation, review and PDN. */
export class AnalysisCtrl {
  /** `app`: the router; `table`: the local game; `engine`: the live analysis's engine client. */
  constructor({ app, crown, table, engine }) {
    this.app = app;
    this.crown = crown;
    this.table = table;
    this.engine = engine;
    // A second worker for the game review, so the live analysis does not cancel it.
    this.reviewer = new EngineClient();
    // A third worker fills the evaluation graph in the background (graph.js).
    this.graph = new EvalGraph($("eval-graph"), new EngineClient(), (ply) => app.goto(ply));
    this.analysisOn = false;
    this.review = null; // {startFen, moves: [text], result | null}
    // the variation tree, the line of it the table's game holds (nodes for plies 1..n), the main
    // line's game as read (keeps a PDN result), the imported game's tags
    this.root = null;
    this.path = [];
    this.mainGame = null;
    this.pdnInfo = null; // {tags: [[name, value]], index, count, error, ending (an archived game's reason)}
    // the players and event of a game brought from the play or online page, or from a link:
    // {tags: [[name, value]], startFen, moves: [long text]} (kept while the board holds that game)
    this.context = null;
    this.analysisTimer = 0;
    this.editor = new Editor(crown, (g, variant) => this.loadPosition(g, variant));
    this.pdn = new PdnImport(this);
    this.explorer = new ExplorerPanel(this);
    this.share = new ShareLink(this, () => app.pdnOfScreen().text); // the Share button, links /a/<id>
    this.#wire();
  }

  #wire() {
    $("analysis-engine").addEventListener("change", (e) => {
      this.analysisOn = e.target.checked;
      this.analyse();
    });
    $("edit-position").addEventListener("click", () => {
      const t = this.table;
      this.editor.open(t.variant, t.fenAt(t.shownPly()));
    });
    $("review-game").addEventListener("click", () => this.reviewGame());
    $("play-from-here").addEventListener("click", () => this.playFromHere());
    $("var-promote").addEventListener("click", () => {
      const end = this.path[this.path.length - 1];
      if (end) this.promoteLine(end);
    });
    $("var-delete").addEventListener("click", () => {
      const end = this.path[this.path.length - 1];
      const v = end && tree.variationStart(end);
      if (v) this.deleteLine(v);
    });
    $("analysis-new").addEventListener("click", () => {
      this.context = null;
      this.table.set(this.table.fresh());
      this.table.viewPly = null;
      this.app.refresh();
    });
  }

  // ---- what the router asks every page ----------------------------------------------------------

  /** The title's mode name. */
  modeName() {
    return "analysis";
  }

  /** Every ply of a finished game is open for a variation; a live game's end as well. */
  canMove() {
    const g = this.table.game;
    if (!g) return false;
    return this.table.viewPly != null || g.outcome() === null;
  }

  /** The players of an imported game (PDN tags Black and White) or of the game brought here, else the colours. */
  nameOf(color) {
    return this.pdnTag(cap(color)) || this.contextTag(cap(color)) || cap(color);
  }

  /** Keep `tags` (Event, Black, White) with the game now on the board. */
  setContext(tags) {
    const g = this.table.game;
    this.context = tags ? { tags, startFen: g.startFen(), moves: moveTexts(g) } : null;
  }

  /** The value of tag `name` of the game brought here ("" when none, or the board holds another game). */
  contextTag(name) {
    const c = this.context;
    if (!c || this.app.mode !== "analysis" || !this.table.game || c.startFen !== this.table.game.startFen()) return "";
    // the board's main line and the game brought here agree as far as both go
    const main = this.mainGame && this.root ? tree.mainLine(this.root).map((n) => n.long) : moveTexts(this.table.game);
    const n = Math.min(main.length, c.moves.length);
    for (let i = 0; i < n; i++) if (main[i] !== c.moves[i]) return "";
    const x = c.tags.find(([k]) => k.toLowerCase() === name.toLowerCase());
    return x && x[1] && x[1] !== "?" ? x[1] : "";
  }

  /** The status line while the game goes on (`must`: the capture note). */
  statusText(side, must) {
    return `${cap(side)} to move${must}`;
  }

  /**
   * The status line's result at the end of the line: an imported game's result that the board
   * does not show (a PDN's `1-0` is recorded as a resignation) is said as the PDN says it, never
   * as a resignation, time or agreement the file does not mention.
   */
  outcomeText(o) {
    return `${o.result} · ${this.outcomeView(o).text}`;
  }

  /**
   * Outcome `o` as the game-over dialog and the screen-reader announcement word it: an imported
   * game's result that the board does not show gets the status line's wording ("Black wins (the
   * result the PDN gives; …)"), not the resignation the board's game records; others as they are.
   */
  outcomeView(o) {
    if (!this.pdnInfo || !BOARD_LESS_ENDS.includes(o.reason)) return o;
    // an archived game: the server's words for how it ended
    if (this.pdnInfo.ending) return { ...o, text: this.pdnInfo.ending };
    const who = o.winner ? `${cap(o.winner)} wins` : "Draw";
    return { ...o, text: `${who} (the result the PDN gives; how the game ended is not recorded)` };
  }

  /** The game-over dialog's title for outcome `o`. */
  overTitle(o) {
    return o.winner ? `${cap(o.winner)} wins` : "Draw";
  }

  /** The PDN Event tag of a game made on the board. */
  pdnEvent() {
    return this.contextTag("Event") || "Crown analysis";
  }

  /** The value of tag `name` of the imported game ("" when missing or "?"). */
  pdnTag(name) {
    const info = this.app.mode === "analysis" ? this.pdnInfo : null;
    const x = info && info.tags.find(([k]) => k.toLowerCase() === name.toLowerCase());
    return x && x[1] !== "?" ? x[1] : "";
  }

  /** Before a refresh of the board: keep the tree in step with the game. */
  beforeRender() {
    this.syncTree();
  }

  /**
   * What the move list's main column shows: the tree's main line (its history views, result, the
   * shown ply on it or -1 when the board shows a variation, and a click's target), or null without
   * a tree. A variation played on the board stays among the variations until "Make main line".
   */
  moveListLine() {
    if (!this.root) return null;
    const t = this.table;
    const main = tree.mainLine(this.root);
    const ply = t.shownPly();
    const shown = this.shownNode();
    const onMain = ply === 0 || main[ply - 1] === shown;
    let history;
    let outcome;
    if (tree.isMainLine(this.path) && this.path.length === main.length) {
      history = t.history;
      outcome = t.game.outcome();
    } else if (this.mainGame && this.mainGame.plyCount() === main.length) {
      history = this.mainGame.history();
      outcome = this.mainGame.outcome();
    } else {
      return null;
    }
    if (history.some((h, i) => h.mv.longText !== main[i].long)) return null;
    const goto = (p) => {
      if (tree.isMainLine(this.path)) this.app.goto(p);
      else this.showNode(p <= 0 ? this.root : main[Math.min(p, main.length) - 1]);
    };
    return { history, outcome, current: onMain ? ply : -1, goto };
  }

  /** The move list's comments and variations after main-line ply k+1 (a list item or null). */
  extras(k) {
    const main = this.root ? tree.mainLine(this.root) : [];
    const line = main[k] ? main : this.path;
    if (!line[k]) return null;
    return view.lineExtras(
      this.table,
      line,
      k,
      {
        show: (n) => this.showNode(n),
        promote: (v) => this.promoteLine(v),
        delete: (v) => this.deleteLine(v),
      },
      this.shownNode(),
    );
  }

  /** The page's own part of a refresh (hidden when the page is not `active`). */
  render(active) {
    const r = this.currentReview();
    view.renderReview(active ? r : null, this.table, this.reviewMarks(), (ply) => this.app.goto(ply));
    view.renderGameInfo(active ? this.pdnInfo : null, this.mainGame);
    const end = this.path[this.path.length - 1];
    view.renderTreeTools(active && !!this.root, !!(end && tree.variationStart(end)));
    this.explorer.render(active);
    this.renderGraph(active);
  }

  /**
   * The APCA count (pool, rules 27 and 28) the shown position gives a side, as a line under the
   * status, or "": the analysis board has no players to claim it, so it says who could.
   */
  countText() {
    const t = this.table;
    if (!t.game || t.variant !== "pool") return "";
    const probe = t.crown.Game.fromFen(t.variant, t.fenAt(t.shownPly()));
    try {
      for (const side of ["black", "white"]) {
        const rule = probe.claimableCount(side);
        if (rule) return `${cap(side)} may claim the ${rule === 28 ? 13 : 38} count (APCA rule ${rule})`;
      }
      return "";
    } finally {
      probe.free();
    }
  }

  /** After a refresh while the page is on screen: the live evaluation. */
  afterRender() {
    this.analyse();
  }

  /** The board's position and game in the address bar (a shareable link). */
  syncUrl() {
    const q = this.query();
    if (q !== location.search) history.replaceState(null, "", location.pathname + q);
  }

  /** Save the tree and the line on the board (`base`: mode, variant, setup, start, flipped). */
  save(base) {
    if (!this.root) return;
    const main = this.mainGame || this.table.game;
    storage.saveGame({
      ...base,
      moves: moveTexts(main),
      outcome: storage.outcomeOf(main),
      tree: tree.treeToJson(this.root),
      path: tree.pathIndices(this.path),
      viewPly: this.table.viewPly,
      pdnInfo: this.pdnInfo,
      context: this.context,
    });
  }

  /** Take the tree of a saved game (storage.js) whose game `g` is on the table. */
  restore(saved, g) {
    this.root = saved.tree ? tree.treeFromJson(saved.tree) : tree.treeOfHistory(g.history());
    this.mainGame = g.clone();
    this.pdnInfo = saved.pdnInfo || null;
    const c = saved.context;
    this.context = c && Array.isArray(c.tags) && Array.isArray(c.moves) && typeof c.startFen === "string" ? c : null;
    this.path = tree.lineThrough(this.root);
    const target = tree.nodeAt(this.root, saved.path || []);
    this.table.history = g.history();
    if (this.path.length !== this.table.history.length) {
      this.root = null; // a tree from another build: keep the game, start a new tree
    } else if (target !== this.root) {
      this.app.restoring = false;
      this.showNode(target);
      this.app.restoring = true;
    }
  }

  /** A move on the board at any ply: follow the tree's move, or start a variation there. */
  onBoardMove(m) {
    const t = this.table;
    const ply = t.shownPly();
    this.syncTree();
    const parent = ply === 0 ? this.root : this.path[ply - 1];
    const before = this.crown.piecesOfFen(t.variant, t.fenAt(ply));
    this.showNode(tree.childFor(parent, m.longText, m.text), { animateMove: m, before });
    if (t.viewPly == null) this.app.checkOver();
  }

  /** Position `g` of `variant` (the editor's) on the analysis board. */
  loadPosition(g, variant) {
    this.app.setMode("analysis", { keepGame: true });
    this.context = null;
    this.table.set(g, variant);
    this.table.viewPly = null;
    this.table.overShown = false;
    this.app.refresh();
  }

  /** "Play the engine from here": a game against the engine from the shown position, you to move. */
  playFromHere() {
    const t = this.table;
    const ply = t.shownPly();
    const g = this.crown.Game.fromFen(t.variant, t.game.startFen());
    for (const m of moveTexts(t.game).slice(0, ply)) g.play(m);
    if (g.outcome() !== null) {
      g.free();
      toast("The game is over in this position.");
      return;
    }
    this.app.play.playFrom(g);
  }

  // ---- the board in the URL (shareable) ---------------------------------------------------------

  /** The query string of the analysis board: variant, start FEN (when not the start), moves, ply. */
  query() {
    const t = this.table;
    const q = new URLSearchParams();
    q.set("mode", "analysis");
    q.set("variant", t.variant);
    const start = t.game.startFen();
    let standard = null;
    try {
      const fresh = t.fresh();
      standard = fresh.startFen();
      fresh.free();
    } catch (_) {
      /* unknown setup: write the FEN */
    }
    if (start !== standard) q.set("fen", start);
    else if (t.variant === "impasse" && t.setup && t.setup !== "seed") q.set("setup", t.setup);
    const moves = moveTexts(t.game);
    if (moves.length) q.set("moves", moves.join(","));
    if (t.viewPly != null) q.set("ply", String(t.viewPly));
    // the players and event travel with the link
    for (const [tag, key] of [["Event", "event"], ["Black", "black"], ["White", "white"]]) {
      const v = this.pdnTag(tag) || this.contextTag(tag);
      if (v) q.set(key, v.slice(0, 80));
    }
    return `?${q}`;
  }

  /** Open the analysis board of a URL (?mode=analysis&variant=&fen=&setup=&moves=a,b&ply=n). */
  openUrl(params, variant, setup) {
    const crown = this.crown;
    const t = this.table;
    const fen = params.get("fen");
    const moves = (params.get("moves") || "").split(",").map((m) => m.trim()).filter(Boolean);
    // the same game saved in this browser (with its variations and comments) is restored instead
    const saved = storage.loadGame();
    if (saved && saved.mode === "analysis" && saved.variant === variant && this.app.restoreLocal()) {
      let start = null;
      try {
        const probe = fen ? crown.Game.fromFen(variant, fen) : startGame(crown, variant, setup);
        start = probe.startFen();
        probe.free();
      } catch (_) {
        /* a bad FEN: the URL path below reports it */
      }
      if (this.app.mode === "analysis" && t.game.startFen() === start && moveTexts(t.game).join(",") === moves.join(",")) {
        const ply = Number(params.get("ply"));
        if (params.has("ply") && Number.isInteger(ply)) this.app.goto(ply);
        return;
      }
    }
    let g;
    try {
      g = fen ? crown.Game.fromFen(variant, fen) : startGame(crown, variant, setup);
    } catch (e) {
      toast(e.message, 8000);
      g = startGame(crown, variant, setup);
    }
    for (const m of moves) {
      try {
        g.play(m);
      } catch (e) {
        toast(`Move ${m} of the link: ${e.message}`, 8000);
        break;
      }
    }
    this.app.mode = "analysis";
    t.set(g);
    this.root = null;
    t.variant = variant;
    t.setup = setup;
    const ply = Number(params.get("ply"));
    t.viewPly = params.has("ply") && Number.isInteger(ply) && ply >= 0 && ply < g.plyCount() ? ply : null;
    t.overShown = g.outcome() !== null;
    this.app.setMode("analysis", { keepGame: true });
    // players and event from the link (plain text, at most 80 characters each)
    const tags = [];
    for (const [tag, key] of [["Event", "event"], ["Black", "black"], ["White", "white"]]) {
      const v = (params.get(key) || "").replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, 80);
      if (v) tags.push([tag, v]);
    }
    if (tags.length) {
      this.setContext(tags);
      this.app.refresh();
    }
  }

  // ---- variation tree ---------------------------------------------------------------------------

  /** Keep the tree in step with the game: a game replaced or played elsewhere starts a new tree. */
  syncTree() {
    const h = this.table.history;
    const same =
      this.root &&
      this.path.length === h.length &&
      this.path.every((n, i) => n.long === h[i].mv.longText) &&
      (!this.path.length || this.path[0].parent === this.root);
    if (same) return;
    this.root = tree.treeOfHistory(h);
    this.path = tree.lineThrough(this.root);
    if (this.mainGame) this.mainGame.free();
    this.mainGame = this.table.game.clone();
    this.pdnInfo = null;
  }

  /** Make the line through `n` the one on the board, showing the position after `n`. */
  showNode(n, anim = {}) {
    const t = this.table;
    const path = tree.lineThrough(n);
    const ply = n.parent ? path.indexOf(n) + 1 : 0;
    let g;
    const main = tree.isMainLine(path);
    if (main && this.mainGame && this.mainGame.plyCount() === path.length) {
      g = this.mainGame.clone();
    } else {
      g = this.crown.Game.fromFen(t.variant, t.game.startFen());
      try {
        for (const x of path) g.play(x.long);
      } catch (e) {
        toast(e.message);
      }
    }
    if (main && this.mainGame && g.plyCount() > this.mainGame.plyCount()) {
      // the main line grew at its end
      this.mainGame.free();
      this.mainGame = g.clone();
    }
    t.set(g);
    this.path = path;
    t.viewPly = ply >= path.length ? null : ply;
    this.app.refresh(anim);
  }

  /** The node of the shown position (the root at ply 0). */
  shownNode() {
    const ply = this.table.shownPly();
    return ply === 0 ? this.root : this.path[ply - 1];
  }

  /**
   * After the tree's main line changed: the old main line's ending that the board does not show (a
   * PDN resignation) stays on its last node, and the main game is replayed from the new main line.
   */
  mainLineChanged(oldEnd) {
    if (oldEnd && this.mainGame) {
      const o = storage.outcomeOf(this.mainGame);
      if (o && BOARD_LESS_ENDS.includes(o.reason)) oldEnd.outcome = o;
    }
    const main = tree.mainLine(this.root);
    const end = main[main.length - 1];
    const g = storage.replayGame(this.crown, {
      variant: this.table.variant,
      startFen: this.table.game.startFen(),
      moves: main.map((x) => x.long),
      outcome: end ? end.outcome || null : null,
    });
    if (this.mainGame) this.mainGame.free();
    this.mainGame = g;
  }

  /** Make the line through `n` the main line (the shown position stays). */
  promoteLine(n) {
    this.syncTree();
    const shown = this.shownNode();
    const oldEnd = tree.mainLine(this.root).at(-1);
    if (!tree.promoteToMain(n)) return;
    this.mainLineChanged(oldEnd);
    this.showNode(shown);
    toast("The line is now the main line.");
  }

  /** Delete the variation starting at `v`; the board goes to the position before it when it was shown. */
  deleteLine(v) {
    this.syncTree();
    const onBoard = this.path.includes(v);
    const parent = tree.deleteVariation(v);
    if (!parent) return;
    if (onBoard) this.showNode(parent);
    else this.app.refresh();
    toast("Variation deleted.");
  }

  // ---- evaluation and graph ---------------------------------------------------------------------

  /** The evaluation graph of the line on the board (filled in the background; off otherwise). */
  renderGraph(active = this.app.mode === "analysis") {
    const t = this.table;
    const box = $("graph-box");
    // a line of one position has no curve: no empty graph bar before the first move
    const on = active && this.engine.available !== false && !this.currentReview() && t.history.length > 0;
    box.hidden = !on;
    if (!on) {
      this.graph.stop();
      return;
    }
    const h = t.history;
    const o = t.game.outcome();
    const positions = [];
    for (let i = 0; i <= h.length; i++) {
      const last = i === h.length;
      positions.push({
        fen: t.fenAt(i),
        side: last ? t.game.sideToMove() : h[i].color,
        outcome: last && o && !BOARD_LESS_ENDS.includes(o.reason) ? o : null,
      });
    }
    this.graph.setLine(t.variant, t.game.startFen(), moveTexts(t.game), positions, t.shownPly());
  }

  /** The engine's live evaluation of the shown position (when switched on), with its best move's arrow. */
  analyse() {
    const box = $("eval-box");
    box.hidden = this.app.mode !== "analysis";
    if (this.app.mode !== "analysis") return;
    const t = this.table;
    const board = this.app.board;
    clearTimeout(this.analysisTimer);
    this.engine.stop();
    board.setArrows([]);
    if (!this.analysisOn) {
      view.renderEval("–", this.engine.available === false ? "no engine in this build" : "engine off");
      return;
    }
    const ply = t.shownPly();
    const texts = moveTexts(t.game).slice(0, ply);
    const fen = t.fenAt(ply);
    const probe = this.crown.Game.fromFen(t.variant, fen);
    const side = probe.sideToMove();
    const over = probe.outcome();
    probe.free();
    if (over) {
      view.renderEval(over.result, over.text);
      return;
    }
    $("eval-meta").textContent = "thinking…";
    // small delay so that fast navigation does not start a search per key press
    this.analysisTimer = setTimeout(() => {
      this.engine
        .search({ variant: t.variant, startFen: t.game.startFen(), moves: texts, limits: { infinite: true } }, (info) => {
          $("eval-score").textContent = scoreText(info.score, side, "black") + " ";
          $("eval-score").title = "from Black's point of view";
          $("eval-meta").textContent =
            `depth ${info.depth} · ${(info.nodes / 1000).toFixed(0)}k nodes · ${(info.nps / 1000).toFixed(0)}k n/s`;
          $("eval-pv").textContent = info.pvText.join(" ");
          this.graph.record(fen, info.score, side, info.depth);
          if (info.pvMoves && info.pvMoves.length) {
            const m = info.pvMoves[0];
            board.setArrows([{ from: m.from, to: m.to }]);
          }
        })
        .catch(() => {});
    }, 150);
  }

  // ---- game review ------------------------------------------------------------------------------

  /** The review, when it is of the game on `t` (same start, and its moves and the game's agree). */
  currentReview(t = this.table, history = t.history) {
    const r = this.review;
    if (!r || !r.result || r.startFen !== t.game.startFen()) return null;
    const moves = history.map((h) => h.mv.longText);
    const n = Math.min(moves.length, r.moves.length);
    for (let i = 0; i < n; i++) if (moves[i] !== r.moves[i]) return null;
    return r;
  }

  /**
   * The review's marks by ply (0-based) for the game on `t`, empty without a review of it;
   * `history`: the line they are for (default: the one on the board).
   */
  reviewMarks(t = this.table, history = t.history) {
    const r = this.currentReview(t, history);
    const marks = new Map();
    if (r) for (const m of r.result.moves) if (m.mark) marks.set(m.ply, m.mark);
    return marks;
  }

  /** Review the game on the board in the background (a second click stops it). */
  async reviewGame() {
    if (this.reviewer.busy) {
      this.reviewer.stop();
      return;
    }
    const g = this.table.game;
    const moves = moveTexts(g);
    if (!moves.length) {
      toast("No moves to review yet.");
      return;
    }
    const req = { variant: this.table.variant, startFen: g.startFen(), moves, ...REVIEW_BUDGET };
    this.review = { startFen: req.startFen, moves, result: null };
    $("review-game").textContent = "Stop review";
    try {
      const result = await this.reviewer.review(req, (p) => setStatus(`Reviewing: ${p.done} of ${p.total} moves`));
      this.review.result = result;
    } catch (e) {
      this.review = null;
      if (!e.cancelled) toast(`Review failed: ${e.message}`);
    }
    $("review-game").textContent = "Review game";
    const active = this.app.mode === "analysis";
    view.renderReview(active ? this.currentReview() : null, this.table, this.reviewMarks(), (ply) => this.app.goto(ply));
    this.app.refresh();
  }

  // ---- PDN export -------------------------------------------------------------------------------

  /** The tags of an export: an imported game keeps all its tags, else `tags` (the page's). */
  exportTags(tags) {
    return this.pdnInfo
      ? this.pdnInfo.tags.filter(([k]) => !["result", "gametype", "setup", "fen"].includes(k.toLowerCase()))
      : tags;
  }

  /**
   * The PDN of the tree (main line with its variations and comments, the review's marks on the
   * main line's moves that have none of their own) with `tags`, or null without a tree.
   */
  pdnTreeText(tags) {
    if (!this.root || typeof this.table.game.toPdnTree !== "function") return null;
    this.syncTree();
    const main = this.mainGame || this.table.game;
    const entries = tree.pdnEntries(this.root);
    const marks = this.reviewMarks(this.table, main.history());
    entries.forEach((e, i) => {
      const mark = marks.get(i);
      if (mark && !e.strength && !(e.nags && e.nags.length)) e.strength = mark;
    });
    return main.toPdnTree(tags, this.root.comment || "", entries);
  }
}
