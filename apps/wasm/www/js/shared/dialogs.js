// Messages and dialogs every page uses: the toast, the status line, the confirm dialog, the
// game-over dialog, the file download, and the choices a move may need (which capture path; which
// single to crown in Impasse).

import { $ } from "./util.js";

/** Show `text` in the toast at the bottom for `ms` milliseconds. */
export function toast(text, ms = 3500) {
  const t = $("toast");
  t.textContent = text;
  // a wide screen: a message that fits in the space between the top bar and the panel goes there,
  // from the panel's left edge to its right: it covers neither the board, nor its player's bar,
  // nor the top bar's controls (Log in / Sign up); a longer one stays in the top bar (style.css)
  t.style.left = t.style.right = t.style.maxWidth = t.style.top = "";
  t.hidden = false;
  const panel = document.querySelector(".panel");
  const bar = document.querySelector(".topbar");
  if (window.matchMedia("(min-width: 1000px)").matches && panel && bar && panel.offsetParent !== null) {
    const p = panel.getBoundingClientRect();
    const top = Math.round(bar.getBoundingClientRect().bottom + 4);
    if (p.left > 0 && p.width >= 200) {
      Object.assign(t.style, { top: `${top}px`, left: `${Math.round(p.left)}px`, right: "auto", maxWidth: `${Math.floor(p.width)}px` });
      if (t.getBoundingClientRect().bottom > p.top - 2) t.style.left = t.style.right = t.style.maxWidth = t.style.top = "";
    }
  }
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), ms);
}

/** The status line under the board (`cls`: "", "over" or "error"). */
export function setStatus(text, cls = "") {
  const s = $("status");
  s.textContent = text;
  s.className = `status ${cls}`;
}

/** Offer `text` as a PDN file called `name` to download. */
export function download(name, text) {
  const blob = new Blob([text], { type: "application/x-pdn;charset=utf-8" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

/** Ask in the confirm dialog (title, text, the button's label); `then()` when confirmed. */
export function confirmThen(title, text, yes, then) {
  const dlg = $("dlg-confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  dlg.returnValue = "";
  dlg.onclose = () => {
    // back to the resignation texts (online/online.js opens the same dialog as it is in the page)
    $("confirm-title").textContent = "Resign?";
    $("confirm-text").textContent = "The game ends and counts as a loss.";
    $("confirm-yes").textContent = "Resign";
    if (dlg.returnValue === "ok") then();
  };
  dlg.showModal();
  $("confirm-no").focus();
}

/** The game-over dialog with `title` and outcome `o` ({result, text}), shortly after the last move. */
export function showGameOver(title, o) {
  $("over-title").textContent = title;
  $("over-reason").textContent = o.text;
  $("over-result").textContent = o.result;
  setTimeout(() => {
    if (!$("dlg-over").open) $("dlg-over").showModal();
  }, 350);
}

/** The arrows along a capture's path (from, each landing square). */
function pathArrows(m) {
  const pts = [m.from, ...m.path];
  const out = [];
  for (let i = 0; i + 1 < pts.length; i++) out.push({ from: pts[i], to: pts[i + 1], color: "#1e88e5" });
  return out;
}

/**
 * The questions `board` (drawn in element `el`) asks while a move is entered: the capture dialog when paths share their
 * squares ("path-choice"), and the banner beside the board with one button per single when an
 * Impasse crowning needs one ("crown-choice"; a move hides it).
 */
export function wireMoveChoices(board, el) {
  el.addEventListener("path-choice", (e) => {
    const { candidates, choose } = e.detail;
    const box = $("choices");
    box.replaceChildren();
    $("choice-title").textContent = "Which capture?";
    for (const m of candidates) {
      const b = document.createElement("button");
      b.type = "button";
      const caps = m.captures.length ? ` — takes ${m.captures.join(", ")}` : "";
      b.textContent = `${m.longText}${caps}`;
      b.addEventListener("mouseenter", () => board.setArrows(pathArrows(m)));
      b.addEventListener("click", () => {
        $("dlg-choice").close("chosen");
        board.setArrows([]);
        choose(m);
      });
      box.appendChild(b);
    }
    $("dlg-choice").onclose = () => {
      if ($("dlg-choice").returnValue !== "chosen") {
        board.setArrows([]);
        choose(null);
      }
      $("dlg-choice").returnValue = "";
    };
    $("dlg-choice").showModal();
  });
  el.addEventListener("crown-choice", (e) => {
    // beside the board (the panel), never over the crowning square; one button per single
    $("crown-text").textContent = `Crown: choose the single to stack on ${e.detail.onto}`;
    const box = $("crown-singles");
    box.replaceChildren(
      ...e.detail.singles.map((sq) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = `Single on ${sq}`;
        b.dataset.square = String(sq);
        b.addEventListener("click", () => board.chooseCrown(sq));
        return b;
      }),
    );
    $("banner").hidden = false;
  });
  const onMove = board.onMove;
  board.onMove = (m) => {
    $("banner").hidden = true;
    onMove(m);
  };
}
