// The first visit's welcome (#welcome in index.html): what the three games are, how to move, and
// where online play, puzzles and analysis are. Shown on the first visit only: once shown it is
// remembered in localStorage, and "Got it" puts it away.

import { $ } from "./util.js";

/** The localStorage key that remembers the welcome was shown (any value). */
export const WELCOME_KEY = "crown.welcomed.v1";

/** Whether this browser has seen the welcome (storage off: treated as seen, never shown again and again). */
function seen() {
  try {
    return localStorage.getItem(WELCOME_KEY) !== null;
  } catch (_) {
    return true;
  }
}

/** Show the welcome on a first visit and remember it; "Got it" hides it and gives the focus to the board. */
export function initWelcome() {
  const box = $("welcome");
  if (!box || seen()) return;
  box.hidden = false;
  try {
    localStorage.setItem(WELCOME_KEY, "1");
  } catch (_) {
    /* storage off: shown this once */
  }
  $("welcome-close").addEventListener("click", () => {
    box.hidden = true;
    const sq = document.querySelector('#board rect.sq[tabindex="0"]');
    if (sq) sq.focus({ preventScroll: true });
  });
}
