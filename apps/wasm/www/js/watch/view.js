// The Watch page's views (watch/ctrl.js): the ongoing games of GET /api/tv, highest rated first,
// and the game of the day, each a button that follows the game on the board.

import { $, VARIANT_NAMES } from "../shared/util.js";
import { SPEEDS } from "../shared/rating.js";

/** `player` of GET /api/tv as text: its name (or "Guest"), BOT, its rating. */
export function playerText(p) {
  let t = p.name || "Guest";
  if (p.bot) t = `BOT ${t}`;
  if (p.rating != null) t += ` (${p.rating})`;
  return t;
}

/** What game `g` is: variant, speed, rated or casual, and its plies or result. */
export function gameText(g) {
  const parts = [VARIANT_NAMES[g.variant] || g.variant];
  if (g.speed) parts.push(SPEEDS[g.speed] || g.speed);
  parts.push(g.rated ? "Rated" : "Casual");
  parts.push(g.status === "finished" && g.result ? g.result : `ply ${g.plies}`);
  return parts.join(" · ");
}

/** A button of game `g` (`current`: the game on the board), which calls `follow(id)`. */
function gameButton(g, current, follow) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "watch-game" + (g.id === current ? " current" : "");
  b.dataset.id = g.id;
  if (g.id === current) b.setAttribute("aria-current", "true");
  const who = document.createElement("span");
  who.className = "watch-who";
  who.textContent = `${playerText(g.black)} – ${playerText(g.white)}`;
  const what = document.createElement("span");
  what.className = "watch-what";
  what.textContent = gameText(g);
  b.append(who, what);
  b.addEventListener("click", () => follow(g.id));
  return b;
}

/** Draw `tv` (GET /api/tv's answer; `current`: the game on the board), or `error` when it failed. */
export function render(tv, current, follow, error = null) {
  const list = $("watch-list");
  list.replaceChildren();
  const empty = $("watch-empty");
  if (error) {
    empty.textContent = `The games could not be loaded: ${error}`;
    empty.hidden = false;
    return;
  }
  for (const g of tv.games) {
    const li = document.createElement("li");
    li.append(gameButton(g, current, follow));
    list.appendChild(li);
  }
  empty.textContent = "No public or rated game is being played right now.";
  empty.hidden = tv.games.length > 0;
  const day = $("watch-day");
  day.replaceChildren();
  if (tv.game_of_the_day) day.append(gameButton(tv.game_of_the_day, current, follow));
  $("watch-day-box").hidden = !tv.game_of_the_day;
}
