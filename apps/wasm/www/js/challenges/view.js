// The challenge views (challenges/ctrl.js drives them): the "Challenge" button and its status
// line on a player's page, the challenge dialog (game, clock or correspondence days, colour,
// rated), and the top bar's
// button with the count of challenges received, which opens the list of challenges (accept, or
// decline with a reason; cancel one's own). Every text from the server is set with textContent,
// never as HTML.

import { el } from "../shared/util.js";
import { CLOCK_PRESETS, CORRESPONDENCE_DAYS, daysText, timeControlText } from "../shared/clock.js";
import { GAMES, playerLink } from "../shared/rating.js";

/** The reasons a challenge is declined (docs/api.md "Challenges"), as the decline menu names them. */
export const REASONS = [
  ["generic", "Not now"],
  ["later", "Later, please"],
  ["too_fast", "Too fast for me"],
  ["too_slow", "Too slow for me"],
  ["casual", "Casual only, please"],
  ["rated", "Rated only, please"],
];

/** A select with `options` ([value, text]). */
function select(attrs, options) {
  const s = el("select", attrs);
  for (const [value, text] of options) s.append(el("option", { value }, text));
  return s;
}

/** The challenge dialog (appended to the body). */
function buildDialog() {
  const variant = select({ id: "ch-variant", name: "variant" }, Object.entries(GAMES));
  const days = CORRESPONDENCE_DAYS.map((d) => [`days:${d}`, `Correspondence: ${daysText(d)} per move`]);
  const clock = select({ id: "ch-clock", name: "clock" }, [["", "No clock (casual only)"], ...CLOCK_PRESETS, ...days]);
  clock.value = "300+3";
  const base = el("input", { type: "number", id: "ch-base", name: "base_min", min: "0.25", max: "1440", step: "0.25", value: "5" });
  const inc = el("input", { type: "number", id: "ch-inc", name: "inc_s", min: "0", max: "3600", step: "1", value: "3" });
  const custom = el("div", { class: "custom-clock", id: "ch-custom", hidden: true }, el("label", {}, "Minutes ", base), el("label", {}, "+ seconds per move ", inc));
  const color = select({ id: "ch-color", name: "color" }, [["random", "Random"], ["black", "Black"], ["white", "White"]]);
  const rated = el("input", { type: "checkbox", id: "ch-rated", name: "rated" });
  const title = el("h2", { id: "dlg-challenge-title" }, "Challenge");
  const form = el(
    "form",
    { method: "dialog", id: "form-challenge", novalidate: true },
    title,
    el("label", {}, "Game ", variant),
    el("label", {}, "Clock ", clock),
    custom,
    el("label", {}, "You play ", color),
    el("div", { class: "rated-row" }, el("label", {}, rated, " Rated")),
    el("p", { class: "error", id: "ch-error", role: "alert" }),
    el(
      "menu",
      {},
      el("button", { type: "button", value: "cancel", id: "ch-cancel" }, "Cancel"),
      el("button", { type: "submit", class: "primary", id: "ch-ok" }, "Send the challenge"),
    ),
  );
  const dlg = el("dialog", { id: "dlg-challenge", class: "dialog", "aria-labelledby": "dlg-challenge-title" }, form);
  document.body.append(dlg);
  return { dlg, form, title, variant, clock, custom, base, inc, color, rated, error: form.querySelector("#ch-error"), ok: form.querySelector("#ch-ok"), cancel: form.querySelector("#ch-cancel") };
}

/** The list of challenges (a dialog appended to the body). */
function buildList() {
  const inc = el("ul", { id: "chl-in", class: "challenge-list", "aria-labelledby": "chl-in-title" });
  const out = el("ul", { id: "chl-out", class: "challenge-list", "aria-labelledby": "chl-out-title" });
  const none = el("p", { id: "chl-none", class: "dim" }, "No challenge waits for an answer.");
  const error = el("p", { class: "error", id: "chl-error", role: "alert" });
  const close = el("button", { type: "button", id: "chl-close" }, "Close");
  const dlg = el(
    "dialog",
    { id: "dlg-challenges", class: "dialog wide", "aria-labelledby": "dlg-challenges-title" },
    el("h2", { id: "dlg-challenges-title" }, "Challenges"),
    el("h3", { id: "chl-in-title" }, "Received"),
    inc,
    el("h3", { id: "chl-out-title" }, "Sent"),
    out,
    none,
    error,
    el("menu", {}, close),
  );
  document.body.append(dlg);
  return { dlg, inc, out, none, error, close };
}

/**
 * Build the views: the top bar's button (before the account control), the dialogs, and the
 * player page's button and status line (after the player's title); returns their elements.
 */
export function build() {
  const count = el("span", { id: "challenges-count", class: "badge" }, "0");
  const button = el(
    "button",
    { type: "button", id: "challenges-btn", class: "challenges-btn", hidden: true, "aria-haspopup": "dialog", "aria-label": "Challenges: 0 received", title: "Challenges received" },
    el("span", { class: "label-long" }, "Challenges "),
    count,
  );
  document.getElementById("account").before(button);
  const challenge = el("button", { type: "button", id: "pl-challenge", hidden: true }, "Challenge");
  const status = el("p", { id: "pl-challenge-status", role: "status", class: "dim" });
  const cancel = el("button", { type: "button", id: "pl-challenge-cancel", hidden: true }, "Cancel the challenge");
  const box = el("div", { id: "pl-challenge-box", class: "challenge-box" }, challenge, status, cancel);
  document.getElementById("pl-since").after(box);
  return { button, count, challenge, status, cancel, box, dialog: buildDialog(), list: buildList() };
}

/** What challenge `c` asks for, as a line: "American checkers · 5+3 · rated", "… · 3 days per move · …". */
export function settingsText(c) {
  const time = c.days ? `${daysText(c.days)} per move` : timeControlText(c.time_control);
  return [GAMES[c.variant] || c.variant, time, c.rated ? "rated" : "casual"].join(" · ");
}

/** The colour the viewer of challenge `c` gets. */
export function myColor(c) {
  if (c.direction === "out") return c.final_color;
  return c.final_color === "white" ? "black" : "white";
}

/**
 * The lists of challenges `data` ({in, out}) in `v`; `on` ({accept(c), decline(c, reason),
 * cancel(c)}) answers them.
 */
export function renderList(v, data, on) {
  const l = v.list;
  l.inc.replaceChildren(
    ...data.in.map((c) => {
      const reason = select({ class: "ch-reason", "aria-label": `Why you decline ${c.challenger.name}'s challenge` }, REASONS);
      const accept = el("button", { type: "button", class: "primary ch-accept" }, "Accept");
      const decline = el("button", { type: "button", class: "ch-decline" }, "Decline");
      accept.addEventListener("click", () => on.accept(c));
      decline.addEventListener("click", () => on.decline(c, reason.value));
      return el(
        "li",
        { "data-id": c.id },
        el("span", {}, playerLink(c.challenger.name), ` · ${settingsText(c)} · you play ${myColor(c)}`),
        el("span", { class: "challenge-actions" }, accept, reason, decline),
      );
    }),
  );
  l.out.replaceChildren(
    ...data.out.map((c) => {
      const cancel = el("button", { type: "button", class: "ch-cancel" }, "Cancel");
      cancel.addEventListener("click", () => on.cancel(c));
      return el("li", { "data-id": c.id }, el("span", {}, `To ${c.dest_user.name} · ${settingsText(c)} · you play ${myColor(c)}`), el("span", { class: "challenge-actions" }, cancel));
    }),
  );
  l.none.hidden = data.in.length + data.out.length > 0;
  const n = data.in.length;
  v.count.textContent = String(n);
  v.button.setAttribute("aria-label", `Challenges: ${n} received`);
  v.button.classList.toggle("has-challenges", n > 0);
}
