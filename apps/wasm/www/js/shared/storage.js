// What survives a reload: the local game (against the engine, or the analysis board with its
// variation tree) and the settings, in localStorage. Online games are not kept here: the server
// holds them.

const GAME_KEY = "crown.localGame.v1";
const SETTINGS_KEY = "crown.settings.v1";

function read(key) {
  try {
    const s = localStorage.getItem(key);
    return s ? JSON.parse(s) : null;
  } catch (_) {
    return null; // storage off (private mode) or a value from a foreign build: start fresh
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (_) {
    return false; // full or off: the page keeps working without it
  }
}

/** The saved local game, or null. */
export function loadGame() {
  const g = read(GAME_KEY);
  return g && typeof g.startFen === "string" && Array.isArray(g.moves) ? g : null;
}

/** Save the local game (see `save` in play/ctrl.js and analysis/ctrl.js for its fields). */
export function saveGame(g) {
  return write(GAME_KEY, g);
}

/** Forget the saved local game. */
export function clearGame() {
  try {
    localStorage.removeItem(GAME_KEY);
  } catch (_) {
    /* storage off */
  }
}

/** The saved settings (an object, empty when none). */
export function loadSettings() {
  const s = read(SETTINGS_KEY);
  return s && typeof s === "object" ? s : {};
}

/** Merge `patch` into the saved settings. */
export function saveSettings(patch) {
  return write(SETTINGS_KEY, { ...loadSettings(), ...patch });
}

/**
 * Replay a saved game into a wasm Game: the start position, the moves (long text) with the APCA
 * count claims at their plies (`claims`, pool), then an ending the board does not show
 * (resignation, time, agreement), so the game is restored exactly.
 * Throws the wasm error of the first move that does not replay.
 */
export function replayGame(crown, saved) {
  const g = crown.Game.fromFen(saved.variant, saved.startFen);
  const claims = claimsOf(saved);
  try {
    const claimAt = (ply) => {
      for (const c of claims) if (c.ply === ply) g.claimCount(c.color, c.rule);
    };
    saved.moves.forEach((m, i) => {
      claimAt(i);
      g.play(m);
    });
    claimAt(saved.moves.length);
    const o = saved.outcome;
    if (o && g.outcome() === null) {
      const loser = o.winner === "black" ? "white" : "black";
      if (o.reason === "resignation" && o.winner) g.resign(loser);
      else if (o.reason === "time" && o.winner) g.loseOnTime(loser);
      else if (o.reason === "agreement") g.agreeDraw();
    }
  } catch (e) {
    g.free();
    throw e;
  }
  return g;
}

/** The APCA count claims of a saved game ({ply, color, rule}; ply = plies played before the claim), well-formed ones only. */
export function claimsOf(saved) {
  if (!Array.isArray(saved.claims)) return [];
  return saved.claims.filter(
    (c) => c && Number.isInteger(c.ply) && c.ply >= 0 && (c.color === "black" || c.color === "white") && (c.rule === 27 || c.rule === 28),
  );
}

/** The fields of an outcome a replay needs to restore it. */
export function outcomeOf(game) {
  const o = game.outcome();
  return o ? { reason: o.reason, winner: o.winner } : null;
}

const PUZZLES_KEY = "crown.puzzles.v1";

/**
 * The puzzle trainer's saved state: `{ratings, streak, solved}` — the Glicko-2 ratings in the
 * format of the TUI's puzzles.json (player, best_streak, puzzles), the current streak of clean
 * solves and the ids solved; empty when none or unreadable.
 */
export function loadPuzzles() {
  const s = read(PUZZLES_KEY);
  if (!s || typeof s !== "object") return {};
  const ok = s.ratings && typeof s.ratings === "object" && s.ratings.player && Number.isFinite(s.ratings.player.rating);
  return {
    ratings: ok ? s.ratings : null,
    streak: Number.isInteger(s.streak) && s.streak >= 0 ? s.streak : 0,
    solved: Array.isArray(s.solved) ? s.solved.filter((x) => typeof x === "string") : [],
  };
}

/** Save the puzzle trainer's state (see `loadPuzzles`). */
export function savePuzzles(p) {
  return write(PUZZLES_KEY, p);
}
