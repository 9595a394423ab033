// Small helpers every page uses: element lookup, colour and variant names, engine scores.

/** The element with id `id` (null when the page has none). */
export const $ = (id) => document.getElementById(id);

/** The variants' names as the page titles show them. */
export const VARIANT_NAMES = { american: "American checkers", pool: "Pool checkers", impasse: "Impasse" };

/** `s` with its first letter in capitals ("black" → "Black"). */
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The other colour ("black" ↔ "white"). */
export const other = (c) => (c === "black" ? "white" : "black");

/** The moves of a wasm game in long notation, in order. */
export function moveTexts(game) {
  return game.history().map((h) => h.mv.longText);
}

/** Whether this build of the wasm module reads and writes PDN (crown-notation). */
export function hasPdn(crown) {
  return typeof crown.Game.fromPdn === "function" && typeof crown.Game.prototype.toPdn === "function";
}

/** A new wasm game of `variant` at its start (`setup` is the Impasse setup, unused otherwise). */
export function startGame(crown, variant, setup) {
  return new crown.Game(variant, variant === "impasse" ? setup : undefined);
}

/** Show an engine score (from the side to move's view) from `forColor`'s view: "+0.25", "win in 7". */
export function scoreText(score, sideToMove, forColor = "black") {
  if (!score) return "";
  const sign = sideToMove === forColor ? 1 : -1;
  if (score.win != null) return sign > 0 ? `win in ${score.win}` : `loss in ${score.win}`;
  if (score.loss != null) return sign > 0 ? `loss in ${score.loss}` : `win in ${score.loss}`;
  const v = (score.value * sign) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}
