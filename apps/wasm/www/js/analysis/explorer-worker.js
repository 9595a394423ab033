// Web Worker that holds the opening explorer of a PDN archive (the wasm `Explorer` of
// crown-notation): it reads the file chunk by chunk with progress, keeps the index, and answers the
// page's questions about positions, so that a big file never freezes the page.
// Messages in: {type: "load", text}, {type: "probe", id, variant, fen}.
// Messages out: {type: "progress", done, total} (bytes), {type: "loaded", stats},
// {type: "probed", id, result} (see `Explorer.probe`), {type: "error", id?, message}.
import init, * as crown from "../../pkg/crown_wasm.js";
import { splitPdn } from "../shared/picker.js";

const ready = init();
let explorer = null;

const message = (err) => String(err && err.message ? err.message : err);

self.onmessage = async (e) => {
  const msg = e.data;
  try {
    await ready;
    if (typeof crown.Explorer !== "function") throw new Error("this build has no opening explorer");
    if (msg.type === "load") {
      if (explorer) explorer.free();
      explorer = new crown.Explorer();
      let done = 0;
      for (const chunk of splitPdn(msg.text)) {
        explorer.add(chunk.text);
        done += chunk.text.length + 1;
        postMessage({ type: "progress", done: Math.min(done, msg.text.length), total: msg.text.length });
      }
      // the index is built here, before the first question
      explorer.probe("american", crown.startFen("american"));
      postMessage({ type: "loaded", stats: explorer.stats() });
    } else if (msg.type === "probe") {
      if (!explorer) throw new Error("no archive is loaded");
      postMessage({ type: "probed", id: msg.id, result: explorer.probe(msg.variant, msg.fen) });
    }
  } catch (err) {
    postMessage({ type: "error", id: msg.id, message: message(err) });
  }
};
