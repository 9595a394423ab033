// The analysis board's variation tree: the main line, variations and comments of a game (from PDN
// or from moves tried on the board), promoting and deleting variations (the summaries of the games
// of a PDN file are the picker's, shared/picker.js).
//
// A node is {long, text, comment, strength, nags, children, parent}; the root has no move. A node's
// children[0] is its main continuation, the others are variations (alternatives to children[0]).
// The page's wasm Game always holds one line of the tree (`path`): the board, the move list and the
// engine work on that line.

/**
 * A new node for a move (`long`: long text, `text`: as written in its position). A node that ends
 * a main line may carry `outcome` ({reason, winner}: a result the board does not show, such as a
 * resignation read from PDN), kept when that line stops or starts being the main line.
 */
export function node(long, text, parent = null, extra = {}) {
  return { long, text, comment: "", strength: null, nags: [], children: [], parent, ...extra };
}

/** The tree of a single line of moves (a game's history views: `[{text, mv: {longText}}]`). */
export function treeOfHistory(history, comment = "") {
  const root = node(null, null);
  root.comment = comment;
  let p = root;
  for (const h of history) {
    const n = node(h.mv.longText, h.text, p);
    p.children.push(n);
    p = n;
  }
  return root;
}

/**
 * The tree of a PDN game read by the wasm `pdnTree`: `line` entries `{text, comment, strength, nags,
 * variations}`. `startGame()` gives a fresh wasm Game at the start position. Variation moves are
 * played to learn their long text; a variation stops at its first illegal move (counted in
 * `dropped`).
 */
export function treeOfPdn(view, startGame) {
  const root = node(null, null);
  root.comment = view.comment || "";
  const stats = { dropped: 0 };
  const attach = (parent, game, line) => {
    let p = parent;
    let g = game.clone();
    for (const e of line) {
      const here = g.clone();
      let mv;
      try {
        mv = g.play(e.text);
      } catch (_) {
        stats.dropped++;
        here.free();
        break;
      }
      let n = p.children.find((c) => c.long === mv.longText);
      if (!n) {
        n = node(mv.longText, mv.text, p, { comment: e.comment || "", strength: e.strength || null, nags: e.nags || [] });
        p.children.push(n);
      }
      for (const v of e.variations || []) attach(p, here, v);
      here.free();
      p = n;
    }
    g.free();
  };
  const g = startGame();
  attach(root, g, view.line || []);
  g.free();
  return { root, dropped: stats.dropped };
}

/** The nodes from the root (excluded) to `n`, then on along the main continuations. */
export function lineThrough(n) {
  const up = [];
  for (let p = n; p && p.parent; p = p.parent) up.push(p);
  up.reverse();
  let last = up.length ? up[up.length - 1] : n;
  while (last.children.length) {
    last = last.children[0];
    up.push(last);
  }
  return up;
}

/** True when every node of `path` is its parent's main continuation. */
export function isMainLine(path) {
  return path.every((n) => n.parent.children[0] === n);
}

/** The child of `parent` playing `long`, added as a new variation (or main move) when missing. */
export function childFor(parent, long, text) {
  let n = parent.children.find((c) => c.long === long);
  if (!n) {
    n = node(long, text, parent);
    parent.children.push(n);
  }
  return n;
}

/**
 * The first node of the variation that holds `n`: the nearest of `n` and its ancestors that is not
 * its parent's main continuation (children[0]); null when `n` is on the main line (or the root).
 */
export function variationStart(n) {
  for (let p = n; p && p.parent; p = p.parent) if (p.parent.children[0] !== p) return p;
  return null;
}

/**
 * Make the line through `n` the main line: `n` and each of its ancestors become their parent's
 * first child (the other children keep their order, as variations). True when the tree changed.
 */
export function promoteToMain(n) {
  let changed = false;
  for (let p = n; p && p.parent; p = p.parent) {
    const sibs = p.parent.children;
    const i = sibs.indexOf(p);
    if (i > 0) {
      sibs.splice(i, 1);
      sibs.unshift(p);
      changed = true;
    }
  }
  return changed;
}

/**
 * Delete the variation that starts at `v` (a node that is not its parent's main continuation) with
 * every move after it. Returns `v`'s parent, or null (nothing deleted) when `v` is on the main line.
 */
export function deleteVariation(v) {
  if (!v || !v.parent || v.parent.children[0] === v) return null;
  const p = v.parent;
  p.children = p.children.filter((c) => c !== v);
  v.parent = null;
  return p;
}

/** The main line of the tree: root's first child, its first child, and so on. */
export function mainLine(root) {
  const out = [];
  for (let n = root.children[0]; n; n = n.children[0]) out.push(n);
  return out;
}

/** The tree as PDN entries (`{text, comment, strength, nags, variations}`) for the wasm `toPdnTree`. */
export function pdnEntries(root) {
  const from = (first, parent, withAlts) => {
    const out = [];
    let n = first;
    let par = parent;
    let firstEntry = true;
    while (n) {
      const alts = firstEntry && !withAlts ? [] : par.children.filter((x) => x !== n);
      out.push({
        text: n.text,
        comment: n.comment || "",
        strength: n.strength || null,
        nags: n.nags || [],
        variations: alts.map((a) => from(a, par, false)),
      });
      par = n;
      n = n.children[0];
      firstEntry = false;
    }
    return out;
  };
  return root.children.length ? from(root.children[0], root, true) : [];
}

/** Plain JSON of the tree (for localStorage). */
export function treeToJson(n) {
  return {
    l: n.long,
    t: n.text,
    c: n.comment || undefined,
    s: n.strength || undefined,
    g: n.nags && n.nags.length ? n.nags : undefined,
    o: n.outcome || undefined,
    k: n.children.map(treeToJson),
  };
}

/** The tree back from `treeToJson`. */
export function treeFromJson(j, parent = null) {
  const n = node(j.l ?? null, j.t ?? null, parent, { comment: j.c || "", strength: j.s || null, nags: j.g || [] });
  if (j.o && typeof j.o === "object") n.outcome = j.o;
  n.children = (j.k || []).map((k) => treeFromJson(k, n));
  return n;
}

/** Child indices from the root to the last node of `path`. */
export function pathIndices(path) {
  return path.map((n) => n.parent.children.indexOf(n));
}

/** The node reached from `root` by child indices (stops at a missing index). */
export function nodeAt(root, indices) {
  let n = root;
  for (const i of indices) {
    if (!n.children[i]) break;
    n = n.children[i];
  }
  return n;
}

/** The PDN move number label of ply `ply` (1-based) of a game whose first mover is `firstMoverIsFirstPlayer`. */
export function moveLabel(ply, firstMoverIsFirstPlayer) {
  const k = firstMoverIsFirstPlayer ? ply - 1 : ply;
  const num = Math.floor(k / 2) + 1;
  return k % 2 === 0 ? `${num}.` : `${num}…`;
}
