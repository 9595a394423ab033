// The conventions around play a player may turn on, as on lidraughts/lichess, each remembered in
// the settings (storage.js): zen mode (the board, the names and the clocks only, on the play and
// online pages; `z`, the switch, or Escape/the "Leave zen" button), the coordinates on the board's
// edge, and confirming a move of an online game before it is sent (never by default).

import * as storage from "./storage.js";
import { $ } from "./util.js";

/** When an online move waits for Confirm: never (the default), in untimed games only, always. */
export const CONFIRM_CHOICES = ["never", "untimed", "always"];

/** The pages zen mode applies to. */
const ZEN_PAGES = new Set(["play", "online"]);

/** The options of the settings panel (#zen-mode, #show-coords, #confirm-moves) and zen mode on the page. */
export class Options {
  /** `board`: the main board (its coordinates); `mode`: the page on screen. */
  constructor(board, mode) {
    const s = storage.loadSettings();
    this.board = board;
    this.mode = mode;
    this.zen = s.zen === true;
    this.coords = s.coords === true;
    this.confirm = CONFIRM_CHOICES.includes(s.confirm) ? s.confirm : "never";
    board.setShowCoords(this.coords);
    $("show-coords").checked = this.coords;
    $("confirm-moves").value = this.confirm;
    $("show-coords").addEventListener("change", (e) => {
      this.coords = e.target.checked;
      board.setShowCoords(this.coords);
      storage.saveSettings({ coords: this.coords });
    });
    $("confirm-moves").addEventListener("change", (e) => {
      this.confirm = CONFIRM_CHOICES.includes(e.target.value) ? e.target.value : "never";
      storage.saveSettings({ confirm: this.confirm });
    });
    $("zen-mode").addEventListener("change", (e) => this.setZen(e.target.checked));
    $("zen-exit").addEventListener("click", () => this.setZen(false));
    this.#renderZen();
  }

  /** Whether zen mode is on the page now (on, and the play or online page on screen). */
  get zenShown() {
    return this.zen && ZEN_PAGES.has(this.mode);
  }

  /** Whether the `z` key toggles zen mode on the page on screen. */
  get zenHere() {
    return ZEN_PAGES.has(this.mode);
  }

  /** Turn zen mode on or off (remembered). */
  setZen(on) {
    this.zen = !!on;
    storage.saveSettings({ zen: this.zen });
    this.#renderZen();
  }

  /** The page on screen changed to `mode`: zen mode shows on the play and online pages only. */
  applyMode(mode) {
    this.mode = mode;
    this.#renderZen();
  }

  /** Whether a move of an online game (`timed`: it has a clock) waits for Confirm before it is sent. */
  confirmMove(timed) {
    return this.confirm === "always" || (this.confirm === "untimed" && !timed);
  }

  #renderZen() {
    const on = this.zenShown;
    document.body.classList.toggle("zen", on);
    $("zen-mode").checked = this.zen;
    $("zen-switch").hidden = !this.zenHere;
    $("zen-exit").hidden = !on;
    // the control that had the focus may be hidden now: the focus goes to "Leave zen"
    const a = document.activeElement;
    if (on && a && a !== document.body && !a.closest(".board-area") && !a.closest("dialog")) $("zen-exit").focus();
  }
}
