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
}

/** Wire the play buttons and the new game dialog (#dlg-new) to `ctrl`. */
export function wireButtons(ctrl) {
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
}
