// Chat of an online game (docs/api.md: GET/POST /api/games/{id}/chat, pushes {"type": "chat"}).
// Everything from other people is shown with textContent: no HTML from users ever reaches the page.
// Spectators read only.

import { $ } from "../shared/util.js";

const MAX = 200;

export class Chat {
  /** `api(path, opts)` is Online's fetch (JSON, errors thrown with `.code`). */
  constructor(api, toast) {
    this.api = api;
    this.toast = toast;
    this.gameId = null;
    this.seen = new Set();
    $("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.#send();
    });
    $("chat-input").maxLength = MAX;
    this.#keepToastOffTheForm();
  }

  /**
   * A toast (shared/dialogs.js) sits at the bottom edge; while it would cover the chat form (a phone with the
   * form scrolled to the bottom of the screen) it moves to the top edge instead.
   */
  #keepToastOffTheForm() {
    const t = $("toast");
    if (!t) return;
    const place = () => {
      t.classList.remove("toast-top");
      if (t.hidden || $("chat").hidden) return;
      const a = t.getBoundingClientRect();
      const b = $("chat-form").getBoundingClientRect();
      const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      if (overlap) t.classList.add("toast-top");
    };
    // only `hidden` and the text: the class set here must not call `place` again
    new MutationObserver(place).observe(t, { attributeFilter: ["hidden"], childList: true, characterData: true, subtree: true });
    for (const ev of ["scroll", "resize"]) window.addEventListener(ev, place, { passive: true });
  }

  /** Show the chat of game `id`; `canWrite`: the page holds a seat of it. */
  async open(id, canWrite) {
    this.gameId = id;
    this.seen = new Set();
    $("chat").hidden = false;
    $("chat-log").replaceChildren();
    this.setWritable(canWrite);
    try {
      const r = await this.api(`games/${id}/chat`);
      if (this.gameId === id) for (const m of r.messages) this.add(m);
    } catch (_) {
      /* an older server without chat: the box stays empty */
    }
  }

  /** Read the game's chat again (after a reconnect: messages sent meanwhile); shown ones are kept. */
  async reload() {
    const id = this.gameId;
    if (!id) return;
    try {
      const r = await this.api(`games/${id}/chat`);
      if (this.gameId === id) for (const m of r.messages) this.add(m);
    } catch (_) {
      /* the next reconnect tries again */
    }
  }

  setWritable(canWrite) {
    const input = $("chat-input");
    input.disabled = !canWrite;
    $("chat-send").disabled = !canWrite;
    input.placeholder = canWrite ? `Say something (at most ${MAX} characters)` : "Spectators can read the chat only";
  }

  close() {
    this.gameId = null;
    $("chat").hidden = true;
  }

  /** Add one message ({n, color, name, text, at_ms}) unless already shown. */
  add(m) {
    if (!m || this.seen.has(m.n)) return;
    this.seen.add(m.n);
    const li = document.createElement("li");
    li.className = `chat-msg ${m.color === "white" ? "white" : "black"}`;
    const who = document.createElement("span");
    who.className = "chat-who";
    who.textContent = `${m.name || (m.color === "white" ? "White" : "Black")}: `;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = String(m.text);
    li.append(who, text);
    const log = $("chat-log");
    log.appendChild(li);
    log.scrollTop = log.scrollHeight;
  }

  async #send() {
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text || !this.gameId) return;
    if (text.length > MAX) {
      this.toast(`A chat message has at most ${MAX} characters`);
      return;
    }
    try {
      const m = await this.api(`games/${this.gameId}/chat`, { method: "POST", body: { text }, auth: true });
      input.value = "";
      this.add(m);
    } catch (e) {
      this.toast(e.message, 4000);
    }
  }
}
