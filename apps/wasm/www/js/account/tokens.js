// The account's personal API tokens (docs/api.md "API tokens and bot accounts"), a dialog opened
// from the account menu ("API tokens"): the tokens of the account (description, scopes, when
// made; revoke), and a form that creates one with the scopes bot:play and challenge:write. A
// new token is shown once, in the dialog, to be copied: the server keeps only its hash, and the
// page forgets it when the dialog closes.

import { el } from "../shared/util.js";

/** The scopes a token may have, with what each allows. */
export const SCOPES = {
  "bot:play": "Play as a bot (the bot API, the event stream, challenges)",
  "challenge:write": "Send and answer challenges (and the event stream)",
};

/** Build the dialog and add it to the page; returns its elements. */
function build() {
  const scopes = Object.entries(SCOPES).map(([s, text]) =>
    el("label", { class: "token-scope" }, el("input", { type: "checkbox", name: "scope", value: s }), ` ${s}: ${text}`),
  );
  const created = el(
    "div",
    { id: "token-new", class: "token-new", hidden: true },
    el("p", {}, "Your new token, shown only this once: copy it now."),
    el("input", { type: "text", id: "token-new-value", readonly: true, "aria-label": "New API token" }),
    el("button", { type: "button", id: "token-copy" }, "Copy"),
  );
  const dlg = el(
    "dialog",
    { id: "dlg-tokens", class: "dialog account-dialog", "aria-labelledby": "dlg-tokens-title" },
    el("h2", { id: "dlg-tokens-title" }, "API tokens"),
    el("p", { class: "dim" }, "A token lets a program act as your account: a bot (crown bot) or a challenge script."),
    el("ul", { id: "token-list", class: "token-list" }),
    el("p", { id: "token-empty", class: "dim", hidden: true }, "No tokens yet."),
    el(
      "form",
      { id: "token-form", novalidate: true },
      el("h3", {}, "New token"),
      el("label", {}, "Description ", el("input", { type: "text", name: "description", id: "token-description", maxlength: "100", required: true })),
      el("fieldset", {}, el("legend", {}, "Scopes"), ...scopes),
      el("button", { type: "submit", class: "primary", id: "token-create" }, "Create token"),
    ),
    created,
    el("p", { id: "token-error", class: "account-error error", role: "alert", "aria-live": "assertive" }),
    el("menu", {}, el("button", { type: "button", id: "dlg-tokens-close" }, "Close")),
  );
  document.body.append(dlg);
  return dlg;
}

/** The API tokens dialog of the account menu; `call` is account/ctrl.js's request. */
export class TokensDialog {
  constructor(call) {
    this.call = call;
    this.dlg = build();
    const q = (id) => this.dlg.querySelector(`#${id}`);
    q("dlg-tokens-close").addEventListener("click", () => this.dlg.close());
    this.dlg.addEventListener("close", () => this.#forget());
    q("token-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.#create();
    });
    q("token-copy").addEventListener("click", async () => {
      const input = q("token-new-value");
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch (_) {
        /* no clipboard permission: the text is selected to copy by hand */
      }
    });
  }

  #q(id) {
    return this.dlg.querySelector(`#${id}`);
  }

  /** Open the dialog and read the tokens. */
  async open() {
    this.#forget();
    this.#q("token-form").reset();
    this.#q("token-error").textContent = "";
    this.dlg.showModal();
    this.#q("token-description").focus();
    await this.refresh();
  }

  /** The new token leaves the page. */
  #forget() {
    this.#q("token-new-value").value = "";
    this.#q("token-new").hidden = true;
  }

  /** Read the account's tokens and list them. */
  async refresh() {
    let tokens;
    try {
      tokens = (await this.call("account/tokens")).tokens;
    } catch (e) {
      this.#q("token-error").textContent = e.message;
      return;
    }
    const list = this.#q("token-list");
    list.replaceChildren();
    for (const t of tokens) {
      const revoke = el("button", { type: "button", class: "token-revoke", "aria-label": `Revoke ${t.description}` }, "Revoke");
      revoke.addEventListener("click", () => this.#revoke(t.id));
      const when = new Date(t.created_ms).toLocaleDateString();
      list.append(
        el(
          "li",
          { class: "token", "data-id": t.id },
          el("span", { class: "token-description" }, t.description),
          el("span", { class: "token-scopes dim" }, `${t.scopes.join(", ")} · made ${when}`),
          revoke,
        ),
      );
    }
    this.#q("token-empty").hidden = tokens.length > 0;
  }

  async #create() {
    const form = this.#q("token-form");
    const description = form.elements.description.value.trim();
    const scopes = [...form.querySelectorAll("input[name=scope]:checked")].map((i) => i.value);
    const err = this.#q("token-error");
    err.textContent = "";
    const ok = this.#q("token-create");
    ok.disabled = true;
    try {
      const r = await this.call("account/tokens", "POST", { description, scopes });
      form.reset();
      this.#q("token-new-value").value = r.token;
      this.#q("token-new").hidden = false;
    } catch (e) {
      err.textContent = e.message;
      return;
    } finally {
      ok.disabled = false;
    }
    await this.refresh();
  }

  async #revoke(id) {
    this.#q("token-error").textContent = "";
    try {
      await this.call(`account/tokens/${encodeURIComponent(id)}`, "DELETE");
    } catch (e) {
      this.#q("token-error").textContent = e.message;
      return;
    }
    await this.refresh();
  }
}
