// The tournament pages' views (tournaments/ctrl.js drives them): the list of tournaments (upcoming,
// running, finished) with the create dialog, and one tournament — its settings, the countdown to
// its start (an arena's: to its end), join / withdraw / start, the PDN, the standings with their
// tie-breaks, a round's pairings and the crosstable (an arena: its standings with each game's
// points and the fire of a streak, and its games). Every text from the server is set with textContent, never as HTML.

import { el } from "../shared/util.js";
import { CLOCK_PRESETS, timeControlText } from "../shared/clock.js";
import { GAMES, playerLink } from "../shared/rating.js";

/** The formats the server plays, with their names (docs/api.md "Tournaments", "Arenas"). */
export const FORMATS = { swiss: "Swiss", round_robin: "Round robin", arena: "Arena" };

/** The opening rules, with their names and the games they are for. */
export const OPENINGS = {
  acf: { name: "ACF three-move ballots", games: ["american", "pool"] },
  eleven: { name: "11-man ballots", games: ["american", "pool"] },
  start: { name: "The starting position", games: ["american", "pool"] },
  impasse_seed: { name: "Impasse: the seed setup", games: ["impasse"] },
  impasse_steere: { name: "Impasse: Steere's setup", games: ["impasse"] },
};

/** The create dialog's fields, each with its error line `tc-err-<field>` (the server's codes map to them). */
export const FIELDS = ["name", "variant", "format", "rounds", "minutes", "clock", "starts", "openings", "password"];

/** A labelled control `input` of field `field` with its error line. */
function field(label, fieldName, input, hint = null) {
  const err = el("p", { class: "field-error error", id: `tc-err-${fieldName}`, hidden: true });
  const described = [hint ? `tc-hint-${fieldName}` : null, err.id].filter(Boolean).join(" ");
  input.setAttribute("aria-describedby", described);
  return el(
    "div",
    { class: "tc-field", "data-field": fieldName },
    el("label", { for: input.id }, label),
    input,
    ...(hint ? [el("p", { class: "dim tc-hint", id: `tc-hint-${fieldName}` }, hint)] : []),
    err,
  );
}

/** A select with `options` ([value, text]). */
function select(attrs, options) {
  const s = el("select", attrs);
  for (const [value, text] of options) s.append(el("option", { value }, text));
  return s;
}

/** The create dialog (a modal <dialog> appended to the body); returns it. */
function buildDialog() {
  const name = el("input", { type: "text", id: "tc-name", name: "name", maxlength: "80", required: true, autocomplete: "off" });
  const variant = select({ id: "tc-variant", name: "variant" }, Object.entries(GAMES));
  const format = select({ id: "tc-format", name: "format" }, Object.entries(FORMATS));
  const rounds = el("input", { type: "number", id: "tc-rounds", name: "rounds", min: "1", max: "15", step: "1", value: "5", inputmode: "numeric" });
  // a tournament always has a clock
  const clock = select({ id: "tc-clock", name: "clock" }, CLOCK_PRESETS);
  clock.value = "300+3";
  const base = el("input", { type: "number", id: "tc-base", name: "base_min", min: "0.25", max: "1440", step: "0.25", value: "5" });
  const inc = el("input", { type: "number", id: "tc-inc", name: "inc_s", min: "0", max: "3600", step: "1", value: "3" });
  const custom = el(
    "div",
    { class: "custom-clock", id: "tc-custom", hidden: true },
    el("label", {}, "Minutes ", base),
    el("label", {}, "+ seconds per move ", inc),
  );
  const starts = el("input", { type: "datetime-local", id: "tc-starts", name: "starts" });
  const openings = select({ id: "tc-openings", name: "openings" }, []);
  const rated = el("input", { type: "checkbox", id: "tc-rated", name: "rated" });
  const password = el("input", { type: "text", id: "tc-password", name: "password", maxlength: "64", autocomplete: "off" });
  const roundsField = field("Rounds", "rounds", rounds, "Swiss: 1 to 15 rounds. A round robin plays every other player once.");
  const minutes = el("input", { type: "number", id: "tc-minutes", name: "minutes", min: "1", max: "180", step: "1", value: "30", inputmode: "numeric" });
  const minutesField = field("Duration (minutes)", "minutes", minutes, "Arena: 1 to 180 minutes; each player is paired again as soon as their game ends.");
  const form = el(
    "form",
    { method: "dialog", id: "form-tournament", novalidate: true },
    el("h2", { id: "dlg-tournament-title" }, "Create a tournament"),
    field("Name", "name", name),
    field("Game", "variant", variant),
    field("Format", "format", format),
    roundsField,
    minutesField,
    field("Clock", "clock", clock),
    custom,
    field("Start time (optional)", "starts", starts, "It starts by itself then, with two players or more; without one, you start it."),
    field("Openings", "openings", openings),
    el("div", { class: "rated-row" }, el("label", {}, rated, " Rated")),
    field("Password (optional)", "password", password, "Players must give it to join."),
    el("p", { class: "error", id: "tc-error", role: "alert" }),
    el(
      "menu",
      {},
      el("button", { type: "button", value: "cancel", id: "tc-cancel" }, "Cancel"),
      el("button", { type: "submit", class: "primary", id: "tc-ok" }, "Create"),
    ),
  );
  const dlg = el("dialog", { id: "dlg-tournament", class: "dialog", "aria-labelledby": "dlg-tournament-title" }, form);
  document.body.append(dlg);
  return { dlg, form, name, variant, format, rounds, roundsField, minutes, minutesField, clock, custom, base, inc, starts, openings, rated, password, error: form.querySelector("#tc-error"), ok: form.querySelector("#tc-ok"), cancel: form.querySelector("#tc-cancel") };
}

/** The opening rules offered in the create dialog `d` for the game picked in it (the server's default first). */
export function fillOpenings(d) {
  const keep = d.openings.value;
  const offered = Object.entries(OPENINGS).filter(([, o]) => o.games.includes(d.variant.value));
  d.openings.replaceChildren(...offered.map(([k, o]) => el("option", { value: k }, o.name)));
  if (offered.some(([k]) => k === keep)) d.openings.value = keep;
}

/**
 * Build the pages (a <main> shown instead of the board's while a tournament page is open) after
 * the board's layout, and the create dialog; returns their elements.
 */
export function build() {
  const back = el("a", { href: "./", id: "tour-back", class: "players-back" }, "← Back to the board");
  const toList = el("a", { href: "?mode=tournaments", id: "tour-to-list", "data-route": "tournaments" }, "All tournaments");
  const nav = el("nav", { class: "players-nav", "aria-label": "Tournament pages" }, back, toList);

  // the list
  const listTitle = el("h2", { id: "tl-title", tabindex: "-1" }, "Tournaments");
  const create = el("button", { type: "button", id: "tl-create", class: "primary" }, "Create a tournament");
  const createNote = el("p", { id: "tl-create-note", class: "dim" });
  const listStatus = el("p", { id: "tl-status", class: "dim", role: "status" });
  const sections = {};
  const lists = [];
  for (const [key, title] of [["running", "Running"], ["upcoming", "Upcoming"], ["finished", "Finished"]]) {
    const ul = el("ul", { id: `tl-${key}`, class: "tour-list", "aria-labelledby": `tl-${key}-title` });
    const empty = el("p", { class: "dim", id: `tl-${key}-empty`, hidden: true }, `No ${title.toLowerCase()} tournament.`);
    sections[key] = { ul, empty };
    lists.push(el("h3", { id: `tl-${key}-title` }, title), ul, empty);
  }
  const list = el("section", { id: "tournaments", class: "players-section", "aria-labelledby": "tl-title", hidden: true }, listTitle, el("div", { class: "tour-create" }, create, createNote), listStatus, ...lists);

  // one tournament
  const tTitle = el("h2", { id: "tt-title", tabindex: "-1" }, "Tournament");
  const tMeta = el("p", { id: "tt-meta", class: "dim" });
  const tStatus = el("p", { id: "tt-status", class: "dim", role: "status" });
  const countdown = el("p", { id: "tt-countdown", class: "tour-countdown", hidden: true });
  const phase = el("p", { id: "tt-phase" });
  const pwLabel = el("label", { id: "tt-password-row", hidden: true }, "Password ", el("input", { type: "password", id: "tt-password", autocomplete: "off", maxlength: "64" }));
  const join = el("button", { type: "button", id: "tt-join", class: "primary", hidden: true }, "Join");
  const withdraw = el("button", { type: "button", id: "tt-withdraw", hidden: true }, "Withdraw");
  const start = el("button", { type: "button", id: "tt-start", hidden: true }, "Start now");
  const login = el("button", { type: "button", id: "tt-login", hidden: true }, "Log in to join");
  const pdn = el("a", { id: "tt-pdn", class: "button-link", hidden: true }, "Download PDN");
  const actionError = el("p", { id: "tt-error", class: "error", role: "alert" });
  const actions = el("div", { class: "tour-actions" }, pwLabel, join, withdraw, start, login, pdn);
  const myGame = el("p", { id: "tt-my-game", class: "tour-my-game", hidden: true });
  const roundPick = el("select", { id: "tt-round", name: "round" });
  const roundLabel = el("label", { id: "tt-round-row", class: "tour-round-pick", hidden: true }, "Round ", roundPick);
  const opening = el("p", { id: "tt-opening", class: "dim" });
  const pairings = el("table", { class: "players-table tour-table", id: "tt-pairings" });
  const noPairings = el("p", { id: "tt-no-pairings", class: "dim" }, "The first round is paired when the tournament starts.");
  const standings = el("table", { class: "players-table tour-table", id: "tt-standings" });
  const players = el("ul", { id: "tt-players", class: "tour-players" });
  const cross = el("table", { class: "players-table tour-table tour-cross", id: "tt-cross" });
  const crossWrap = el("div", { class: "table-scroll", id: "tt-cross-wrap", tabindex: "0", role: "region", "aria-labelledby": "tt-cross-title" }, cross);
  const one = el(
    "section",
    { id: "tournament", class: "players-section", "aria-labelledby": "tt-title", hidden: true },
    tTitle,
    tMeta,
    tStatus,
    el(
      "div",
      { id: "tt-body", hidden: true },
      phase,
      countdown,
      actions,
      actionError,
      myGame,
      el("h3", { id: "tt-pairings-title" }, "Pairings"),
      roundLabel,
      opening,
      el("div", { class: "table-scroll" }, pairings),
      noPairings,
      el("h3", { id: "tt-standings-title" }, "Standings"),
      el("div", { class: "table-scroll" }, standings),
      el("p", { id: "tt-tiebreaks", class: "dim" }, TIEBREAKS.rounds),
      el("h3", { id: "tt-players-title" }, "Players"),
      players,
      el("h3", { id: "tt-cross-title" }, "Crosstable"),
      crossWrap,
    ),
  );

  const page = el("main", { id: "tournaments-page", class: "players-page", hidden: true, "aria-label": "Tournaments" }, nav, list, one);
  document.querySelector("main.layout").after(page);
  const d = buildDialog();
  return {
    page, back, list, listTitle, create, createNote, listStatus, sections, one, tTitle, tMeta, tStatus, countdown, phase,
    pwLabel, password: pwLabel.querySelector("input"), join, withdraw, start, login, pdn, actionError, myGame, roundLabel,
    roundPick, opening, pairings, noPairings, standings, players, cross, crossWrap, d,
  };
}

/** The tie-break line under the standings, by kind. */
export const TIEBREAKS = {
  rounds: "Players level on match points are ranked by game points, then Buchholz, Sonneborn–Berger, their direct encounter and the seeding.",
  arena: "A win scores 2, a draw 1; after two wins in a row a player is on fire (🔥) and scores double until a game is not won. Players level on points are ranked by performance, then the seeding. Only the games that end before the arena's end count.",
};

/** The address of tournament `id`'s page. */
export function tournamentHref(id) {
  return `?${new URLSearchParams({ mode: "tournament", id })}`;
}

/** "5+3 · Swiss, 5 rounds · Rated" for summary `t`. */
export function settingsText(t) {
  const rounds = t.format === "swiss" ? `, ${t.rounds} round${t.rounds === 1 ? "" : "s"}` : t.format === "arena" ? `, ${t.minutes} min` : "";
  return [GAMES[t.variant] || t.variant, timeControlText(t.time_control), `${FORMATS[t.format] || t.format}${rounds}`, t.rated ? "Rated" : "Casual"].join(" · ");
}

/** A start time as shown: the browser's local date and time. */
export function whenText(ms) {
  return new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

/** The lists of `GET /api/tournaments` in `v`. */
export function renderList(v, data) {
  for (const [key, { ul, empty }] of Object.entries(v.sections)) {
    const items = (data[key] || []).map((t) => {
      const bits = [settingsText(t), `${t.players} player${t.players === 1 ? "" : "s"}`];
      if (t.phase === "created") bits.push(`created by ${t.creator}`, t.starts_ms ? `starts ${whenText(t.starts_ms)}` : "starts when its creator starts it");
      if (t.password) bits.push("password");
      return el(
        "li",
        { class: "tour-item", "data-id": t.id },
        el("a", { href: tournamentHref(t.id), "data-route": "tournament", class: "tour-name" }, t.name),
        el("span", { class: "tour-meta" }, bits.join(" · ")),
      );
    });
    ul.replaceChildren(...items);
    ul.hidden = items.length === 0;
    empty.hidden = items.length > 0;
  }
}

/** "4:05", "1:02:03", "3 d 4 h" for `ms` left. */
export function countdownText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h}:${two(m)}:${two(s % 60)}`;
  return `${m}:${two(s % 60)}`;
}

/** A game's result cell: "1-0" from the first mover's side as the server gives it, "forfeit", or "playing". */
function resultText(g) {
  if (g.result == null) return "playing";
  const r = g.result === "1/2-1/2" ? "½-½" : g.result;
  return g.forfeit ? `${r} (forfeit)` : r;
}

/** A link to watch (or play) game `g` (its result or "playing"); `mine`: the player's own game. */
function gameLink(g, mine) {
  const a = el("a", { href: `g/${encodeURIComponent(g.id)}`, class: "tour-game", "data-game": g.id }, `Game ${g.game}: ${resultText(g)}`);
  if (mine && g.result == null) a.classList.add("mine");
  return a;
}

/**
 * What each side of a game scored by its PDN result `r` (seen from the side moving first: "1-0",
 * "0-1", "1/2-1/2", "2-0", "1-1", "0-0" for a double forfeit, …): `[first mover, other]` in games
 * (1, ½ or 0 each); `null` without a result.
 */
export function gameScore(r) {
  if (r == null) return null;
  const [a, b] = String(r).split("-").map((x) => (x === "1/2" ? 0.5 : Number(x)));
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return a + b > 0 ? [a / (a + b), b / (a + b)] : [0, 0];
}

/** Games won as shown: "1", "½", "1½". */
const wonText = (x) => (Number.isInteger(x) ? String(x) : x < 1 ? "½" : `${Math.floor(x)}½`);

/**
 * The match of pairing `p` (two games, colours swapped: game 1's first mover is `first`, game 2's
 * `second`) once both have results: the games each won ("1–1", a draw a half) and who wins the
 * match, or that it is tied (1 match point each, the standings' tie-breaks then rank the two);
 * "" while a game is unfinished.
 */
export function matchText(p) {
  const [g1, g2] = p.games || [];
  const s1 = g1 && gameScore(g1.result);
  const s2 = g2 && gameScore(g2.result);
  if (!s1 || !s2) return "";
  const f = s1[0] + s2[1];
  const s = s1[1] + s2[0];
  const score = `${wonText(f)}–${wonText(s)}`;
  if (f + s === 0) return `${score}: both forfeited, no match point`;
  if (f > s) return `${score}: ${p.first_name} wins the match`;
  if (s > f) return `${score}: ${p.second_name} wins the match`;
  return `${score}: tied match, 1 match point each (the tie-breaks rank them)`;
}

/** Round `round` ({number, opening, pairings}) of the tournament in the pairings table; `me`: my player id. */
export function renderRound(v, round, me) {
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, "Board"), el("th", { scope: "col" }, "Players (first vs second)"), el("th", { scope: "col" }, "Games"), el("th", { scope: "col" }, "Match")));
  const rows = round.pairings.map((p) => {
    if (p.bye != null) {
      return el("tr", { class: p.bye === me ? "me" : "" }, el("td", { class: "num" }, "–"), el("td", {}, el("div", { class: "tour-pair" }, playerLink(p.name), el("span", { class: "dim" }, " has a bye"))), el("td", {}, "2 points"), el("td", {}, "bye"));
    }
    const mine = p.first === me || p.second === me;
    // game 2 is created once game 1 has a result (docs/api.md): no link before
    const cell = (g) => (g.game === 2 && p.games[0].result == null ? el("span", { class: "dim" }, "Game 2: after game 1") : gameLink(g, mine));
    const pair = el("div", { class: "tour-pair" }, playerLink(p.first_name), el("span", { class: "dim tour-vs" }, " vs "), playerLink(p.second_name));
    const games = el("td", {}, el("div", { class: "tour-games" }, ...p.games.map(cell)));
    const match = el("td", { class: "tour-match" }, matchText(p));
    return el("tr", { class: mine ? "me" : "", "data-board": String(p.board) }, el("td", { class: "num" }, String(p.board)), el("td", {}, pair), games, match);
  });
  v.pairings.replaceChildren(el("caption", { class: "sr-only" }, `Round ${round.number}: pairings`), head, el("tbody", {}, ...rows));
  v.opening.textContent = round.opening && round.opening.label ? `Opening: ${round.opening.label}` : "";
}

/**
 * The games of arena `t` (`me`: my player id), the latest first, in the pairings table: those in
 * progress and the latest 100 others, as the server lists them (`games_total` counts them all).
 */
export function renderArenaGames(v, t, me) {
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, "Game"), el("th", { scope: "col" }, "Players (first vs second)"), el("th", { scope: "col" }, "Result")));
  const rows = [...t.games].reverse().map((g) => {
    const mine = g.first === me || g.second === me;
    const pair = el("div", { class: "tour-pair" }, playerLink(g.first_name), el("span", { class: "dim tour-vs" }, " vs "), playerLink(g.second_name));
    const over = g.result == null && t.phase === "finished";
    const link = el("a", { href: `g/${encodeURIComponent(g.id)}`, class: "tour-game", "data-game": g.id }, over ? "not counted (not over at the end)" : g.short ? `${resultText(g)} (too short: not counted)` : resultText(g));
    if (mine && g.result == null && !over) link.classList.add("mine");
    return el("tr", { class: mine ? "me" : "", "data-game-number": String(g.number) }, el("td", { class: "num" }, String(g.number)), el("td", {}, pair), el("td", {}, link));
  });
  v.pairings.replaceChildren(el("caption", { class: "sr-only" }, "The arena's games, the latest first"), head, el("tbody", {}, ...rows));
  v.opening.textContent = "";
}

/**
 * The standings of arena `t` (`me`: my player id): rank, player (🔥 on a streak, "paused"), the
 * points of each game as lichess's little numbers (a doubled game marked), score, performance.
 */
export function renderArenaStandings(v, t, me) {
  const cols = [["#", "Rank"], ["Player"], ["Points per game"], ["Pts", "Arena points"], ["Perf", "Performance"]];
  const head = el("thead", {}, el("tr", {}, ...cols.map(([h, title]) => el("th", { scope: "col", class: title ? "num" : "" }, title ? el("abbr", { title }, h) : h))));
  const rows = t.standings.map((s) => {
    const player = el("td", {}, playerLink(s.name), ...(s.fire ? [el("span", { class: "tour-fire", title: "On fire: the next games count double", "aria-label": "on fire" }, " 🔥")] : []), ...(s.paused ? [el("span", { class: "dim" }, " (paused)")] : []));
    // a game worth double (on fire) scores 4 or 2: marked as lichess marks them
    const history = [];
    let wins = 0;
    for (const p of s.points) {
      const doubled = wins >= 2;
      history.push(el("span", { class: doubled ? "tour-pt double" : "tour-pt" }, String(p)));
      wins = (doubled ? p === 4 : p === 2) ? wins + 1 : 0;
    }
    return el(
      "tr",
      { class: s.player === me ? "me" : "", "data-player": String(s.player) },
      el("td", { class: "num" }, String(s.rank)),
      player,
      el("td", {}, el("span", { class: "tour-points" }, ...history)),
      el("td", { class: "num tour-score" }, String(s.score)),
      el("td", { class: "num" }, s.performance == null ? "" : String(s.performance)),
    );
  });
  v.standings.replaceChildren(el("caption", { class: "sr-only" }, "Standings: arena points, then performance"), head, el("tbody", {}, ...rows));
}

/** A number of points as shown: whole, or with one decimal. */
const pts = (x) => (x == null ? "" : Number.isInteger(x) ? String(x) : Number(x).toFixed(1));

/** The standings of tournament `t` (`me`: my player id, its row marked). */
export function renderStandings(v, t, me) {
  const cols = [["#", "Rank"], ["Player"], ["MP", "Match points"], ["GP", "Game points"], ["Bh", "Buchholz"], ["SB", "Sonneborn–Berger"], ["Pl", "Matches played"]];
  const head = el("thead", {}, el("tr", {}, ...cols.map(([h, title]) => el("th", { scope: "col", class: title ? "num" : "" }, title ? el("abbr", { title }, h) : h))));
  const rows = t.standings.map((s) =>
    el(
      "tr",
      { class: s.player === me ? "me" : "", "data-player": String(s.player) },
      el("td", { class: "num" }, String(s.rank)),
      el("td", {}, playerLink(s.name)),
      el("td", { class: "num" }, pts(s.match_points)),
      el("td", { class: "num" }, pts(s.game_points)),
      el("td", { class: "num" }, pts(s.buchholz)),
      el("td", { class: "num" }, pts(s.sonneborn_berger)),
      el("td", { class: "num" }, String(s.played)),
    ),
  );
  v.standings.replaceChildren(el("caption", { class: "sr-only" }, "Standings: match points, game points, then the tie-breaks"), head, el("tbody", {}, ...rows));
}

/**
 * The players of tournament `t` with their seeding ratings: once it runs, those who withdrew are
 * marked; before its start they are out (docs/api.md) and not listed.
 */
export function renderPlayers(v, t) {
  const listed = t.phase === "created" ? t.players_list.filter((p) => !p.withdrawn) : t.players_list;
  v.players.replaceChildren(
    ...listed.map((p) =>
      el("li", { class: p.withdrawn ? "withdrawn" : "", "data-player": String(p.id) }, playerLink(p.name), ` ${p.rating}`, ...(p.withdrawn ? [el("span", { class: "dim" }, t.format === "arena" ? " (paused)" : " (withdrawn)")] : [])),
    ),
  );
}

/** The crosstable of tournament `t`: a row per standing, a column per opponent in standings order. */
export function renderCrosstable(v, t) {
  const order = t.crosstable.map((r) => r.player);
  const nameOf = Object.fromEntries(t.standings.map((s) => [s.player, s.name]));
  const head = el(
    "thead",
    {},
    el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, "Player"), ...order.map((_, i) => el("th", { scope: "col", class: "num" }, String(i + 1))), el("th", { scope: "col", class: "num" }, "Byes")),
  );
  const rows = t.crosstable.map((r, i) =>
    el(
      "tr",
      {},
      el("th", { scope: "row", class: "num" }, String(i + 1)),
      el("td", {}, nameOf[r.player] || "?"),
      ...r.cells.map((c, j) => {
        if (j === i) return el("td", { class: "num cross-self" }, "×");
        // every match against that opponent (a Swiss pairs two players once; a round robin too)
        if (!c || !c.length) return el("td", { class: "num" }, "");
        const text = c.map(([scored, conceded]) => `${pts(scored)}–${pts(conceded)}`).join(", ");
        return el("td", { class: "num", "data-cell": `${i}-${j}` }, text);
      }),
      el("td", { class: "num" }, String(r.byes || 0)),
    ),
  );
  v.cross.replaceChildren(el("caption", { class: "sr-only" }, "Crosstable: game points scored and conceded in each match"), head, el("tbody", {}, ...rows));
}

/** Show the create dialog's field errors: `errors` {field: message}; the first bad field takes the focus. */
export function showFieldErrors(d, errors) {
  let first = null;
  for (const f of FIELDS) {
    const p = document.getElementById(`tc-err-${f}`);
    const input = d.form.querySelector(`[data-field="${f}"] input, [data-field="${f}"] select`);
    const msg = errors[f];
    p.textContent = msg || "";
    p.hidden = !msg;
    if (input) {
      if (msg) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    if (msg && !first) first = input;
  }
  if (first) first.focus();
}
