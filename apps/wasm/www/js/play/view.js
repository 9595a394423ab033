// The play page's views: its buttons (take back, offer a draw, resign) and the new game dialog.

import { $ } from "../shared/util.js";

/** A clock setting "base+increment" (seconds) as the play clock ({black, white, inc} in ms), or null. */
export function parseClock(v) {
  if (!v) return null;
  const [base, inc] = v.split("+").map(Number);
  return { black: base * 1000, white: base * 1000, inc: inc * 1000, running: null, last: 0 };
}

/** The play buttons of `ctrl` (off when the page is not `active` or the game is over). */
export function renderButtons(ctrl, active) {
  const over = ctrl.table.game.outcome() !== null;
  // a finished game is not taken back (a resignation stays); analysis tries moves instead
  $("takeback").disabled = !active || ctrl.table.history.length === 0 || over;
  $("resign").disabled = !active || over;
  $("offer-draw").disabled = !active || over || (ctrl.engine.available === false && !ctrl.hotseat);
  $("offer-draw").textContent = ctrl.hotseat ? "Agree draw" : "Offer draw";
  // Impasse has no draws (docs/rules.md): no offer to make
  $("offer-draw").hidden = ctrl.table.variant === "impasse";
  // Pool: a running APCA count, and the count the player may claim now (rule 28, else rule 27)
  const line = active ? ctrl.countText() : "";
  $("count-line").textContent = line;
  $("count-line").hidden = !line;
  const rule = active && !over ? ctrl.claimableCount() : undefined;
  const claim = $("claim-count");
  claim.hidden = !rule;
  if (rule) {
    claim.textContent = rule === 28 ? "Claim the 13 count" : "Claim the 38 count";
    claim.title = COUNT_RULES[rule].title;
  }
}

/**
 * The APCA counts as the rules word them (shared/rules/american-pool-checkers-apca.txt, rules 27
 * and 28): the claim dialog's title and text, keyed by rule number.
 */
export const COUNT_RULES = {
  27: {
    title: "Claim the 38 count (APCA rule 27)?",
    text:
      "You are the weaker side (a king counts two points, a single piece one). The stronger side is " +
      "required to complete a win within thirty-eight moves: if you say “thirty-eight” in your " +
      "counting, it is a draw. The counting starts with your first move after the claim.",
  },
  28: {
    title: "Claim the 13 count (APCA rule 28)?",
    text:
      "Your lone king must be caught before you count to “thirteen”: if you say “thirteen” in your " +
      "counting, you have a draw. The first count is your lone king's next move.",
  },
};

/** Wire the play buttons and the new game dialog (#dlg-new) to `ctrl`. */
export function wireButtons(ctrl) {
  // the level range and its default come from the wasm module (crown_ai::level), not from the page
  $("level-range").min = ctrl.crown.minLevel();
  $("level-range").max = ctrl.crown.maxLevel();
  $("level-range").value = $("level-out").textContent = ctrl.crown.defaultLevel();
  $("level-range").addEventListener("input", (e) => ($("level-out").textContent = e.target.value));
  const showOpponent = () => {
    const hot = $("opponent-hotseat").checked;
    $("hotseat-names").hidden = !hot;
    for (const el of document.querySelectorAll("#form-new .engine-only")) el.hidden = hot;
  };
  for (const r of document.querySelectorAll('#form-new input[name="opponent"]')) r.addEventListener("change", showOpponent);
  $("new-game").addEventListener("click", () => {
    $("opponent-hotseat").checked = ctrl.hotseat;
    if (!ctrl.hotseat) document.querySelector('#form-new input[name="opponent"][value="engine"]').checked = true;
    $("name-black").value = ctrl.names.black;
    $("name-white").value = ctrl.names.white;
    showOpponent();
    $("level-range").value = ctrl.level;
    $("level-out").textContent = ctrl.level;
    $("dlg-new").showModal();
  });
  $("dlg-new").addEventListener("close", () => {
    if ($("dlg-new").returnValue !== "ok") return;
    const f = new FormData($("form-new"));
    ctrl.app.setMode("play", { keepGame: true });
    ctrl.newGame({
      variant: f.get("variant"),
      setup: f.get("setup"),
      side: f.get("side"),
      level: Number(f.get("level")),
      clock: f.get("clock"),
      hotseat: f.get("opponent") === "hotseat",
      names: { black: String(f.get("name_black") || ""), white: String(f.get("name_white") || "") },
    });
  });
  $("takeback").addEventListener("click", () => ctrl.takeback());
  $("offer-draw").addEventListener("click", () => ctrl.offerDraw());
  $("resign").addEventListener("click", () => ctrl.resign());
  $("claim-count").addEventListener("click", () => ctrl.claimCount());
}
