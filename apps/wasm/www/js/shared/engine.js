// Client side of the engine Web Worker (engine-worker.js beside it). The search runs in the worker so the
// page never freezes. A running search cannot be interrupted inside WebAssembly (no shared memory
// without cross-origin isolation), so `stop()` terminates the worker and a new one starts on demand.

export class EngineClient {
  constructor() {
    this.worker = null;
    this.nextId = 1;
    this.pending = null; // {id, resolve, reject, onInfo}
    this.available = null; // null = unknown, true/false once the worker answered
    this.readyPromise = null;
  }

  #spawn() {
    this.worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
    this.readyPromise = new Promise((resolve) => {
      this.worker.onmessage = (e) => {
        const msg = e.data;
        if (msg.type === "ready") {
          this.available = msg.engine;
          resolve(msg.engine);
          return;
        }
        const p = this.pending;
        if (!p || msg.id !== p.id) return;
        if (msg.type === "info") p.onInfo(msg.info);
        else if (msg.type === "done") {
          this.pending = null;
          p.resolve(msg.result);
        } else if (msg.type === "error") {
          this.pending = null;
          p.reject(new Error(msg.message));
        }
      };
      this.worker.onerror = (e) => {
        const p = this.pending;
        this.pending = null;
        this.available = this.available ?? false;
        resolve(false);
        if (p) p.reject(new Error(e.message || "the engine worker failed"));
        this.worker = null;
      };
    });
  }

  /** Whether this build has the engine (resolves once the worker has loaded the wasm module). */
  ready() {
    if (!this.worker) this.#spawn();
    return this.readyPromise;
  }

  /**
   * Search the position reached by playing `moves` (texts) from `startFen`.
   * @param {object} req {variant, startFen, moves, limits: {level, depth, movetimeMs, clock, infinite}}
   * @param {function} onInfo called with each {depth, score, pv, nodes, nps, timeMs}
   * @returns {Promise<object>} {bestMove, score, pv, depth, nodes, timeMs}
   */
  search(req, onInfo = () => {}) {
    this.stop();
    if (!this.worker) this.#spawn();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onInfo };
      this.worker.postMessage({ type: "search", id, ...req });
    });
  }

  /**
   * Review every move of the game `moves` (texts) from `startFen` (crown_ai::review, as `crown
   * annotate` does). `onProgress({done, total})` after each move.
   * @returns {Promise<object>} {first, moves: [{ply, played, best, mark, ...}], evals, turningPoints,
   *   firstSummary, secondSummary}
   */
  review(req, onProgress = () => {}) {
    this.stop();
    if (!this.worker) this.#spawn();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onInfo: onProgress };
      this.worker.postMessage({ type: "review", id, ...req });
    });
  }

  /** Abandon the running search (its promise rejects with `cancelled`). */
  stop() {
    if (this.pending) {
      const p = this.pending;
      this.pending = null;
      this.worker.terminate();
      this.worker = null;
      const e = new Error("search cancelled");
      e.cancelled = true;
      p.reject(e);
    }
  }

  get busy() {
    return this.pending !== null;
  }
}
