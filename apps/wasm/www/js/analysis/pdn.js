// PDN import on the analysis board (#dlg-pdn): one game at once, or a file of several games read
// in a background worker with a progress bar and listed in the game picker (shared/picker.js). The
// imported text is also the opening explorer's archive (explorer.js).

import { $ } from "../shared/util.js";
import { toast } from "../shared/dialogs.js";
import { GamePicker, indexPdn, splitPdn } from "../shared/picker.js";
import * as tree from "./tree.js";

/** PDN import of the analysis page: the import dialog, the file's games, the game picker. */
export class PdnImport {
  /** The import of analysis controller `ctrl` (its table, tree and imported game's tags). */
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.crown = ctrl.crown;
    this.file = null; // {chunks, entries} of a file of several games (the picker)
    this.indexMs = undefined; // how long the last file took to index
    this.picker = new GamePicker($("dlg-games"), (entry) => {
      const f = this.file;
      try {
        this.openGame(f.chunks[entry.chunk], entry.local, f.entries.length, entry.index);
      } catch (err) {
        toast(err.message, 8000);
      }
    });
    $("pdn-import").addEventListener("click", () => {
      $("pdn-error").hidden = true;
      $("dlg-pdn").showModal();
    });
    $("pdn-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (f) $("pdn-text").value = await f.text();
    });
    $("pdn-games").addEventListener("click", () => {
      if (!this.file) return;
      ctrl.graph.stop();
      this.picker.open(this.file.entries);
    });
    $("dlg-games").addEventListener("close", () => {
      // the graph's background search resumes (after a pick: refresh did it)
      if (ctrl.table.game) ctrl.renderGraph();
    });
    $("pdn-ok").addEventListener("click", (e) => {
      try {
        const file = $("pdn-file").files[0];
        this.open($("pdn-text").value, file ? file.name : "the games");
      } catch (err) {
        e.preventDefault();
        $("pdn-error").textContent = err.message;
        $("pdn-error").hidden = false;
      }
    });
  }

  /**
   * Open a PDN text: one game at once (errors thrown: the import dialog shows them); a file of several
   * games is read in the background worker with a progress bar, then the game picker lists them.
   */
  open(text, name = "the games") {
    const crown = this.crown;
    if (typeof crown.pdnIndex !== "function") {
      this.openGame(text, 1, 1);
      this.ctrl.explorer.load(text, name);
      return;
    }
    if (splitPdn(text, 1).length <= 1) {
      // at most one tag block: small enough to read here, and its errors go to the import dialog
      const entries = crown.pdnIndex(text);
      if (!entries.length) throw new Error("the text holds no PDN game");
      if (entries.length === 1) {
        this.file = null;
        $("pdn-games").hidden = true;
        this.openGame(text, 1, 1);
        this.ctrl.explorer.load(text, name);
        return;
      }
    }
    this.ctrl.graph.stop(); // the worker that reads the file gets the CPU; the graph goes on afterwards
    const picker = this.picker;
    picker.loading(name);
    this.ctrl.explorer.load(text, name); // its own worker: read at the same time as the picker's list
    indexPdn(text, (done, total) => picker.setProgress(done, total), (t) => crown.pdnIndex(t))
      .then(({ entries, chunks, ms }) => {
        this.indexMs = ms;
        if (!entries.length) throw new Error("the text holds no PDN game");
        this.file = { chunks, entries };
        $("pdn-games").hidden = false;
        if (!picker.finish(entries)) toast(`${entries.length} games read: the Games button lists them.`);
      })
      .catch((err) => {
        picker.stopReading();
        $("dlg-games").close();
        toast(`${name}: ${err.message}`, 8000);
      });
  }

  /**
   * Open game `index` (1-based) of a PDN text on the analysis board, with its tree and tags;
   * `number` is its number in the file it came from (a chunk of a big file, see picker.js). A main
   * line with an illegal move is opened up to that move, with a warning that names it.
   * `atEnd`: the board shows the game's last position (an archived game), else its start;
   * `ending`: how the game ended when the PDN cannot say it (the archive's reason, e.g. "Black
   * wins: White resigned"), shown with the result.
   */
  openGame(text, index, count, number = index, { atEnd = false, ending = null } = {}) {
    const crown = this.crown;
    const ctrl = this.ctrl;
    const t = ctrl.table;
    // the main line up to an illegal move, if any (pdnTree's error names it, said below)
    const g =
      typeof crown.Game.fromPdnGamePrefix === "function"
        ? crown.Game.fromPdnGamePrefix(text, index)
        : typeof crown.Game.fromPdnGame === "function"
          ? crown.Game.fromPdnGame(text, index)
          : crown.Game.fromPdn(text);
    ctrl.engine.stop();
    ctrl.app.setMode("analysis", { keepGame: true });
    t.set(g, g.variant());
    let info = { tags: [], index: number, count, error: null };
    if (typeof crown.pdnTree === "function") {
      const pdn = crown.pdnTree(text, index);
      const { root, dropped } = tree.treeOfPdn(pdn, () => crown.Game.fromFen(t.variant, g.startFen()));
      ctrl.root = root;
      ctrl.path = tree.lineThrough(root);
      if (ctrl.mainGame) ctrl.mainGame.free();
      ctrl.mainGame = g.clone();
      info = { tags: pdn.tags, index: number, count, error: pdn.error, ending };
      if (pdn.error) toast(`Game ${number} stops early: ${pdn.error}`, 8000);
      else if (dropped) toast(`${dropped} variation(s) with an illegal move were cut there.`, 6000);
    }
    t.history = g.history();
    // keep the tree only when it matches the replayed main line
    if (ctrl.path.length !== t.history.length) {
      ctrl.root = null;
      ctrl.syncTree();
    }
    ctrl.pdnInfo = info;
    ctrl.context = null;
    t.viewPly = atEnd ? null : 0;
    t.overShown = true;
    ctrl.app.refresh();
  }
}
