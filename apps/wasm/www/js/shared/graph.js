// The evaluation graph of the analysis board: one point per position of the line on the board,
// filled in the background (a worker of its own searches each position briefly, first to last) and
// from the live analysis when it has looked deeper. Clicking the graph goes to that ply.
//
// Values are Black's winning chances in [0, 1]: 0.5 is level, 1 a win for Black, 0 a win for White.

const NS = "http://www.w3.org/2000/svg";
const W = 300;
const H = 80;

/**
 * Black's winning chances (0..1) of an engine score given from the side to move's view
 * (`{value}` in hundredths of a man, or `{win}` / `{loss}` in plies), `side` the side to move.
 * A logistic curve: one man up is about 0.73, three men up about 0.95.
 */
export function chances(score, side) {
  if (!score) return null;
  let v;
  if (score.win != null) v = 1;
  else if (score.loss != null) v = 0;
  else v = 1 / (1 + Math.exp(-score.value / 100));
  return side === "black" ? v : 1 - v;
}

/** Black's chances in a finished position (`outcome.winner`: "black", "white" or null for a draw). */
export function chancesOfOutcome(outcome) {
  return outcome.winner === "black" ? 1 : outcome.winner === "white" ? 0 : 0.5;
}

/**
 * The graph in `svg` (viewBox 0 0 300 80). `engine` is an EngineClient of its own; `onGoto(ply)`
 * is called when the graph is clicked.
 */
export class EvalGraph {
  constructor(svg, engine, onGoto) {
    this.svg = svg;
    this.engine = engine;
    this.onGoto = onGoto;
    this.cache = new Map(); // FEN -> {v: chances, depth}
    this.line = null; // {variant, startFen, moves: [long text], positions: [{fen, side, outcome}] per ply 0..n}
    this.ply = 0;
    this.running = false;
    this.movetimeMs = 60;
    svg.addEventListener("click", (ev) => {
      if (!this.line) return;
      const n = Math.max(1, this.line.positions.length - 1);
      const r = svg.getBoundingClientRect();
      this.onGoto(Math.max(0, Math.min(n, Math.round(((ev.clientX - r.left) / r.width) * n))));
    });
  }

  /**
   * Show the line on the board: `positions` is one `{fen, side, outcome}` per ply 0..n of the
   * game from `startFen` by `moves` (long text); `ply` is the position shown. Positions not yet
   * evaluated are searched in the background, in order.
   */
  setLine(variant, startFen, moves, positions, ply) {
    this.line = { variant, startFen, moves, positions };
    this.ply = ply;
    for (const p of positions) {
      if (p.outcome && !this.cache.has(p.fen)) this.cache.set(p.fen, { v: chancesOfOutcome(p.outcome), depth: Infinity });
    }
    this.render();
    this.#fill();
  }

  /** A live analysis result for `fen` (`score` from `side`'s view at `depth`): kept when deeper. */
  record(fen, score, side, depth) {
    const v = chances(score, side);
    if (v == null) return;
    const old = this.cache.get(fen);
    if (old && old.depth >= depth) return;
    this.cache.set(fen, { v, depth });
    this.render();
  }

  /** Stop the background search (the graph keeps what it has). */
  stop() {
    this.line = null;
    this.engine.stop();
  }

  async #fill() {
    if (this.running) return;
    this.running = true;
    try {
      while (this.line) {
        const line = this.line;
        const i = line.positions.findIndex((p) => !this.cache.has(p.fen));
        if (i < 0) break;
        if (!(await this.engine.ready())) break;
        const p = line.positions[i];
        let result;
        try {
          result = await this.engine.search(
            { variant: line.variant, startFen: line.startFen, moves: line.moves.slice(0, i), limits: { movetimeMs: this.movetimeMs } },
            () => {},
          );
        } catch (e) {
          if (e.cancelled) break;
          this.cache.set(p.fen, { v: null, depth: 0 }); // unreadable here: leave a gap, go on
          continue;
        }
        if (!this.cache.has(p.fen)) this.cache.set(p.fen, { v: chances(result.score, p.side), depth: result.depth || 1 });
        this.render();
      }
    } finally {
      this.running = false;
    }
  }

  /** How many positions of the line have a value. */
  filled() {
    if (!this.line) return 0;
    return this.line.positions.filter((p) => this.cache.get(p.fen)?.v != null).length;
  }

  render() {
    const svg = this.svg;
    svg.replaceChildren();
    if (!this.line) return;
    const pos = this.line.positions;
    const n = Math.max(1, pos.length - 1);
    const x = (i) => (i * W) / n;
    const y = (v) => H - 4 - v * (H - 8);
    const mid = document.createElementNS(NS, "line");
    mid.setAttribute("x1", "0");
    mid.setAttribute("x2", String(W));
    mid.setAttribute("y1", String(y(0.5)));
    mid.setAttribute("y2", String(y(0.5)));
    mid.setAttribute("class", "graph-mid");
    svg.appendChild(mid);
    // Black's share below the curve: a filled area, split at the gaps (positions not evaluated yet)
    let run = [];
    const flush = () => {
      if (run.length) {
        const area = document.createElementNS(NS, "polygon");
        const pts = run.map(([i, v]) => `${x(i)},${y(v)}`);
        area.setAttribute("points", `${x(run[0][0])},${H} ${pts.join(" ")} ${x(run[run.length - 1][0])},${H}`);
        area.setAttribute("class", "graph-area");
        svg.appendChild(area);
        const line = document.createElementNS(NS, "polyline");
        line.setAttribute("points", pts.join(" "));
        line.setAttribute("class", "graph-line");
        svg.appendChild(line);
      }
      run = [];
    };
    pos.forEach((p, i) => {
      const c = this.cache.get(p.fen);
      if (c && c.v != null) run.push([i, c.v]);
      else flush();
    });
    flush();
    const cur = document.createElementNS(NS, "line");
    cur.setAttribute("x1", String(x(this.ply)));
    cur.setAttribute("x2", String(x(this.ply)));
    cur.setAttribute("y1", "0");
    cur.setAttribute("y2", String(H));
    cur.setAttribute("class", "graph-cursor");
    svg.appendChild(cur);
    const done = this.filled();
    svg.dataset.filled = String(done);
    svg.dataset.points = String(pos.length);
    svg.setAttribute("aria-label", `Evaluation graph: ${done} of ${pos.length} positions evaluated; click to go to a move`);
  }
}
