// The Crown board: an SVG checkers board with click-click and drag-and-drop move entry.
//
// Squares use the standard numbering 1-32 (square 1 = b8, Black at the top when not flipped).
// The board knows nothing of the rules: it is given the pieces and the legal moves (as returned by
// the wasm `Game.legalMoves()`), lets the player pick one, and calls `onMove(move)`.

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 100; // user units per square
/** A piece dragged with a finger (pointerType "touch") is drawn this many times larger… */
export const TOUCH_SCALE = 2;
/** …and this many units (a square) above the finger, so that the finger does not hide it. */
export const TOUCH_LIFT = SIZE;
const FILES = "abcdefgh";

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** File (0-7, a-h) and row from the top (0-7) of square `n` (1-32). */
export function squareFileRow(n) {
  const i = n - 1;
  const row = i >> 2;
  const col = i & 3;
  const file = row % 2 === 0 ? 2 * col + 1 : 2 * col;
  return { file, row };
}

/** The square number (1-32) on file/row (from the top), or 0 for a light square. */
export function squareAt(file, row) {
  if (file < 0 || file > 7 || row < 0 || row > 7) return 0;
  if ((file + row) % 2 === 0) return 0;
  return row * 4 + (file >> 1) + 1;
}

export class Board {
  /**
   * @param {HTMLElement} container  element the SVG is put into
   * @param {object} opts  {onMove(move), onSquareClick(square, event) for the editor,
   *   onCancel(how) on Escape ("key") or a right-click ("click"), e.g. to cancel a premove}
   */
  constructor(container, opts = {}) {
    this.container = container;
    this.onMove = opts.onMove || (() => {});
    this.onSquareClick = opts.onSquareClick || null;
    this.onCancel = opts.onCancel || (() => {});
    this.flipped = false;
    this.showNumbers = true;
    this.showCoords = false; // files a–h and ranks 1–8 on the board's edge
    this.pieces = []; // [{square, color, role}]
    this.moves = []; // legal moves the user may play ([] = board not interactive)
    this.lastMove = null; // {from, to, path, captures}
    this.capturers = [];
    this.variant = "american";
    this.selected = 0;
    this.partial = []; // landing squares chosen so far in a multi-jump
    this.crownChoice = null; // {candidates: [...moves]} while choosing a crown single
    this.drag = null;
    this.arrows = []; // [{from, to, color}] e.g. the engine's best move
    this.focusSq = 0; // the square that takes the keyboard focus (roving tabindex), 0 = default

    this.svg = el("svg", {
      viewBox: `0 0 ${8 * SIZE} ${8 * SIZE}`,
      class: "board-svg",
      role: "group",
      "aria-label": "Board: arrow keys move between squares, Enter or Space picks a piece and its square",
    });
    this.defs = el("defs", {}, this.svg);
    this.#defineGradients();
    this.gSquares = el("g", { class: "squares" }, this.svg);
    this.gMarks = el("g", { class: "marks" }, this.svg);
    this.gPieces = el("g", { class: "pieces" }, this.svg);
    this.gNums = el("g", { class: "numbers" }, this.svg);
    // the coordinates repeat what each square's name says: not read a second time
    this.gCoords = el("g", { class: "coords", "aria-hidden": "true" }, this.svg);
    this.gHints = el("g", { class: "hints" }, this.svg);
    this.gArrows = el("g", { class: "arrows" }, this.svg);
    this.gDrag = el("g", { class: "drag" }, this.svg);
    container.appendChild(this.svg);

    this.svg.addEventListener("pointerdown", (e) => this.#pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.#pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.#pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.#cancelDrag());
    this.svg.addEventListener("contextmenu", (e) => e.preventDefault());
    this.svg.addEventListener("keydown", (e) => this.#keyDown(e));
    this.render();
  }

  #defineGradients() {
    // the colours come from the piece theme (CSS --piece-*; these are the defaults)
    const grad = (id, c1, c2, cls) => {
      const g = el("radialGradient", { id, cx: "40%", cy: "35%", r: "70%" }, this.defs);
      el("stop", { offset: "0%", "stop-color": c1, class: `${cls}1` }, g);
      el("stop", { offset: "100%", "stop-color": c2, class: `${cls}2` }, g);
    };
    grad("crown-black", "#5a5a5a", "#111", "stop-b");
    grad("crown-white", "#fffdf6", "#d9cfb9", "stop-w");
    const marker = el(
      "marker",
      {
        id: "crown-arrowhead",
        viewBox: "0 0 10 10",
        refX: "5",
        refY: "5",
        markerWidth: "3",
        markerHeight: "3",
        orient: "auto-start-reverse",
      },
      this.defs,
    );
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "context-stroke" }, marker);
  }

  /** Pixel-independent centre of square n in SVG units. */
  center(n) {
    let { file, row } = squareFileRow(n);
    if (this.flipped) {
      file = 7 - file;
      row = 7 - row;
    }
    return { x: file * SIZE + SIZE / 2, y: row * SIZE + SIZE / 2 };
  }

  /** Square number under an SVG point, or 0. */
  squareAtPoint(x, y) {
    let file = Math.floor(x / SIZE);
    let row = Math.floor(y / SIZE);
    if (this.flipped) {
      file = 7 - file;
      row = 7 - row;
    }
    return squareAt(file, row);
  }

  setPosition(pieces, { variant, moves = [], lastMove = null, capturers = [] } = {}) {
    this.pieces = pieces;
    if (variant) this.variant = variant;
    this.moves = moves;
    this.lastMove = lastMove;
    this.capturers = capturers;
    this.selected = 0;
    this.partial = [];
    this.crownChoice = null;
    this.render();
  }

  setMoves(moves, capturers = []) {
    this.moves = moves;
    this.capturers = capturers;
    this.selected = 0;
    this.partial = [];
    this.crownChoice = null;
    this.render();
  }

  setArrows(arrows) {
    this.arrows = arrows;
    this.#renderArrows();
  }

  setFlipped(f) {
    this.flipped = f;
    this.render();
  }

  setShowNumbers(show) {
    this.showNumbers = show;
    this.render();
  }

  /** Show the coordinates on the edge: files a–h along the bottom, ranks 1–8 up the left side (turned with the board). */
  setShowCoords(show) {
    this.showCoords = show;
    this.render();
  }

  pieceAt(n) {
    return this.pieces.find((p) => p.square === n) || null;
  }

  /** Legal moves starting on square n. */
  movesFrom(n) {
    return this.moves.filter((m) => m.from === n);
  }

  // ---- rendering -------------------------------------------------------------------------------

  render() {
    this.#renderSquares();
    this.#renderPieces();
    this.#renderHints();
    this.#renderArrows();
  }

  /** The accessible name of square n: its number, what stands on it, and what it offers. */
  #squareLabel(n) {
    const p = this.pieceAt(n);
    const [man, king] = this.variant === "impasse" ? ["single", "double"] : ["man", "king"];
    let label = `${n}, ${p ? `${p.color} ${p.role === "king" ? king : man}` : "empty"}`;
    if (n === this.selected) label += ", selected";
    else if (this.movesFrom(n).length) label += ", can move";
    if (this.selected && this.#candidates().some((m) => m.path.includes(n) || m.to === n)) label += ", a destination";
    return label;
  }

  #renderSquares() {
    const hadFocus = this.svg.contains(document.activeElement) && document.activeElement !== this.svg;
    if (!this.focusSq) this.focusSq = this.moves.length ? this.moves[0].from : this.flipped ? 29 : 1;
    this.gSquares.replaceChildren();
    this.gMarks.replaceChildren();
    this.gNums.replaceChildren();
    this.gCoords.replaceChildren();
    for (let row = 0; row < 8; row++) {
      for (let file = 0; file < 8; file++) {
        const x = file * SIZE;
        const y = row * SIZE;
        const vf = this.flipped ? 7 - file : file;
        const vr = this.flipped ? 7 - row : row;
        const n = squareAt(vf, vr);
        el(
          "rect",
          {
            x,
            y,
            width: SIZE,
            height: SIZE,
            class: n ? "sq dark" : "sq light",
            "data-square": n || "",
          },
          this.gSquares,
        );
        if (n) {
          const r = this.gSquares.lastChild;
          r.setAttribute("tabindex", n === this.focusSq ? "0" : "-1");
          r.setAttribute("role", "button");
          r.setAttribute("aria-label", this.#squareLabel(n));
          if (hadFocus && n === this.focusSq) queueMicrotask(() => r.focus({ preventScroll: true }));
        }
        if (n && this.showNumbers) {
          // in the corner, outside the disc of a piece, drawn above the pieces
          const t = el("text", { x: x + 3, y: y + 16, class: "sq-num" }, this.gNums);
          t.textContent = String(n);
        }
        if (this.showCoords) this.#coords(file, row, vf, vr, n);
      }
    }
    const lm = this.lastMove;
    if (lm) {
      const squares = new Set([lm.from, ...(lm.path || [lm.to])]);
      for (const n of squares) {
        const c = this.center(n);
        el(
          "rect",
          {
            x: c.x - SIZE / 2,
            y: c.y - SIZE / 2,
            width: SIZE,
            height: SIZE,
            class: n === lm.from ? "last-from" : "last-to",
          },
          this.gMarks,
        );
      }
    }
    if (this.selected) {
      const c = this.center(this.selected);
      el(
        "rect",
        { x: c.x - SIZE / 2, y: c.y - SIZE / 2, width: SIZE, height: SIZE, class: "selected-sq" },
        this.gMarks,
      );
    }
  }

  /**
   * The coordinates of the square on screen column `file`, row `row` (board file `vf`, row from
   * the top `vr`; `n`: its number, 0 when light): the file's letter in the lower right corner of the
   * bottom row, the rank's digit in the lower left corner of the left column, clear of the square
   * number (upper left) and of the pieces.
   */
  #coords(file, row, vf, vr, n) {
    const x = file * SIZE;
    const y = row * SIZE;
    const on = n ? "on-dark" : "on-light";
    if (row === 7) {
      const t = el("text", { x: x + SIZE - 5, y: y + SIZE - 6, class: `coord file ${on}`, "text-anchor": "end", "data-coord": FILES[vf] }, this.gCoords);
      t.textContent = FILES[vf];
    }
    if (file === 0) {
      const t = el("text", { x: x + 5, y: y + SIZE - 6, class: `coord rank ${on}`, "data-coord": String(8 - vr) }, this.gCoords);
      t.textContent = String(8 - vr);
    }
  }

  /** True when every legal move is an Impasse removal (the player has no basic move). */
  forcedRemoval() {
    return this.moves.length > 0 && this.moves.every((m) => m.kind === "remove");
  }

  #renderPieces() {
    this.gPieces.replaceChildren();
    const cc = this.crownChoice;
    const removable = this.forcedRemoval() ? new Set(this.moves.map((m) => m.from)) : null;
    for (const p of this.pieces) {
      if (this.drag && this.drag.moved && p.square === this.drag.from) continue;
      // while a crown is chosen, the moving single is shown on its landing square
      if (cc && p.square === cc.from && cc.from !== cc.onto) continue;
      const g = this.#pieceShape(p, this.center(p.square));
      g.setAttribute("data-square", p.square);
      if (this.capturers.includes(p.square)) g.classList.add("must-capture");
      if (cc && cc.singles.includes(p.square)) g.classList.add("crown-candidate");
      if (removable && removable.has(p.square)) g.classList.add("removable");
      this.gPieces.appendChild(g);
    }
    if (cc && cc.from !== cc.onto) {
      const mover = this.pieceAt(cc.from);
      if (mover) {
        const g = this.#pieceShape({ ...mover, role: "man" }, this.center(cc.onto), "pending");
        g.setAttribute("data-square", cc.onto);
        this.gPieces.appendChild(g);
      }
    }
  }

  /** An SVG group drawing piece p centred at c. Doubles/kings are drawn as a stack of two discs. */
  #pieceShape(p, c, extraClass = "") {
    const g = el("g", {
      class: `piece ${p.color} ${p.role} ${extraClass}`,
      "data-color": p.color,
      "data-role": p.role,
    });
    // 0.34 of a square: the square number in the corner stays clear of every disc (see .sq-num)
    const r = SIZE * 0.34;
    const fill = `url(#crown-${p.color})`;
    const stacked = p.role === "king";
    // an Impasse double is two checkers: drawn as a clearly offset stack, readable at phone size
    const double = stacked && this.variant === "impasse";
    const lift = double ? 17 : stacked ? 9 : 0;
    // a stack stands 5 units low so that its top disc clears the square number in the corner
    const y = stacked ? c.y + 5 : c.y;
    // ring that marks must-capture pieces / crown candidates
    el("circle", { cx: c.x, cy: c.y, r: r + 7, class: "piece-halo" }, g);
    // bottom disc (its visible edge) for doubles and kings
    if (stacked) {
      el("ellipse", { cx: c.x, cy: y + lift / 2 + 4, rx: r, ry: r * 0.96, class: "disc-edge" }, g);
      el("circle", { cx: c.x, cy: y + lift / 2, r, fill, class: double ? "disc disc-lower" : "disc" }, g);
      if (double) el("ellipse", { cx: c.x, cy: y - lift / 2 + 5, rx: r, ry: r * 0.96, class: "disc-edge" }, g);
    } else {
      el("ellipse", { cx: c.x, cy: c.y + 5, rx: r, ry: r * 0.96, class: "disc-edge" }, g);
    }
    const top = stacked ? y - lift / 2 : c.y;
    el("circle", { cx: c.x, cy: top, r, fill, class: "disc" }, g);
    el("circle", { cx: c.x, cy: top, r: r * 0.72, class: "disc-groove" }, g);
    if (stacked && this.variant !== "impasse") {
      // a crown for checkers kings
      const s = r * 0.55;
      const d = [
        `M ${c.x - s} ${top + s * 0.45}`,
        `L ${c.x - s} ${top - s * 0.35}`,
        `L ${c.x - s * 0.5} ${top + s * 0.05}`,
        `L ${c.x} ${top - s * 0.6}`,
        `L ${c.x + s * 0.5} ${top + s * 0.05}`,
        `L ${c.x + s} ${top - s * 0.35}`,
        `L ${c.x + s} ${top + s * 0.45}`,
        "Z",
      ].join(" ");
      el("path", { d, class: "king-crown" }, g);
    } else if (stacked) {
      // Impasse double: a second groove so the stack reads as two checkers from above
      el("circle", { cx: c.x, cy: top, r: r * 0.42, class: "disc-groove" }, g);
    }
    return g;
  }

  #renderHints() {
    this.gHints.replaceChildren();
    if (this.crownChoice) {
      for (const n of this.crownChoice.singles) {
        const c = this.center(n);
        el("circle", { cx: c.x, cy: c.y, r: SIZE * 0.47, class: "hint-crown" }, this.gHints);
      }
      return;
    }
    if (!this.selected) return;
    const cands = this.#candidates();
    const next = new Map(); // square -> kind of hint
    for (const m of cands) {
      if (m.kind === "remove") {
        next.set(m.from, "remove");
        continue;
      }
      const k = this.partial.length;
      const step = m.path[k];
      if (step !== undefined) next.set(step, this.pieceAt(step) ? "occupied" : "step");
      if (m.path.length > k + 1 && !next.has(m.to)) next.set(m.to, "final");
      for (const cap of m.captures) {
        const c = this.center(cap);
        if (!this.gHints.querySelector(`[data-cap="${cap}"]`)) {
          el(
            "circle",
            { cx: c.x, cy: c.y, r: SIZE * 0.2, class: "hint-capture", "data-cap": cap },
            this.gHints,
          );
        }
      }
    }
    for (const n of this.partial) {
      const c = this.center(n);
      el("circle", { cx: c.x, cy: c.y, r: SIZE * 0.16, class: "hint-path" }, this.gHints);
    }
    for (const [n, kind] of next) {
      const c = this.center(n);
      if (kind === "remove") {
        const s = SIZE * 0.22;
        el(
          "path",
          {
            d: `M ${c.x - s} ${c.y - s} L ${c.x + s} ${c.y + s} M ${c.x + s} ${c.y - s} L ${c.x - s} ${c.y + s}`,
            class: "hint-remove",
            "data-hint": n,
          },
          this.gHints,
        );
      } else if (kind === "occupied") {
        el("circle", { cx: c.x, cy: c.y, r: SIZE * 0.46, class: "hint-ring", "data-hint": n }, this.gHints);
      } else {
        el(
          "circle",
          {
            cx: c.x,
            cy: c.y,
            r: SIZE * (kind === "final" ? 0.13 : 0.17),
            class: kind === "final" ? "hint-final" : "hint-dot",
            "data-hint": n,
          },
          this.gHints,
        );
      }
    }
  }

  #renderArrows() {
    this.gArrows.replaceChildren();
    for (const a of this.arrows) {
      const p = this.center(a.from);
      const q = this.center(a.to);
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      const len = Math.hypot(dx, dy) || 1;
      const shorten = 22;
      el(
        "line",
        {
          x1: p.x,
          y1: p.y,
          x2: q.x - (dx / len) * shorten,
          y2: q.y - (dy / len) * shorten,
          class: "arrow",
          stroke: a.color || "#2e7d32",
          "marker-end": "url(#crown-arrowhead)",
        },
        this.gArrows,
      );
    }
  }

  // ---- move entry ------------------------------------------------------------------------------

  /** Moves from the selected square whose path starts with the landing squares chosen so far. */
  #candidates() {
    return this.movesFrom(this.selected).filter((m) =>
      this.partial.every((sq, i) => m.path[i] === sq),
    );
  }

  #svgPoint(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return { x: -1, y: -1 };
    const p = pt.matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y };
  }

  #select(n) {
    this.selected = n;
    this.partial = [];
    this.crownChoice = null;
    this.render();
  }

  deselect() {
    this.selected = 0;
    this.partial = [];
    this.crownChoice = null;
    this.render();
  }

  /** The player clicked or dropped on square n. Returns true when it was used as a destination. */
  #target(n) {
    if (this.crownChoice) {
      const m = this.crownChoice.candidates.find((c) => c.crown && c.crown.single === n);
      if (m) {
        this.#finish(m);
        return true;
      }
      return false;
    }
    if (!this.selected) return false;
    const cands = this.#candidates();
    const k = this.partial.length;
    if (n === this.selected && k === 0) {
      const removes = cands.filter((m) => m.kind === "remove");
      if (removes.length) {
        this.#choose(removes);
        return true;
      }
      return false;
    }
    // a next landing square (or the destination of a simple move / slide / transpose)
    const stepping = cands.filter((m) => m.kind !== "remove" && m.path[k] === n);
    if (stepping.length) {
      const ending = stepping.filter((m) => m.path.length === k + 1);
      const going = stepping.filter((m) => m.path.length > k + 1);
      if (going.length === 0) {
        this.#choose(ending);
      } else if (ending.length > 0) {
        this.#choose(stepping);
      } else {
        this.partial = [...this.partial, n];
        // only one way on from here: play it at once
        const rest = this.#candidates();
        if (rest.length === 1) this.#choose(rest);
        else this.render();
      }
      return true;
    }
    // the final square of a multi-jump clicked directly
    const finals = cands.filter((m) => m.to === n && m.kind !== "remove");
    if (finals.length) {
      this.#choose(finals);
      return true;
    }
    return false;
  }

  /** Several moves fit what the player did: play the only one, or ask. */
  #choose(cands) {
    if (cands.length === 1) {
      this.#finish(cands[0]);
      return;
    }
    const crowns = cands.filter((m) => m.crown);
    const sameButCrown = crowns.length === cands.length;
    if (sameButCrown) {
      this.crownChoice = {
        candidates: cands,
        from: cands[0].from,
        singles: [...new Set(cands.map((m) => m.crown.single))],
        onto: cands[0].crown.onto,
      };
      this.render();
      this.container.dispatchEvent(
        new CustomEvent("crown-choice", {
          detail: { onto: cands[0].crown.onto, singles: this.crownChoice.singles, candidates: cands },
        }),
      );
      return;
    }
    this.container.dispatchEvent(
      new CustomEvent("path-choice", {
        detail: { candidates: cands, choose: (m) => (m ? this.#finish(m) : this.deselect()) },
      }),
    );
  }

  /** Choose a crown single from outside (e.g. a dialog). */
  chooseCrown(single) {
    if (this.crownChoice) this.#target(single);
  }

  #finish(m) {
    this.selected = 0;
    this.partial = [];
    this.crownChoice = null;
    this.render();
    this.onMove(m);
  }

  /** Keyboard: arrows move the focus over the dark squares, Enter or Space acts like a click. */
  #keyDown(e) {
    const n = Number(e.target.dataset && e.target.dataset.square);
    if (!n) return;
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (dirs[e.key]) {
      let { file, row } = squareFileRow(n);
      if (this.flipped) {
        file = 7 - file;
        row = 7 - row;
      }
      const [dx, dy] = dirs[e.key];
      // on screen: left/right to the next dark square of the row, up/down to the next row
      const tries = dy ? [[file - 1, row + dy], [file + 1, row + dy]] : [[file + 2 * dx, row]];
      for (const [f, r] of tries) {
        const m = this.flipped ? squareAt(7 - f, 7 - r) : squareAt(f, r);
        if (m) {
          this.#focusSquare(m);
          break;
        }
      }
    } else if (e.key === "Enter" || e.key === " ") {
      this.#activate(n);
    } else if (e.key === "Escape") {
      this.deselect();
      this.onCancel("key");
      return;
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  #focusSquare(n) {
    this.focusSq = n;
    for (const r of this.gSquares.querySelectorAll("rect.sq.dark")) {
      r.setAttribute("tabindex", Number(r.dataset.square) === n ? "0" : "-1");
    }
    const r = this.gSquares.querySelector(`rect.sq[data-square="${n}"]`);
    if (r) r.focus({ preventScroll: true });
  }

  /** A click or Enter on square n: a destination, else select the piece there, else deselect. */
  #activate(n) {
    this.focusSq = n;
    if (this.onSquareClick) {
      this.onSquareClick(n, null);
      return;
    }
    if (this.#target(n)) return;
    if (this.crownChoice) return;
    if (this.movesFrom(n).length) {
      if (this.selected !== n) this.#select(n);
      return;
    }
    this.deselect();
  }

  #pointerDown(e) {
    if (e.button === 2) {
      // a right-click drops what is being entered: the selection, a premove (onCancel)
      this.#cancelDrag();
      this.deselect();
      this.onCancel("click");
      return;
    }
    if (e.button !== undefined && e.button !== 0) return;
    const p = this.#svgPoint(e);
    const n = this.squareAtPoint(p.x, p.y);
    if (this.onSquareClick) {
      this.onSquareClick(n, e);
      return;
    }
    if (!n) {
      this.deselect();
      return;
    }
    if (this.#target(n)) return;
    if (this.crownChoice) return;
    if (this.movesFrom(n).length) {
      if (this.selected !== n) this.#select(n);
      const touch = e.pointerType === "touch";
      this.drag = { from: n, startX: p.x, startY: p.y, moved: false, pointerId: e.pointerId, touch };
      try {
        this.svg.setPointerCapture(e.pointerId);
      } catch (_) {
        /* synthetic events have no capturable pointer */
      }
      e.preventDefault();
      return;
    }
    this.deselect();
  }

  #pointerMove(e) {
    if (!this.drag) return;
    const p = this.#svgPoint(e);
    if (!this.drag.moved) {
      if (Math.hypot(p.x - this.drag.startX, p.y - this.drag.startY) < 8) return;
      this.drag.moved = true;
      this.#renderPieces();
      const piece = this.pieceAt(this.drag.from);
      if (this.drag.touch) {
        // under a finger: the square it would land on is marked, the piece is drawn above it
        this.drag.over = el("rect", { width: SIZE, height: SIZE, class: "drag-over" }, this.gDrag);
      }
      this.drag.ghost = this.#pieceShape(piece, { x: 0, y: 0 }, this.drag.touch ? "dragging touch" : "dragging");
      this.gDrag.appendChild(this.drag.ghost);
    }
    if (this.drag.touch) {
      this.drag.ghost.setAttribute("transform", `translate(${p.x} ${p.y - TOUCH_LIFT}) scale(${TOUCH_SCALE})`);
      const n = this.squareAtPoint(p.x, p.y);
      this.drag.over.toggleAttribute("hidden", !n);
      if (n) {
        const c = this.center(n);
        this.drag.over.setAttribute("x", c.x - SIZE / 2);
        this.drag.over.setAttribute("y", c.y - SIZE / 2);
      }
    } else {
      this.drag.ghost.setAttribute("transform", `translate(${p.x} ${p.y})`);
    }
  }

  #pointerUp(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    this.gDrag.replaceChildren();
    if (!d.moved) {
      this.#renderPieces();
      return;
    }
    const p = this.#svgPoint(e);
    const n = this.squareAtPoint(p.x, p.y);
    if (n && n !== d.from && this.#target(n)) return;
    this.#renderPieces();
  }

  #cancelDrag() {
    this.drag = null;
    this.gDrag.replaceChildren();
    this.#renderPieces();
  }

  /**
   * Animate move m (already applied to the pieces): slide the moved piece along its path and fade
   * the captured pieces. Returns a promise that resolves when done.
   */
  animate(m, beforePieces, ms = 220) {
    const target = this.gPieces.querySelector(`[data-square="${m.to}"]`);
    const waits = [];
    for (const cap of m.captures || []) {
      const p = beforePieces.find((q) => q.square === cap);
      if (!p) continue;
      const ghost = this.#pieceShape(p, this.center(cap), "ghost");
      this.gPieces.appendChild(ghost);
      const a = ghost.animate([{ opacity: 1 }, { opacity: 0 }], {
        duration: ms * Math.max(1, m.path.length),
        fill: "forwards",
      });
      waits.push(a.finished.then(() => ghost.remove()));
    }
    if (target && m.kind !== "remove" && m.from !== m.to && typeof target.animate === "function") {
      const end = this.center(m.to);
      const pts = [m.from, ...m.path].map((sq) => this.center(sq));
      const frames = pts.map((c) => ({
        transform: `translate(${c.x - end.x}px, ${c.y - end.y}px)`,
      }));
      const a = target.animate(frames, { duration: ms * (pts.length - 1), easing: "ease-in-out" });
      waits.push(a.finished);
    }
    return Promise.all(waits).catch(() => {});
  }
}
