// Page theme (light / dark, following the system unless chosen), board colours and piece set,
// remembered in localStorage (storage.js settings) and applied as data-* attributes on <html>.
import { loadSettings, saveSettings } from "./storage.js";

const dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** The page theme for a setting: `light`, `dark`, or `system` (what the system prefers). */
function resolve(theme) {
  if (theme === "light" || theme === "dark") return theme;
  return dark && !dark.matches ? "light" : "dark";
}

/** The boards (colour schemes of style.css's `:root[data-board=…]`); the first is the default. */
export const BOARDS = ["green", "wood", "tournament", "blue", "slate"];
/** The piece sets (style.css's `:root[data-pieces=…]`); the first is the default. */
export const PIECE_SETS = ["classic", "wood", "red", "contrast"];

/**
 * Apply settings {theme, board, pieces} to the page: every board drawn (board.js) takes its
 * colours from these attributes, so one choice holds on every page. An unknown name (a setting
 * from another build) falls back to the default.
 */
export function applyTheme({ theme = "system", board = "green", pieces = "classic" } = {}) {
  const root = document.documentElement;
  root.dataset.theme = resolve(theme);
  root.dataset.themeSetting = theme;
  root.dataset.board = BOARDS.includes(board) ? board : BOARDS[0];
  root.dataset.pieces = PIECE_SETS.includes(pieces) ? pieces : PIECE_SETS[0];
}

/** Apply the saved settings and wire the selects #theme-select, #board-select, #pieces-select. */
export function initTheme() {
  const s = loadSettings();
  const current = {
    theme: s.theme || "system",
    board: BOARDS.includes(s.board) ? s.board : BOARDS[0],
    pieces: PIECE_SETS.includes(s.pieces) ? s.pieces : PIECE_SETS[0],
  };
  applyTheme(current);
  const wire = (id, key) => {
    const sel = document.getElementById(id);
    if (!sel) return;
    sel.value = current[key];
    sel.addEventListener("change", () => {
      current[key] = sel.value;
      saveSettings({ [key]: sel.value });
      applyTheme(current);
    });
  };
  wire("theme-select", "theme");
  wire("board-select", "board");
  wire("pieces-select", "pieces");
  if (dark && dark.addEventListener) dark.addEventListener("change", () => applyTheme(current));
}
