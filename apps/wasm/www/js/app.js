// Crown web UI start-up and mode router. Four pages share the board: play (play/: the engine
// or a friend on this device), analysis (analysis/: the variation tree, evaluation, review, PDN),
// online (online/: a game of crown-server) and puzzles (puzzles/: find the shot). Each page's
// controller owns its state; the play and analysis pages share the local game's table, the online
// and puzzles pages have their own. The rating pages (players/: leaderboard, player page) and the
// tournament pages (tournaments/: the list, one tournament) are not board pages: they are shown in
// place of the board (players/ctrl.js, tournaments/ctrl.js); the Watch page (watch/) lists the
// games being played on the online page's panel and follows one on the board; challenges (challenges/: sent from a
// player's page, received in the top bar) open their game on the online page. The router
// switches pages, refreshes the board and the views around it (shared/screen.js) from the page on
// screen, and wires the controls every page has. The rules come from the wasm module (crown-core).
import init, * as crown from "../pkg/crown_wasm.js";
import { Board } from "./shared/board.js";
import { EngineClient } from "./shared/engine.js";
import * as storage from "./shared/storage.js";
import { initTheme } from "./shared/theme.js";
import { initWelcome } from "./shared/welcome.js";
import * as keyboard from "./shared/keyboard.js";
import { Sounds } from "./shared/sounds.js";
import { $, cap, hasPdn, dateText, pdnFileName } from "./shared/util.js";
import { Table } from "./shared/table.js";
import { toast, setStatus, download, showGameOver, wireMoveChoices } from "./shared/dialogs.js";
import * as screen from "./shared/screen.js";
import { Options } from "./shared/options.js";
import { hidePremoveLine } from "./shared/premove.js";
import { PlayCtrl } from "./play/ctrl.js";
import { AnalysisCtrl } from "./analysis/ctrl.js";
import { sharedIdOf } from "./analysis/share.js";
import { OnlineCtrl } from "./online/ctrl.js";
import { AccountCtrl } from "./account/ctrl.js";
import { PlayersCtrl, routeOf } from "./players/ctrl.js";
import { TournamentsCtrl, routeOf as tournamentRouteOf } from "./tournaments/ctrl.js";
import { ChallengesCtrl } from "./challenges/ctrl.js";
import { TurnsCtrl } from "./turns/ctrl.js";
import { WatchCtrl } from "./watch/ctrl.js";
import { renderBarRatings } from "./online/view.js";

/** The mode router: which page is on screen, the board's orientation, and the refresh of the board. */
class App {
  /** The router, the shared widgets and the three pages' controllers (the online one on first use). */
  constructor() {
    this.mode = "play";
    this.flipped = false;
    this.restoring = false; // restoring a saved game: nothing is saved meanwhile
    this.overShownFor = null; // the online game whose end was announced
    this.localFlipped = false; // the local game's orientation while the online game is on screen
    this.announcer = new screen.Announcer();
    this.sounds = new Sounds();
    this.engine = new EngineClient();
    this.local = new Table(crown); // the game of the play and analysis pages
    initTheme();
    initWelcome();
    document.body.dataset.mode = this.mode;
    this.board = new Board($("board"), { onMove: (m) => this.onBoardMove(m), onCancel: (how) => this.#cancelKey(how) });
    wireMoveChoices(this.board, $("board"));
    const deps = { app: this, crown, table: this.local, engine: this.engine, sounds: this.sounds };
    this.online = null; // made when the online page is first opened
    this.play = new PlayCtrl(deps);
    this.analysis = new AnalysisCtrl(deps);
    this.deps = deps;
    this.puzzles = null; // made when the puzzles page is first opened (its modules loaded then)
    this.puzzlesWanted = null; // the puzzle the address names (?mode=puzzles&puzzle=…)
    this.#wire();
  }

  /** The controller of the page on screen. */
  get ctrl() {
    return this[this.mode];
  }

  /** The table on screen (the online game's, the puzzle's, else the local game's). */
  get table() {
    if (this.mode === "online") return this.online.table;
    if (this.mode === "puzzles") return this.puzzles.table;
    return this.local;
  }

  // ---- refresh ----------------------------------------------------------------------------------

  /** Draw the board and every view from the page on screen (`animateMove` from `before`'s pieces). */
  refresh({ animateMove = null, before = null } = {}) {
    const ctrl = this.ctrl;
    const t = this.table;
    const g = t.game;
    if (!g) return; // the puzzles page before its set is loaded
    t.history = g.history();
    if (ctrl.beforeRender) ctrl.beforeRender();
    const n = t.history.length;
    if (t.viewPly != null && t.viewPly >= n) t.viewPly = null;
    const ply = t.shownPly();
    const live = ply === n;
    const pieces = live ? g.pieces() : crown.piecesOfFen(t.variant, t.fenAt(ply));
    const lastMove = ply > 0 ? t.history[ply - 1].mv : null;
    let moves = [];
    let capturers = [];
    if (ctrl.canMove()) {
      if (live) {
        moves = g.legalMoves();
        capturers = g.capturers();
      } else {
        // analysis: play from an earlier position (the rest of the line is replaced)
        const side = crown.Game.fromFen(t.variant, t.fenAt(ply));
        moves = side.legalMoves();
        capturers = side.capturers();
        side.free();
      }
    }
    if (!moves.length && live && ctrl.premoveMoves) {
      // the opponent is to move: a premove may be entered
      const pre = ctrl.premoveMoves();
      if (pre) moves = pre.moves;
    }
    this.board.setPosition(pieces, { variant: t.variant, moves, lastMove, capturers });
    if (ctrl.afterPosition) ctrl.afterPosition(this.board);
    if (animateMove && before) this.board.animate(animateMove, before);
    const analysing = this.mode === "analysis";
    const line = analysing ? this.analysis.moveListLine() : null;
    screen.renderMoveList(t, {
      marks: line ? this.analysis.reviewMarks(t, line.history) : this.analysis.reviewMarks(t),
      extras: analysing ? (k) => this.analysis.extras(k) : null,
      goto: (p) => this.goto(p),
      line,
    });
    this.renderBars();
    this.renderStatus();
    this.renderButtons();
    this.analysis.render(analysing);
    this.announcer.update(t, n, ctrl.outcomeView ? (o) => ctrl.outcomeView(o) : (o) => o);
    if (ctrl.afterRender) ctrl.afterRender();
    this.saveLocal();
    this.syncUrl();
  }

  /** The player bars of the page on screen (names and clocks). */
  renderBars() {
    // the puzzles page has no game until its set is loaded
    if (!this.table.game) return;
    const ctrl = this.ctrl;
    screen.renderBars(this.table, {
      flipped: this.flipped,
      nameOf: (c) => ctrl.nameOf(c),
      clock: this.mode === "online" ? this.online.clock() : this.play.clock,
    });
    // an online game's players: their ratings beside the names (none on the other pages)
    renderBarRatings(this.mode === "online" ? this.online.client.view : null, this.flipped);
  }

  /** The title and status line of the page on screen. */
  renderStatus() {
    if (!this.table.game) return;
    const ctrl = this.ctrl;
    screen.renderStatus(this.table, this.board, {
      modeName: ctrl.modeName(),
      browsing: this.mode === "analysis",
      statusText: (side, must) => ctrl.statusText(side, must),
      outcomeText: ctrl.outcomeText ? (o) => ctrl.outcomeText(o) : null,
    });
  }

  /** The play buttons (off on the other pages), the PDN and navigation buttons. */
  renderButtons() {
    if (!this.table.game) return;
    this.play.render(this.mode === "play");
    // the online and analysis pages' APCA count line (pool); the play page draws its own above
    if (this.mode !== "play" && this.ctrl.countText) {
      const line = this.ctrl.countText();
      $("count-line").textContent = line;
      $("count-line").hidden = !line;
    }
    screen.renderNav(this.table, crown);
  }

  /** Show ply `ply` of the game on screen (the live position at its end). */
  goto(ply) {
    const t = this.table;
    const n = t.history.length;
    ply = Math.max(0, Math.min(n, ply));
    t.viewPly = ply === n ? null : ply;
    this.refresh();
  }

  /** Turn the board: `f` puts Black at the bottom. */
  setFlipped(f) {
    this.flipped = f;
    this.board.setFlipped(f);
  }

  // ---- moves ------------------------------------------------------------------------------------

  /** A move entered on the board (or typed): the page on screen plays it. */
  onBoardMove(m) {
    this.ctrl.onBoardMove(m);
  }

  /** Escape or a right-click: the page drops a premove or a move waiting for Confirm; true when it did. */
  cancelPending() {
    return !!(this.ctrl && this.ctrl.cancelPending && this.ctrl.cancelPending());
  }

  /** Escape ("key") or a right-click ("click") on the board: a premove or a move to confirm is dropped; else Escape leaves zen mode. */
  #cancelKey(how) {
    if (!this.cancelPending() && how === "key" && this.options.zenShown) this.options.setZen(false);
  }

  /** Play move `m` on the table on screen; the pieces before it, or null when refused (said so). */
  playOnTable(m) {
    const g = this.table.game;
    const before = g.pieces();
    try {
      g.playIndex(m.index);
    } catch (e) {
      toast(e.message);
      this.refresh();
      return null;
    }
    return before;
  }

  /** Play the move typed in #move-input in the shown position (same path as a move on the board). */
  playTyped() {
    const t = this.table;
    if (!t.game) return;
    const err = $("move-error");
    const input = $("move-input");
    try {
      const legal = this.ctrl.canMove() ? this.board.moves : [];
      const m = keyboard.readTypedMove(crown, t.variant, t.fenAt(t.shownPly()), input.value, legal);
      err.hidden = true;
      input.value = "";
      input.removeAttribute("aria-invalid");
      this.onBoardMove(m);
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
      input.setAttribute("aria-invalid", "true");
    }
  }

  /** When the game on screen is over: stop the engine and clocks, and announce the end once. */
  checkOver() {
    const t = this.table;
    const o = t.game.outcome();
    if (!o) {
      t.overShown = false;
      return;
    }
    if (this.mode !== "online" && this.play.clock) this.play.clock.running = null;
    this.engine.stop();
    this.play.thinking = false;
    if (t.overShown) return;
    // an online game's end is announced once, not again when the page returns to it
    const key = this.mode === "online" ? this.online.overKey() : null;
    if (key && this.overShownFor === key) {
      t.overShown = true;
      return;
    }
    this.overShownFor = key;
    t.overShown = true;
    showGameOver(this.ctrl.overTitle(o), this.ctrl.outcomeView ? this.ctrl.outcomeView(o) : o);
  }

  // ---- pages ------------------------------------------------------------------------------------

  /**
   * Show page `mode` ("play", "analysis", "online"). Entering online puts the local game aside
   * (its clock paused) and shows the server's game; leaving it brings the local game back, or with
   * `keepGame` (Analyse after an online game) a copy of the online game.
   */
  setMode(mode, { keepGame = false } = {}) {
    if (mode === "puzzles" && !this.puzzles) {
      // the puzzles page's code is fetched when it is first opened, not with the first load
      import("./puzzles/ctrl.js")
        .then(({ PuzzlesCtrl }) => {
          if (!this.puzzles) this.puzzles = new PuzzlesCtrl(this.deps);
          this.setMode("puzzles", { keepGame });
        })
        .catch((e) => toast(`The puzzles could not be loaded: ${e.message}`));
      return;
    }
    if (this.mode !== mode) this.engine.stop();
    const prev = this.mode;
    // the game brought to the analysis board keeps its players and event (read before the swap)
    const context = mode === "analysis" && prev !== "analysis" && (prev === "play" || keepGame) ? this.#contextTags(this[prev]) : null;
    this.mode = mode;
    document.body.dataset.mode = mode; // style.css: the analysis panel's two columns
    if (mode === "online" && !this.online) this.online = new OnlineCtrl({ app: this, crown, sounds: this.sounds });
    const shown = prev === "online" ? this.online.table : this.local;
    if (prev !== mode && shown.game) this.#swapGames(prev, mode, keepGame);
    this.play.thinking = false;
    if (prev !== mode) this.play.pre.cancel(); // a premove is for the engine's move being searched
    hidePremoveLine(); // the page's own premove line is drawn with its board (afterPosition)
    this.options.applyMode(mode); // zen mode: the play and online pages only
    for (const b of document.querySelectorAll(".mode-btn")) b.classList.toggle("active", b.dataset.mode === mode);
    $("actions-play").hidden = mode !== "play";
    $("actions-online").hidden = mode !== "online";
    $("actions-analysis").hidden = mode !== "analysis";
    $("actions-puzzles").hidden = mode !== "puzzles";
    $("eval-box").hidden = mode !== "analysis";
    this.board.setArrows([]);
    if (mode !== "play" && this.play.clock) this.play.clock.running = null;
    if (!keepGame && mode === "analysis") {
      // analyse the game on the board
      this.table.viewPly = null;
    }
    if (context && this.table.game && this.table.game.plyCount() > 0) this.analysis.setContext(context);
    if (mode === "puzzles" && prev !== "puzzles") this.puzzles.enter();
    if (this.table.game) this.refresh();
  }

  /** The Event, Black and White tags page controller `ctrl` gives its game. */
  #contextTags(ctrl) {
    if (!ctrl || !ctrl.pdnEvent) return null;
    const name = (c) => (ctrl.pdnName ? ctrl.pdnName(c) : ctrl.nameOf(c));
    return [
      ["Event", ctrl.pdnEvent()],
      ["Black", name("black")],
      ["White", name("white")],
    ];
  }

  #swapGames(from, to, keepGame) {
    const local = this.local;
    const clock = this.play.clock;
    // the puzzles page turns the board to each puzzle's solver; the local game keeps its own side
    if (to === "puzzles" && from !== "online") this.localFlipped = this.flipped;
    if (from === "puzzles" && to !== "online") this.setFlipped(this.localFlipped);
    if (from !== "online" && to === "online") {
      if (from !== "puzzles") this.localFlipped = this.flipped;
      if (clock) clock.running = null;
      this.online.enter(local.variant, local.setup);
    } else if (from === "online" && to !== "online") {
      const shown = this.online.table;
      if (keepGame && shown.game) {
        const c = crown.Game.fromFen(shown.variant, shown.game.startFen());
        for (const h of shown.game.history()) c.play(h.mv.longText);
        local.set(c, shown.variant);
        local.viewPly = shown.viewPly;
        local.overShown = shown.overShown;
        if (clock) clock.running = null;
      } else if (local.game) {
        this.setFlipped(this.localFlipped);
        if (clock && to === "play" && !local.game.outcome()) {
          clock.running = local.game.sideToMove();
          clock.last = performance.now();
        }
      } else {
        local.set(local.fresh());
        local.viewPly = null;
      }
      this.online.leave();
    }
  }

  // ---- what survives a reload (storage.js) ------------------------------------------------------

  /** Save the local game (engine game or analysis board) and its settings; online games are the server's. */
  saveLocal() {
    const g = this.local.game;
    if (!g || this.restoring || (this.mode !== "play" && this.mode !== "analysis")) return;
    const t = this.local;
    this.ctrl.save({ mode: this.mode, variant: t.variant, setup: t.setup, startFen: g.startFen(), flipped: this.flipped });
  }

  /** Restore the saved local game; false when there is none or it does not replay. */
  restoreLocal() {
    const saved = storage.loadGame();
    if (!saved) return false;
    let g;
    try {
      g = storage.replayGame(crown, saved);
    } catch (e) {
      toast(`The saved game could not be restored: ${e.message}`, 8000);
      storage.clearGame();
      return false;
    }
    const t = this.local;
    this.restoring = true;
    t.variant = saved.variant;
    t.setup = saved.setup || "seed";
    t.overShown = g.outcome() !== null;
    if (saved.mode === "analysis") {
      this.setMode("analysis", { keepGame: true });
      t.set(g);
      this.analysis.restore(saved, g);
    } else {
      t.set(g);
      this.play.restore(saved, g);
      this.setMode("play", { keepGame: true });
    }
    this.setFlipped(!!saved.flipped);
    const n = t.game.plyCount();
    t.viewPly = saved.viewPly == null || saved.viewPly >= n ? t.viewPly : saved.viewPly;
    this.restoring = false;
    this.refresh();
    if (this.mode === "play") this.play.maybeEngineMove();
    return true;
  }

  /** Keep the address bar in step with the page (not on a game's own link /g/<id> or /a/<id>). */
  syncUrl() {
    if (/\/[ga]\/[^/]+\/?$/.test(location.pathname) || !history.replaceState) return;
    if (this.players && this.players.isOpen) return; // a rating page has its own address
    if (this.tournaments && this.tournaments.isOpen) return; // so has a tournament page
    // back or forward from one of these pages to the other: the address is the next page's
    const params = new URLSearchParams(location.search);
    if (routeOf(params) || tournamentRouteOf(params)) return;
    if (this.mode !== "online") this.ctrl.syncUrl();
  }

  // ---- PDN export -------------------------------------------------------------------------------

  /** The PDN tags of the game on screen: event, site, date, players. */
  pdnTags() {
    const date = dateText();
    const ctrl = this.ctrl;
    const tags = [
      ["Event", ctrl.pdnEvent()],
      ["Site", location.host || "Crown"],
      ["Date", date],
    ];
    for (const color of ["black", "white"]) tags.push([cap(color), ctrl.pdnName ? ctrl.pdnName(color) : ctrl.nameOf(color)]);
    return tags;
  }

  /**
   * The game on screen as PDN and its tags (the analysis board: with its variations and comments).
   * Throws when the game cannot be written.
   */
  pdnOfScreen() {
    const t = this.table;
    const tags = this.mode === "analysis" ? this.analysis.exportTags(this.pdnTags()) : this.pdnTags();
    const treeText = this.mode === "analysis" ? this.analysis.pdnTreeText(tags) : null;
    return { tags, text: treeText ?? t.game.toPdn(tags) };
  }

  /** Download the game on screen as PDN (the analysis board: with its variations and comments). */
  pdnDownload() {
    if (!hasPdn(crown)) return;
    try {
      const { tags, text } = this.pdnOfScreen();
      download(pdnFileName(this.table.variant, tags), text);
    } catch (e) {
      toast(e.message);
    }
  }

  // ---- the controls every page has --------------------------------------------------------------

  #wire() {
    for (const b of document.querySelectorAll(".mode-btn")) {
      b.addEventListener("click", () => {
        const mode = b.dataset.mode;
        if (mode === "online") {
          this.setMode("online");
          const client = this.online.client;
          // No game shown: the lobby first (its seeks, "My games" and the Create a game button).
          if (!client.gameId) client.showLobby();
        } else {
          this.setMode(mode);
          if (mode === "play") this.play.maybeEngineMove();
        }
      });
    }
    $("nav-first").addEventListener("click", () => this.goto(0));
    $("nav-prev").addEventListener("click", () => this.goto(this.table.shownPly() - 1));
    $("nav-next").addEventListener("click", () => this.goto(this.table.shownPly() + 1));
    $("nav-last").addEventListener("click", () => this.goto(this.table.history.length));
    $("flip").addEventListener("click", () => {
      this.setFlipped(!this.flipped);
      this.renderBars();
    });
    const settings = storage.loadSettings();
    if (typeof settings.numbers === "boolean") {
      $("show-numbers").checked = settings.numbers;
      this.board.setShowNumbers(settings.numbers);
    }
    $("show-numbers").addEventListener("change", (e) => {
      this.board.setShowNumbers(e.target.checked);
      storage.saveSettings({ numbers: e.target.checked });
    });
    // zen mode, coordinates, move confirmation (shared/options.js)
    this.options = new Options(this.board, this.mode);
    $("premove-cancel").addEventListener("click", () => this.ctrl.cancelPremove && this.ctrl.cancelPremove());
    $("move-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.playTyped();
    });
    document.addEventListener("keydown", (e) => this.#onKey(e));
    $("dlg-over").addEventListener("close", () => {
      const v = $("dlg-over").returnValue;
      if (v === "pdn") this.pdnDownload();
      else if (v === "analyse") {
        this.setMode("analysis", { keepGame: true });
      } else if (v === "again") {
        // a tournament game's button is "Back to the tournament" (online/view.js)
        const tournament = $("over-again").dataset.tournament;
        if (this.mode === "online" && tournament) this.tournaments.open({ page: "tournament", id: tournament });
        else if (this.mode === "online") this.online.client.openCreateDialog();
        else {
          this.setMode("play", { keepGame: true });
          $("new-game").click();
        }
      }
    });
    $("pdn-download").addEventListener("click", () => this.pdnDownload());
    $("fen-copy").addEventListener("click", async () => {
      const t = this.table;
      if (!t.game) return;
      const fen = t.fenAt(t.shownPly());
      try {
        await navigator.clipboard.writeText(fen);
        toast(`FEN copied: ${fen}`);
      } catch (_) {
        toast(fen, 8000);
      }
    });
    const sounds = this.sounds;
    const soundBtn = $("sound-toggle");
    const showSound = () => {
      soundBtn.setAttribute("aria-pressed", String(sounds.muted));
      soundBtn.title = sounds.muted ? "Sounds off (click to turn on)" : "Sounds on (click to mute)";
      soundBtn.setAttribute("aria-label", sounds.muted ? "Sounds off" : "Sounds on");
    };
    soundBtn.addEventListener("click", () => {
      sounds.setMuted(!sounds.muted);
      showSound();
    });
    showSound();
    setInterval(() => this.#tick(), 100);
    window.addEventListener("pagehide", () => this.saveLocal());
    document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && this.saveLocal());
  }

  #onKey(e) {
    if (document.querySelector("dialog[open]")) return;
    if (takesKeys(e.target)) return;
    if (e.key === "z" && !e.ctrlKey && !e.metaKey && !e.altKey && this.options.zenHere) {
      // zen mode on the play and online pages (lichess's key, also with the board focused); the
      // puzzles page does not use z
      this.options.setZen(!this.options.zen);
      e.preventDefault();
      return;
    }
    if (e.target instanceof Element && e.target.closest("#board")) return;
    const t = this.table;
    if (e.key === "ArrowLeft") this.goto(t.shownPly() - 1);
    else if (e.key === "ArrowRight") this.goto(t.shownPly() + 1);
    else if (e.key === "Home") this.goto(0);
    else if (e.key === "End") this.goto(t.history.length);
    else if (e.key === "f") $("flip").click();
    else if (e.key === "Escape") {
      this.board.deselect();
      $("banner").hidden = true;
      // one thing at a time: a premove or a move waiting for Confirm, else zen mode
      if (!this.cancelPending() && this.options.zenShown) this.options.setZen(false);
    } else return;
    e.preventDefault();
  }

  /** Every 100 ms: the clock of the page on screen. */
  #tick() {
    if (this.mode === "play") this.play.tick();
    else if (this.mode === "online" && this.online.clock()) {
      this.renderBars();
      this.online.client.renderFirstMove();
    } else if (this.mode === "online" && this.online.client.view?.days) this.online.client.renderFirstMove();
  }
}

/** Input types that are clicked, not typed in: the arrow keys still navigate when one has focus. */
const CLICKED_INPUTS = new Set(["checkbox", "button", "submit", "reset", "image", "color", "file"]);

/**
 * True when `el` uses the navigation keys itself (a text field, a text area, a select, radios, a
 * range, editable text); a focused checkbox or button does not, so ← / → still navigate after a
 * click on "Engine" or "Numbers".
 */
function takesKeys(el) {
  if (!(el instanceof Element)) return false;
  if (el instanceof HTMLInputElement) return !CLICKED_INPUTS.has(el.type);
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el.isContentEditable;
}

/**
 * What the end-to-end tests and the console read as `crownApp.state`: the page on screen, its
 * game and the controllers' fields, read through (nothing is stored here).
 */
function stateView(app) {
  const { play, analysis } = app;
  const fields = {
    mode: () => app.mode,
    game: () => app.table.game,
    variant: () => app.table.variant,
    setup: () => app.table.setup,
    history: () => app.table.history,
    viewPly: () => app.table.viewPly,
    overShown: () => app.table.overShown,
    flipped: () => app.flipped,
    human: () => play.human,
    hotseat: () => play.hotseat,
    names: () => play.names,
    level: () => play.level,
    thinking: () => play.thinking,
    lastScore: () => play.lastScore,
    // the local clock is put aside while the online game is on screen
    clock: () => (app.mode === "online" ? null : play.clock),
    analysisOn: () => analysis.analysisOn,
    review: () => analysis.review,
    root: () => analysis.root,
    path: () => analysis.path,
    mainGame: () => analysis.mainGame,
    pdnInfo: () => analysis.pdnInfo,
    pdnFile: () => analysis.pdn.file,
    pdnIndexMs: () => analysis.pdn.indexMs,
    puzzle: () => (app.puzzles ? app.puzzles.state() : null),
  };
  const view = {};
  for (const [name, get] of Object.entries(fields)) Object.defineProperty(view, name, { get, enumerable: true });
  return view;
}

async function main() {
  await init();
  const app = new App();
  const { play, analysis } = app;
  app.account = new AccountCtrl($("account"));
  app.account.start(); // GET /api/me; a guest when offline (not awaited: the page works meanwhile)
  app.players = new PlayersCtrl({ app }); // the leaderboard and player pages (players/ctrl.js)
  app.challenges = new ChallengesCtrl({ app }); // challenges: received in the top bar, sent from a player's page (after it)
  app.turns = new TurnsCtrl({ app }); // "your turn": my games where it is my move, in the top bar (before the challenges)
  app.tournaments = new TournamentsCtrl({ app }); // the tournament pages (tournaments/ctrl.js)
  app.watch = new WatchCtrl({ app }); // the Watch page: the games being played (watch/ctrl.js)
  // for the end-to-end tests and the console
  window.crownApp = {
    app,
    state: stateView(app),
    crown,
    board: app.board,
    engine: app.engine,
    sounds: app.sounds,
    online: () => app.online && app.online.client,
    graph: () => analysis.graph,
    account: () => app.account.account,
    tournaments: () => app.tournaments,
  };
  const params = new URLSearchParams(location.search);
  const link = location.pathname.match(/\/g\/([^/]+)\/?$/);
  const gameId = params.get("game") || (link && decodeURIComponent(link[1]));
  if (params.get("mode") === "watch") {
    // ?mode=watch: the games being played, the top one on the board
    app.local.set(new crown.Game("american"), "american");
    await app.watch.open();
    document.body.dataset.ready = "1";
    return;
  }
  if (gameId) {
    // a shared link: play with this browser's seat, take the open seat, or watch
    app.local.set(new crown.Game("american"), "american");
    app.setMode("online");
    await app.online.client.join(gameId);
    document.body.dataset.ready = "1";
    return;
  }
  const shared = sharedIdOf(location.pathname);
  if (shared) {
    // a shared game's link /a/<id>: the game on the analysis board; a dead link (its toast says
    // so) opens the analysis board's start, never the previous game as if it were the link's
    // (the board of this browser's last visit is replaced, as a live shared link replaces it)
    if (!(await analysis.share.open(shared))) analysis.openUrl(new URLSearchParams(), "american", "seed");
    barsWhenEngineReady(app);
    document.body.dataset.ready = "1";
    return;
  }
  let variant = params.get("variant") || "american";
  try {
    crown.startFen(variant);
  } catch (e) {
    toast(e.message);
    variant = "american";
  }
  const fen = params.get("fen");
  const setup = params.get("setup") || "seed";
  const route = routeOf(params);
  const tournamentRoute = tournamentRouteOf(params);
  if (tournamentRoute) {
    // ?mode=tournaments or ?mode=tournament&id=…: the tournament page, the local game behind it
    app.tournaments.open(tournamentRoute, { push: false });
    if (!app.restoreLocal()) play.newGame({ variant: "american", setup: "seed", side: "first", level: crown.defaultLevel() });
  } else if (route) {
    // ?mode=leaderboard&variant=&speed= or ?mode=player&name=…: the rating page, the local game behind it
    app.players.open(route, { push: false });
    if (!app.restoreLocal()) play.newGame({ variant: "american", setup: "seed", side: "first", level: crown.defaultLevel() });
  } else if (params.get("mode") === "puzzles") {
    // ?mode=puzzles&variant=pool&theme=shot&puzzle=<id> opens the puzzles page (the local game
    // is restored behind it)
    if (!app.restoreLocal()) play.newGame({ variant: "american", setup: "seed", side: "first", level: crown.defaultLevel() });
    app.puzzlesWanted = { variant, theme: params.get("theme") || "", id: params.get("puzzle") };
    app.setMode("puzzles");
  } else if (fen || params.get("mode") === "analysis") {
    // ?mode=analysis&variant=pool&fen=W:WK29:B22,19&moves=29-25,19-23&ply=1 opens an analysis board
    analysis.openUrl(params, variant, setup);
  } else if (params.has("variant") || !app.restoreLocal()) {
    play.newGame({ variant, setup, side: "first", level: crown.defaultLevel() });
  }
  barsWhenEngineReady(app);
  document.body.dataset.ready = "1";
}

/** Draw the bars, the status and the buttons again once the engine of `app` is ready. */
function barsWhenEngineReady(app) {
  app.engine.ready().then(() => {
    app.renderBars();
    app.renderStatus();
    app.renderButtons();
  });
}

// A module of one function using a SIMD instruction (i8x16.splat, i8x16.popcnt): whether this
// browser has WebAssembly SIMD, which the engine's module is built with (README, Web UI).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

main().catch((e) => {
  console.error(e);
  const simd = typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE);
  setStatus(
    simd
      ? `Could not start: ${e.message}`
      : "Could not start: this browser has no WebAssembly SIMD, which Crown's engine needs " +
          "(Chrome or Edge 91, Firefox 89, Safari 16.4 or newer).",
    "error",
  );
});
