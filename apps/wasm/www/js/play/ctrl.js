// The play page's controller: a game against the engine in the browser (its worker, engine.js)
// or between two players on this device (hot seat), with optional clocks. It owns its state —
// the human's colour, the level, the clock, whether the engine is thinking — and works on the
// local game's table, which it shares with the analysis page (the router, app.js, hands it over).
// While the engine thinks the player may enter a premove (shared/premove.js, as online).

import { cap, other, moveTexts } from "../shared/util.js";
import { toast, confirmThen } from "../shared/dialogs.js";
import * as storage from "../shared/storage.js";
import { Premove, premoveMoves } from "../shared/premove.js";
import { COUNT_RULES, parseClock, renderButtons, wireButtons } from "./view.js";

/**
 * The least time (ms) the engine of casual level 1–10 takes over a move, as a person would: 1.5 s
 * at level 1 down to 0.4 s at level 7, none from level 8 (the search itself takes longer there).
 * Its search is as fast as ever; the move is only shown later. With a clock the pause is at most a
 * twentieth of the engine's remaining time.
 */
export const THINK_FLOOR_MS = [0, 1500, 1300, 1100, 950, 800, 600, 400, 0, 0, 0];

/** The least think time of `level` in ms (0 outside 1–7). */
export function thinkFloorMs(level) {
  return THINK_FLOOR_MS[Math.round(level)] || 0;
}

/** The play page: a local game against the engine or between two players on this device. */
export class PlayCtrl {
  /**
   * `app`: the router (refresh, checkOver, setFlipped, mode); `table`: the local game;
   * `engine`: the engine client; `sounds`: the move sounds.
   */
  constructor({ app, crown, table, engine, sounds }) {
    this.app = app;
    this.crown = crown;
    this.table = table;
    this.engine = engine;
    this.sounds = sounds;
    this.human = "black"; // the human's colour
    this.hotseat = false; // two players on this device (no engine), both sides moved by clicking
    this.names = { black: "", white: "" }; // hot-seat players' names ("" = the colour's name)
    this.level = crown.defaultLevel(); // crown_ai::DEFAULT_LEVEL: the lowest level that plays its endings from the databases
    this.engineTurn = 0; // counts the engine's turns: a move that comes after a takeback or a new game is dropped
    this.thinking = false;
    this.lastScore = null; // engine's last score from its own point of view
    this.clock = null; // {black, white, inc, running: color|null, last: ms timestamp}
    this.claims = []; // APCA count claims of this game: {ply, color, rule} (ply: plies played before it)
    // a move entered while the engine thinks, played on the player's turn if legal then
    this.pre = new Premove({
      toast,
      arrow: (a) => {
        if (this.app.mode === "play") this.app.board.setArrows(a ? [a] : []);
      },
    });
    wireButtons(this);
  }

  // ---- what the router asks every page ----------------------------------------------------------

  /** The title's mode name. */
  modeName() {
    return this.hotseat ? "two players" : "vs engine";
  }

  /** Whether a move may be entered on the board now. */
  canMove() {
    const g = this.table.game;
    if (!g || g.outcome() !== null || this.table.viewPly != null) return false;
    return !this.thinking && (this.hotseat || g.sideToMove() === this.human);
  }

  /**
   * While the engine thinks: the moves the player could make in the position on the board if it
   * were their turn, to enter one premove ({moves, capturers}), or null (none may be entered now).
   */
  premoveMoves() {
    const g = this.table.game;
    if (!g || this.hotseat || !this.thinking || this.pre.move || g.outcome() !== null || this.table.viewPly != null) return null;
    return premoveMoves(this.crown, this.table.variant, g.fen(), this.human);
  }

  /** After the board's position is set: the premove's line and arrow. */
  afterPosition() {
    this.pre.render();
  }

  /** Drop the premove (Escape, a right-click, the premove line's Cancel); true when there was one. */
  cancelPremove() {
    if (!this.pre.cancel()) return false;
    this.app.refresh();
    return true;
  }

  /** Escape or a right-click on the board: the premove is dropped; true when there was one. */
  cancelPending() {
    return this.cancelPremove();
  }

  /** The name on `color`'s bar. */
  nameOf(color) {
    if (this.hotseat) return this.names[color] || cap(color);
    if (color === this.human) return "You";
    return this.engine.available === false ? "Second player" : `Crown engine · level ${this.level}`;
  }

  /** The status line while the game goes on (`must`: the capture note). */
  statusText(side, must) {
    if (this.hotseat) {
      const name = this.names[side];
      return `${name ? `${name} to move (${cap(side)})` : `${cap(side)} to move`}${must}`;
    }
    if (this.thinking) return `Engine is thinking… (${cap(side)} to move)`;
    if (this.engine.available !== false) return side === this.human ? `Your move (${cap(side)})${must}` : `${cap(side)} to move`;
    return `${cap(side)} to move${must}`;
  }

  /** The running APCA count as a line under the status, or "" (none, or an earlier ply shown). */
  countText() {
    const g = this.table.game;
    const c = g && this.table.viewPly == null ? g.count() : null;
    if (!c) return "";
    const who = this.hotseat ? this.names[c.claimant] || cap(c.claimant) : c.claimant === this.human ? "you" : cap(c.claimant);
    return `The ${c.limit} count (APCA rule ${c.rule}): ${c.moves} of ${c.limit} moves counted for ${who}`;
  }

  /** The side that may claim a count now: the human (hot seat: the side to move). */
  countClaimant() {
    const g = this.table.game;
    return this.hotseat ? g.sideToMove() : this.human;
  }

  /** The APCA count (27 or 28) the claimant may claim now, or undefined (wasm Game.claimableCount). */
  claimableCount() {
    const g = this.table.game;
    if (!g || this.table.variant !== "pool" || this.table.viewPly != null) return undefined;
    return g.claimableCount(this.countClaimant()) ?? undefined;
  }

  /** Claim the count that applies, after showing its rule's words; the status line then counts it. */
  claimCount() {
    const rule = this.claimableCount();
    if (this.app.mode !== "play" || !rule) return;
    const color = this.countClaimant();
    const words = COUNT_RULES[rule];
    confirmThen(words.title, words.text, "Claim", () => {
      const g = this.table.game;
      if (this.app.mode !== "play" || this.claimableCount() !== rule || this.countClaimant() !== color) return;
      try {
        g.claimCount(color, rule);
      } catch (e) {
        toast(e.message);
        return;
      }
      this.claims.push({ ply: g.plyCount(), color, rule });
      toast(`${cap(color)} claims the ${rule === 28 ? 13 : 38} count (APCA rule ${rule})`);
      this.app.refresh();
    });
  }

  /** The game-over dialog's title for outcome `o`. */
  overTitle(o) {
    if (this.hotseat) return o.winner == null ? "Draw" : `${this.nameOf(o.winner)} wins`;
    return o.winner == null ? "Draw" : o.winner === this.human ? "You won!" : "You lost";
  }

  /** The PDN Event tag (a game against the engine names its level). */
  pdnEvent() {
    if (this.hotseat) return "Crown hot-seat game";
    return this.engine.available === false ? "Crown game" : `Crown vs engine, level ${this.level}`;
  }

  /** The PDN name of `color`'s player: the hot-seat name, "You", or "Crown level N". */
  pdnName(color) {
    if (this.hotseat) return this.names[color] || cap(color);
    if (color === this.human) return "You";
    return this.engine.available === false ? "Second player" : `Crown level ${this.level}`;
  }

  /** The page's own part of a refresh: its buttons. */
  render(active) {
    renderButtons(this, active);
  }

  /** Keep the address bar plain: a game against the engine has no link. */
  syncUrl() {
    if (location.search) history.replaceState(null, "", location.pathname);
  }

  /** Save the game and its settings (`base`: mode, variant, setup, start, flipped). */
  save(base) {
    const g = this.table.game;
    const c = this.clock;
    storage.saveGame({
      ...base,
      moves: moveTexts(g),
      claims: this.claims.length ? this.claims : undefined,
      outcome: storage.outcomeOf(g),
      human: this.human,
      hotseat: this.hotseat || undefined,
      names: this.hotseat ? this.names : undefined,
      level: this.level,
      viewPly: this.table.viewPly,
      clock: c ? { black: c.black, white: c.white, inc: c.inc, running: c.running } : null,
    });
  }

  /** Take the settings of a saved game (storage.js) whose game `g` is on the table. */
  restore(saved, g) {
    this.human = saved.human === "white" ? "white" : "black";
    this.hotseat = saved.hotseat === true;
    this.names = {
      black: typeof saved.names?.black === "string" ? saved.names.black.slice(0, 40) : "",
      white: typeof saved.names?.white === "string" ? saved.names.white.slice(0, 40) : "",
    };
    this.level = Number(saved.level) || this.crown.defaultLevel();
    this.claims = storage.claimsOf(saved).filter((c) => c.ply <= g.plyCount());
    this.clock = saved.clock ? { ...saved.clock, last: performance.now() } : null;
    if (this.clock && g.outcome() !== null) this.clock.running = null;
  }

  // ---- moves ------------------------------------------------------------------------------------

  /** A move entered on the board (or typed); while the engine thinks, a premove. */
  onBoardMove(m) {
    if (this.thinking && !this.hotseat) {
      if (this.app.mode !== "play" || this.pre.move) return;
      this.pre.set(m);
      this.app.refresh();
      return;
    }
    this.sounds.play(m.captures && m.captures.length ? "capture" : "move");
    const before = this.app.playOnTable(m);
    if (before) this.afterMove(m, before);
  }

  /** After move `m` was played (`before`: the pieces before it): clocks, refresh, the engine's turn. */
  afterMove(m, before) {
    const g = this.table.game;
    const mover = other(g.sideToMove());
    if (this.clock && this.app.mode === "play") {
      this.clock[mover] += this.clock.inc;
      this.clock.running = g.outcome() ? null : g.sideToMove();
      this.clock.last = performance.now();
    }
    this.table.viewPly = null;
    this.app.refresh({ animateMove: m, before });
    this.app.checkOver();
    if (this.app.mode === "play") this.maybeEngineMove();
  }

  /** When the engine is to move: search (level, clock) and play its move. */
  async maybeEngineMove() {
    const g = this.table.game;
    if (this.app.mode !== "play" || this.hotseat || g.outcome() || g.sideToMove() === this.human) return;
    if (!(await this.engine.ready())) {
      this.app.refresh();
      return;
    }
    this.thinking = true;
    this.app.renderStatus();
    this.app.renderButtons();
    // nothing to play now, but a premove may be entered
    const pre = this.premoveMoves();
    this.app.board.setMoves(pre ? pre.moves : []);
    const limits = { level: this.level };
    let floor = thinkFloorMs(this.level);
    if (this.clock) {
      const me = g.sideToMove();
      limits.clock = { remainingMs: Math.max(0, Math.floor(this.clock[me])), incrementMs: this.clock.inc };
      floor = Math.min(floor, this.clock[me] / 20);
    }
    const gameAtStart = this.table.game;
    const turn = ++this.engineTurn;
    const started = performance.now();
    let result;
    try {
      result = await this.engine.search(
        { variant: this.table.variant, startFen: g.startFen(), moves: moveTexts(g), limits },
        () => {},
      );
    } catch (e) {
      this.thinking = false;
      if (!e.cancelled) {
        toast(`Engine error: ${e.message}`);
        this.app.refresh();
      }
      return;
    }
    // a human-like pause at the low levels (THINK_FLOOR_MS), still "thinking"
    const wait = floor - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (turn !== this.engineTurn) return; // taken back or a new game meanwhile
    this.thinking = false;
    if (this.table.game !== gameAtStart || this.table.game.outcome() || this.app.mode !== "play") return;
    this.lastScore = result.score;
    if (!result.bestMove) {
      this.app.refresh();
      return;
    }
    const before = this.table.game.pieces();
    const m = this.table.game.play(result.bestMove.longText);
    this.afterMove(m, before);
    this.#playPremove();
  }

  /** The engine has moved: the premove is played at once if legal now, else dropped with a note. */
  #playPremove() {
    const g = this.table.game;
    if (!this.pre.move || this.app.mode !== "play") return;
    if (g.outcome() !== null || !this.canMove()) {
      this.pre.cancel();
      return;
    }
    const m = this.pre.take(g);
    if (m) this.onBoardMove(m);
    else this.app.refresh();
  }

  // ---- clocks -----------------------------------------------------------------------------------

  /** Every 100 ms on this page: the running clock counts down; at zero its side loses on time. */
  tick() {
    const c = this.clock;
    if (!c || !c.running) return;
    const now = performance.now();
    c[c.running] -= now - c.last;
    c.last = now;
    if (c[c.running] <= 0) {
      c[c.running] = 0;
      const loser = c.running;
      c.running = null;
      this.engine.stop();
      this.thinking = false;
      this.pre.cancel();
      this.table.game.loseOnTime(loser);
      this.app.refresh();
      this.app.checkOver();
      return;
    }
    this.app.renderBars();
  }

  // ---- games ------------------------------------------------------------------------------------

  /**
   * A new local game: against the engine (`side`: "first", "second" or "random" for the human,
   * `level` 1–10, by default the wasm module's `defaultLevel()`), or with `hotseat` two players on this device (`names`: {black, white}, "" for the
   * colour's name). `clock`: "" or "base+increment" in seconds.
   */
  newGame({ variant, setup = "seed", side = "first", level = this.crown.defaultLevel(), clock = "", hotseat = false, names = null }) {
    this.engine.stop();
    const t = this.table;
    t.variant = variant;
    t.setup = setup;
    t.set(t.fresh());
    const first = t.game.firstPlayer();
    if (side === "random") side = Math.random() < 0.5 ? "first" : "second";
    this.human = side === "first" || hotseat ? first : other(first);
    this.hotseat = hotseat;
    this.names = { black: (names?.black || "").trim().slice(0, 40), white: (names?.white || "").trim().slice(0, 40) };
    this.level = level;
    this.#startFresh();
    this.clock = parseClock(clock);
    if (this.clock) {
      this.clock.running = t.game.sideToMove();
      this.clock.last = performance.now();
    }
    // the human's pieces at the bottom: Black starts at the top of the standard diagram
    this.app.setFlipped(this.human === "black");
    this.app.refresh();
    this.maybeEngineMove();
  }

  /** A new game on the table: its live position shown, no engine score yet, its end not announced. */
  #startFresh() {
    this.table.viewPly = null;
    this.claims = [];
    this.engineTurn++; // an engine move still pausing (THINK_FLOOR_MS) is not played in the new game
    this.thinking = false;
    this.pre.cancel();
    this.lastScore = null;
    this.table.overShown = false;
  }

  /** "Play the engine from here": game `g` (a position of the analysis board), you to move. */
  playFrom(g) {
    this.engine.stop();
    this.app.setMode("play", { keepGame: true });
    const t = this.table;
    t.set(g);
    this.human = g.sideToMove();
    this.hotseat = false;
    this.#startFresh();
    this.clock = null;
    this.app.setFlipped(this.human === "black");
    this.app.refresh();
    this.maybeEngineMove();
  }

  /** Take back to the human's last turn (hot seat: one ply); a finished game is not taken back. */
  takeback() {
    const g = this.table.game;
    if (this.app.mode !== "play" || g.outcome() !== null) return;
    this.engine.stop();
    this.engineTurn++;
    this.thinking = false;
    this.pre.cancel();
    if (g.plyCount() === 0 && g.outcome() === null) return;
    const wasOver = g.outcome() !== null;
    g.undo();
    // take back to the human's turn (hot seat: one ply)
    while (!this.hotseat && g.plyCount() > 0 && g.sideToMove() !== this.human) g.undo();
    if (wasOver && g.outcome() !== null) g.undo();
    // a claim made after the position taken back to goes with the moves (the game's count did)
    this.claims = this.claims.filter((c) => c.ply <= g.plyCount() && (c.ply < g.plyCount() || g.count()));
    // the engine's score was of a position no longer on the board
    this.lastScore = null;
    this.table.overShown = false;
    this.table.viewPly = null;
    if (this.clock) {
      this.clock.running = g.sideToMove();
      this.clock.last = performance.now();
    }
    this.app.refresh();
    this.maybeEngineMove();
  }

  /** Offer a draw: the engine accepts when it is not better (hot seat: both agree, asked first). */
  offerDraw() {
    if (this.app.mode !== "play" || this.table.game.outcome()) return;
    if (this.hotseat) {
      // both players are here: a draw by agreement, confirmed like a resignation
      confirmThen("Agree a draw?", "The game ends drawn by agreement.", "Draw", () => {
        if (this.app.mode !== "play" || this.table.game.outcome()) return;
        this.table.game.agreeDraw();
        this.app.refresh();
        this.app.checkOver();
      });
      return;
    }
    if (this.thinking) {
      // as in the terminal UI: the engine judges an offer made on the player's own move
      toast("Offer a draw on your move.");
      return;
    }
    const s = this.lastScore;
    // the engine's one draw rule (crown_ai::Opponent::accepts_draw), on the score of its last move
    const accept = s != null && this.crown.engineAcceptsDraw(s, this.table.history.length);
    if (accept) {
      this.engine.stop();
      this.thinking = false;
      this.pre.cancel();
      this.table.game.agreeDraw();
      this.app.refresh();
      this.app.checkOver();
    } else {
      toast("The engine declines the draw.");
    }
  }

  /** Resign after asking (hot seat: the player to move resigns). */
  resign() {
    if (this.app.mode !== "play" || this.table.game.outcome()) return;
    if (this.hotseat) {
      const side = this.table.game.sideToMove();
      confirmThen(`${this.nameOf(side)} resigns?`, `The game ends and counts as a loss for ${cap(side)}.`, "Resign", () =>
        this.resignNow(),
      );
      return;
    }
    confirmThen("Resign?", "The game ends and counts as a loss.", "Resign", () => this.resignNow());
  }

  /** Resign without asking (the confirm dialog said yes). */
  resignNow() {
    const g = this.table.game;
    if (this.app.mode !== "play" || g.outcome()) return;
    this.engine.stop();
    this.thinking = false;
    this.pre.cancel();
    // hot seat: the player to move resigns
    g.resign(this.hotseat ? g.sideToMove() : this.human);
    this.app.refresh();
    this.app.checkOver();
  }
}
