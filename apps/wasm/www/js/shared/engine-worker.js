// Web Worker that runs the Crown engine (crown-ai compiled to WebAssembly) off the main thread.
// Messages in: {type: "search", id, variant, startFen, moves: [text], limits},
//              {type: "review", id, variant, startFen, moves: [text], movetimeMs}
// Messages out: {type: "ready", engine: bool}, {type: "info", id, info} (review: {done, total}),
//               {type: "done", id, result}, {type: "error", id, message}
import init, * as crown from "../../pkg/crown_wasm.js";

let engine = null;
const ready = init().then(() => {
  const has = typeof crown.Engine === "function";
  postMessage({ type: "ready", engine: has });
  return has;
});

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type !== "search" && msg.type !== "review") return;
  const has = await ready;
  const { id } = msg;
  if (!has) {
    postMessage({ type: "error", id, message: "this build has no engine" });
    return;
  }
  try {
    const game = crown.Game.fromFen(msg.variant, msg.startFen);
    for (const m of msg.moves) game.play(m);
    if (msg.type === "review") {
      // The same review as `crown annotate` and the TUI (crown_ai::review).
      const result = crown.reviewGame(game, undefined, msg.movetimeMs || 100, (done, total) => {
        postMessage({ type: "info", id, info: { done, total } });
      });
      game.free();
      postMessage({ type: "done", id, result });
      return;
    }
    if (!engine) engine = new crown.Engine(32);
    const result = engine.search(game, msg.limits || {}, (info) => {
      postMessage({ type: "info", id, info });
    });
    game.free();
    postMessage({ type: "done", id, result });
  } catch (err) {
    postMessage({ type: "error", id, message: String(err && err.message ? err.message : err) });
  }
};
