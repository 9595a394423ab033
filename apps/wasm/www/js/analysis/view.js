// The analysis page's views: the comments and variations in the move list, the game review
// (summary, graph, key moments), the imported game's players and event, the variation tools, and
// the engine's evaluation box.

import { $, cap, other } from "../shared/util.js";
import * as tree from "./tree.js";

/**
 * A list item with ply k+1's comment and its variations (each move clickable: `on.show(node)`;
 * beside a variation `on.promote(v)` and `on.delete(v)`), or null. `table`: the board's game;
 * `path`: the line of the move list's main column; `current`: the node shown on the board (its
 * move is marked when it is in a variation).
 */
export function lineExtras(table, path, k, on, current = null) {
  const n = path[k];
  const alts = n.parent.children.filter((c) => c !== n);
  if (!n.comment && !alts.length) return null;
  const li = document.createElement("li");
  li.className = "extras";
  if (n.comment) {
    const c = document.createElement("span");
    c.className = "comment";
    c.textContent = n.comment;
    li.appendChild(c);
  }
  const firstIsFirst = table.history.length ? table.history[0].color === table.game.firstPlayer() : true;
  for (const a of alts) {
    const v = document.createElement("span");
    v.className = "variation";
    v.append("(");
    let x = a;
    let ply = k + 1;
    let count = 0;
    while (x && count < 24) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = x === current ? "vmove current" : "vmove";
      if (x === current) b.setAttribute("aria-current", "true");
      const label = count === 0 || ply % 2 === (firstIsFirst ? 1 : 0) ? tree.moveLabel(ply, firstIsFirst) + " " : "";
      b.textContent = label + x.text + (x.strength || "");
      const target = x;
      b.addEventListener("click", () => on.show(target));
      v.appendChild(b);
      if (x.comment) {
        const c = document.createElement("span");
        c.className = "comment";
        c.textContent = x.comment;
        v.appendChild(c);
      }
      x = x.children[0];
      ply++;
      count++;
    }
    if (x) v.append(" …");
    v.append(")");
    if (a.parent.children[0] !== a) {
      // beside the variation: promote it to the main line, or delete it
      const first = `${tree.moveLabel(k + 1, firstIsFirst)} ${a.text}`;
      const up = document.createElement("button");
      up.type = "button";
      up.className = "vtool promote";
      up.textContent = "⇧";
      up.title = `Make ${first} the main line`;
      up.setAttribute("aria-label", up.title);
      up.addEventListener("click", () => on.promote(a));
      const del = document.createElement("button");
      del.type = "button";
      del.className = "vtool delete";
      del.textContent = "✕";
      del.title = `Delete the variation ${first}`;
      del.setAttribute("aria-label", del.title);
      del.addEventListener("click", () => on.delete(a));
      v.append(up, del);
    }
    li.appendChild(v);
  }
  return li;
}

/**
 * The review box: the summary, the evaluation graph (a click: `goto(ply)`) and the key moments
 * of review `r` ({result}, null: the box is hidden) of the game on `table`; `marks`: the review's
 * marks by 0-based ply.
 */
export function renderReview(r, table, marks, goto) {
  const box = $("review-box");
  box.hidden = !r;
  if (box.hidden) return;
  const res = r.result;
  const count = (s) => `${s.inaccuracies} ?!, ${s.mistakes} ?, ${s.blunders} ??, ${s.onlyMoves} !`;
  const second = other(res.first);
  $("review-summary").textContent = `${cap(res.first)}: ${count(res.firstSummary)} · ${cap(second)}: ${count(res.secondSummary)}`;
  const svg = $("review-graph");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const n = Math.max(1, res.evals.length - 1);
  const x = (i) => (i * 300) / n;
  const y = (e) => 76 - e * 72; // 4 px margins keep the dots inside
  for (const level of [0.2, 0.5, 0.8]) {
    const l = document.createElementNS(ns, "line");
    l.setAttribute("x1", "0");
    l.setAttribute("x2", "300");
    l.setAttribute("y1", String(y(level)));
    l.setAttribute("y2", String(y(level)));
    l.setAttribute("stroke", "#888");
    l.setAttribute("stroke-width", "0.5");
    svg.appendChild(l);
  }
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", res.evals.map((e, i) => `${x(i)},${y(e)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#4a7bd0");
  line.setAttribute("stroke-width", "1.5");
  svg.appendChild(line);
  const colours = { "??": "#e04040", "?": "#e08020", "?!": "#c8a800", "!": "#30a050" };
  for (const m of res.moves) {
    if (!m.mark || m.ply + 1 >= res.evals.length) continue;
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", String(x(m.ply + 1)));
    c.setAttribute("cy", String(y(res.evals[m.ply + 1])));
    c.setAttribute("r", "3");
    c.setAttribute("fill", colours[m.mark]);
    svg.appendChild(c);
  }
  svg.onclick = (ev) => {
    const rect = svg.getBoundingClientRect();
    goto(Math.round(((ev.clientX - rect.left) / rect.width) * n));
  };
  const moments = $("review-moments");
  moments.replaceChildren();
  const plies = new Set(res.turningPoints.map((t) => t.ply));
  for (const m of res.moves) if (m.mark === "?" || m.mark === "??") plies.add(m.ply);
  const h = table.history;
  [...plies]
    .sort((a, b) => a - b)
    .filter((p) => p < h.length)
    .forEach((p) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = h[p].text + (marks.get(p) || "");
      b.title = "Go to this move";
      b.addEventListener("click", () => goto(p + 1));
      moments.appendChild(b);
    });
  if (!moments.children.length) moments.textContent = "No turning points, no mistakes.";
}

/**
 * Players, event, date and result of an imported game above the move list (`info`: {tags,
 * index, count}, null: hidden); `mainGame`: the main line's game (its result).
 */
export function renderGameInfo(info, mainGame) {
  const box = $("game-info");
  box.hidden = !info;
  if (!info) return;
  const t = (name) => {
    const x = info.tags.find(([k]) => k.toLowerCase() === name.toLowerCase());
    return x && x[1] !== "?" ? x[1] : "";
  };
  // a rated game's ratings before it (BlackElo/WhiteElo) and their change (…RatingDiff), as the
  // server's PDN and lichess's write them
  const who = (side) => {
    const elo = t(`${side}Elo`);
    const diff = t(`${side}RatingDiff`).replace(/^-/, "\u2212");
    const rating = elo ? ` ${elo}${diff ? ` ${diff}` : ""}` : "";
    return `${t(side) || "?"}${rating} (${side})`;
  };
  $("info-players").textContent = `${who("Black")} – ${who("White")}`;
  const o = mainGame ? mainGame.outcome() : null;
  // the main line's result: the import gave it the file's (terminator, else Result tag); a promoted
  // variation has its own
  const result = o ? o.result : "*";
  $("info-event").textContent = [t("Event"), t("Site"), t("Date"), result].filter(Boolean).join(" · ");
  // how an archived game ended (the server's reason), the PDN result alone cannot say it
  const ending = $("info-ending");
  ending.hidden = !info.ending;
  ending.textContent = info.ending || "";
  $("info-number").textContent = info.count > 1 ? `Game ${info.index} of ${info.count}` : "";
  // a main line cut at an illegal move: the reader's warning, naming the move, stays in sight
  const warn = $("info-warning");
  warn.hidden = !info.error;
  warn.textContent = info.error ? `The game stops early: ${info.error}` : "";
}

/** "Make main line" and "Delete variation" (`shown`: the tools are on; `inVariation`: buttons on). */
export function renderTreeTools(shown, inVariation) {
  const box = $("tree-tools");
  box.hidden = !shown;
  if (box.hidden) return;
  $("var-promote").disabled = !inVariation;
  $("var-delete").disabled = !inVariation;
}

/** The evaluation box's three lines (score, what the engine does, the principal variation). */
export function renderEval(score, meta, pv = "") {
  if (score != null) $("eval-score").textContent = score;
  $("eval-meta").textContent = meta;
  $("eval-pv").textContent = pv;
}
