// Keyboard move entry ("11-15", "6>10", "x14", read by the wasm move reader of crown-core in the
// shown position) and the screen-reader announcements of moves (an aria-live region).

/**
 * Read `text` as a move of the position `fen` (variant `variant`) with the wasm reader, and return
 * the matching move of `moves` (the board's legal moves of that position, same order), or throw an
 * Error whose message says why (the reader's message: illegal, ambiguous, not a move).
 */
export function readTypedMove(crown, variant, fen, text, moves) {
  const t = text.trim();
  if (!t) throw new Error("Type a move, e.g. 11-15");
  if (!moves.length) throw new Error("No move can be played here now");
  const probe = crown.Game.fromFen(variant, fen);
  try {
    const m = probe.play(t);
    const found = moves.find((x) => x.index === m.index && x.longText === m.longText);
    if (!found) throw new Error(`${t} cannot be played here now`);
    return found;
  } finally {
    probe.free();
  }
}

/** The sentence a screen reader hears for ply `h` (a wasm history entry) and the outcome, if any. */
export function moveSentence(h, outcome) {
  const who = h.color.charAt(0).toUpperCase() + h.color.slice(1);
  let s = `${who} ${h.text}`;
  const caps = h.mv.captures || [];
  if (caps.length) s += `, captures ${caps.join(", ")}`;
  if (h.mv.promotion) s += ", crowned king";
  if (h.mv.crown) s += `, crowns ${h.mv.crown.onto}`;
  if (h.mv.impasse) s += ", impasse removal";
  if (outcome) s += `. ${outcome.text}`;
  return s + ".";
}

/** Say `text` in the live region `el` (re-set so that the same text is announced again). */
export function announce(el, text) {
  el.textContent = "";
  requestAnimationFrame(() => (el.textContent = text));
}
