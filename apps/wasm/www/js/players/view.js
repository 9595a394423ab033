// The rating pages' views (players/ctrl.js drives them): the leaderboard of one game and speed, and
// a player's page — ratings per game and speed, a rating-history chart, win/draw/loss counts and
// the game archive with its filters, "Analyse" per game and "Export all as one PDN". Every text
// from the server is set with textContent, never as HTML.

import { el } from "../shared/util.js";
import { GAMES, SPEEDS, archiveTypeText, diffText, leaderboardHref, playerLink, ratingText } from "../shared/rating.js";

const NS = "http://www.w3.org/2000/svg";

/** A labelled select named `name` with `options` ([value, text]). */
function select(id, label, options) {
  const s = el("select", { id, name: id });
  for (const [value, text] of options) s.append(el("option", { value }, text));
  return el("label", {}, `${label} `, s);
}

const GAME_OPTIONS = Object.entries(GAMES);
const SPEED_OPTIONS = Object.entries(SPEEDS);

/**
 * Build the page (a second <main>, shown instead of the board's while a rating page is open) after
 * the board's layout; returns its elements.
 */
export function build() {
  const back = el("a", { href: "./", id: "players-back", class: "players-back" }, "← Back to the board");
  const toBoard = el("a", { href: leaderboardHref(), id: "players-to-leaderboard", "data-route": "leaderboard" }, "Leaderboard");
  const nav = el("nav", { class: "players-nav", "aria-label": "Rating pages" }, back, toBoard);

  const lbTitle = el("h2", { id: "lb-title", tabindex: "-1" }, "Leaderboard");
  const lbForm = el(
    "form",
    { class: "players-filters", id: "lb-form" },
    select("lb-variant", "Game", GAME_OPTIONS),
    select("lb-speed", "Speed", SPEED_OPTIONS),
  );
  const lbStatus = el("p", { id: "lb-status", class: "dim", role: "status" });
  const lbBody = el("tbody", { id: "lb-body" });
  const lbTable = el(
    "table",
    { class: "players-table", id: "lb-table" },
    el("caption", { class: "sr-only", id: "lb-caption" }, "Leaderboard"),
    el("thead", {}, el("tr", {}, ...["Rank", "Player", "Rating", "Games"].map((h) => el("th", { scope: "col" }, h)))),
    lbBody,
  );
  const lb = el("section", { id: "leaderboard", class: "players-section", "aria-labelledby": "lb-title", hidden: true }, lbTitle, lbForm, lbStatus, lbTable);

  const plTitle = el("h2", { id: "pl-title", tabindex: "-1" }, "Player");
  const plSince = el("p", { id: "pl-since", class: "dim" });
  const plStatus = el("p", { id: "pl-status", class: "dim", role: "status" });
  const ratingsBody = el("tbody", { id: "pl-ratings-body" });
  const ratings = el(
    "table",
    { class: "players-table", id: "pl-ratings" },
    el("caption", { class: "sr-only" }, "Ratings per game and speed"),
    el("thead", {}, el("tr", {}, ...["Game", "Speed", "Rating", "Games"].map((h) => el("th", { scope: "col" }, h)))),
    ratingsBody,
  );
  const noRatings = el("p", { id: "pl-no-ratings", class: "dim", hidden: true }, "No rated game yet.");
  const chartPick = select("pl-chart-pick", "Rating history of", []);
  const chart = document.createElementNS(NS, "svg");
  chart.id = "pl-chart";
  chart.classList.add("rating-chart");
  chart.setAttribute("viewBox", `0 0 ${CHART.w} ${CHART.h}`);
  chart.setAttribute("role", "img");
  chart.setAttribute("aria-label", "Rating history");
  const chartNote = el("p", { id: "pl-chart-note", class: "dim" });
  const chartBox = el("div", { id: "pl-chart-box", class: "chart-box", hidden: true }, chartPick, el("div", { class: "chart-wrap" }, chart), chartNote);
  const counts = el("dl", { id: "pl-counts", class: "players-counts" });

  const gForm = el(
    "form",
    { class: "players-filters", id: "pl-filters" },
    select("f-variant", "Game", [["", "All games"], ...GAME_OPTIONS]),
    select("f-speed", "Speed", [["", "All speeds"], ...SPEED_OPTIONS]),
    select("f-rated", "Type", [["", "Rated and casual"], ["true", "Rated"], ["false", "Casual"]]),
    select("f-result", "Result", [["", "All results"], ["win", "Wins"], ["draw", "Draws"], ["loss", "Losses"]]),
  );
  const exportLink = el("a", { id: "pl-export", class: "button-link", download: "" }, "Export all as one PDN");
  const gStatus = el("p", { id: "pl-games-status", class: "dim", role: "status" });
  const games = el("ul", { id: "pl-games", class: "archive", "aria-label": "Games" });
  const more = el("button", { type: "button", id: "pl-more", hidden: true }, "More games");
  // the games the player shared and put in the archive (GET /api/users/{name}/imports)
  const importsTitle = el("h3", { id: "pl-imports-title", hidden: true }, "Imported games");
  const imports = el("ul", { id: "pl-imports", class: "archive", "aria-labelledby": "pl-imports-title", hidden: true });
  const pl = el(
    "section",
    { id: "player", class: "players-section", "aria-labelledby": "pl-title", hidden: true },
    plTitle,
    plSince,
    plStatus,
    el("div", { id: "pl-body" }, el("h3", {}, "Ratings"), ratings, noRatings, chartBox, el("h3", {}, "Results"), counts,
      el("h3", { id: "pl-games-title" }, "Games"), gForm, el("p", { class: "archive-tools" }, exportLink), gStatus, games, more,
      importsTitle, imports),
  );

  const page = el("main", { id: "players-page", class: "players-page", hidden: true, "aria-label": "Ratings" }, nav, lb, pl);
  document.querySelector("main.layout").after(page);
  return { page, back, lb, lbTitle, lbForm, lbStatus, lbBody, pl, plTitle, plSince, plStatus, ratingsBody, ratings, noRatings, chartBox, chart, chartNote, counts, gForm, exportLink, gStatus, games, more, importsTitle, imports };
}

/** The leaderboard `data` ({variant, speed, players}) in `v`. */
export function renderLeaderboard(v, data) {
  const game = GAMES[data.variant] || data.variant;
  const speed = SPEEDS[data.speed] || data.speed;
  v.lbTitle.textContent = `Leaderboard · ${game} · ${speed}`;
  document.getElementById("lb-caption").textContent = `${game}, ${speed}: the players by rating`;
  v.lbBody.replaceChildren(
    ...data.players.map((p) =>
      el(
        "tr",
        { "data-name": p.name },
        el("td", { class: "num" }, String(p.rank)),
        el("td", {}, ...(p.title ? [`${p.title} `] : []), playerLink(p.name)),
        el("td", { class: "num rating" }, ratingText(p.rating, p.provisional)),
        el("td", { class: "num" }, String(p.games)),
      ),
    ),
  );
  v.lbStatus.textContent = data.players.length
    ? ""
    : `Nobody ranked in ${game} ${speed.toLowerCase()} yet: the leaderboard lists established ratings, after enough rated games against several opponents.`;
  v.lbStatus.hidden = data.players.length > 0;
}

/** The player's profile `data` (GET /api/users/{name}) in `v`, with the chart of the game and speed picked. */
export function renderProfile(v, data) {
  v.plTitle.textContent = data.user.title ? `${data.user.title} ${data.user.name}` : data.user.name;
  v.plSince.textContent = `Member since ${new Date(data.user.created_ms).toLocaleDateString()}`;
  v.ratingsBody.replaceChildren(
    ...data.ratings.map((r) =>
      el(
        "tr",
        { "data-variant": r.variant, "data-speed": r.speed },
        el("td", {}, GAMES[r.variant] || r.variant),
        el("td", {}, el("a", { href: leaderboardHref(r.variant, r.speed), "data-route": "leaderboard" }, SPEEDS[r.speed] || r.speed)),
        el("td", { class: "num rating" }, ratingText(r.rating, r.provisional)),
        el("td", { class: "num" }, String(r.games)),
      ),
    ),
  );
  v.ratings.hidden = data.ratings.length === 0;
  v.noRatings.hidden = data.ratings.length > 0;
  const c = data.counts || {};
  const rc = data.rated_counts || {};
  const row = (label, id, value) => el("div", {}, el("dt", {}, label), el("dd", { id }, String(value ?? 0)));
  v.counts.replaceChildren(
    row("Games", "count-games", c.games),
    row("Wins", "count-wins", c.wins),
    row("Draws", "count-draws", c.draws),
    row("Losses", "count-losses", c.losses),
    row("Rated games", "count-rated", rc.games),
    row("Rated W/D/L", "count-rated-wdl", `${rc.wins ?? 0} / ${rc.draws ?? 0} / ${rc.losses ?? 0}`),
    // the puzzle rating (GET /api/users/{name}'s `puzzles`; null before the first rated puzzle)
    row("Puzzle rating", "count-puzzle-rating", data.puzzles ? ratingText(data.puzzles.rating, data.puzzles.provisional) : "—"),
    row("Puzzles solved", "count-puzzles", data.puzzles ? `${data.puzzles.solved} / ${data.puzzles.attempts}` : "0"),
  );
  // the chart's choice: every game and speed with a history, the one with most games first
  const keys = [...new Set(data.history.map((h) => `${h.variant}/${h.speed}`))];
  const games = (k) => data.history.filter((h) => `${h.variant}/${h.speed}` === k).length;
  keys.sort((a, b) => games(b) - games(a));
  const pick = document.getElementById("pl-chart-pick");
  const keep = pick.value;
  pick.replaceChildren(
    ...keys.map((k) => {
      const [variant, speed] = k.split("/");
      return el("option", { value: k }, `${GAMES[variant] || variant} · ${SPEEDS[speed] || speed}`);
    }),
  );
  if (keys.includes(keep)) pick.value = keep;
  v.chartBox.hidden = keys.length === 0;
  renderChart(v, data.history, pick.value);
}

/** The chart's drawing area in its viewBox (user units = CSS pixels at 560 px wide): margins for the axes' labels. */
const CHART = { w: 560, h: 170, left: 48, right: 14, top: 10, bottom: 30 };

/** Round rating values for the vertical axis: 2 to 5 ticks on a step of 10, 20, 25, 50, 100, 200 or 250 covering lo..hi. */
export function ratingTicks(lo, hi) {
  const span = (s) => [Math.floor(lo / s), Math.max(Math.ceil(hi / s), Math.floor(lo / s) + 1)];
  const step = [10, 20, 25, 50, 100, 200, 250, 500].find((s) => span(s)[1] - span(s)[0] <= 4) || 1000;
  const [a, b] = span(step);
  const out = [];
  for (let i = a; i <= b; i++) out.push(i * step);
  return out;
}

/** A day as the axis writes it: 2026-12-07 (the browser's own time zone). */
function dayText(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** An SVG element `name` with attributes `attrs` (and text `text`) appended to `parent`. */
function svgEl(parent, name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
  if (text != null) e.textContent = text;
  parent.appendChild(e);
  return e;
}

/**
 * The rating-history chart of `key` ("variant/speed") from `history` (oldest first; each entry the
 * rating after a game and its change): a line from the rating before the first game to the last,
 * over a vertical axis of ratings (round values, with grid lines) and a horizontal axis of the
 * games in order, labelled with the days of the first and the last game.
 */
export function renderChart(v, history, key) {
  const svg = v.chart;
  svg.replaceChildren();
  const h = history.filter((e) => `${e.variant}/${e.speed}` === key).sort((a, b) => a.ended_ms - b.ended_ms);
  if (!h.length) {
    v.chartNote.textContent = "";
    return;
  }
  const values = [h[0].rating - (h[0].rating_diff || 0), ...h.map((e) => e.rating)];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const ticks = ratingTicks(lo, hi);
  const [t0, t1] = [ticks[0], ticks[ticks.length - 1]];
  const { w, h: ht, left, right, top, bottom } = CHART;
  const x = (i) => left + (i * (w - left - right)) / Math.max(1, values.length - 1);
  const y = (r) => ht - bottom - ((r - t0) / Math.max(1, t1 - t0)) * (ht - top - bottom);
  const axis = svgEl(svg, "g", { class: "chart-axis", "aria-hidden": "true" });
  for (const t of ticks) {
    svgEl(axis, "line", { x1: left, x2: w - right, y1: y(t), y2: y(t), class: "chart-grid" });
    svgEl(axis, "text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", class: "chart-label y-label" }, String(t));
  }
  svgEl(axis, "line", { x1: left, x2: left, y1: top, y2: ht - bottom, class: "chart-axis-line" });
  svgEl(axis, "line", { x1: left, x2: w - right, y1: ht - bottom, y2: ht - bottom, class: "chart-axis-line" });
  const firstDay = dayText(h[0].ended_ms);
  const lastDay = dayText(h[h.length - 1].ended_ms);
  svgEl(axis, "text", { x: left, y: ht - 8, "text-anchor": "start", class: "chart-label x-label" }, firstDay);
  if (h.length > 1 || lastDay !== firstDay) svgEl(axis, "text", { x: w - right, y: ht - 8, "text-anchor": "end", class: "chart-label x-label" }, lastDay);
  svgEl(svg, "polyline", { points: values.map((r, i) => `${x(i)},${y(r)}`).join(" "), class: "chart-line" });
  for (const [i, r] of values.entries()) svgEl(svg, "circle", { cx: x(i), cy: y(r), r: 3, class: "chart-dot" });
  const first = Math.round(values[0]);
  const last = Math.round(values[values.length - 1]);
  const n = h.length;
  const days = lastDay === firstDay ? `on ${firstDay}` : `from ${firstDay} to ${lastDay}`;
  const text = `${first} → ${last} over ${n} rated game${n === 1 ? "" : "s"} ${days} (lowest ${Math.round(lo)}, highest ${Math.round(hi)})`;
  svg.setAttribute("aria-label", `Rating history: ${text}`);
  svg.dataset.points = String(values.length);
  svg.dataset.ticks = ticks.join(",");
  v.chartNote.textContent = text;
}

/** The words of a result from the player's side. */
const RESULT_WORDS = Object.assign(Object.create(null), { win: "Win", draw: "Draw", loss: "Loss" });

/** The game archive's entries `games` in `v` (appended when `append`); `onAnalyse(game)` opens one. */
export function renderGames(v, games, { append = false, onAnalyse }) {
  const items = games.map((g) => {
    const opp = g.opponent || {};
    const oppAccount = typeof opp.account === "string" ? opp.account : opp.account ? opp.name : null;
    const who = oppAccount ? playerLink(oppAccount) : document.createTextNode(opp.name || "Guest");
    // `outcome`: win, draw or loss for this player (`result` is the PDN result)
    const wdl = g.outcome in RESULT_WORDS ? g.outcome : g.result;
    const diff = diffText(g.rating_diff);
    const head = el(
      "span",
      { class: "archive-head" },
      el("span", { class: `result ${wdl in RESULT_WORDS ? wdl : ""}` }, RESULT_WORDS[wdl] || "No result"),
      " vs ",
      // a bot account (docs/api.md "Bot accounts") is marked BOT wherever it is named
      ...(opp.title ? [el("span", { class: "title" }, opp.title), " "] : []),
      who,
      ...(diff ? [" ", el("span", { class: `rating-diff ${g.rating_diff > 0 ? "up" : g.rating_diff < 0 ? "down" : ""}` }, diff)] : []),
    );
    const bits = [
      GAMES[g.variant] || g.variant,
      g.speed ? SPEEDS[g.speed] || g.speed : "No clock",
      archiveTypeText(g),
      `as ${g.color === "black" ? "Black" : "White"}`,
      ((n) => `${n} ${n === 1 ? "move" : "moves"}`)(Math.ceil((g.plies || 0) / 2)),
      g.reason || "",
      g.ended_ms ? new Date(g.ended_ms).toLocaleString() : "",
    ].filter(Boolean);
    const meta = el("span", { class: "archive-meta" }, bits.join(" · "));
    const b = el("button", { type: "button", class: "archive-analyse", "aria-label": `Analyse the game vs ${opp.name || "Guest"} of ${g.ended_ms ? new Date(g.ended_ms).toLocaleString() : ""}` }, "Analyse");
    b.addEventListener("click", () => onAnalyse(g));
    return el("li", { class: "archive-game", "data-id": g.id, "data-rated": String(!!g.rated), "data-result": wdl || "" }, head, meta, b);
  });
  if (append) v.games.append(...items);
  else v.games.replaceChildren(...items);
}

/**
 * The shared games `imports` of the player's archive in `v` ({id, url, variant, event, black,
 * white, date, result, plies, created_ms}), each labelled "Imported" and "Not rated", with a link
 * to its page /a/<id>; the list and its title are hidden when there is none.
 */
export function renderImports(v, imports) {
  const items = imports.map((g) => {
    const head = el(
      "span",
      { class: "archive-head" },
      el("span", { class: "archive-label" }, "Imported"),
      `${g.black || "?"} vs ${g.white || "?"}`,
    );
    const bits = [
      GAMES[g.variant] || g.variant,
      "Not rated",
      ((n) => `${n} ${n === 1 ? "move" : "moves"}`)(Math.ceil((g.plies || 0) / 2)),
      g.result || "",
      g.event || "",
      g.date || "",
      g.created_ms ? `shared ${new Date(g.created_ms).toLocaleString()}` : "",
    ].filter(Boolean);
    const meta = el("span", { class: "archive-meta" }, bits.join(" · "));
    const href = new URL(String(g.url || "").replace(/^\//, ""), document.baseURI).href;
    const open = el("a", { href, class: "archive-analyse button-link", "aria-label": `Open the imported game ${g.black || "?"} vs ${g.white || "?"}` }, "Open");
    return el("li", { class: "archive-game", "data-id": g.id, "data-imported": "true", "data-rated": "false" }, head, meta, open);
  });
  v.imports.replaceChildren(...items);
  v.imports.hidden = v.importsTitle.hidden = items.length === 0;
}
