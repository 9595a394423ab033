// Small helpers every page uses: element lookup, colour and variant names, engine scores.

/** The element with id `id` (null when the page has none). */
export const $ = (id) => document.getElementById(id);

/** The variants' names as the page titles show them. */
export const VARIANT_NAMES = { american: "American checkers", pool: "Pool checkers", impasse: "Impasse" };

/** `s` with its first letter in capitals ("black" → "Black"). */
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The other colour ("black" ↔ "white"). */
export const other = (c) => (c === "black" ? "white" : "black");

/** `d` as PDN writes dates ("2026.12.03"), or with `sep` ("2026-12-03"). */
export function dateText(d = new Date(), sep = ".") {
  return [d.getFullYear(), String(d.getMonth() + 1).padStart(2, "0"), String(d.getDate()).padStart(2, "0")].join(sep);
}

/**
 * The file name of an exported game: `crown-american-2026-12-03-you-vs-crown-level-6.pdn` (the
 * players first moving first; left out when they are only the colours or unknown).
 */
export function pdnFileName(variant, tags, d = new Date()) {
  const tag = (k) => (tags.find(([n]) => n.toLowerCase() === k.toLowerCase()) || [])[1] || "";
  const slug = (s) =>
    s
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40);
  const named = (color) => {
    const n = tag(color);
    return n && n !== "?" && n.toLowerCase() !== color.toLowerCase() ? slug(n) : "";
  };
  const first = variant === "impasse" ? "White" : "Black";
  const second = first === "Black" ? "White" : "Black";
  const a = named(first);
  const b = named(second);
  const players = a || b ? `-${a || "unknown"}-vs-${b || "unknown"}` : "";
  return `crown-${slug(variant)}-${dateText(d, "-")}${players}.pdn`;
}

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

/** Make element `tag` with attributes `attrs` and children `kids` (strings become text). */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === true) e.setAttribute(k, "");
    else if (v !== false && v != null) e.setAttribute(k, v);
  }
  e.append(...kids);
  return e;
}
