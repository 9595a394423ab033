// The puzzles page's panel: the game and theme pickers, the puzzle's line, the feedback (correct,
// the refutation of a wrong move, a hint, the solution), the Retry / Hint / Give up / Next buttons
// and the local rating (Glicko-2 rating ± deviation, streak).

import { $ } from "../shared/util.js";

/** The theme tags of the puzzle files (docs/puzzles.md) and their names. */
export const THEME_NAMES = {
  shot: "Shot",
  "multi-jump": "Multi-jump",
  breakthrough: "Breakthrough",
  ending: "Ending",
  "draw-save": "Draw save",
};

/** The theme picker: every theme the set of the page's game has. */
function renderThemes(ctrl) {
  const sel = $("puzzle-theme");
  const themes = ctrl.themesOf(ctrl.variant);
  const want = ["", ...themes].join(",");
  if (sel.dataset.themes !== want) {
    sel.replaceChildren();
    const all = document.createElement("option");
    all.value = "";
    all.textContent = "All themes";
    sel.appendChild(all);
    for (const t of themes) {
      const o = document.createElement("option");
      o.value = t;
      o.textContent = THEME_NAMES[t] || t;
      sel.appendChild(o);
    }
    sel.dataset.themes = want;
  }
  sel.value = ctrl.theme;
}

/** Draw the panel of `ctrl` (puzzles/ctrl.js). */
export function renderPanel(ctrl) {
  $("puzzle-variant").value = ctrl.variant;
  renderThemes(ctrl);
  const p = ctrl.puzzle;
  const info = $("puzzle-info");
  if (p) {
    const themes = p.themes.map((t) => THEME_NAMES[t] || t).join(", ") || "no theme";
    info.textContent = `Puzzle ${p.id} · difficulty ${p.difficulty} · ${themes} · from ${p.source}`;
    info.dataset.puzzle = p.id;
  } else {
    info.textContent = "";
    delete info.dataset.puzzle;
  }
  const fb = $("puzzle-feedback");
  fb.textContent = ctrl.feedback.text;
  fb.className = `puzzle-feedback ${ctrl.feedback.kind}`;
  fb.dataset.kind = ctrl.feedback.kind;
  const s = ctrl.session;
  const over = !s || s.isOver();
  $("puzzle-retry").disabled = !s;
  $("puzzle-hint").disabled = over || ctrl.pending;
  $("puzzle-giveup").disabled = over;
  $("puzzle-next").disabled = !ctrl.sets.has(ctrl.variant);
  const r = ctrl.shownRating();
  const box = $("puzzle-rating");
  box.dataset.rating = r.rating.toFixed(1);
  box.dataset.streak = String(r.streak);
  $("puzzle-rating-value").textContent = `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`;
  $("puzzle-streak").textContent = `${r.streak} (best ${r.best})`;
  $("puzzle-solved").textContent = String(r.solved);
  renderDashboard(ctrl);
}

/** The dashboard of the account's record (logged in): solved and failed by theme, the weakest themes. */
function renderDashboard(ctrl) {
  const box = $("puzzle-dashboard");
  const d = ctrl.server;
  box.hidden = !d && !ctrl.serverNote;
  box.dataset.state = d ? "server" : "local";
  $("puzzle-account").textContent = ctrl.serverNote || (d ? `Rated on your account: ${d.attempts} puzzle${d.attempts === 1 ? "" : "s"}.` : "");
  const themes = d ? d.themes.filter((t) => t.solved + t.failed > 0) : [];
  $("puzzle-themes").hidden = themes.length === 0;
  $("puzzle-themes").tBodies[0].replaceChildren(
    ...themes.map((t) => {
      const tr = document.createElement("tr");
      tr.dataset.theme = t.theme;
      for (const text of [THEME_NAMES[t.theme] || t.theme, String(t.solved), String(t.failed)]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      return tr;
    }),
  );
  const weak = $("puzzle-weakest");
  weak.textContent = d && d.weakest.length ? d.weakest.map((t) => THEME_NAMES[t] || t).join(", ") : "none yet";
  weak.dataset.themes = d ? d.weakest.join(",") : "";
  // the rule, with the server's minimum of attempts (docs/api.md, "weakest")
  const min = d && Number.isInteger(d.weakest_min_attempts) ? d.weakest_min_attempts : 3;
  $("puzzle-weakest-rule").textContent = `Ranked by the share solved, lowest first, among the themes you tried at least ${min} times.`;
}

/** Wire the panel's controls to `ctrl`. */
export function wirePanel(ctrl) {
  $("puzzle-variant").addEventListener("change", (e) => ctrl.open({ variant: e.target.value, theme: "" }));
  $("puzzle-theme").addEventListener("change", (e) => ctrl.open({ theme: e.target.value }));
  $("puzzle-retry").addEventListener("click", () => ctrl.retry());
  $("puzzle-hint").addEventListener("click", () => ctrl.hint());
  $("puzzle-giveup").addEventListener("click", () => ctrl.giveUp());
  $("puzzle-next").addEventListener("click", () => ctrl.next());
}
