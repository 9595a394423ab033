// The online page's controller: the game of crown-server (online.js: the connection, the seat,
// the lobby and chat) on the board. It has its own table, apart from the local game's: entering
// the page shows the server's game, leaving it brings the local game back (the router, app.js,
// asks `enter` and `leave`).

import { cap } from "../shared/util.js";
import { toast, setStatus } from "../shared/dialogs.js";
import { Table } from "../shared/table.js";
import { Online } from "./online.js";
import { renderOverRatings } from "./view.js";

/** The online page: the server's game on its own table, played through `client` (online.js). */
export class OnlineCtrl {
  /** `app`: the router; `sounds`: the move sounds. */
  constructor({ app, crown, sounds }) {
    this.app = app;
    this.crown = crown;
    this.table = new Table(crown);
    this.client = new Online(this.#hooks(sounds));
  }

  #hooks(sounds) {
    const app = this.app;
    const active = () => app.mode === "online";
    return {
      crown: this.crown,
      setGame: (game, variant) => {
        this.table.set(game, variant);
        this.table.viewPly = null;
        this.table.overShown = false;
        app.refresh();
      },
      getGame: () => this.table.game,
      remoteMove(before, m) {
        app.refresh({ animateMove: m, before });
        app.checkOver();
      },
      refresh: () => {
        app.refresh();
        app.checkOver();
      },
      flip: (f) => app.setFlipped(f),
      toast,
      setStatus,
      sounds,
      active,
      enterOnline: () => {
        if (!active()) app.setMode("online");
      },
      premoveArrow: (a) => {
        if (active()) app.board.setArrows(a ? [a] : []);
      },
      playMove: (m) => {
        if (active() && this.table.viewPly == null) app.onBoardMove(m);
      },
    };
  }

  /** The page comes on screen (`variant`, `setup`: the local game's): the server's game is shown. */
  enter(variant, setup) {
    const t = this.table;
    t.variant = variant;
    t.setup = setup;
    t.set(t.fresh());
    t.viewPly = null;
    t.overShown = false;
    this.client.resync();
  }

  /** The page leaves the screen: its game is dropped (the server keeps it) and the lobby hidden. */
  leave() {
    if (this.table.game) this.table.game.free();
    this.table.game = null;
    this.client.lobby.hide();
    renderOverRatings(null); // the game-over dialog of a local game has no rating line
  }

  // ---- what the router asks every page ----------------------------------------------------------

  /** The title's mode name. */
  modeName() {
    return "online";
  }

  /** Whether a move may be entered now: this seat is to move, nothing is being sent. */
  canMove() {
    const g = this.table.game;
    if (!g || g.outcome() !== null || this.table.viewPly != null) return false;
    return this.client.canMove(g.sideToMove());
  }

  /** While the opponent is to move: the moves a premove may be entered with ({moves}), or null. */
  premoveMoves() {
    return this.client.premoveMoves();
  }

  /** After the board's position is set: the premove's arrow. */
  afterPosition(board) {
    const p = this.client.premove;
    if (p) board.setArrows([{ from: p.from, to: p.to, color: "#8e44ad" }]);
  }

  /** The name on `color`'s bar (the players' names, "You", the engine). */
  nameOf(color) {
    return this.client.nameOf(color);
  }

  /** The clocks of the server's game, counting down locally (null: none). */
  clock() {
    return this.client.clock();
  }

  /** The status line while the game goes on (`must`: the capture note). */
  statusText(side, must) {
    return this.client.statusText(side) + must;
  }

  /** The game-over dialog's title for outcome `o` (a spectator: who won). */
  overTitle(o) {
    const me = this.client.seat;
    if (me) return o.winner == null ? "Draw" : o.winner === me ? "You won!" : "You lost";
    return o.winner ? `${cap(o.winner)} wins` : "Draw";
  }

  /** The key under which a game's end is announced once (the server's game id). */
  overKey() {
    return this.client.gameId;
  }

  /** The PDN Event tag. */
  pdnEvent() {
    return "Crown online game";
  }

  /** The PDN name of `color`'s player. */
  pdnName(color) {
    return this.client.pdnName(color);
  }

  /** A move on the board: sent to the server, or kept as a premove while the opponent is to move. */
  onBoardMove(m) {
    const g = this.table.game;
    if (!this.client.canMove(g.sideToMove())) {
      // entered while the opponent is to move: a premove
      this.client.setPremove(m);
      return;
    }
    this.client.sendMove(m);
    const before = this.app.playOnTable(m);
    if (!before) return;
    this.table.viewPly = null;
    this.app.refresh({ animateMove: m, before });
    this.app.checkOver();
  }
}
