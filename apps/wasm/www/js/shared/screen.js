// The views the three pages share around the board: the move list, the player bars with their
// clocks, the title and status line, the navigation and PDN buttons, and the screen-reader
// announcement of each new move. Each takes what it shows as arguments (the page's table and what
// its controller says about names, clocks and status).

import { $, VARIANT_NAMES, cap, other, hasPdn } from "./util.js";
import { formatClock } from "./clock.js";
import { setStatus } from "./dialogs.js";
import * as keyboard from "./keyboard.js";

/** The CSS class of each review mark in the move list. */
export const MARK_CLASS = { "??": "blunder", "?": "mistake", "?!": "inaccuracy", "!": "only" };

/**
 * The move list of `table`: numbered moves (`marks`: review marks by 0-based ply), after ply k
 * the list item `extras(k)` returns (the analysis board's comments and variations; null: none),
 * and the result; a click on a move calls `goto(ply)`.
 */
export function renderMoveList(table, { marks, extras, goto, line = null }) {
  const list = $("movelist");
  list.replaceChildren();
  const first = table.game.firstPlayer();
  // `line` (the analysis board): the main line in the main column ({history, outcome, current:
  // the shown ply on it, -1 when a variation is shown, goto}), so a variation stays a variation
  // until it is made the main line, as the exported PDN writes it
  const h = line ? line.history : table.history;
  const cur = line ? line.current : table.shownPly();
  if (line) goto = line.goto;
  let num = 1;
  let i = 0;
  const cell = (k) => {
    const span = document.createElement("span");
    if (k < h.length) {
      span.className = "mv" + (k + 1 === cur ? " current" : "");
      span.textContent = h[k].text;
      const mark = marks.get(k);
      if (mark) {
        const m = document.createElement("span");
        m.className = "mark " + MARK_CLASS[mark];
        m.textContent = mark;
        span.appendChild(m);
      }
      span.dataset.ply = String(k + 1);
      span.title = `${cap(h[k].color)}: ${h[k].mv.longText}`;
      span.addEventListener("click", () => goto(k + 1));
    } else {
      span.className = "mv empty";
    }
    return span;
  };
  if (h.length && h[0].color !== first) {
    const li = document.createElement("li");
    const ns = document.createElement("span");
    ns.className = "num";
    ns.textContent = "1.";
    const dots = document.createElement("span");
    dots.className = "mv empty";
    dots.textContent = "…";
    li.append(ns, dots, cell(0));
    list.appendChild(li);
    i = 1;
    num = 2;
  }
  const more = (k) => {
    const li = extras && extras(k);
    if (li) list.appendChild(li);
  };
  if (i === 1) more(0);
  for (; i < h.length; i += 2, num++) {
    const li = document.createElement("li");
    const ns = document.createElement("span");
    ns.className = "num";
    ns.textContent = `${num}.`;
    li.append(ns, cell(i), cell(i + 1));
    list.appendChild(li);
    more(i);
    if (i + 1 < h.length) more(i + 1);
  }
  const o = line ? line.outcome : table.game.outcome();
  if (o) {
    const li = document.createElement("li");
    const r = document.createElement("span");
    r.className = "result";
    r.textContent = o.result;
    li.appendChild(r);
    list.appendChild(li);
  }
  // no move yet: the box is marked empty (hidden where the panel is under the board, style.css)
  list.parentElement.classList.toggle("empty", list.childElementCount === 0);
  const curEl = list.querySelector(".mv.current, .vmove.current");
  if (curEl) curEl.scrollIntoView({ block: "nearest" });
  else list.parentElement.scrollTop = cur === 0 ? 0 : list.parentElement.scrollHeight;
}

/**
 * The player bars above and below the board (`flipped`: Black at the bottom), with the names
 * `nameOf(color)` gives and the clock `clock` ({black, white, running} in ms; null: no clock).
 */
export function renderBars(table, { flipped, nameOf, clock }) {
  const bottom = flipped ? "black" : "white";
  const top = other(bottom);
  const side = table.game.sideToMove();
  const over = table.game.outcome() !== null;
  for (const [pos, color] of [
    ["top", top],
    ["bottom", bottom],
  ]) {
    const bar = $(`bar-${pos}`);
    bar.className = `player-bar ${pos} ${color}` + (!over && side === color ? " to-move" : "");
    $(`name-${pos}`).textContent = nameOf(color);
    const el = $(`clock-${pos}`);
    const c = clock;
    if (c) {
      el.hidden = false;
      const ms = Math.max(0, c[color]);
      el.textContent = formatClock(ms);
      el.className =
        "clock" +
        (c.running === color ? " running" : "") +
        (ms < 20000 && c.running === color ? " low" : "") +
        (ms < 10000 ? " tenths" : "");
    } else {
      el.hidden = true;
    }
  }
}

/**
 * The title ("American checkers · vs engine") and the status line of the position on the board:
 * when `browsing` is off and an earlier ply is shown, "Viewing move…" (a finished game's result
 * first); when on, the shown ply's own side to move, and the result only at the end of the line.
 * `statusText(side, must)` words the side to move (`must`: the " — must capture" note or "");
 * `outcomeText(o)`, when given, words a result (default: "1-0 · Black wins: …").
 */
export function renderStatus(table, board, { modeName, browsing, statusText, outcomeText = null }) {
  const g = table.game;
  $("game-title").textContent = `${VARIANT_NAMES[table.variant] || table.variant} · ${modeName}`;
  const n = table.history.length;
  const ply = table.shownPly();
  const o = !browsing || ply === n ? g.outcome() : null;
  if (o) {
    setStatus(outcomeText ? outcomeText(o) : `${o.result} · ${o.text}`, "over");
    return;
  }
  if (table.viewPly != null && !browsing) {
    setStatus(`Viewing move ${table.viewPly} of ${n} — press ⏭ to return`);
    return;
  }
  let side;
  let mustCapture;
  if (ply === n) {
    side = g.sideToMove();
    mustCapture = g.mustCapture();
  } else {
    // an earlier ply of the line: its own position says who is to move
    const probe = table.crown.Game.fromFen(table.variant, table.fenAt(ply));
    side = probe.sideToMove();
    mustCapture = probe.mustCapture();
    probe.free();
  }
  const must = mustCapture
    ? " — must capture"
    : board.forcedRemoval() && ply === n
      ? " — Impasse: remove one of your checkers"
      : "";
  setStatus(statusText(side, must));
}

/** The PDN buttons (off without PDN in this build) and the navigation buttons of `table`. */
export function renderNav(table, crown) {
  $("pdn-download").disabled = !hasPdn(crown);
  $("pdn-import").disabled = !hasPdn(crown);
  if (!hasPdn(crown)) {
    $("pdn-download").title = $("pdn-import").title = "PDN needs the crown-notation crate in this build";
  }
  const n = table.history.length;
  const ply = table.shownPly();
  $("nav-first").disabled = $("nav-prev").disabled = ply === 0;
  $("nav-next").disabled = $("nav-last").disabled = ply === n;
}

/** Tells screen readers about a new ply (the game on the board grew by one since the last call). */
export class Announcer {
  /** Nothing announced yet. */
  constructor() {
    this.plies = null;
    this.start = null;
  }

  /**
   * After a refresh of `table` (with `n` plies); `word(o)`: the page's wording of an outcome (the
   * analysis page says an imported result as the PDN gives it).
   */
  update(table, n, word = (o) => o) {
    const start = table.game.startFen();
    if (this.start === start && this.plies != null && n === this.plies + 1) {
      const o = table.game.outcome();
      keyboard.announce($("announce"), keyboard.moveSentence(table.history[n - 1], o && word(o)));
    }
    this.start = start;
    this.plies = n;
  }
}
