// Web Worker that runs the Crown engine (crown-ai compiled to WebAssembly) off the main thread.
// Messages in: {type: "search", id, variant, startFen, moves: [text], limits},
//              {type: "review", id, variant, startFen, moves: [text], depth, nodes} (or movetimeMs)
// Messages out: {type: "ready", engine: bool}, {type: "info", id, info} (review: {done, total}),
//               {type: "done", id, result}, {type: "error", id, message}
import init, * as crown from "../../pkg/crown_wasm.js";

let engine = null;
const ready = init().then(() => {
  const has = typeof crown.Engine === "function";
  postMessage({ type: "ready", engine: has });
  return has;
});

// Endgame databases from the server (crown-server's /egdb/index.json: the ≤4-piece files it has),
// fetched lazily at the first search of each game and handed to the engine; the browser's HTTP
// cache keeps them (ETag revalidation). Without a server, or when anything fails, the engine
// builds its small in-memory tables as before (apps/wasm/src/tables.rs).
const tablesLoading = {};

async function fetchTables(variant) {
  if (!/^https?:$/.test(self.location.protocol)) return 0;
  const base = new URL("../../egdb/", self.location.href);
  const res = await fetch(new URL("index.json", base));
  if (!res.ok) return 0;
  const index = await res.json();
  const set = index && index.variants && index.variants[variant];
  if (!set || !Array.isArray(set.files) || !(set.pieces > 3)) return 0;
  const files = await Promise.all(
    set.files.map(async (f) => {
      const r = await fetch(new URL(f.url, self.location.origin));
      if (!r.ok) throw new Error(`${f.name}: ${r.status}`);
      const bytes = new Uint8Array(await r.arrayBuffer());
      if (bytes.length !== f.bytes) throw new Error(`${f.name}: ${bytes.length} bytes, not ${f.bytes}`);
      if (self.crypto && self.crypto.subtle && f.sha256) {
        const d = new Uint8Array(await self.crypto.subtle.digest("SHA-256", bytes));
        const hex = Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
        if (hex !== f.sha256) throw new Error(`${f.name}: checksum mismatch`);
      }
      return [f.name, bytes];
    }),
  );
  for (const [name, bytes] of files) crown.addTableFile(name, bytes);
  return crown.useTables(variant);
}

function loadTables(variant) {
  if (typeof crown.useTables !== "function") return Promise.resolve(0);
  if (!tablesLoading[variant]) {
    tablesLoading[variant] = fetchTables(variant).catch(() => 0);
  }
  return tablesLoading[variant];
}

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
      // The same review as `crown annotate` and the TUI (crown_ai::review). With a depth (and node)
      // budget it is the same every time; the databases are the same as well (loaded first).
      await loadTables(msg.variant);
      const progress = (done, total) => {
        postMessage({ type: "info", id, info: { done, total } });
      };
      const result = msg.depth
        ? crown.reviewGame(game, msg.depth, undefined, progress, msg.nodes || undefined)
        : crown.reviewGame(game, undefined, msg.movetimeMs || 100, progress);
      game.free();
      postMessage({ type: "done", id, result });
      return;
    }
    await loadTables(msg.variant);
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
