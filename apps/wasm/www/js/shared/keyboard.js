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
    let m;
    try {
      m = probe.play(t);
    } catch (e) {
      throw new Error(`${quoted(t)} is not a move here: ${visible(reason(String(e && e.message ? e.message : e)))}`);
    }
    const found = moves.find((x) => x.index === m.index && x.longText === m.longText);
    if (!found) throw new Error(`${quoted(t)} cannot be played here now`);
    return found;
  } finally {
    probe.free();
  }
}

/**
 * `s` with every control character (C0, DEL, C1, line and paragraph separators) written as a
 * `\uXXXX` escape, so that it reads the same as typed (a NUL shows as `\u0000`, not as nothing).
 * The result is for `textContent`: markup in it stays text.
 */
export function visible(s) {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The reader's reason without its "cannot read move '…': " opening (the input is quoted already). */
function reason(message) {
  const open = "cannot read move '";
  if (!message.startsWith(open)) return message;
  const end = message.indexOf("': ", open.length);
  return end < 0 ? message : message.slice(end + 3);
}

/** Typed text `t` in quotes for a message: control characters escaped, cut at 40 characters. */
export function quoted(t) {
  const chars = [...t];
  const cut = chars.length > 40 ? chars.slice(0, 40).join("") + "…" : t;
  return `“${visible(cut)}”`;
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
