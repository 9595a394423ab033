// The game picker for a PDN file of many games: the file is indexed off the main thread
// (pdn-worker.js, in chunks of games with progress), and the list is virtualised — only the rows in
// view are in the page, so thousands of games scroll smoothly.

/** The value of tag `name` (case-insensitive) of an index entry, or "". */
export function tagOf(entry, name) {
  const t = (entry.tags || []).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return t ? t[1] : "";
}

/** The result of an index entry: the terminator, else the Result tag, else "*". */
export function resultOf(entry) {
  const r = entry.result && entry.result !== "*" ? entry.result : tagOf(entry, "Result");
  return r || "*";
}

/** One line about a game: players, event, date, result. */
export function gameSummary(entry, withResult = true) {
  const players = `${tagOf(entry, "Black") || "?"} – ${tagOf(entry, "White") || "?"}`;
  const rest = [tagOf(entry, "Event"), tagOf(entry, "Date"), withResult ? resultOf(entry) : ""].filter((x) => x && x !== "?");
  return `${players} · ${rest.join(" · ")}`;
}

/** Height of one row of the list, in CSS pixels (the CSS `.game-row` height). */
export const ROW_PX = 34;
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 6;

/**
 * Split a PDN text into chunks of about `perChunk` games, at game boundaries: a tag line (`[`)
 * after movetext, outside a `{...}` comment. Returns `[{text, firstLine}]` (`firstLine`: 1-based
 * line of the chunk in `text`). Each chunk is a PDN text of its own; game `i` of chunk `c` is game
 * `c`'s first number + `i` of the file.
 */
export function splitPdn(text, perChunk = 50) {
  const lines = text.split("\n");
  const chunks = [];
  let start = 0;
  let games = 0;
  let inTags = false;
  let sawMoves = false;
  let depth = 0; // inside a {comment} spanning lines
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    let rest = t;
    if (depth === 0 && t.startsWith("[")) {
      if (!inTags) {
        // a new game's tag block
        if (sawMoves || games === 0) games++;
        if (games > perChunk) {
          chunks.push({ text: lines.slice(start, i).join("\n"), firstLine: start + 1 });
          start = i;
          games = 1;
        }
        inTags = true;
        sawMoves = false;
      }
      // movetext may follow the tags on the same line (`[FEN "..."] *`)
      rest = t.replace(/\[[^\]]*\]/g, "").trim();
      if (!rest) continue;
    }
    if (rest) {
      inTags = false;
      sawMoves = true;
    }
    for (const c of rest) {
      if (c === "{") depth++;
      else if (c === "}" && depth > 0) depth--;
    }
  }
  chunks.push({ text: lines.slice(start).join("\n"), firstLine: start + 1 });
  return chunks.filter((c) => c.text.trim());
}

/**
 * Index a PDN text in the worker (pdn-worker.js): resolves `{entries, chunks, ms}` where each entry
 * is a wasm `pdnIndex` entry numbered through the whole file (`index`, `line`) with `chunk` and
 * `local` (its number in that chunk's text). `onProgress(done, total)` in bytes.
 * Falls back to `indexHere` (the same on the main thread) when workers are unavailable.
 */
export function indexPdn(text, onProgress, indexHere) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let worker;
    try {
      worker = new Worker(new URL("./pdn-worker.js", import.meta.url), { type: "module" });
    } catch (_) {
      resolve({ ...indexInChunks(text, indexHere), ms: performance.now() - t0 });
      return;
    }
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === "progress") onProgress(m.done, m.total);
      else if (m.type === "done") {
        worker.terminate();
        resolve({ entries: m.entries, chunks: m.chunks, ms: performance.now() - t0 });
      } else if (m.type === "error") {
        worker.terminate();
        reject(new Error(m.message));
      }
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || "the PDN reader failed"));
    };
    worker.postMessage({ type: "index", text });
  });
}

/** Index `text` chunk by chunk with `indexOf(chunkText)` (the wasm `pdnIndex`); see `indexPdn`. */
export function indexInChunks(text, indexOf, onChunk = () => {}) {
  const chunks = splitPdn(text);
  const entries = [];
  let done = 0;
  chunks.forEach((c, ci) => {
    for (const e of indexOf(c.text)) {
      entries.push({ ...e, local: e.index, chunk: ci, index: entries.length + 1, line: (e.line || 1) + c.firstLine - 1 });
    }
    done += c.text.length + 1;
    onChunk(Math.min(done, text.length), text.length);
  });
  return { entries, chunks: chunks.map((c) => c.text) };
}

/**
 * The picker in `dialog`: a search box (players, event, date, site; `1-0`, `0-1`, `1/2` match the
 * result), a virtualised list of the matching games, a progress bar while a file is read, and
 * `onPick(entry)` when a game is chosen.
 */
export class GamePicker {
  constructor(dialog, onPick) {
    this.dialog = dialog;
    this.onPick = onPick;
    this.entries = [];
    this.matches = [];
    this.search = dialog.querySelector("#games-search");
    this.scroller = dialog.querySelector("#games-scroll");
    this.list = dialog.querySelector("#games-list");
    this.count = dialog.querySelector("#games-count");
    this.progress = dialog.querySelector("#games-progress");
    this.drawn = { from: -1, to: -1 };
    this.rows = new Map(); // list index -> <li> in the page
    this.reading = false; // a file is being read (the dialog shows its progress)
    this.cancelled = false; // the dialog was closed while the file was read
    dialog.addEventListener("close", () => {
      if (this.reading) this.cancelled = true;
    });
    this.search.addEventListener("input", () => this.filter());
    this.scroller.addEventListener("scroll", () => this.render());
  }

  /** Open the dialog while a file is read: the progress bar instead of the list. */
  loading(name) {
    this.reading = true;
    this.cancelled = false;
    this.entries = [];
    this.matches = [];
    this.search.value = "";
    this.search.disabled = true;
    this.progress.hidden = false;
    this.progress.value = 0;
    this.count.textContent = `Reading ${name}…`;
    this.#draw(true);
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** Progress of the reading: `done` of `total` bytes. */
  setProgress(done, total) {
    this.progress.max = total;
    this.progress.value = done;
    this.count.textContent = `Reading the games… ${Math.round((100 * done) / Math.max(1, total))}%`;
  }

  /**
   * The file is read: list `entries`, unless the dialog was closed meanwhile (then they wait for
   * the Games button). Returns whether the list is shown.
   */
  finish(entries) {
    const cancelled = this.cancelled;
    this.reading = false;
    this.cancelled = false;
    if (cancelled) return false;
    this.open(entries);
    return true;
  }

  /** The reading failed or was given up: no progress shown any more. */
  stopReading() {
    this.reading = false;
    this.cancelled = false;
    this.progress.hidden = true;
    this.search.disabled = false;
  }

  /** Show `entries` (see `indexPdn`); opens the dialog when it is closed. */
  open(entries) {
    this.entries = entries.map((e) => ({
      ...e,
      hay: [...(e.tags || []).map(([, v]) => v), resultOf(e)].join(" ").toLowerCase(),
    }));
    this.search.disabled = false;
    this.progress.hidden = true;
    this.search.value = "";
    this.filter();
    if (!this.dialog.open) this.dialog.showModal();
    this.search.focus();
  }

  filter() {
    const words = this.search.value.toLowerCase().split(/\s+/).filter(Boolean);
    this.matches = this.entries.filter((e) => words.every((w) => e.hay.includes(w)));
    this.scroller.scrollTop = 0;
    const total = this.matches.length;
    const all = this.entries.length;
    this.count.textContent = !total
      ? `No game matches (${all} in the file)`
      : total < all
        ? `${total} of ${all} games match`
        : `${all} games`;
    this.#draw(true);
  }

  render() {
    this.#draw(false);
  }

  /** Draw the rows in view (and a few around them); the list's height stands for all rows. */
  #draw(force) {
    const total = this.matches.length;
    this.list.style.height = `${total * ROW_PX}px`;
    const view = this.scroller.clientHeight || 400;
    const from = Math.max(0, Math.floor(this.scroller.scrollTop / ROW_PX) - OVERSCAN);
    const to = Math.min(total, Math.ceil((this.scroller.scrollTop + view) / ROW_PX) + OVERSCAN);
    if (!force && from === this.drawn.from && to === this.drawn.to) return;
    if (force) {
      this.rows = new Map();
      this.list.replaceChildren();
    }
    // keep the rows still in view; add the new ones above and below in order (DOM order = list order)
    const kept = new Map();
    for (const [i, li] of this.rows) {
      if (i >= from && i < to) kept.set(i, li);
      else li.remove();
    }
    const above = [];
    const below = [];
    const firstKept = kept.size ? Math.min(...kept.keys()) : to;
    for (let i = from; i < to; i++) {
      if (kept.has(i)) continue;
      const li = this.#row(this.matches[i], i, total);
      kept.set(i, li);
      (i < firstKept ? above : below).push(li);
    }
    this.list.prepend(...above);
    this.list.append(...below);
    this.rows = kept;
    this.drawn = { from, to };
  }

  #row(e, i, total) {
    const li = document.createElement("li");
    li.style.top = `${i * ROW_PX}px`;
    li.setAttribute("aria-setsize", String(total));
    li.setAttribute("aria-posinset", String(i + 1));
    const b = document.createElement("button");
    b.type = "button";
    b.className = "game-row";
    b.dataset.index = String(e.index);
    const n = document.createElement("span");
    n.className = "game-num";
    n.textContent = `#${e.index}`;
    const s = document.createElement("span");
    s.className = "game-text";
    b.title = e.error ? `unreadable: ${e.error}` : gameSummary(e);
    // the result in a column of its own, never cut off by a long event name
    const result = e.error ? "" : resultOf(e) || "";
    s.textContent = e.error ? b.title : gameSummary(e, false);
    const r = document.createElement("span");
    r.className = "game-result";
    r.textContent = result && result !== "?" ? result : "";
    b.append(n, s, r);
    b.disabled = !!e.error;
    b.addEventListener("click", () => {
      this.dialog.close();
      this.onPick(e);
    });
    li.appendChild(b);
    return li;
  }
}
