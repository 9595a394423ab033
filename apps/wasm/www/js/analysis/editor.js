// The position editor (#dlg-editor): a second board on which pieces are placed, the side to move,
// and the FEN; a position the person builds must be legal as it stands (crown-core checks it).

import { $, cap } from "../shared/util.js";
import { toast } from "../shared/dialogs.js";
import { Board } from "../shared/board.js";

/** The position editor dialog and its board. */
export class Editor {
  /** `onDone(game, variant)`: the position built, as a wasm game, when the dialog is confirmed. */
  constructor(crown, onDone) {
    this.crown = crown;
    this.board = null; // made when first opened
    this.pieces = new Map(); // square → {color, role}
    this.tool = "black-man";
    $("dlg-editor").addEventListener("close", () => {
      if ($("dlg-editor").returnValue === "ok") this.#done(onDone);
    });
  }

  /** The FEN of the position on the editor board. */
  fen() {
    const side = $("editor-side").value === "black" ? "B" : "W";
    const list = (color) =>
      [...this.pieces.entries()]
        .filter(([, p]) => p.color === color)
        .sort((a, b) => a[0] - b[0])
        .map(([sq, p]) => (p.role === "king" ? `K${sq}` : String(sq)))
        .join(",");
    return `${side}:W${list("white")}:B${list("black")}`;
  }

  #render() {
    const variant = $("editor-variant").value;
    const [man, king] = variant === "impasse" ? ["single", "double"] : ["man", "king"];
    for (const b of document.querySelectorAll(".palette button[data-piece]")) {
      const [color, role] = b.dataset.piece.split("-");
      if (role) b.textContent = `${cap(color)} ${role === "man" ? man : king}`;
    }
    const pieces = [...this.pieces.entries()].map(([square, p]) => ({ square, ...p }));
    this.board.setPosition(pieces, { variant });
    $("editor-fen").value = this.fen();
    const err = $("editor-error");
    try {
      // Strict: a position the person builds must be legal as it stands (no repairs).
      this.crown.checkFen(variant, this.fen());
      err.hidden = true;
      $("editor-ok").disabled = false;
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
      $("editor-ok").disabled = true;
    }
  }

  #loadFen(variant, fen) {
    this.pieces.clear();
    for (const p of this.crown.piecesOfFen(variant, fen)) this.pieces.set(p.square, { color: p.color, role: p.role });
    $("editor-side").value = fen.trim().toUpperCase().startsWith("B") ? "black" : "white";
  }

  #make() {
    this.board = new Board($("editor-board"), {
      onSquareClick: (sq) => {
        if (!sq) return;
        const [color, role] = this.tool.split("-");
        const cur = this.pieces.get(sq);
        if (this.tool === "empty" || (cur && cur.color === color && cur.role === role)) {
          this.pieces.delete(sq);
        } else {
          this.pieces.set(sq, { color, role });
        }
        this.#render();
      },
    });
    this.board.setShowNumbers(true);
    for (const b of document.querySelectorAll(".palette button")) {
      b.addEventListener("click", () => {
        this.tool = b.dataset.piece;
        for (const x of document.querySelectorAll(".palette button")) x.classList.toggle("active", x === b);
      });
    }
    $("editor-side").addEventListener("change", () => this.#render());
    $("editor-variant").addEventListener("change", () => this.#render());
    $("editor-start").addEventListener("click", () => {
      const v = $("editor-variant").value;
      this.#loadFen(v, this.crown.startFen(v, "seed"));
      this.#render();
    });
    $("editor-clear").addEventListener("click", () => {
      this.pieces.clear();
      this.#render();
    });
    $("editor-fen").addEventListener("change", () => {
      const v = $("editor-variant").value;
      try {
        this.#loadFen(v, $("editor-fen").value);
        this.#render();
      } catch (e) {
        $("editor-error").textContent = e.message;
        $("editor-error").hidden = false;
      }
    });
  }

  /** Open the editor on position `fen` of `variant`. */
  open(variant, fen) {
    if (!this.board) this.#make();
    $("editor-variant").value = variant;
    this.#loadFen(variant, fen);
    this.#render();
    $("dlg-editor").showModal();
  }

  #done(onDone) {
    const variant = $("editor-variant").value;
    try {
      onDone(this.crown.Game.fromFen(variant, this.fen()), variant);
    } catch (e) {
      toast(e.message);
    }
  }
}
