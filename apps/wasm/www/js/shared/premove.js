// Premoves: a move entered while the opponent is to move (online: the other player or the
// server's engine; the play page: the browser's engine while it thinks), kept, and played at once
// on the player's turn when it is legal then, else dropped with a note. The online page
// (online/online.js) and the play page (play/ctrl.js) share this code; the premove line (#premove)
// and its arrow on the board are the page's on screen.

import { $ } from "./util.js";

/** The colour of a premove's arrow on the board. */
export const PREMOVE_COLOR = "#8e44ad";

/**
 * The moves `color` could make in position `fen` (PDN FEN of `variant`) if it were its turn, to
 * enter a premove with: `{moves, capturers}` (wasm legal moves; no capture marks), or null when the
 * position cannot be read with `color` to move.
 */
export function premoveMoves(crown, variant, fen, color) {
  const mine = (color === "black" ? "B" : "W") + fen.trim().slice(1);
  try {
    const g = crown.Game.fromFen(variant, mine);
    const out = { moves: g.legalMoves(), capturers: [] };
    g.free();
    return out;
  } catch (_) {
    return null;
  }
}

/** Hide the premove line (a page without premoves is on screen). */
export function hidePremoveLine() {
  $("premove").hidden = true;
}

/** One page's premove: at most one move kept, shown in the premove line and as an arrow. */
export class Premove {
  /** `toast(text, ms)`: a note; `arrow(a)`: draw arrow `a` ({from, to, color}) on the board, null: none. */
  constructor({ toast, arrow }) {
    this.toast = toast;
    this.arrow = arrow;
    this.move = null; // {longText, from, to}
  }

  /** Keep move `m` (a wasm move) to play on the player's turn; says so. */
  set(m) {
    this.move = { longText: m.longText, from: m.from, to: m.to };
    this.toast(`Premove ${m.longText}: played on your turn if legal (Esc or a right-click cancels)`, 3000);
    this.render();
  }

  /** Drop the premove; true when there was one. */
  cancel() {
    if (!this.move) return false;
    this.move = null;
    this.render();
    return true;
  }

  /**
   * On the player's turn in `game` (a wasm Game): the premove as one of its legal moves, or null
   * (none kept, or not legal now: dropped with a note). The premove is used up either way.
   */
  take(game) {
    const p = this.move;
    if (!p) return null;
    this.move = null;
    this.render();
    const m = game.legalMoves().find((x) => x.longText === p.longText);
    if (!m) this.toast(`Premove ${p.longText} is not legal now: cancelled`, 4000);
    return m || null;
  }

  /** Show the premove line and the arrow (or hide both when none is kept). */
  render() {
    const p = this.move;
    $("premove").hidden = !p;
    if (p) $("premove-text").textContent = `Premove: ${p.longText}`;
    this.arrow(p ? { from: p.from, to: p.to, color: PREMOVE_COLOR } : null);
  }
}
