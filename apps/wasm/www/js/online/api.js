// The HTTP side of online play (docs/api.md): the API's address, requests with their errors, the
// seats this browser holds (localStorage "crown-seat-<id>") and the player's name ("crown-name").

import { accountName } from "../account/ctrl.js";

const NAME_KEY = "crown-name";

/** The API's base address, beside the page. */
export function apiBase() {
  // the page may be /, /index.html, /g/<id> (with <base>), or a sub-path
  return new URL("api/", document.baseURI).href;
}

function seatKey(id) {
  return `crown-seat-${id}`;
}

/** The player's name: the account's when logged in, else as last given here ("" when none). */
export function storedName() {
  if (accountName()) return accountName();
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch (_) {
    return "";
  }
}

/** Remember the player's name `name` for the next game (nothing when empty). */
export function rememberName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
  } catch (_) {
    /* private mode */
  }
}

/** Requests to crown-server's API. */
export class Api {
  /** `token()`: the seat token of the game shown (null when watching). */
  constructor(token) {
    this.token = token;
    this.reached = false; // whether the server ever answered this page
  }

  /**
   * `method` `path` of the API with JSON `body` (with the seat's token when `auth`): the answer's
   * JSON. Errors: `network` set when the server cannot be reached, `code` the API's error code.
   */
  async fetch(path, { method = "GET", body, auth = false } = {}) {
    const headers = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    const token = this.token();
    if (auth && token) headers.authorization = `Bearer ${token}`;
    let res;
    try {
      res = await fetch(apiBase() + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      const err = new Error(
        this.reached
          ? "the Crown server is unreachable: reconnecting…"
          : "cannot reach the Crown server (it may be restarting): try again in a moment",
      );
      err.network = true;
      throw err;
    }
    const text = await res.text();
    let data = null;
    try {
      data = JSON.parse(text);
    } catch (_) {
      /* not JSON */
    }
    if (!res.ok) {
      if (res.status >= 502 && res.status <= 504 && !(data && data.error)) {
        // a proxy in front of a server that is down
        const err = new Error("the Crown server is unreachable: reconnecting…");
        err.network = true;
        throw err;
      }
      if (!(data && data.error)) {
        // a plain web server (no Crown API behind it)
        const err = new Error("this web server has no Crown API: online play needs crown-server");
        err.code = String(res.status);
        throw err;
      }
      const msg = data.error.message;
      const err = new Error(msg);
      err.code = data.error.code;
      throw err;
    }
    if (data === null) throw new Error("the server did not answer with JSON: is this crown-server?");
    this.reached = true;
    return data;
  }
}

/** The seats this browser holds, by game id (kept in memory as well, for private mode). */
export class Seats {
  /** Keep the seat (`color`, `token`) of game `id` of `variant`. */
  remember(id, color, token, variant) {
    const entry = { color, token, variant, at: Date.now() };
    try {
      localStorage.setItem(seatKey(id), JSON.stringify(entry));
    } catch (_) {
      /* private mode: the seat lasts for this page only */
    }
    this.memSeats = this.memSeats || {};
    this.memSeats[id] = entry;
  }

  /** The seat kept for game `id` ({color, token, variant, at}), or null. */
  stored(id) {
    if (this.memSeats && this.memSeats[id]) return this.memSeats[id];
    try {
      const s = localStorage.getItem(seatKey(id));
      return s ? JSON.parse(s) : null;
    } catch (_) {
      return null;
    }
  }
}
