// Ratings as every page shows them (docs/api.md "Ratings"): "1500" or, while the rating is
// provisional (Glicko-2 deviation above 110), "1500?"; a rating change "+12" / "−8"; the link to a
// player's page (?mode=player&name=…, opened by players/ctrl.js). A game's speed comes from the
// server (`Speed::of` in crown-server), never computed here.

import { VARIANT_NAMES } from "./util.js";

/** The speeds of rated games, fastest first, with their names. */
export const SPEEDS = { bullet: "Bullet", blitz: "Blitz", rapid: "Rapid", classical: "Classical", correspondence: "Correspondence" };

/** The games' names on the rating pages: the one name each game has everywhere (util.js). */
export const GAMES = VARIANT_NAMES;

/** A rating as shown: rounded, with "?" while `provisional` ("1500?"); "" without a rating. */
export function ratingText(rating, provisional) {
  if (rating == null || !Number.isFinite(Number(rating))) return "";
  return `${Math.round(Number(rating))}${provisional ? "?" : ""}`;
}

/** A rating change as shown: "+12", "−8" (a true minus sign), "±0"; "" when there is none. */
export function diffText(diff) {
  if (diff == null || !Number.isFinite(Number(diff))) return "";
  const d = Math.round(Number(diff));
  return d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : "±0";
}

/**
 * Why a game created rated is played unrated (the server's `unrated_reason`, docs/api.md "When a
 * rated game is played unrated"): the sentence the game shows, and the short words of an archive
 * row. The minimum of plies is the server's setting (`--rated-min-plies`), not in the view: the
 * sentence does not name a number.
 */
export const UNRATED_REASONS = {
  same_network: { text: "Unrated: both accounts signed up from one network", short: "same network" },
  pair_limit: { text: "Unrated: you two have played today's limit of rated games together", short: "daily limit" },
  too_short: { text: "Not rated: the game ended before the minimum number of moves", short: "too short" },
};

/**
 * The rated line of game view `v` (its `rated` and `unrated_reason`): "Rated", "Casual", or why a
 * game created rated is not rated (an unknown reason: "Unrated"); "" without a view.
 */
export function ratedLineText(v) {
  if (!v) return "";
  if (v.rated) return "Rated";
  if (!v.unrated_reason) return "Casual";
  const r = UNRATED_REASONS[v.unrated_reason];
  return r ? r.text : "Unrated";
}

/**
 * An archive row's type (`g`: {rated, unrated_reason}): "Rated", "Casual", or "Rated · not counted
 * (too short)" for a game created rated and played unrated.
 */
export function archiveTypeText(g) {
  if (g.rated) return "Rated";
  if (!g.unrated_reason) return "Casual";
  const r = UNRATED_REASONS[g.unrated_reason];
  return `Rated · not counted (${r ? r.short : g.unrated_reason})`;
}

/** The address of player `name`'s page (relative to the document's base, like every app link). */
export function playerHref(name) {
  return `?${new URLSearchParams({ mode: "player", name })}`;
}

/** The address of the leaderboard of `variant` and `speed` (either may be left out). */
export function leaderboardHref(variant, speed) {
  const q = new URLSearchParams({ mode: "leaderboard" });
  if (variant) q.set("variant", variant);
  if (speed) q.set("speed", speed);
  return `?${q}`;
}

/**
 * A link to player `name`'s page with `text` (default: the name); the players page opens it in
 * place (shared/pages.js wires clicks on `a[data-route]` for players/ctrl.js), a new tab opens it
 * on its own.
 */
export function playerLink(name, text = name) {
  const a = document.createElement("a");
  a.href = playerHref(name);
  a.dataset.route = "player";
  a.className = "player-link";
  a.textContent = text;
  return a;
}
