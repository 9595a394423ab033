// Web Worker that indexes a PDN file of many games (the wasm `pdnIndex` of crown-notation) off the
// main thread, chunk by chunk, so that the page stays responsive and shows progress.
// Message in: {type: "index", text}. Messages out: {type: "progress", done, total} (bytes),
// {type: "done", entries, chunks} (see picker.js `indexPdn`), {type: "error", message}.
import init, * as crown from "../../pkg/crown_wasm.js";
import { indexInChunks } from "./picker.js";

const ready = init();

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type !== "index") return;
  try {
    await ready;
    if (typeof crown.pdnIndex !== "function") throw new Error("this build cannot read PDN files of several games");
    const out = indexInChunks(msg.text, (t) => crown.pdnIndex(t), (done, total) => postMessage({ type: "progress", done, total }));
    postMessage({ type: "done", ...out });
  } catch (err) {
    postMessage({ type: "error", message: String(err && err.message ? err.message : err) });
  }
};
