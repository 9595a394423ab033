// The "your turn" views (turns/ctrl.js drives them): the top bar's button with the count of my
// games where it is my move, and the list it opens (each game opens on the online page). Every
// text from the server is set with textContent, never as HTML.

import { el } from "../shared/util.js";
import { daysText, deadlineWhen, timeControlText, timeLeftText } from "../shared/clock.js";
import { GAMES } from "../shared/rating.js";

/** The list of games (a dialog appended to the body). */
function buildList() {
  const list = el("ul", { id: "turns-list", class: "challenge-list", "aria-labelledby": "dlg-turns-title" });
  const none = el("p", { id: "turns-none", class: "dim" }, "No game waits for your move.");
  const error = el("p", { class: "error", id: "turns-error", role: "alert" });
  const close = el("button", { type: "button", id: "turns-close" }, "Close");
  const dlg = el("dialog", { id: "dlg-turns", class: "dialog wide", "aria-labelledby": "dlg-turns-title" }, el("h2", { id: "dlg-turns-title" }, "Your turn"), list, none, error, el("menu", {}, close));
  document.body.append(dlg);
  return { dlg, list, none, error, close };
}

/** Build the views: the top bar's button (before the challenges' button) and the list; returns their elements. */
export function build() {
  const count = el("span", { id: "turns-count", class: "badge" }, "0");
  const button = el(
    "button",
    { type: "button", id: "turns-btn", class: "turns-btn", hidden: true, "aria-haspopup": "dialog", "aria-label": "Your turn: 0 games", title: "Your turn: my games where it is my move" },
    el("span", { class: "label-long" }, "Your turn "),
    el("span", { class: "label-short", "aria-hidden": "true" }, "▶"),
    count,
  );
  document.getElementById("challenges-btn").before(button);
  return { button, count, list: buildList() };
}

/** How game `g` of the list is timed: "1 day per move", "5+3", "untimed". */
function timeText(g) {
  if (g.days) return `${daysText(g.days)} per move`;
  return g.speed ? g.speed : timeControlText(null);
}

/** When `g` must be moved in, from `nowMs`: "move by Tue 8 Dec, 18:40 (23 h 59 min left)", or "". */
export function deadlineText(g, nowMs) {
  if (g.deadline_ms == null) return "";
  return `move by ${deadlineWhen(g.deadline_ms)} (${timeLeftText(g.deadline_ms - nowMs)} left)`;
}

/** The games `data` ({count, games}) in `v`; `open(g)` opens one. */
export function render(v, data, open) {
  const now = Date.now();
  v.list.list.replaceChildren(
    ...data.games.map((g) => {
      const b = el("button", { type: "button", class: "primary turn-open" }, "Open");
      b.addEventListener("click", () => open(g));
      const words = [`vs ${g.opponent || "?"}`, GAMES[g.variant] || g.variant, timeText(g), `you play ${g.color}`, deadlineText(g, now)].filter(Boolean);
      return el("li", { "data-id": g.id }, el("span", {}, words.join(" · ")), el("span", { class: "challenge-actions" }, b));
    }),
  );
  v.list.none.hidden = data.games.length > 0;
  const n = data.count;
  v.count.textContent = String(n);
  v.button.setAttribute("aria-label", `Your turn: ${n} ${n === 1 ? "game" : "games"}`);
  v.button.classList.toggle("has-turns", n > 0);
}
