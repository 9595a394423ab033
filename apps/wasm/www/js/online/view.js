// The online page's views: the game's buttons (abort, resign, draw, APCA count, takeback, cancel, rematch), the
// share box, the connection line, the first-move note (a correspondence game's move deadline), the Confirm / Cancel pair of a move waiting
// to be sent, and the "a seat is free" question (the premove line is shared/premove.js's).

import { $, cap } from "../shared/util.js";
import { daysText, deadlineWhen, timeLeftText } from "../shared/clock.js";
import { diffText, playerHref, ratedLineText, ratingText } from "../shared/rating.js";

/**
 * The rating beside each player's name on the board's bars (`v`: the online game's view, null on
 * the other pages: hidden): a link to the player's page with the rating before the game ("1500?"
 * while provisional) and, once a rated game has ended, its change ("+12"). Called every clock
 * tick: an element is touched only when its text changes.
 */
export function renderBarRatings(v, flipped) {
  const bottom = flipped ? "black" : "white";
  for (const [pos, color] of [["top", bottom === "black" ? "white" : "black"], ["bottom", bottom]]) {
    let link = $(`rating-${pos}`);
    if (!link) {
      link = document.createElement("a");
      link.id = `rating-${pos}`;
      link.className = "bar-rating";
      link.dataset.route = "player";
      link.append(Object.assign(document.createElement("span"), { className: "sr-only" }), document.createElement("span"));
      const diff = document.createElement("span");
      diff.id = `rating-diff-${pos}`;
      diff.className = "rating-diff";
      $(`name-${pos}`).after(link, diff);
    }
    const acc = v && v.accounts ? v.accounts[color] : null;
    const rating = acc && acc.rating != null ? ratingText(acc.rating, acc.provisional) : "";
    const key = acc ? `${acc.name}|${acc.title}|${rating}|${acc.rating_diff}` : "";
    if (link.dataset.key === key) continue;
    link.dataset.key = key;
    const diffEl = $(`rating-diff-${pos}`);
    link.hidden = !acc;
    diffEl.hidden = !acc || acc.rating_diff == null;
    if (!acc) continue;
    link.href = playerHref(acc.name);
    // a casual game between accounts: a link to the player's profile, without a rating
    link.firstChild.textContent = rating ? `${acc.name}'s page, rating ` : `${acc.name}'s `;
    // a bot account (docs/api.md "Bot accounts") is marked BOT wherever it is named
    link.lastChild.textContent = `${acc.title ? `${acc.title} ` : ""}${rating || "profile"}`;
    diffEl.textContent = diffText(acc.rating_diff);
    diffEl.className = `rating-diff${acc.rating_diff > 0 ? " up" : acc.rating_diff < 0 ? " down" : ""}`;
  }
}

/**
 * The line under the status of game view `v` (null: hidden): "Rated", "Casual", or why a game
 * created rated is played unrated ("Unrated: both accounts signed up from one network").
 */
export function renderRatedLine(v) {
  const el = $("rated-line");
  const text = ratedLineText(v);
  if (el.textContent !== text) el.textContent = text;
  el.hidden = !text;
  el.dataset.rated = v ? String(!!v.rated) : "";
}

/**
 * The rated-game line of the game-over dialog for game view `v` (hidden unless a rated game has
 * ended with its rating changes): "alice 1500? → 1662 (+162) · bob 1500? → 1338 (−162)"; for a
 * game created rated but played unrated, why ("Not rated: the game ended before …").
 */
export function renderOverRatings(v) {
  let p = $("over-rating");
  if (!p) {
    p = document.createElement("p");
    p.id = "over-rating";
    p.className = "over-rating";
    $("over-result").after(p);
  }
  const parts = [];
  if (v && v.rated && v.accounts) {
    for (const color of ["black", "white"]) {
      const a = v.accounts[color];
      if (a && a.rating != null && a.rating_diff != null) {
        parts.push(`${a.name} ${ratingText(a.rating, a.provisional)} → ${Math.round(a.rating + a.rating_diff)} (${diffText(a.rating_diff)})`);
      }
    }
  }
  if (v && !v.rated && v.unrated_reason) parts.push(ratedLineText(v));
  p.textContent = parts.join(" · ");
  p.hidden = parts.length === 0;
}

/**
 * The tournament of game `id`, or null: a tournament's games are `{tournament}r{round}b{board}g{1|2}`
 * (docs/api.md "Tournaments"; the game's view names no tournament).
 */
export function tournamentOf(id) {
  const m = /^(.+)r\d+b\d+g[12]$/.exec(id || "");
  return m ? m[1] : null;
}

/**
 * The game-over dialog's primary button for game view `v` (null: a local game's "New game"): in a
 * tournament game "Back to the tournament" (its id in `data-tournament`; the next game opens by
 * itself, tournaments/ctrl.js), else "New game".
 */
export function renderOverAgain(v) {
  const b = $("over-again");
  const id = v ? tournamentOf(v.id) : null;
  b.textContent = id ? "Back to the tournament" : "New game";
  b.dataset.tournament = id || "";
}

/**
 * The create dialog's Rated switch (form `f`): a rated game needs an account logged in (`logged`),
 * a clock and a human opponent (the dialog always starts from the standard position); otherwise it
 * is off and disabled, with the reason beside it.
 */
export function renderRatedSwitch(f, logged) {
  const box = f.elements.rated;
  if (!box) return;
  const why = !logged
    ? "Log in to play rated games"
    : !f.elements.clock.value
      ? "Rated games need a clock"
      : f.elements.opponent.value === "engine"
        ? "Rated games are against people, not the engine"
        : "";
  box.disabled = !!why;
  if (why) box.checked = false;
  $("online-rated-note").textContent = why || (box.checked ? "The result changes both ratings" : "Casual: no rating changes");
}

/** The buttons of game view `v` for `seat` (null when watching). */
export function renderActions(v, seat) {
  const over = v.status === "finished" || !!v.outcome;
  const playing = !!seat && !over && v.status === "ongoing";
  const theirs = (x) => x && x !== seat;
  $("online-resign").disabled = !playing;
  for (const id of ["online-resign", "online-offer-draw", "online-takeback"]) $(id).hidden = !seat;
  const offerBtn = $("online-offer-draw");
  offerBtn.disabled = !playing || v.draw_offer === seat;
  offerBtn.textContent = playing && theirs(v.draw_offer) ? "Accept draw" : "Offer draw";
  $("online-decline-draw").hidden = !(playing && theirs(v.draw_offer));
  // Impasse has no draws (docs/rules.md): no offer to make or answer
  if (v.variant === "impasse") offerBtn.hidden = $("online-decline-draw").hidden = true;
  // Pool: the APCA count the server says this seat may claim now (rule 28, else rule 27)
  const rule = playing && v.count_claimable ? v.count_claimable[seat] : undefined;
  const claim = $("online-claim-count");
  claim.hidden = !rule;
  if (rule) claim.textContent = rule === 28 ? "Claim the 13 count" : "Claim the 38 count";
  const tb = $("online-takeback");
  tb.disabled = !playing || v.takeback_request === seat || v.ply === 0;
  tb.textContent = playing && theirs(v.takeback_request) ? "Accept takeback" : "Take back";
  $("online-decline-takeback").hidden = !(playing && theirs(v.takeback_request));
  $("online-cancel").hidden = !(seat && v.status === "open");
  // Before both sides have made their first move a game is aborted, not resigned (docs/api.md)
  $("online-abort").hidden = !(playing && v.ply < 2);
  const r = v.rematch;
  const rb = $("online-rematch");
  // no rematch of a game that never was (cancelled or expired before anyone joined); an aborted
  // game may be replayed (docs/api.md, rematch)
  const noGame = v.outcome && v.outcome.result === "*" && v.status !== "aborted";
  // a game with a bot account is replayed by challenging the bot again, never by a rematch
  // (the server answers 403 bot_not_allowed, docs/api.md "Bot accounts")
  const withBot = !!v.accounts && ["white", "black"].some((c) => v.accounts[c] && v.accounts[c].title === "BOT");
  rb.hidden = !(seat && over && !noGame && !withBot);
  rb.disabled = !!(r && r.by === seat);
  rb.textContent = r && r.by !== seat ? "Accept rematch" : r ? "Rematch offered" : "Rematch";
}

/** The running APCA count of game view `v` as the line under the status, for `seat` (null: a spectator), or "". */
export function countLineText(v, seat) {
  const c = v && v.count;
  if (!c) return "";
  const who = c.by === seat ? "you" : cap(c.by);
  return `The ${c.limit} count (APCA rule ${c.rule}): ${c.moves} of ${c.limit} moves counted for ${who}`;
}

/** The share box of game view `v` (hidden without one); the invitation while `seat`'s friend is awaited. */
export function renderShare(v, seat) {
  const share = $("online-share");
  share.hidden = !v;
  if (!v) return;
  const link = new URL(`g/${v.id}`, document.baseURI).href;
  $("share-link").value = link;
  $("watch-link").value = link;
  // the invitation is for the creator while the other seat is free
  $("invite").hidden = !(seat && v.status === "open");
  $("invite-text").textContent = v.public ? "Or send this link to someone" : "Send this link to your friend";
}

/** The connection line: `conn` (none | connecting | connected | reconnecting), its text, a move not sent. */
export function renderConn(conn, connText, pending) {
  const el = $("conn-state");
  el.dataset.state = conn;
  const texts = {
    none: "",
    connecting: "Connecting…",
    connected: "Connected",
    reconnecting: "Connection lost — reconnecting…",
  };
  let t = connText || texts[conn] || "";
  if (conn === "connected") t = texts.connected;
  if (pending) t += ` · your move ${pending.move} is not sent yet`;
  el.textContent = t;
  el.hidden = !t;
}

/**
 * The first-move note of game view `v` for `seat` (null when watching), `leftMs` before the game
 * is aborted for want of a first move (null: no such limit runs, the note is hidden).
 */
export function renderFirstMove(v, seat, leftMs) {
  const el = $("first-move-note");
  el.hidden = leftMs == null;
  if (leftMs == null) return;
  const s = Math.max(0, Math.ceil(leftMs / 1000));
  el.textContent =
    seat && v.side_to_move === seat
      ? `Your first move: the game is aborted in ${s} s without one`
      : `${cap(v.side_to_move)} has ${s} s to make a first move, or the game is aborted`;
}

/**
 * A correspondence game's note in place of clocks (`v`: its view, `nowMs`: the time now): its days
 * per move and, while it goes on, when the side to move must have moved — "Correspondence, 1 day per
 * move · Your move by Tue 8 Dec, 18:40 (23 h 59 min left)"; before the first move the game is
 * aborted instead. The text is set only when it changes (called every clock tick).
 */
export function renderDeadline(v, seat, nowMs) {
  const el = $("first-move-note");
  el.hidden = false;
  let text = `Correspondence, ${daysText(v.days)} per move`;
  if (v.deadline_ms != null && !v.outcome && v.status === "ongoing") {
    const who = seat && v.side_to_move === seat ? "Your move" : `${cap(v.side_to_move)} to move`;
    const first = v.first_move_deadline_ms != null ? ", or the game is aborted" : "";
    text += ` · ${who} by ${deadlineWhen(v.deadline_ms)} (${timeLeftText(v.deadline_ms - nowMs)} left)${first}`;
  }
  if (el.textContent !== text) el.textContent = text;
}

/** The words of an aborted game's end from the server's reason: "Game aborted by White", "Game aborted: Black did not move". */
export function abortedText(reason) {
  const by = /aborted by (black|white)/.exec(reason);
  if (by) return `Game aborted by ${cap(by[1])}`;
  const late = /aborted: (black|white) did not/.exec(reason);
  if (late) return `Game aborted: ${cap(late[1])} did not move in time`;
  return "Game aborted";
}

/**
 * The Confirm / Cancel pair of a move waiting to be sent (`m`: the wasm move, null: hidden); the
 * focus goes to Confirm (Enter sends, Escape or Cancel takes the move back).
 */
export function renderConfirm(m) {
  const box = $("move-confirm");
  const was = !box.hidden;
  box.hidden = !m;
  if (!m) return;
  $("move-confirm-ok").textContent = `Confirm ${m.longText}`;
  // after the board has drawn the move (it gives the focus back to its square first)
  if (!was) setTimeout(() => !box.hidden && $("move-confirm-ok").focus(), 0);
}

/**
 * Ask whether to take the free seat `color` (`name`: the name to offer; `accepting`: the seat is a
 * lobby seek being accepted); resolves to the name given (maybe "") or null to watch.
 */
export function askJoin(color, name, accepting = false) {
  return new Promise((resolve) => {
    const box = $("choices");
    box.replaceChildren();
    $("choice-title").textContent = accepting ? "Accept this seek" : "A seat is free in this game";
    const label = document.createElement("label");
    label.textContent = "Your name ";
    const input = document.createElement("input");
    input.type = "text";
    input.id = "join-name";
    input.maxLength = 40;
    input.placeholder = "Guest";
    input.value = name;
    label.appendChild(input);
    const join = document.createElement("button");
    join.type = "button";
    join.id = "join-seat";
    join.textContent = `Play as ${cap(color)}`;
    const watch = document.createElement("button");
    watch.type = "button";
    watch.id = "just-watch";
    watch.textContent = "Just watch";
    let answer = null;
    join.addEventListener("click", () => {
      answer = input.value.trim();
      $("dlg-choice").close("chosen");
    });
    watch.addEventListener("click", () => $("dlg-choice").close("chosen"));
    box.append(label, join, watch);
    $("dlg-choice").onclose = () => resolve(answer);
    $("dlg-choice").showModal();
  });
}
