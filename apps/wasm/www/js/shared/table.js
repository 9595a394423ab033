// The game on the board and where the page looks in it: the wasm Game (the rules, from
// crown-core), its variant and setup, its history, the ply shown (null = the live position) and
// whether its end was announced. The play and analysis pages share one table (the local game);
// the online page has its own, so that neither the engine nor the analysis board ever touches the
// online game.

/** The game on the board and the ply shown. */
export class Table {
  /** An empty table (no game yet) for the wasm module `crown`. */
  constructor(crown) {
    this.crown = crown;
    this.game = null; // wasm Game
    this.variant = "american";
    this.setup = "seed"; // the Impasse setup
    this.history = []; // game.history() at the last refresh
    this.viewPly = null; // null = follow the live position
    this.overShown = false; // the game's end was announced
  }

  /** Put `game` on the table (of `variant`); the game it held is freed. */
  set(game, variant = this.variant) {
    if (this.game && this.game !== game) this.game.free();
    this.game = game;
    this.variant = variant;
  }

  /** A new game of the table's variant and setup at its start (the table is not changed). */
  fresh() {
    const v = this.variant;
    return new this.crown.Game(v, v === "impasse" ? this.setup : undefined);
  }

  /** The ply on the board: the viewed one, else the live one (the number of moves). */
  shownPly() {
    return this.viewPly == null ? this.history.length : this.viewPly;
  }

  /** The FEN after `ply` plies (0: the start position). */
  fenAt(ply) {
    if (ply === 0) return this.game.startFen();
    return this.history[ply - 1].fenAfter;
  }
}
