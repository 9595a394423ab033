// The rule pages' diagrams (rules/*.html): each `<div class="diagram">` is drawn by the game's own
// board (shared/board.js), in the board and piece set chosen in the settings (shared/theme.js).
//
// A diagram is described by data attributes:
//   data-variant  "american", "pool" or "impasse" (an Impasse king is drawn as a double)
//   data-black, data-white  squares 1-32 separated by commas, "K" before a king (a double), e.g. "1-12" or "K9,14"
//   data-arrows   moves drawn as arrows, "from-to" separated by commas; ":crown" after one draws it gold
//   data-last     "from-to": the squares marked as the last move
//   data-label    the diagram's accessible name (what it shows)

import { Board } from "../shared/board.js";
import { initTheme } from "../shared/theme.js";

/** The arrows' colours: a move (green, as the engine's best move) and a crown (the accent gold). */
const ARROW_COLORS = { move: "#2e7d32", crown: "#d4a32c" };

/**
 * The pieces of colour `color` in `spec` ("1-12", "K9,14,22"): [{square, color, role}].
 * Throws an Error naming the diagram's bad entry (a page error, found by the rules test).
 */
export function parsePieces(spec, color) {
  const out = [];
  for (const raw of (spec || "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const king = raw.startsWith("K");
    const body = king ? raw.slice(1) : raw;
    const m = body.match(/^(\d+)(?:-(\d+))?$/);
    const a = m ? Number(m[1]) : NaN;
    const b = m && m[2] ? Number(m[2]) : a;
    if (!m || a < 1 || b > 32 || a > b) throw new Error(`diagram: bad ${color} square list entry "${raw}"`);
    for (let n = a; n <= b; n++) out.push({ square: n, color, role: king ? "king" : "man" });
  }
  return out;
}

/** The arrows of `spec` ("27-18,18-9,23-1:crown"): [{from, to, color}]. */
export function parseArrows(spec) {
  return (spec || "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = s.match(/^(\d+)-(\d+)(?::(\w+))?$/);
      if (!m) throw new Error(`diagram: bad arrow "${s}"`);
      return { from: Number(m[1]), to: Number(m[2]), color: ARROW_COLORS[m[3] || "move"] || ARROW_COLORS.move };
    });
}

/** Draw the diagram in element `box` (see the data attributes above); returns its Board. */
export function drawDiagram(box) {
  const d = box.dataset;
  const board = new Board(box);
  const pieces = [...parsePieces(d.black, "black"), ...parsePieces(d.white, "white")];
  const last = d.last ? parseArrows(d.last)[0] : null;
  board.setPosition(pieces, {
    variant: d.variant || "american",
    lastMove: last ? { from: last.from, to: last.to, path: [last.to] } : null,
  });
  board.setArrows(parseArrows(d.arrows));
  board.svg.setAttribute("aria-label", `Diagram: ${d.label || "a position"}`);
  return board;
}

/** Apply the saved theme, board and pieces, and draw every diagram of the page. */
export function drawAll() {
  initTheme();
  const boards = [...document.querySelectorAll(".diagram")].map(drawDiagram);
  document.body.dataset.ready = "1";
  return boards;
}

drawAll();
