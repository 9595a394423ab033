// Crown web UI controller: modes (play the engine, play a friend online, analysis), move list,
// dialogs, clocks. The rules come from the wasm module (crown-core); the board from board.js.
import init, * as crown from "../pkg/crown_wasm.js";
import { Board } from "./board.js";
import { EngineClient } from "./engine.js";
import { Online } from "./online.js";
import * as tree from "./analysis.js";
import * as storage from "./storage.js";
import { initTheme } from "./theme.js";
import * as keyboard from "./keyboard.js";
import { Sounds } from "./sounds.js";
import { formatClock } from "./clock.js";
import { EvalGraph } from "./graph.js";
import { GamePicker, indexPdn, splitPdn } from "./picker.js";

const $ = (id) => document.getElementById(id);
const VARIANT_NAMES = { american: "American checkers", pool: "Pool checkers", impasse: "Impasse" };
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const other = (c) => (c === "black" ? "white" : "black");

const state = {
  mode: "play",
  game: null, // wasm Game: the main line
  variant: "american",
  setup: "seed",
  history: [],
  viewPly: null, // null = follow the live position
  human: "black", // play mode: the human's colour
  hotseat: false, // play mode: two players on this device (no engine), both sides moved by clicking
  names: { black: "", white: "" }, // hot-seat players' names ("" = the colour's name)
  level: 4,
  thinking: false,
  lastScore: null, // engine's last score from its own point of view
  clock: null, // {black, white, inc, running: color|null, last: ms timestamp}
  overShown: false,
  analysisOn: false,
  flipped: false,
  review: null, // {startFen, moves: [text], result | null}
  // analysis: the variation tree (analysis.js), the line of it state.game holds (nodes for plies
  // 1..n), the main line's game as read (keeps a PDN result), the imported game's tags and file
  root: null,
  path: [],
  mainGame: null,
  pdnInfo: null, // {tags: [[name, value]], index, count, error}
  pdnFile: null, // {text, entries} of a file of several games (the picker)
};

let board;
let picker;
const engine = new EngineClient();
// A second worker for the game review, so the live analysis does not cancel it.
const reviewer = new EngineClient();
// A third worker fills the analysis board's evaluation graph in the background (graph.js).
const grapher = new EngineClient();
let graph;
let online = null;
const sounds = new Sounds();
// The local game (play the engine / analysis) while the online game is on screen: the two are
// kept apart so that neither the engine nor the analysis board ever touches the online game.
let localSlot = null;
let onlineOverShownFor = null; // the online game whose end was announced

// ---- helpers -------------------------------------------------------------------------------------

function toast(text, ms = 3500) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), ms);
}

function setStatus(text, cls = "") {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${cls}`;
}

function download(name, text) {
  const blob = new Blob([text], { type: "application/x-pdn;charset=utf-8" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

function hasPdn() {
  return typeof crown.Game.fromPdn === "function" && typeof crown.Game.prototype.toPdn === "function";
}

function moveTexts(game) {
  return game.history().map((h) => h.mv.longText);
}

/** Show an engine score (from the side to move's view) from `color`'s view. */
function scoreText(score, sideToMove, forColor = "black") {
  if (!score) return "";
  const sign = sideToMove === forColor ? 1 : -1;
  if (score.win != null) return sign > 0 ? `win in ${score.win}` : `loss in ${score.win}`;
  if (score.loss != null) return sign > 0 ? `loss in ${score.loss}` : `win in ${score.loss}`;
  const v = (score.value * sign) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

// ---- rendering -----------------------------------------------------------------------------------

function fenAt(ply) {
  if (ply === 0) return state.game.startFen();
  return state.history[ply - 1].fenAfter;
}

function shownPly() {
  return state.viewPly == null ? state.history.length : state.viewPly;
}

function humanCanMove() {
  const g = state.game;
  if (!g) return false;
  // analysis: every earlier ply of a finished game is open for a variation
  if (state.mode === "analysis") return state.viewPly != null || g.outcome() === null;
  if (g.outcome() !== null) return false;
  if (state.viewPly != null) return false;
  if (state.mode === "play") return !state.thinking && (state.hotseat || g.sideToMove() === state.human);
  if (state.mode === "online") return online && online.canMove(g.sideToMove());
  return false;
}

function refresh({ animateMove = null, before = null } = {}) {
  const g = state.game;
  state.history = g.history();
  if (state.mode === "analysis") syncTree();
  const n = state.history.length;
  if (state.viewPly != null && state.viewPly >= n) state.viewPly = null;
  const ply = shownPly();
  const live = ply === n;
  const pieces = live ? g.pieces() : crown.piecesOfFen(state.variant, fenAt(ply));
  const lastMove = ply > 0 ? state.history[ply - 1].mv : null;
  let moves = [];
  let capturers = [];
  if (humanCanMove()) {
    if (live) {
      moves = g.legalMoves();
      capturers = g.capturers();
    } else {
      // analysis: play from an earlier position (the rest of the line is replaced)
      const side = crown.Game.fromFen(state.variant, fenAt(ply));
      moves = side.legalMoves();
      capturers = side.capturers();
      side.free();
    }
  }
  if (!moves.length && live && state.mode === "online" && online) {
    // the opponent is to move: a premove may be entered
    const pre = online.premoveMoves();
    if (pre) moves = pre.moves;
  }
  board.setPosition(pieces, { variant: state.variant, moves, lastMove, capturers });
  if (state.mode === "online" && online && online.premove) {
    board.setArrows([{ from: online.premove.from, to: online.premove.to, color: "#8e44ad" }]);
  }
  if (animateMove && before) board.animate(animateMove, before);
  renderMoveList();
  renderReview();
  renderBars();
  renderStatus();
  renderButtons();
  renderGameInfo();
  renderTreeTools();
  renderGraph();
  announceMove(n);
  if (state.mode === "analysis") analyse();
  saveLocal();
  syncUrl();
}

// ---- the analysis board in the URL (shareable) ---------------------------------------------------

/** The query string of the analysis board: variant, start FEN (when not the start), moves, ply. */
function analysisQuery() {
  const q = new URLSearchParams();
  q.set("mode", "analysis");
  q.set("variant", state.variant);
  const start = state.game.startFen();
  let standard = null;
  try {
    const fresh = new crown.Game(state.variant, state.variant === "impasse" ? state.setup : undefined);
    standard = fresh.startFen();
    fresh.free();
  } catch (_) {
    /* unknown setup: write the FEN */
  }
  if (start !== standard) q.set("fen", start);
  else if (state.variant === "impasse" && state.setup && state.setup !== "seed") q.set("setup", state.setup);
  const moves = moveTexts(state.game);
  if (moves.length) q.set("moves", moves.join(","));
  if (state.viewPly != null) q.set("ply", String(state.viewPly));
  return `?${q}`;
}

/** Keep the address bar in step: the analysis board's position and game; plain for a local game. */
function syncUrl() {
  if (/\/g\/[^/]+\/?$/.test(location.pathname) || !history.replaceState) return;
  if (state.mode === "analysis") {
    const q = analysisQuery();
    if (q !== location.search) history.replaceState(null, "", location.pathname + q);
  } else if (state.mode === "play" && location.search) {
    history.replaceState(null, "", location.pathname);
  }
}

/** Open the analysis board of a URL (?mode=analysis&variant=&fen=&setup=&moves=a,b&ply=n). */
function openAnalysisUrl(params, variant, setup) {
  const fen = params.get("fen");
  const moves = (params.get("moves") || "").split(",").map((m) => m.trim()).filter(Boolean);
  // the same game saved in this browser (with its variations and comments) is restored instead
  const saved = storage.loadGame();
  if (saved && saved.mode === "analysis" && saved.variant === variant && restoreLocal()) {
    let start = null;
    try {
      const probe = fen ? crown.Game.fromFen(variant, fen) : new crown.Game(variant, variant === "impasse" ? setup : undefined);
      start = probe.startFen();
      probe.free();
    } catch (_) {
      /* a bad FEN: the URL path below reports it */
    }
    if (state.mode === "analysis" && state.game.startFen() === start && moveTexts(state.game).join(",") === moves.join(",")) {
      const ply = Number(params.get("ply"));
      if (params.has("ply") && Number.isInteger(ply)) goto(ply);
      return;
    }
  }
  let g;
  try {
    g = fen ? crown.Game.fromFen(variant, fen) : new crown.Game(variant, variant === "impasse" ? setup : undefined);
  } catch (e) {
    toast(e.message, 8000);
    g = new crown.Game(variant, variant === "impasse" ? setup : undefined);
  }
  for (const m of moves) {
    try {
      g.play(m);
    } catch (e) {
      toast(`Move ${m} of the link: ${e.message}`, 8000);
      break;
    }
  }
  state.mode = "analysis";
  if (state.game) state.game.free();
  state.game = g;
  state.root = null;
  state.variant = variant;
  state.setup = setup;
  const ply = Number(params.get("ply"));
  state.viewPly = params.has("ply") && Number.isInteger(ply) && ply >= 0 && ply < g.plyCount() ? ply : null;
  state.overShown = g.outcome() !== null;
  setMode("analysis", { keepGame: true });
}

/** "Play the engine from here": a game against the engine from the shown position, you to move. */
function playFromHere() {
  const ply = shownPly();
  const g = crown.Game.fromFen(state.variant, state.game.startFen());
  for (const t of moveTexts(state.game).slice(0, ply)) g.play(t);
  if (g.outcome() !== null) {
    g.free();
    toast("The game is over in this position.");
    return;
  }
  engine.stop();
  setMode("play", { keepGame: true });
  state.game.free();
  state.game = g;
  state.human = g.sideToMove();
  state.hotseat = false;
  state.viewPly = null;
  state.clock = null;
  state.thinking = false;
  state.lastScore = null;
  state.overShown = false;
  setFlipped(state.human === "black");
  refresh();
  maybeEngineMove();
}

/** Tell screen readers about a new ply (the game grew by one since the last refresh). */
let announcedPlies = null;
let announcedStart = null;
function announceMove(n) {
  const start = state.game.startFen();
  if (announcedStart === start && announcedPlies != null && n === announcedPlies + 1) {
    keyboard.announce($("announce"), keyboard.moveSentence(state.history[n - 1], state.game.outcome()));
  }
  announcedStart = start;
  announcedPlies = n;
}

/** Play the move typed in #move-input in the shown position (same path as a move on the board). */
function playTyped() {
  const err = $("move-error");
  const input = $("move-input");
  try {
    const m = keyboard.readTypedMove(crown, state.variant, fenAt(shownPly()), input.value, humanCanMove() ? board.moves : []);
    err.hidden = true;
    input.value = "";
    input.removeAttribute("aria-invalid");
    onBoardMove(m);
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    input.setAttribute("aria-invalid", "true");
  }
}

function renderMoveList() {
  const list = $("movelist");
  list.replaceChildren();
  const first = state.game.firstPlayer();
  const h = state.history;
  const cur = shownPly();
  const marks = reviewMarks();
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
  const extras = (k) => {
    // analysis: the comment on ply k+1 and the variations that replace it
    if (state.mode !== "analysis" || !state.path[k]) return;
    const li = lineExtras(k);
    if (li) list.appendChild(li);
  };
  if (i === 1) extras(0);
  for (; i < h.length; i += 2, num++) {
    const li = document.createElement("li");
    const ns = document.createElement("span");
    ns.className = "num";
    ns.textContent = `${num}.`;
    li.append(ns, cell(i), cell(i + 1));
    list.appendChild(li);
    extras(i);
    if (i + 1 < h.length) extras(i + 1);
  }
  const o = state.game.outcome();
  if (o) {
    const li = document.createElement("li");
    const r = document.createElement("span");
    r.className = "result";
    r.textContent = o.result;
    li.appendChild(r);
    list.appendChild(li);
  }
  const curEl = list.querySelector(".mv.current");
  if (curEl) curEl.scrollIntoView({ block: "nearest" });
  else list.parentElement.scrollTop = cur === 0 ? 0 : list.parentElement.scrollHeight;
}

// ---- what survives a reload (storage.js) -------------------------------------------------------

let restoring = false;

/** Save the local game (engine game or analysis board) and its settings; online games are the server's. */
function saveLocal() {
  const g = state.game;
  if (!g || restoring || (state.mode !== "play" && state.mode !== "analysis")) return;
  const base = { mode: state.mode, variant: state.variant, setup: state.setup, startFen: g.startFen(), flipped: state.flipped };
  if (state.mode === "play") {
    const c = state.clock;
    storage.saveGame({
      ...base,
      moves: moveTexts(g),
      outcome: storage.outcomeOf(g),
      human: state.human,
      hotseat: state.hotseat || undefined,
      names: state.hotseat ? state.names : undefined,
      level: state.level,
      viewPly: state.viewPly,
      clock: c ? { black: c.black, white: c.white, inc: c.inc, running: c.running } : null,
    });
  } else if (state.root) {
    const main = state.mainGame || g;
    storage.saveGame({
      ...base,
      moves: moveTexts(main),
      outcome: storage.outcomeOf(main),
      tree: tree.treeToJson(state.root),
      path: tree.pathIndices(state.path),
      viewPly: state.viewPly,
      pdnInfo: state.pdnInfo,
    });
  }
}

/** Restore the saved local game; false when there is none or it does not replay. */
function restoreLocal() {
  const saved = storage.loadGame();
  if (!saved) return false;
  let g;
  try {
    g = storage.replayGame(crown, saved);
  } catch (e) {
    toast(`The saved game could not be restored: ${e.message}`, 8000);
    storage.clearGame();
    return false;
  }
  restoring = true;
  state.variant = saved.variant;
  state.setup = saved.setup || "seed";
  state.overShown = g.outcome() !== null;
  if (saved.mode === "analysis") {
    setMode("analysis", { keepGame: true });
    if (state.game) state.game.free();
    state.game = g;
    state.root = saved.tree ? tree.treeFromJson(saved.tree) : tree.treeOfHistory(g.history());
    state.mainGame = g.clone();
    state.pdnInfo = saved.pdnInfo || null;
    state.path = tree.lineThrough(state.root);
    const target = tree.nodeAt(state.root, saved.path || []);
    state.history = g.history();
    if (state.path.length !== state.history.length) {
      state.root = null; // a tree from another build: keep the game, start a new tree
    } else if (target !== state.root) {
      restoring = false;
      showNode(target);
      restoring = true;
    }
  } else {
    if (state.game) state.game.free();
    state.game = g;
    state.human = saved.human === "white" ? "white" : "black";
    state.hotseat = saved.hotseat === true;
    state.names = {
      black: typeof saved.names?.black === "string" ? saved.names.black.slice(0, 40) : "",
      white: typeof saved.names?.white === "string" ? saved.names.white.slice(0, 40) : "",
    };
    state.level = Number(saved.level) || 4;
    state.clock = saved.clock ? { ...saved.clock, last: performance.now() } : null;
    if (state.clock && g.outcome() !== null) state.clock.running = null;
    setMode("play", { keepGame: true });
  }
  setFlipped(!!saved.flipped);
  const n = state.game.plyCount();
  state.viewPly = saved.viewPly == null || saved.viewPly >= n ? state.viewPly : saved.viewPly;
  restoring = false;
  refresh();
  if (state.mode === "play") maybeEngineMove();
  return true;
}

// ---- variation tree (analysis) -------------------------------------------------------------------

/** Keep the tree in step with state.game: a game replaced or played elsewhere starts a new tree. */
function syncTree() {
  const h = state.history;
  const same =
    state.root &&
    state.path.length === h.length &&
    state.path.every((n, i) => n.long === h[i].mv.longText) &&
    (!state.path.length || state.path[0].parent === state.root);
  if (same) return;
  state.root = tree.treeOfHistory(h);
  state.path = tree.lineThrough(state.root);
  if (state.mainGame) state.mainGame.free();
  state.mainGame = state.game.clone();
  state.pdnInfo = null;
}

/** Make the line through `n` the one on the board, showing the position after `n`. */
function showNode(n, anim = {}) {
  const path = tree.lineThrough(n);
  const ply = n.parent ? path.indexOf(n) + 1 : 0;
  let g;
  const main = tree.isMainLine(path);
  if (main && state.mainGame && state.mainGame.plyCount() === path.length) {
    g = state.mainGame.clone();
  } else {
    g = crown.Game.fromFen(state.variant, state.game.startFen());
    try {
      for (const x of path) g.play(x.long);
    } catch (e) {
      toast(e.message);
    }
  }
  if (main && state.mainGame && g.plyCount() > state.mainGame.plyCount()) {
    // the main line grew at its end
    state.mainGame.free();
    state.mainGame = g.clone();
  }
  state.game.free();
  state.game = g;
  state.path = path;
  state.viewPly = ply >= path.length ? null : ply;
  refresh(anim);
}

// ---- evaluation graph, promote and delete variations -------------------------------------------

const BOARD_LESS_ENDS = ["resignation", "time", "agreement"];

/** The evaluation graph of the line on the analysis board (filled in the background). */
function renderGraph() {
  const box = $("graph-box");
  const on = state.mode === "analysis" && engine.available !== false && !currentReview();
  box.hidden = !on;
  if (!on) {
    graph.stop();
    return;
  }
  const h = state.history;
  const o = state.game.outcome();
  const positions = [];
  for (let i = 0; i <= h.length; i++) {
    const last = i === h.length;
    positions.push({
      fen: fenAt(i),
      side: last ? state.game.sideToMove() : h[i].color,
      outcome: last && o && !BOARD_LESS_ENDS.includes(o.reason) ? o : null,
    });
  }
  graph.setLine(state.variant, state.game.startFen(), moveTexts(state.game), positions, shownPly());
}

/** The node of the shown position (the root at ply 0). */
function shownNode() {
  const ply = shownPly();
  return ply === 0 ? state.root : state.path[ply - 1];
}

/** "Make main line" and "Delete variation" act on the line on the board; on when it is a variation. */
function renderTreeTools() {
  const box = $("tree-tools");
  box.hidden = state.mode !== "analysis" || !state.root;
  if (box.hidden) return;
  const end = state.path[state.path.length - 1];
  const inVariation = !!(end && tree.variationStart(end));
  $("var-promote").disabled = !inVariation;
  $("var-delete").disabled = !inVariation;
}

/**
 * After the tree's main line changed: the old main line's ending that the board does not show (a
 * PDN resignation) stays on its last node, and the main game is replayed from the new main line.
 */
function mainLineChanged(oldEnd) {
  if (oldEnd && state.mainGame) {
    const o = storage.outcomeOf(state.mainGame);
    if (o && BOARD_LESS_ENDS.includes(o.reason)) oldEnd.outcome = o;
  }
  const main = tree.mainLine(state.root);
  const end = main[main.length - 1];
  const g = storage.replayGame(crown, {
    variant: state.variant,
    startFen: state.game.startFen(),
    moves: main.map((x) => x.long),
    outcome: end ? end.outcome || null : null,
  });
  if (state.mainGame) state.mainGame.free();
  state.mainGame = g;
}

/** Make the line through `n` the main line (the shown position stays). */
function promoteLine(n) {
  syncTree();
  const shown = shownNode();
  const oldEnd = tree.mainLine(state.root).at(-1);
  if (!tree.promoteToMain(n)) return;
  mainLineChanged(oldEnd);
  showNode(shown);
  toast("The line is now the main line.");
}

/** Delete the variation starting at `v`; the board goes to the position before it when it was shown. */
function deleteLine(v) {
  syncTree();
  const onBoard = state.path.includes(v);
  const parent = tree.deleteVariation(v);
  if (!parent) return;
  if (onBoard) showNode(parent);
  else refresh();
  toast("Variation deleted.");
}

/** A list item with ply k+1's comment and its variations (each move clickable), or null. */
function lineExtras(k) {
  const n = state.path[k];
  const alts = n.parent.children.filter((c) => c !== n);
  if (!n.comment && !alts.length) return null;
  const li = document.createElement("li");
  li.className = "extras";
  if (n.comment) {
    const c = document.createElement("span");
    c.className = "comment";
    c.textContent = n.comment;
    li.appendChild(c);
  }
  const firstIsFirst = state.history.length ? state.history[0].color === state.game.firstPlayer() : true;
  for (const a of alts) {
    const v = document.createElement("span");
    v.className = "variation";
    v.append("(");
    let x = a;
    let ply = k + 1;
    let count = 0;
    while (x && count < 24) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "vmove";
      const label = count === 0 || ply % 2 === (firstIsFirst ? 1 : 0) ? tree.moveLabel(ply, firstIsFirst) + " " : "";
      b.textContent = label + x.text + (x.strength || "");
      const target = x;
      b.addEventListener("click", () => showNode(target));
      v.appendChild(b);
      if (x.comment) {
        const c = document.createElement("span");
        c.className = "comment";
        c.textContent = x.comment;
        v.appendChild(c);
      }
      x = x.children[0];
      ply++;
      count++;
    }
    if (x) v.append(" …");
    v.append(")");
    if (a.parent.children[0] !== a) {
      // beside the variation: promote it to the main line, or delete it
      const first = `${tree.moveLabel(k + 1, firstIsFirst)} ${a.text}`;
      const up = document.createElement("button");
      up.type = "button";
      up.className = "vtool promote";
      up.textContent = "⇧";
      up.title = `Make ${first} the main line`;
      up.setAttribute("aria-label", up.title);
      up.addEventListener("click", () => promoteLine(a));
      const del = document.createElement("button");
      del.type = "button";
      del.className = "vtool delete";
      del.textContent = "✕";
      del.title = `Delete the variation ${first}`;
      del.setAttribute("aria-label", del.title);
      del.addEventListener("click", () => deleteLine(a));
      v.append(up, del);
    }
    li.appendChild(v);
  }
  return li;
}

/** The value of tag `name` of the imported game on the analysis board ("" when missing or "?"). */
function pdnTag(name) {
  const info = state.mode === "analysis" ? state.pdnInfo : null;
  const x = info && info.tags.find(([k]) => k.toLowerCase() === name.toLowerCase());
  return x && x[1] !== "?" ? x[1] : "";
}

function nameOf(color) {
  if (state.mode === "play") {
    if (state.hotseat) return state.names[color] || cap(color);
    if (color === state.human) return "You";
    return engine.available === false ? "Second player" : `Crown engine · level ${state.level}`;
  }
  if (state.mode === "online" && online) return online.nameOf(color);
  // an imported game: its players (PDN tags Black and White)
  return pdnTag(cap(color)) || cap(color);
}

function renderBars() {
  const bottom = state.flipped ? "black" : "white";
  const top = other(bottom);
  const side = state.game.sideToMove();
  const over = state.game.outcome() !== null;
  for (const [pos, color] of [
    ["top", top],
    ["bottom", bottom],
  ]) {
    const bar = $(`bar-${pos}`);
    bar.className = `player-bar ${pos} ${color}` + (!over && side === color ? " to-move" : "");
    $(`name-${pos}`).textContent = nameOf(color);
    const clock = $(`clock-${pos}`);
    const c = state.mode === "online" && online ? online.clock() : state.clock;
    if (c) {
      clock.hidden = false;
      const ms = Math.max(0, c[color]);
      clock.textContent = formatClock(ms);
      clock.className =
        "clock" +
        (c.running === color ? " running" : "") +
        (ms < 20000 && c.running === color ? " low" : "") +
        (ms < 10000 ? " tenths" : "");
    } else {
      clock.hidden = true;
    }
  }
}

function renderStatus() {
  const g = state.game;
  const modeName = { play: state.hotseat ? "two players" : "vs engine", online: "online", analysis: "analysis" }[state.mode];
  $("game-title").textContent = `${VARIANT_NAMES[state.variant] || state.variant} · ${modeName}`;
  const o = g.outcome();
  if (o) {
    setStatus(`${o.result} · ${o.text}`, "over");
    return;
  }
  const side = g.sideToMove();
  if (state.viewPly != null && state.mode !== "analysis") {
    setStatus(`Viewing move ${state.viewPly} of ${state.history.length} — press ⏭ to return`);
    return;
  }
  const must = g.mustCapture()
    ? " — must capture"
    : board.forcedRemoval() && shownPly() === state.history.length
      ? " — Impasse: remove one of your checkers"
      : "";
  if (state.mode === "play" && state.hotseat) {
    const name = state.names[side];
    setStatus(`${name ? `${name} to move (${cap(side)})` : `${cap(side)} to move`}${must}`);
  } else if (state.mode === "play" && state.thinking) {
    setStatus(`Engine is thinking… (${cap(side)} to move)`);
  } else if (state.mode === "play" && engine.available !== false) {
    setStatus(side === state.human ? `Your move (${cap(side)})${must}` : `${cap(side)} to move`);
  } else if (state.mode === "online" && online) {
    setStatus(online.statusText(side) + must);
  } else {
    setStatus(`${cap(side)} to move${must}`);
  }
}

function renderButtons() {
  const over = state.game.outcome() !== null;
  const play = state.mode === "play";
  // a finished game is not taken back (a resignation stays); analysis tries moves instead
  $("takeback").disabled = !play || state.history.length === 0 || over;
  $("resign").disabled = !play || over;
  $("offer-draw").disabled = !play || over || (engine.available === false && !state.hotseat);
  $("offer-draw").textContent = state.hotseat ? "Agree draw" : "Offer draw";
  $("pdn-download").disabled = !hasPdn();
  $("pdn-import").disabled = !hasPdn();
  if (!hasPdn()) {
    $("pdn-download").title = $("pdn-import").title = "PDN needs the crown-notation crate in this build";
  }
  const n = state.history.length;
  const ply = shownPly();
  $("nav-first").disabled = $("nav-prev").disabled = ply === 0;
  $("nav-next").disabled = $("nav-last").disabled = ply === n;
}

// ---- game review ---------------------------------------------------------------------------------

const MARK_CLASS = { "??": "blunder", "?": "mistake", "?!": "inaccuracy", "!": "only" };

/** The review, when it is of this game (same start, and its moves and the game's agree). */
function currentReview() {
  const r = state.review;
  if (!r || !r.result || r.startFen !== state.game.startFen()) return null;
  const moves = state.history.map((h) => h.mv.longText);
  const n = Math.min(moves.length, r.moves.length);
  for (let i = 0; i < n; i++) if (moves[i] !== r.moves[i]) return null;
  return r;
}

/** The review's marks by ply (0-based), empty without a review of this game. */
function reviewMarks() {
  const r = currentReview();
  const marks = new Map();
  if (r) for (const m of r.result.moves) if (m.mark) marks.set(m.ply, m.mark);
  return marks;
}

async function reviewGame() {
  if (reviewer.busy) {
    reviewer.stop();
    return;
  }
  const g = state.game;
  const moves = moveTexts(g);
  if (!moves.length) {
    toast("No moves to review yet.");
    return;
  }
  const req = { variant: state.variant, startFen: g.startFen(), moves, movetimeMs: 100 };
  state.review = { startFen: req.startFen, moves, result: null };
  $("review-game").textContent = "Stop review";
  try {
    const result = await reviewer.review(req, (p) => setStatus(`Reviewing: ${p.done} of ${p.total} moves`));
    state.review.result = result;
  } catch (e) {
    state.review = null;
    if (!e.cancelled) toast(`Review failed: ${e.message}`);
  }
  $("review-game").textContent = "Review game";
  renderReview();
  refresh();
}

/** The summary, the evaluation graph (click: go to that ply) and the key moments. */
function renderReview() {
  const box = $("review-box");
  const r = currentReview();
  box.hidden = !r || state.mode !== "analysis";
  if (box.hidden) return;
  const res = r.result;
  const count = (s) => `${s.inaccuracies} ?!, ${s.mistakes} ?, ${s.blunders} ??, ${s.onlyMoves} !`;
  const second = other(res.first);
  $("review-summary").textContent = `${cap(res.first)}: ${count(res.firstSummary)} · ${cap(second)}: ${count(res.secondSummary)}`;
  const svg = $("review-graph");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const n = Math.max(1, res.evals.length - 1);
  const x = (i) => (i * 300) / n;
  const y = (e) => 76 - e * 72; // 4 px margins keep the dots inside
  for (const level of [0.2, 0.5, 0.8]) {
    const l = document.createElementNS(ns, "line");
    l.setAttribute("x1", "0");
    l.setAttribute("x2", "300");
    l.setAttribute("y1", String(y(level)));
    l.setAttribute("y2", String(y(level)));
    l.setAttribute("stroke", "#888");
    l.setAttribute("stroke-width", "0.5");
    svg.appendChild(l);
  }
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", res.evals.map((e, i) => `${x(i)},${y(e)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#4a7bd0");
  line.setAttribute("stroke-width", "1.5");
  svg.appendChild(line);
  const colours = { "??": "#e04040", "?": "#e08020", "?!": "#c8a800", "!": "#30a050" };
  for (const m of res.moves) {
    if (!m.mark || m.ply + 1 >= res.evals.length) continue;
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", String(x(m.ply + 1)));
    c.setAttribute("cy", String(y(res.evals[m.ply + 1])));
    c.setAttribute("r", "3");
    c.setAttribute("fill", colours[m.mark]);
    svg.appendChild(c);
  }
  svg.onclick = (ev) => {
    const rect = svg.getBoundingClientRect();
    goto(Math.round(((ev.clientX - rect.left) / rect.width) * n));
  };
  const moments = $("review-moments");
  moments.replaceChildren();
  const plies = new Set(res.turningPoints.map((t) => t.ply));
  for (const m of res.moves) if (m.mark === "?" || m.mark === "??") plies.add(m.ply);
  const h = state.history;
  const marks = reviewMarks();
  [...plies]
    .sort((a, b) => a - b)
    .filter((p) => p < h.length)
    .forEach((p) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = h[p].text + (marks.get(p) || "");
      b.title = "Go to this move";
      b.addEventListener("click", () => goto(p + 1));
      moments.appendChild(b);
    });
  if (!moments.children.length) moments.textContent = "No turning points, no mistakes.";
}

// ---- navigation ------------------------------------------------------------------------------------

function goto(ply) {
  const n = state.history.length;
  ply = Math.max(0, Math.min(n, ply));
  state.viewPly = ply === n ? null : ply;
  refresh();
}

// ---- moves ---------------------------------------------------------------------------------------

function onBoardMove(m) {
  const ply = shownPly();
  if (state.mode === "analysis") {
    // a move at any ply: follow the tree's move, or start a variation there
    syncTree();
    const parent = ply === 0 ? state.root : state.path[ply - 1];
    const before = crown.piecesOfFen(state.variant, fenAt(ply));
    showNode(tree.childFor(parent, m.longText, m.text), { animateMove: m, before });
    if (state.viewPly == null) checkOver();
    return;
  }
  if (state.mode === "online") {
    if (!online.canMove(state.game.sideToMove())) {
      // entered while the opponent is to move: a premove
      online.setPremove(m);
      return;
    }
    online.sendMove(m);
  } else {
    sounds.play(m.captures && m.captures.length ? "capture" : "move");
  }
  const before = state.game.pieces();
  try {
    state.game.playIndex(m.index);
  } catch (e) {
    toast(e.message);
    refresh();
    return;
  }
  afterMove(m, before);
}

function afterMove(m, before) {
  const mover = other(state.game.sideToMove());
  if (state.clock && state.mode === "play") {
    state.clock[mover] += state.clock.inc;
    state.clock.running = state.game.outcome() ? null : state.game.sideToMove();
    state.clock.last = performance.now();
  }
  state.viewPly = null;
  refresh({ animateMove: m, before });
  checkOver();
  if (state.mode === "play") maybeEngineMove();
}

function checkOver() {
  const o = state.game.outcome();
  if (!o) {
    state.overShown = false;
    return;
  }
  if (state.clock) state.clock.running = null;
  engine.stop();
  state.thinking = false;
  if (state.overShown) return;
  // an online game's end is announced once, not again when the page returns to it
  const onlineKey = state.mode === "online" && online ? online.gameId : null;
  if (onlineKey && onlineOverShownFor === onlineKey) {
    state.overShown = true;
    return;
  }
  onlineOverShownFor = onlineKey;
  state.overShown = true;
  let title = "Game over";
  if (state.mode === "play" && state.hotseat) {
    title = o.winner == null ? "Draw" : `${nameOf(o.winner)} wins`;
  } else if (state.mode === "play" || (state.mode === "online" && online && online.seat)) {
    const me = state.mode === "play" ? state.human : online.seat;
    title = o.winner == null ? "Draw" : o.winner === me ? "You won!" : "You lost";
  } else if (o.winner) {
    title = `${cap(o.winner)} wins`;
  } else {
    title = "Draw";
  }
  $("over-title").textContent = title;
  $("over-reason").textContent = o.text;
  $("over-result").textContent = o.result;
  setTimeout(() => {
    if (!$("dlg-over").open) $("dlg-over").showModal();
  }, 350);
}

async function maybeEngineMove() {
  const g = state.game;
  if (state.mode !== "play" || state.hotseat || g.outcome() || g.sideToMove() === state.human) return;
  if (!(await engine.ready())) {
    refresh();
    return;
  }
  state.thinking = true;
  renderStatus();
  renderButtons();
  board.setMoves([]);
  const limits = { level: state.level };
  if (state.clock) {
    const me = g.sideToMove();
    limits.clock = { remainingMs: Math.max(0, Math.floor(state.clock[me])), incrementMs: state.clock.inc };
  }
  const gameAtStart = state.game;
  let result;
  try {
    result = await engine.search(
      { variant: state.variant, startFen: g.startFen(), moves: moveTexts(g), limits },
      () => {},
    );
  } catch (e) {
    state.thinking = false;
    if (!e.cancelled) {
      toast(`Engine error: ${e.message}`);
      refresh();
    }
    return;
  }
  state.thinking = false;
  if (state.game !== gameAtStart || state.game.outcome() || state.mode !== "play") return;
  state.lastScore = result.score;
  if (!result.bestMove) {
    refresh();
    return;
  }
  const before = state.game.pieces();
  const m = state.game.play(result.bestMove.longText);
  afterMove(m, before);
}

// ---- clocks --------------------------------------------------------------------------------------

function parseClock(v) {
  if (!v) return null;
  const [base, inc] = v.split("+").map(Number);
  return { black: base * 1000, white: base * 1000, inc: inc * 1000, running: null, last: 0 };
}

function tickClock() {
  const c = state.clock;
  if (c && c.running && state.mode === "play") {
    const now = performance.now();
    c[c.running] -= now - c.last;
    c.last = now;
    if (c[c.running] <= 0) {
      c[c.running] = 0;
      const loser = c.running;
      c.running = null;
      engine.stop();
      state.thinking = false;
      state.game.loseOnTime(loser);
      refresh();
      checkOver();
      return;
    }
    renderBars();
  } else if (state.mode === "online" && online && online.clock()) {
    renderBars();
  }
}

// ---- play the engine -----------------------------------------------------------------------------

/**
 * A new local game: against the engine (`side`: "first", "second" or "random" for the human,
 * `level` 1–10), or with `hotseat` two players on this device (`names`: {black, white}, "" for the
 * colour's name). `clock`: "" or "base+increment" in seconds.
 */
function newGame({ variant, setup = "seed", side = "first", level = 4, clock = "", hotseat = false, names = null }) {
  engine.stop();
  if (state.game) state.game.free();
  state.variant = variant;
  state.setup = setup;
  state.game = new crown.Game(variant, variant === "impasse" ? setup : undefined);
  const first = state.game.firstPlayer();
  if (side === "random") side = Math.random() < 0.5 ? "first" : "second";
  state.human = side === "first" || hotseat ? first : other(first);
  state.hotseat = hotseat;
  state.names = { black: (names?.black || "").trim().slice(0, 40), white: (names?.white || "").trim().slice(0, 40) };
  state.level = level;
  state.viewPly = null;
  state.thinking = false;
  state.lastScore = null;
  state.overShown = false;
  state.clock = parseClock(clock);
  if (state.clock) {
    state.clock.running = state.game.sideToMove();
    state.clock.last = performance.now();
  }
  // the human's pieces at the bottom: Black starts at the top of the standard diagram
  setFlipped(state.human === "black");
  refresh();
  maybeEngineMove();
}

function takeback() {
  if (state.mode !== "play" || state.game.outcome() !== null) return;
  engine.stop();
  state.thinking = false;
  const g = state.game;
  if (g.plyCount() === 0 && g.outcome() === null) return;
  const wasOver = g.outcome() !== null;
  g.undo();
  // take back to the human's turn (hot seat: one ply)
  while (!state.hotseat && g.plyCount() > 0 && g.sideToMove() !== state.human) g.undo();
  if (wasOver && g.outcome() !== null) g.undo();
  state.overShown = false;
  state.viewPly = null;
  if (state.clock) {
    state.clock.running = g.sideToMove();
    state.clock.last = performance.now();
  }
  refresh();
  maybeEngineMove();
}

function offerDraw() {
  if (state.mode !== "play" || state.game.outcome()) return;
  if (state.hotseat) {
    // both players are here: a draw by agreement, confirmed like a resignation
    confirmThen("Agree a draw?", "The game ends drawn by agreement.", "Draw", () => {
      if (state.mode !== "play" || state.game.outcome()) return;
      state.game.agreeDraw();
      refresh();
      checkOver();
    });
    return;
  }
  const s = state.lastScore;
  // the engine's one draw rule (crown_ai::Opponent::accepts_draw), on the score of its last move
  const accept = s != null && crown.engineAcceptsDraw(s, state.history.length);
  if (accept) {
    engine.stop();
    state.thinking = false;
    state.game.agreeDraw();
    refresh();
    checkOver();
  } else {
    toast("The engine declines the draw.");
  }
}

function resign() {
  if (state.mode !== "play" || state.game.outcome()) return;
  if (state.hotseat) {
    const side = state.game.sideToMove();
    confirmThen(`${nameOf(side)} resigns?`, `The game ends and counts as a loss for ${cap(side)}.`, "Resign", resignNow);
    return;
  }
  confirmThen("Resign?", "The game ends and counts as a loss.", "Resign", resignNow);
}

/** Ask in the confirm dialog (title, text, the button's label); `then()` when confirmed. */
function confirmThen(title, text, yes, then) {
  const dlg = $("dlg-confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  dlg.returnValue = "";
  dlg.onclose = () => {
    // back to the resignation texts (online.js opens the same dialog as it is in the page)
    $("confirm-title").textContent = "Resign?";
    $("confirm-text").textContent = "The game ends and counts as a loss.";
    $("confirm-yes").textContent = "Resign";
    if (dlg.returnValue === "ok") then();
  };
  dlg.showModal();
  $("confirm-no").focus();
}

function resignNow() {
  if (state.mode !== "play" || state.game.outcome()) return;
  engine.stop();
  state.thinking = false;
  // hot seat: the player to move resigns
  state.game.resign(state.hotseat ? state.game.sideToMove() : state.human);
  refresh();
  checkOver();
}

// ---- analysis ------------------------------------------------------------------------------------

let analysisTimer = 0;
function analyse() {
  const box = $("eval-box");
  box.hidden = state.mode !== "analysis";
  if (state.mode !== "analysis") return;
  clearTimeout(analysisTimer);
  engine.stop();
  board.setArrows([]);
  if (!state.analysisOn) {
    $("eval-score").textContent = "–";
    $("eval-meta").textContent = engine.available === false ? "no engine in this build" : "engine off";
    $("eval-pv").textContent = "";
    return;
  }
  const ply = shownPly();
  const texts = moveTexts(state.game).slice(0, ply);
  const fen = fenAt(ply);
  const probe = crown.Game.fromFen(state.variant, fen);
  const side = probe.sideToMove();
  const over = probe.outcome();
  probe.free();
  if (over) {
    $("eval-score").textContent = over.result;
    $("eval-meta").textContent = over.text;
    $("eval-pv").textContent = "";
    return;
  }
  $("eval-meta").textContent = "thinking…";
  // small delay so that fast navigation does not start a search per key press
  analysisTimer = setTimeout(() => {
    engine
      .search(
        {
          variant: state.variant,
          startFen: state.game.startFen(),
          moves: texts,
          limits: { infinite: true },
        },
        (info) => {
          $("eval-score").textContent = scoreText(info.score, side, "black") + " ";
          $("eval-score").title = "from Black's point of view";
          $("eval-meta").textContent =
            `depth ${info.depth} · ${(info.nodes / 1000).toFixed(0)}k nodes · ${(info.nps / 1000).toFixed(0)}k n/s`;
          $("eval-pv").textContent = info.pvText.join(" ");
          graph.record(fen, info.score, side, info.depth);
          if (info.pvMoves && info.pvMoves.length) {
            const m = info.pvMoves[0];
            board.setArrows([{ from: m.from, to: m.to }]);
          }
        },
      )
      .catch(() => {});
  }, 150);
}

// ---- position editor -----------------------------------------------------------------------------

const editor = { board: null, pieces: new Map(), tool: "black-man" };

function editorFen() {
  const side = $("editor-side").value === "black" ? "B" : "W";
  const list = (color) =>
    [...editor.pieces.entries()]
      .filter(([, p]) => p.color === color)
      .sort((a, b) => a[0] - b[0])
      .map(([sq, p]) => (p.role === "king" ? `K${sq}` : String(sq)))
      .join(",");
  return `${side}:W${list("white")}:B${list("black")}`;
}

function editorRender() {
  const variant = $("editor-variant").value;
  const [man, king] = variant === "impasse" ? ["single", "double"] : ["man", "king"];
  for (const b of document.querySelectorAll(".palette button[data-piece]")) {
    const [color, role] = b.dataset.piece.split("-");
    if (role) b.textContent = `${cap(color)} ${role === "man" ? man : king}`;
  }
  const pieces = [...editor.pieces.entries()].map(([square, p]) => ({ square, ...p }));
  editor.board.setPosition(pieces, { variant });
  $("editor-fen").value = editorFen();
  const err = $("editor-error");
  try {
    // Strict: a position the person builds must be legal as it stands (no repairs).
    crown.checkFen(variant, editorFen());
    err.hidden = true;
    $("editor-ok").disabled = false;
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    $("editor-ok").disabled = true;
  }
}

function editorLoadFen(variant, fen) {
  editor.pieces.clear();
  for (const p of crown.piecesOfFen(variant, fen)) editor.pieces.set(p.square, { color: p.color, role: p.role });
  $("editor-side").value = fen.trim().toUpperCase().startsWith("B") ? "black" : "white";
}

function openEditor() {
  if (!editor.board) {
    editor.board = new Board($("editor-board"), {
      onSquareClick: (sq) => {
        if (!sq) return;
        const [color, role] = editor.tool.split("-");
        const cur = editor.pieces.get(sq);
        if (editor.tool === "empty" || (cur && cur.color === color && cur.role === role)) {
          editor.pieces.delete(sq);
        } else {
          editor.pieces.set(sq, { color, role });
        }
        editorRender();
      },
    });
    editor.board.setShowNumbers(true);
    for (const b of document.querySelectorAll(".palette button")) {
      b.addEventListener("click", () => {
        editor.tool = b.dataset.piece;
        for (const x of document.querySelectorAll(".palette button")) x.classList.toggle("active", x === b);
      });
    }
    $("editor-side").addEventListener("change", editorRender);
    $("editor-variant").addEventListener("change", editorRender);
    $("editor-start").addEventListener("click", () => {
      const v = $("editor-variant").value;
      editorLoadFen(v, crown.startFen(v, "seed"));
      editorRender();
    });
    $("editor-clear").addEventListener("click", () => {
      editor.pieces.clear();
      editorRender();
    });
    $("editor-fen").addEventListener("change", () => {
      const v = $("editor-variant").value;
      try {
        editorLoadFen(v, $("editor-fen").value);
        editorRender();
      } catch (e) {
        $("editor-error").textContent = e.message;
        $("editor-error").hidden = false;
      }
    });
  }
  $("editor-variant").value = state.variant;
  editorLoadFen(state.variant, fenAt(shownPly()));
  editorRender();
  $("dlg-editor").showModal();
}

function editorDone() {
  const variant = $("editor-variant").value;
  try {
    const g = crown.Game.fromFen(variant, editorFen());
    setMode("analysis", { keepGame: true });
    if (state.game) state.game.free();
    state.game = g;
    state.variant = variant;
    state.viewPly = null;
    state.overShown = false;
    refresh();
  } catch (e) {
    toast(e.message);
  }
}

// ---- PDN -----------------------------------------------------------------------------------------

function pdnTags() {
  const d = new Date();
  const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, "0")}.${String(d.getDate()).padStart(2, "0")}`;
  const tags = [
    ["Event", state.mode === "play" ? (state.hotseat ? "Crown hot-seat game" : "Crown vs human") : state.mode === "online" ? "Crown online game" : "Crown analysis"],
    ["Site", location.host || "Crown"],
    ["Date", date],
  ];
  for (const color of ["black", "white"]) {
    tags.push([cap(color), state.mode === "online" && online ? online.pdnName(color) : nameOf(color)]);
  }
  return tags;
}

function pdnDownload() {
  if (!hasPdn()) return;
  try {
    let text;
    if (state.mode === "analysis" && state.root && typeof state.game.toPdnTree === "function") {
      // the main line with its variations and comments; an imported game keeps all its tags
      syncTree();
      const tags = state.pdnInfo
        ? state.pdnInfo.tags.filter(([k]) => !["result", "gametype", "setup", "fen"].includes(k.toLowerCase()))
        : pdnTags();
      const main = state.mainGame || state.game;
      text = main.toPdnTree(tags, state.root.comment || "", tree.pdnEntries(state.root));
    } else {
      text = state.game.toPdn(pdnTags());
    }
    download(`crown-${state.variant}-${Date.now()}.pdn`, text);
  } catch (e) {
    toast(e.message);
  }
}

/**
 * Open a PDN text: one game at once (errors thrown: the import dialog shows them); a file of several
 * games is read in the background worker with a progress bar, then the game picker lists them.
 */
function pdnOpen(text, name = "the games") {
  if (typeof crown.pdnIndex !== "function") {
    openPdnGame(text, 1, 1);
    return;
  }
  if (splitPdn(text, 1).length <= 1) {
    // at most one tag block: small enough to read here, and its errors go to the import dialog
    const entries = crown.pdnIndex(text);
    if (!entries.length) throw new Error("the text holds no PDN game");
    if (entries.length === 1) {
      state.pdnFile = null;
      $("pdn-games").hidden = true;
      openPdnGame(text, 1, 1);
      return;
    }
  }
  graph.stop(); // the worker that reads the file gets the CPU; the graph goes on afterwards
  picker.loading(name);
  indexPdn(text, (done, total) => picker.setProgress(done, total), (t) => crown.pdnIndex(t))
    .then(({ entries, chunks, ms }) => {
      state.pdnIndexMs = ms;
      if (!entries.length) throw new Error("the text holds no PDN game");
      state.pdnFile = { chunks, entries };
      $("pdn-games").hidden = false;
      if (!picker.finish(entries)) toast(`${entries.length} games read: the Games button lists them.`);
    })
    .catch((err) => {
      picker.stopReading();
      $("dlg-games").close();
      toast(`${name}: ${err.message}`, 8000);
    });
}

/**
 * Open game `index` (1-based) of a PDN text on the analysis board, with its tree and tags;
 * `number` is its number in the file it came from (a chunk of a big file, see picker.js).
 */
function openPdnGame(text, index, count, number = index) {
  const g = typeof crown.Game.fromPdnGame === "function" ? crown.Game.fromPdnGame(text, index) : crown.Game.fromPdn(text);
  engine.stop();
  setMode("analysis", { keepGame: true });
  if (state.game) state.game.free();
  state.game = g;
  state.variant = g.variant();
  let info = { tags: [], index: number, count, error: null };
  if (typeof crown.pdnTree === "function") {
    const view = crown.pdnTree(text, index);
    const { root, dropped } = tree.treeOfPdn(view, () => crown.Game.fromFen(state.variant, g.startFen()));
    state.root = root;
    state.path = tree.lineThrough(root);
    if (state.mainGame) state.mainGame.free();
    state.mainGame = g.clone();
    info = { tags: view.tags, index: number, count, error: view.error };
    if (view.error) toast(`Game ${number} stops early: ${view.error}`, 8000);
    else if (dropped) toast(`${dropped} variation(s) with an illegal move were cut there.`, 6000);
  }
  state.history = g.history();
  // keep the tree only when it matches the replayed main line
  if (state.path.length !== state.history.length) {
    state.root = null;
    syncTree();
  }
  state.pdnInfo = info;
  state.viewPly = 0;
  state.overShown = true;
  refresh();
}

/** Players, event, date and result of an imported game above the move list. */
function renderGameInfo() {
  const box = $("game-info");
  const info = state.mode === "analysis" ? state.pdnInfo : null;
  box.hidden = !info;
  if (!info) return;
  const t = (name) => {
    const x = info.tags.find(([k]) => k.toLowerCase() === name.toLowerCase());
    return x && x[1] !== "?" ? x[1] : "";
  };
  $("info-players").textContent = `${t("Black") || "?"} (Black) – ${t("White") || "?"} (White)`;
  const o = state.mainGame ? state.mainGame.outcome() : null;
  // the main line's result: the import gave it the file's (terminator, else Result tag); a promoted
  // variation has its own
  const result = o ? o.result : "*";
  $("info-event").textContent = [t("Event"), t("Site"), t("Date"), result].filter(Boolean).join(" · ");
  $("info-number").textContent = info.count > 1 ? `Game ${info.index} of ${info.count}` : "";
}

// ---- modes ---------------------------------------------------------------------------------------

function setFlipped(f) {
  state.flipped = f;
  board.setFlipped(f);
}

/** Clone of a wasm game (start position and moves, its declared result not included). */
function cloneGame(g, variant) {
  const c = crown.Game.fromFen(variant, g.startFen());
  for (const t of moveTexts(g)) c.play(t);
  return c;
}

/**
 * Keep the online game apart from the local one when the mode changes: entering online mode puts
 * the local game aside (its clock paused) and shows the server's game; leaving it brings the local
 * game back, or with `keepGame` (Analyse after an online game) a copy of the online game.
 */
function swapGames(from, to, keepGame) {
  if (from !== "online" && to === "online") {
    localSlot = {
      game: state.game,
      variant: state.variant,
      viewPly: state.viewPly,
      clock: state.clock,
      flipped: state.flipped,
      overShown: state.overShown,
    };
    if (state.clock) state.clock.running = null;
    state.clock = null;
    state.game = new crown.Game(state.variant, state.variant === "impasse" ? state.setup : undefined);
    state.viewPly = null;
    state.overShown = false;
    if (online) online.resync();
  } else if (from === "online" && to !== "online") {
    const onlineGame = state.game;
    if (keepGame && onlineGame) {
      state.game = cloneGame(onlineGame, state.variant);
      if (localSlot && localSlot.game) localSlot.game.free();
      state.clock = localSlot ? localSlot.clock : null;
      if (state.clock) state.clock.running = null;
    } else if (localSlot) {
      state.game = localSlot.game;
      state.variant = localSlot.variant;
      state.viewPly = localSlot.viewPly;
      state.clock = localSlot.clock;
      state.overShown = localSlot.overShown;
      setFlipped(localSlot.flipped);
      if (state.clock && to === "play" && !state.game.outcome()) {
        state.clock.running = state.game.sideToMove();
        state.clock.last = performance.now();
      }
    } else {
      state.game = new crown.Game(state.variant, state.variant === "impasse" ? state.setup : undefined);
      state.viewPly = null;
    }
    localSlot = null;
    if (onlineGame && onlineGame !== state.game) onlineGame.free();
    if (online) online.lobby.hide();
  }
}

function setMode(mode, { keepGame = false } = {}) {
  if (state.mode !== mode) engine.stop();
  const prev = state.mode;
  state.mode = mode;
  document.body.dataset.mode = mode; // style.css: the analysis panel's two columns
  if (mode === "online" && !online) online = new Online(onlineHooks());
  if (prev !== mode && state.game) swapGames(prev, mode, keepGame);
  state.thinking = false;
  for (const b of document.querySelectorAll(".mode-btn")) b.classList.toggle("active", b.dataset.mode === mode);
  $("actions-play").hidden = mode !== "play";
  $("actions-online").hidden = mode !== "online";
  $("actions-analysis").hidden = mode !== "analysis";
  $("eval-box").hidden = mode !== "analysis";
  board.setArrows([]);
  if (mode !== "play" && state.clock) state.clock.running = null;
  if (!keepGame && mode === "analysis") {
    // analyse the game on the board
    state.viewPly = null;
  }
  if (state.game) refresh();
}

function onlineHooks() {
  return {
    crown,
    setGame(game, variant) {
      if (state.game) state.game.free();
      state.game = game;
      state.variant = variant;
      state.viewPly = null;
      state.overShown = false;
      refresh();
    },
    getGame: () => state.game,
    remoteMove(before, m) {
      refresh({ animateMove: m, before });
      checkOver();
    },
    refresh: () => {
      refresh();
      checkOver();
    },
    flip: (f) => setFlipped(f),
    toast,
    setStatus,
    sounds,
    active: () => state.mode === "online",
    enterOnline: () => {
      if (state.mode !== "online") setMode("online");
    },
    premoveArrow: (a) => {
      if (state.mode === "online") board.setArrows(a ? [a] : []);
    },
    playMove: (m) => {
      if (state.mode === "online" && state.viewPly == null) onBoardMove(m);
    },
  };
}

// ---- wiring --------------------------------------------------------------------------------------

function wire() {
  initTheme();
  document.body.dataset.mode = state.mode;
  board = new Board($("board"), { onMove: onBoardMove });
  $("board").addEventListener("path-choice", (e) => {
    const { candidates, choose } = e.detail;
    const box = $("choices");
    box.replaceChildren();
    $("choice-title").textContent = "Which capture?";
    for (const m of candidates) {
      const b = document.createElement("button");
      b.type = "button";
      const caps = m.captures.length ? ` — takes ${m.captures.join(", ")}` : "";
      b.textContent = `${m.longText}${caps}`;
      b.addEventListener("mouseenter", () => board.setArrows(pathArrows(m)));
      b.addEventListener("click", () => {
        $("dlg-choice").close("chosen");
        board.setArrows([]);
        choose(m);
      });
      box.appendChild(b);
    }
    $("dlg-choice").onclose = () => {
      if ($("dlg-choice").returnValue !== "chosen") {
        board.setArrows([]);
        choose(null);
      }
      $("dlg-choice").returnValue = "";
    };
    $("dlg-choice").showModal();
  });
  $("board").addEventListener("crown-choice", (e) => {
    // beside the board (the panel), never over the crowning square; one button per single
    $("crown-text").textContent = `Crown: choose the single to stack on ${e.detail.onto}`;
    const box = $("crown-singles");
    box.replaceChildren(
      ...e.detail.singles.map((sq) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = `Single on ${sq}`;
        b.dataset.square = String(sq);
        b.addEventListener("click", () => board.chooseCrown(sq));
        return b;
      }),
    );
    $("banner").hidden = false;
  });
  const origOnMove = board.onMove;
  board.onMove = (m) => {
    $("banner").hidden = true;
    origOnMove(m);
  };

  for (const b of document.querySelectorAll(".mode-btn")) {
    b.addEventListener("click", () => {
      const mode = b.dataset.mode;
      if (mode === "online") {
        setMode("online");
        if (!online.gameId) {
          online.showLobby();
          online.openCreateDialog();
        }
      } else {
        setMode(mode);
        if (mode === "play") maybeEngineMove();
      }
    });
  }

  $("nav-first").addEventListener("click", () => goto(0));
  $("nav-prev").addEventListener("click", () => goto(shownPly() - 1));
  $("nav-next").addEventListener("click", () => goto(shownPly() + 1));
  $("nav-last").addEventListener("click", () => goto(state.history.length));
  $("flip").addEventListener("click", () => {
    setFlipped(!state.flipped);
    renderBars();
  });
  const settings = storage.loadSettings();
  if (typeof settings.numbers === "boolean") {
    $("show-numbers").checked = settings.numbers;
    board.setShowNumbers(settings.numbers);
  }
  $("show-numbers").addEventListener("change", (e) => {
    board.setShowNumbers(e.target.checked);
    storage.saveSettings({ numbers: e.target.checked });
  });

  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    playTyped();
  });
  document.addEventListener("keydown", (e) => {
    if (document.querySelector("dialog[open]")) return;
    if (e.target instanceof Element && e.target.closest("#board")) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === "ArrowLeft") goto(shownPly() - 1);
    else if (e.key === "ArrowRight") goto(shownPly() + 1);
    else if (e.key === "Home") goto(0);
    else if (e.key === "End") goto(state.history.length);
    else if (e.key === "f") $("flip").click();
    else if (e.key === "Escape") {
      board.deselect();
      if (online) online.cancelPremove();
      $("banner").hidden = true;
    } else return;
    e.preventDefault();
  });

  // new game dialog
  $("level-range").addEventListener("input", (e) => ($("level-out").textContent = e.target.value));
  const showOpponent = () => {
    const hot = $("opponent-hotseat").checked;
    $("hotseat-names").hidden = !hot;
    for (const el of document.querySelectorAll("#form-new .engine-only")) el.hidden = hot;
  };
  for (const r of document.querySelectorAll('#form-new input[name="opponent"]')) r.addEventListener("change", showOpponent);
  $("new-game").addEventListener("click", () => {
    $("opponent-hotseat").checked = state.hotseat;
    if (!state.hotseat) document.querySelector('#form-new input[name="opponent"][value="engine"]').checked = true;
    $("name-black").value = state.names.black;
    $("name-white").value = state.names.white;
    showOpponent();
    $("level-range").value = state.level;
    $("level-out").textContent = state.level;
    $("dlg-new").showModal();
  });
  $("dlg-new").addEventListener("close", () => {
    if ($("dlg-new").returnValue !== "ok") return;
    const f = new FormData($("form-new"));
    setMode("play", { keepGame: true });
    newGame({
      variant: f.get("variant"),
      setup: f.get("setup"),
      side: f.get("side"),
      level: Number(f.get("level")),
      clock: f.get("clock"),
      hotseat: f.get("opponent") === "hotseat",
      names: { black: String(f.get("name_black") || ""), white: String(f.get("name_white") || "") },
    });
  });
  $("takeback").addEventListener("click", takeback);
  $("offer-draw").addEventListener("click", offerDraw);
  $("resign").addEventListener("click", resign);

  $("dlg-over").addEventListener("close", () => {
    const v = $("dlg-over").returnValue;
    if (v === "pdn") pdnDownload();
    else if (v === "analyse") {
      setMode("analysis", { keepGame: true });
    } else if (v === "again") {
      if (state.mode === "online") online.openCreateDialog();
      else {
        setMode("play", { keepGame: true });
        $("new-game").click();
      }
    }
  });

  // analysis
  $("analysis-engine").addEventListener("change", (e) => {
    state.analysisOn = e.target.checked;
    analyse();
  });
  $("edit-position").addEventListener("click", openEditor);
  $("review-game").addEventListener("click", reviewGame);
  $("play-from-here").addEventListener("click", playFromHere);
  graph = new EvalGraph($("eval-graph"), grapher, (ply) => goto(ply));
  $("var-promote").addEventListener("click", () => {
    const end = state.path[state.path.length - 1];
    if (end) promoteLine(end);
  });
  $("var-delete").addEventListener("click", () => {
    const end = state.path[state.path.length - 1];
    const v = end && tree.variationStart(end);
    if (v) deleteLine(v);
  });
  $("dlg-editor").addEventListener("close", () => {
    if ($("dlg-editor").returnValue === "ok") editorDone();
  });
  $("analysis-new").addEventListener("click", () => {
    const g = new crown.Game(state.variant, state.variant === "impasse" ? state.setup : undefined);
    state.game.free();
    state.game = g;
    state.viewPly = null;
    refresh();
  });

  // PDN
  $("pdn-download").addEventListener("click", pdnDownload);
  $("pdn-import").addEventListener("click", () => {
    $("pdn-error").hidden = true;
    $("dlg-pdn").showModal();
  });
  $("pdn-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) $("pdn-text").value = await f.text();
  });
  picker = new GamePicker($("dlg-games"), (entry) => {
    const f = state.pdnFile;
    try {
      openPdnGame(f.chunks[entry.chunk], entry.local, f.entries.length, entry.index);
    } catch (err) {
      toast(err.message, 8000);
    }
  });
  $("pdn-games").addEventListener("click", () => {
    if (!state.pdnFile) return;
    graph.stop();
    picker.open(state.pdnFile.entries);
  });
  $("dlg-games").addEventListener("close", () => {
    if (state.game) renderGraph(); // the graph's background search resumes (after a pick: refresh did it)
  });
  $("pdn-ok").addEventListener("click", (e) => {
    try {
      const file = $("pdn-file").files[0];
      pdnOpen($("pdn-text").value, file ? file.name : "the games");
    } catch (err) {
      e.preventDefault();
      $("pdn-error").textContent = err.message;
      $("pdn-error").hidden = false;
    }
  });
  $("fen-copy").addEventListener("click", async () => {
    const fen = fenAt(shownPly());
    try {
      await navigator.clipboard.writeText(fen);
      toast(`FEN copied: ${fen}`);
    } catch (_) {
      toast(fen, 8000);
    }
  });

  const soundBtn = $("sound-toggle");
  const showSound = () => {
    soundBtn.setAttribute("aria-pressed", String(sounds.muted));
    soundBtn.title = sounds.muted ? "Sounds off (click to turn on)" : "Sounds on (click to mute)";
    soundBtn.setAttribute("aria-label", sounds.muted ? "Sounds off" : "Sounds on");
  };
  soundBtn.addEventListener("click", () => {
    sounds.setMuted(!sounds.muted);
    showSound();
  });
  showSound();

  setInterval(tickClock, 100);
  window.addEventListener("pagehide", saveLocal);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && saveLocal());
}

function pathArrows(m) {
  const pts = [m.from, ...m.path];
  const out = [];
  for (let i = 0; i + 1 < pts.length; i++) out.push({ from: pts[i], to: pts[i + 1], color: "#1e88e5" });
  return out;
}

async function main() {
  await init();
  wire();
  window.crownApp = { state, crown, board, engine, sounds, online: () => online, graph: () => graph }; // for the end-to-end tests and the console
  const params = new URLSearchParams(location.search);
  const link = location.pathname.match(/\/g\/([^/]+)\/?$/);
  const gameId = params.get("game") || (link && decodeURIComponent(link[1]));
  if (gameId) {
    // a shared link: play with this browser's seat, take the open seat, or watch
    state.game = new crown.Game("american");
    setMode("online");
    await online.join(gameId);
    document.body.dataset.ready = "1";
    return;
  }
  let variant = params.get("variant") || "american";
  try {
    crown.startFen(variant);
  } catch (e) {
    toast(e.message);
    variant = "american";
  }
  const fen = params.get("fen");
  const setup = params.get("setup") || "seed";
  if (fen || params.get("mode") === "analysis") {
    // ?mode=analysis&variant=pool&fen=W:WK29:B22,19&moves=29-25,19-23&ply=1 opens an analysis board
    openAnalysisUrl(params, variant, setup);
  } else if (params.has("variant") || !restoreLocal()) {
    newGame({ variant, setup, side: "first", level: 4 });
  }
  engine.ready().then(() => {
    renderBars();
    renderStatus();
    renderButtons();
  });
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  console.error(e);
  setStatus(`Could not start: ${e.message}`, "error");
});
