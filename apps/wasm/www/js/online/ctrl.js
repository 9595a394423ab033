// The online page's controller: the game of crown-server (online.js: the connection, the seat,
// the lobby and chat) on the board. It has its own table, apart from the local game's: entering
// the page shows the server's game, leaving it brings the local game back (the router, app.js,
// asks `enter` and `leave`).

import { cap } from "../shared/util.js";
import { toast, setStatus } from "../shared/dialogs.js";
import { Table } from "../shared/table.js";
import { Online } from "./online.js";
import { countLineText, renderConfirm, renderOverAgain, renderOverRatings, renderRatedLine } from "./view.js";
import { $ } from "../shared/util.js";

/** The online page: the server's game on its own table, played through `client` (online.js). */
export class OnlineCtrl {
  /** `app`: the router; `sounds`: the move sounds. */
  constructor({ app, crown, sounds }) {
    this.app = app;
    this.crown = crown;
    this.table = new Table(crown);
    this.client = new Online(this.#hooks(sounds));
    // a move shown on the board and sent once confirmed ({m, ply, pieces}; the "Confirm online moves" option)
    this.confirming = null;
    $("move-confirm-ok").addEventListener("click", () => this.confirmMove());
    $("move-confirm-cancel").addEventListener("click", () => this.cancelConfirm());
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
      // a premove played on the player's turn: already a decision, sent without Confirm
      playMove: (m) => {
        if (active() && this.table.viewPly == null) this.onBoardMove(m, { premove: true });
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

  /** The page leaves the screen: its game is dropped (the server keeps it), the lobby and the Watch list hidden. */
  leave() {
    this.dropConfirm();
    if (this.table.game) this.table.game.free();
    this.table.game = null;
    this.client.lobby.hide();
    if (this.app.watch) this.app.watch.hide(); // and the Watch page's list
    renderOverRatings(null); // the game-over dialog of a local game has no rating line
    renderRatedLine(null); // nor has another page's status a rated line
    renderOverAgain(null); // and its dialog offers a new game
  }

  // ---- what the router asks every page ----------------------------------------------------------

  /** The title's mode name. */
  modeName() {
    return "online";
  }

  /** Whether a move may be entered now: this seat is to move, nothing is being sent or confirmed. */
  canMove() {
    const g = this.table.game;
    if (!g || g.outcome() !== null || this.table.viewPly != null || this.confirming) return false;
    return this.client.canMove(g.sideToMove());
  }

  /** While the opponent is to move: the moves a premove may be entered with ({moves}), or null. */
  premoveMoves() {
    return this.client.premoveMoves();
  }

  /**
   * After the board's position is set: the premove's line and arrow, and a move waiting for
   * Confirm drawn on the board (dropped when the game moved on meanwhile: a takeback, the end).
   */
  afterPosition(board) {
    this.client.pre.render();
    const c = this.confirming;
    if (!c) return;
    if (!this.#stillConfirmable(c)) {
      this.dropConfirm();
      return;
    }
    board.setPosition(c.pieces, { variant: this.table.variant, moves: [], lastMove: c.m });
    renderConfirm(c.m);
  }

  /** Drop the premove or the move waiting for Confirm (Escape, a right-click); true when there was one. */
  cancelPending() {
    return this.cancelConfirm() || this.client.cancelPremove();
  }

  /** The premove line's Cancel: drop the premove. */
  cancelPremove() {
    this.client.cancelPremove();
  }

  /** The name on `color`'s bar (the players' names, "You", the engine). */
  nameOf(color) {
    return this.client.nameOf(color);
  }

  /** The clocks of the server's game, counting down locally (null: none). */
  clock() {
    return this.client.clock();
  }

  /** The running APCA count of the server's game (pool) as a line under the status, or "" (none, or an earlier ply shown). */
  countText() {
    return this.table.viewPly == null ? countLineText(this.client.view, this.client.seat) : "";
  }

  /** The status line while the game goes on (`must`: the capture note). */
  statusText(side, must) {
    if (this.confirming) return `Confirm your move ${this.confirming.m.longText}, or cancel it`;
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

  /**
   * A move on the board: sent to the server, shown to be confirmed first (the option), or kept as a
   * premove while the opponent is to move. A premove played on the player's turn (`premove`) is
   * sent at once whatever the option says: it was decided when it was entered (as on lichess).
   */
  onBoardMove(m, { premove = false } = {}) {
    const g = this.table.game;
    if (this.confirming) return;
    if (!this.client.canMove(g.sideToMove())) {
      // entered while the opponent is to move: a premove
      this.client.setPremove(m);
      return;
    }
    const v = this.client.view;
    if (!premove && this.app.options.confirmMove(!!(v && v.clock))) {
      this.#askConfirm(m);
      return;
    }
    this.#send(m, true);
  }

  /** Send move `m` and play it on the board (`animate`: slide it; a confirmed move is shown already). */
  #send(m, animate) {
    this.client.sendMove(m);
    const before = this.app.playOnTable(m);
    if (!before) return;
    this.table.viewPly = null;
    this.app.refresh(animate ? { animateMove: m, before } : {});
    this.app.checkOver();
  }

  /** Show move `m` on the board with Confirm / Cancel; nothing is sent yet. */
  #askConfirm(m) {
    const g = this.table.game;
    const probe = this.crown.Game.fromFen(this.table.variant, g.fen());
    let pieces;
    try {
      probe.play(m.longText);
      pieces = probe.pieces();
    } catch (e) {
      toast(e.message);
      return;
    } finally {
      probe.free();
    }
    const before = g.pieces();
    this.confirming = { m, game: this.client.gameId, fen: g.fen(), ply: g.plyCount(), pieces };
    this.app.refresh({ animateMove: m, before });
  }

  /** Whether the move waiting for Confirm can still be sent: the same game and position, this seat to move. */
  #stillConfirmable(c) {
    const g = this.table.game;
    if (!g || this.client.gameId !== c.game || g.plyCount() !== c.ply || g.fen() !== c.fen) return false;
    return g.outcome() === null && this.table.viewPly == null && this.client.canMove(g.sideToMove());
  }

  /** Confirm: send the move shown (unless the game moved on meanwhile: then it is dropped). */
  confirmMove() {
    const c = this.confirming;
    if (!c) return;
    this.confirming = null;
    renderConfirm(null);
    const m = this.#stillConfirmable(c) ? this.table.game.legalMoves().find((x) => x.longText === c.m.longText) : null;
    if (!m) {
      toast(`Your move ${c.m.longText} was not sent: the game changed`, 5000);
      this.app.refresh();
      return;
    }
    this.#send(m, false);
  }

  /** Cancel: the move shown goes back, nothing is sent; true when a move was waiting. */
  cancelConfirm() {
    if (!this.confirming) return false;
    this.confirming = null;
    renderConfirm(null);
    this.app.refresh();
    return true;
  }

  /** The page leaves the screen or opens another game: a move waiting for Confirm is dropped. */
  dropConfirm() {
    this.confirming = null;
    renderConfirm(null);
  }
}
