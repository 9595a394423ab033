// Shared games (issue 43; crown-server's POST /api/imports, docs/api.md "Shared games"): the
// analysis board's Share button sends the board's PDN (its variations and comments) and shows the
// permanent link /a/<id> with a Copy button, the server's warnings and, for a logged-in player,
// "In my archive"; a link /a/<id> opens the shared game on the analysis board as a pasted PDN is
// opened (analysis/pdn.js).

import { $ } from "../shared/util.js";
import { toast } from "../shared/dialogs.js";
import { accountName, call } from "../account/ctrl.js";

/** The id of a shared game's address path (`/a/<id>`, also under a sub-path), or null. */
export function sharedIdOf(pathname) {
  const m = pathname.match(/\/a\/([^/]+)\/?$/);
  return m ? decodeURIComponent(m[1]) : null;
}

/** The Share button and dialog of the analysis page, and the opening of a shared game. */
export class ShareLink {
  /** `ctrl`: the analysis controller; `pdnText()`: the board's game as PDN. */
  constructor(ctrl, pdnText) {
    this.ctrl = ctrl;
    this.pdnText = pdnText;
    this.id = null; // the shared game the dialog shows
    $("analysis-share").addEventListener("click", () => this.share());
    $("shared-copy").addEventListener("click", () => this.copy());
    $("shared-archive").addEventListener("change", (e) => this.setArchived(e.target.checked));
  }

  /** The absolute address of shared game `url` (`/a/<id>`, beside the page). */
  static href(url) {
    return new URL(url.replace(/^\//, ""), document.baseURI).href;
  }

  /** Send the board's PDN and show its link (or why it could not be shared). */
  async share() {
    const dlg = $("dlg-shared");
    const status = $("shared-status");
    $("shared-link-row").hidden = true;
    $("shared-archive-row").hidden = true;
    $("shared-warnings").replaceChildren();
    status.textContent = "Sharing…";
    if (!dlg.open) dlg.showModal();
    let text;
    try {
      text = this.pdnText();
    } catch (e) {
      status.textContent = `The game could not be written as PDN: ${e.message}`;
      return;
    }
    let v;
    try {
      v = await call("imports", "POST", text, { pdn: true });
    } catch (e) {
      status.textContent = e.network ? "Sharing needs the Crown server, which cannot be reached." : `The game could not be shared: ${e.message}`;
      return;
    }
    this.id = v.id;
    const link = ShareLink.href(v.url);
    $("shared-link").value = link;
    $("shared-link-row").hidden = false;
    status.textContent = "Anyone with this link can open the game with its variations and comments:";
    $("shared-warnings").replaceChildren(
      ...(v.warnings || []).map((w) => {
        const li = document.createElement("li");
        li.textContent = w;
        return li;
      }),
    );
    $("shared-archive").checked = false;
    $("shared-archive-row").hidden = !accountName();
    $("shared-link").select();
  }

  /** Copy the link to the clipboard. */
  async copy() {
    const link = $("shared-link").value;
    try {
      await navigator.clipboard.writeText(link);
      toast(`Link copied: ${link}`);
    } catch (_) {
      $("shared-link").select();
      toast("Copy the selected link (Ctrl+C).", 6000);
    }
  }

  /** Put the shared game in the player's archive, or take it out. */
  async setArchived(on) {
    if (!this.id) return;
    try {
      await call(`imports/${encodeURIComponent(this.id)}/archive`, "POST", { archived: on });
      toast(on ? "In your archive, as an imported game." : "Taken out of your archive.");
    } catch (e) {
      $("shared-archive").checked = !on;
      toast(`The archive could not be changed: ${e.message}`, 8000);
    }
  }

  /** Open shared game `id` (a link /a/<id>) on the analysis board; false when it cannot be. */
  async open(id) {
    let v;
    try {
      v = await call(`imports/${encodeURIComponent(id)}`);
    } catch (e) {
      toast(e.code === "not_found" ? "No shared game has this link." : `The shared game could not be loaded: ${e.message}`, 8000);
      return false;
    }
    try {
      this.ctrl.pdn.open(v.pdn, "the shared game");
    } catch (e) {
      toast(`The shared game could not be opened: ${e.message}`, 8000);
      return false;
    }
    return true;
  }
}
