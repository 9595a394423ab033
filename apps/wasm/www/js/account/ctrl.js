// Accounts in the web app (docs/api.md "Accounts"): sign up, log in, log out and change the
// password with crown-server's session cookie (HttpOnly: the page never sees it). The state comes
// from GET /api/me at start; a browser without a server (offline, a static host) is a guest, with
// no message. Passwords go only into the request's body: never stored, never logged.

import * as view from "./view.js";
import { TokensDialog } from "./tokens.js";

const HINT_KEY = "crown-account"; // "1" after a log-in here (only a hint: never a name or password)

let current = null; // the account logged in ({id, name, created_ms}), null for a guest

/** The name of the account logged in ("" for a guest): online play's default player name. */
export function accountName() {
  return current ? current.name : "";
}

/** The account logged in ({id, name, created_ms}), null for a guest. */
export function currentAccount() {
  return current;
}

/** The event sent on `document` when the account changes (log-in, log-out, the start's answer). */
export const ACCOUNT_EVENT = "crown-account";

/**
 * `method` `path` of the API (with JSON `body`; with `pdn`, `body` is PDN text sent as it is) with
 * the session cookie: the answer's JSON (null for 204). Errors carry the server's message and
 * `code`, or `network` when it cannot be reached. The rating pages (players/ctrl.js) and the
 * shared games (analysis/share.js) call the API with it too.
 */
export async function call(path, method = "GET", body, { pdn = false } = {}) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = pdn ? "application/x-pdn; charset=utf-8" : "application/json";
    init.body = pdn ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(new URL(`api/${path}`, document.baseURI).href, init);
  } catch (_) {
    const err = new Error("The server cannot be reached.");
    err.network = true;
    throw err;
  }
  if (res.status === 204) return null;
  let json = null;
  try {
    json = await res.json();
  } catch (_) {
    /* not JSON: no API here */
  }
  if (!res.ok || !json) {
    const e = json && json.error;
    const err = new Error(e && e.message ? e.message : `The server answered ${res.status}.`);
    err.code = e ? e.code : "http";
    throw err;
  }
  return json;
}

function hint() {
  try {
    return localStorage.getItem(HINT_KEY);
  } catch (_) {
    return null;
  }
}

function setHint(v) {
  try {
    if (v) localStorage.setItem(HINT_KEY, v);
    else localStorage.removeItem(HINT_KEY);
  } catch (_) {
    /* private mode: asked again at each start */
  }
}

/** The header's account control and its dialogs. */
export class AccountCtrl {
  /** Build the control in element `box` (the header's #account). */
  constructor(box) {
    this.v = view.build(box);
    this.tokens = new TokensDialog(call); // the API tokens dialog (made once, opened from the menu)
    view.render(this.v, null);
    this.#wire();
  }

  /** The account logged in (null for a guest). */
  get account() {
    return current;
  }

  /** Ask the server who is logged in (a guest when it says so or cannot be reached). */
  async start() {
    // a guest who never logged in here is not asked (the server's 401 would be logged as an error)
    if (hint() !== "1") {
      document.body.dataset.account = "ready";
      return;
    }
    try {
      const r = await call("me");
      this.#set(r.user);
    } catch (_) {
      this.#set(null); // not logged in, offline or no server: a guest, silently
    }
    document.body.dataset.account = "ready";
  }

  #set(user) {
    const before = accountName();
    current = user || null;
    setHint(current ? "1" : null);
    // the puzzles page follows the account (its rating on the server, the merge of the local one)
    if ((before || "") !== accountName()) document.dispatchEvent(new CustomEvent(ACCOUNT_EVENT, { detail: current }));
    view.render(this.v, current);
    // online play: the create dialog's name defaults to the account's
    const name = document.getElementById("form-online")?.elements.name;
    if (name && (!name.value || name.value === before)) name.value = accountName();
  }

  #open(dlg, first) {
    dlg.querySelector("form").reset();
    dlg.querySelector(".account-error").textContent = "";
    dlg.showModal();
    first.focus();
  }

  #wire() {
    const v = this.v;
    v.login.addEventListener("click", () => {
      view.setAuthMode(v.auth, false);
      this.#open(v.auth, v.auth.querySelector("input"));
    });
    v.signup.addEventListener("click", () => {
      view.setAuthMode(v.auth, true);
      this.#open(v.auth, v.auth.querySelector("input"));
    });
    v.auth.querySelector("#auth-switch").addEventListener("click", () => {
      view.setAuthMode(v.auth, v.auth.dataset.mode !== "signup");
      v.auth.querySelector(".account-error").textContent = "";
      v.auth.querySelector("input").focus();
    });
    v.user.addEventListener("click", () => this.#menu(v.menu.hidden));
    v.logged.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !v.menu.hidden) {
        this.#menu(false);
        v.user.focus();
      }
    });
    document.addEventListener("click", (e) => {
      if (!v.menu.hidden && !v.logged.contains(e.target)) this.#menu(false);
    });
    // My profile, Leaderboard: the rating pages open (players/ctrl.js), the menu closes
    for (const a of [v.profile, v.board]) a.addEventListener("click", () => this.#menu(false));
    v.pw.addEventListener("click", () => {
      this.#menu(false);
      this.#open(v.change, v.change.querySelector("input"));
    });
    v.tokens.addEventListener("click", () => {
      this.#menu(false);
      this.tokens.open();
    });
    v.out.addEventListener("click", async () => {
      this.#menu(false);
      try {
        await call("logout", "POST");
      } catch (_) {
        /* the session is forgotten here either way */
      }
      this.#set(null);
      v.login.focus();
    });
    for (const dlg of [v.auth, v.change]) {
      dlg.querySelector("button[value=cancel]").addEventListener("click", () => dlg.close());
      dlg.querySelector("form").addEventListener("submit", (e) => {
        e.preventDefault();
        this.#submit(dlg);
      });
    }
  }

  #menu(open) {
    this.v.menu.hidden = !open;
    this.v.user.setAttribute("aria-expanded", String(open));
    if (open) this.v.profile.focus();
  }

  async #submit(dlg) {
    const f = dlg.querySelector("form").elements;
    const err = dlg.querySelector(".account-error");
    const ok = dlg.querySelector("button[type=submit]");
    let path;
    let body;
    if (dlg === this.v.change) {
      path = "password";
      body = { old_password: f.old_password.value, new_password: f.new_password.value };
    } else {
      path = dlg.dataset.mode === "signup" ? "signup" : "login";
      body = { username: f.username.value.trim(), password: f.password.value };
    }
    err.textContent = "";
    ok.disabled = true;
    try {
      const r = await call(path, "POST", body);
      this.#set(r.user);
      dlg.close();
      dlg.querySelector("form").reset();
      this.v.user.focus();
    } catch (e) {
      err.textContent = e.message;
    } finally {
      ok.disabled = false;
    }
  }
}
