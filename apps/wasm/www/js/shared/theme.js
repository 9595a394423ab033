// Page theme (light / dark, following the system unless chosen), board colours and piece set,
// remembered in localStorage (storage.js settings) and applied as data-* attributes on <html>.
import { loadSettings, saveSettings } from "./storage.js";

const dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** The page theme for a setting: `light`, `dark`, or `system` (what the system prefers). */
function resolve(theme) {
  if (theme === "light" || theme === "dark") return theme;
  return dark && !dark.matches ? "light" : "dark";
}

/** Apply settings {theme, board, pieces} to the page. */
export function applyTheme({ theme = "system", board = "green", pieces = "classic" } = {}) {
  const root = document.documentElement;
  root.dataset.theme = resolve(theme);
  root.dataset.themeSetting = theme;
  root.dataset.board = board === "wood" ? "wood" : "green";
  root.dataset.pieces = pieces === "contrast" ? "contrast" : "classic";
}

/** Apply the saved settings and wire the selects #theme-select, #board-select, #pieces-select. */
export function initTheme() {
  const s = loadSettings();
  const current = { theme: s.theme || "system", board: s.board || "green", pieces: s.pieces || "classic" };
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
