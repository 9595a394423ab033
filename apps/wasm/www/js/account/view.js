// The account's header control and dialogs (account/ctrl.js drives them): "Log in" and "Sign up"
// for a guest; the account's name with a menu (My profile, Leaderboard, Change password, API
// tokens (account/tokens.js), Log out)
// when logged in.

import { el } from "../shared/util.js";
import { leaderboardHref, playerHref } from "../shared/rating.js";

/** A labelled input of a dialog's form. */
function field(label, attrs) {
  return el("label", {}, label + " ", el("input", { required: true, ...attrs }));
}

/** A dialog with heading `title`, the form's `fields`, an aria-live error line and two buttons. */
function dialog(id, title, fields, ok) {
  return el(
    "dialog",
    { id, class: "dialog account-dialog", "aria-labelledby": `${id}-title` },
    el(
      "form",
      { id: `${id}-form`, novalidate: true },
      el("h2", { id: `${id}-title` }, title),
      ...fields,
      ...(id === "dlg-auth" ? [el("button", { type: "button", class: "link", id: "auth-switch" }, "New here? Sign up")] : []),
      el("p", { id: `${id}-error`, class: "account-error error", role: "alert", "aria-live": "assertive" }),
      el(
        "menu",
        {},
        el("button", { type: "button", value: "cancel", id: `${id}-cancel` }, "Cancel"),
        el("button", { type: "submit", class: "primary", id: `${id}-ok` }, ok),
      ),
    ),
  );
}

/** Put the header control in `box` and the dialogs in the page; returns the elements. */
export function build(box) {
  // below 600 px the bar shows a person icon for "Log in" (the button keeps its name)
  const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("width", "16");
  icon.setAttribute("height", "16");
  icon.setAttribute("aria-hidden", "true");
  icon.classList.add("label-short");
  icon.innerHTML = '<circle cx="12" cy="8" r="4" fill="currentColor"/><path d="M4 21a8 8 0 0 1 16 0z" fill="currentColor"/>';
  const login = el("button", { type: "button", id: "account-login", "aria-label": "Log in" }, el("span", { class: "label-long" }, "Log in"), icon);
  const signup = el("button", { type: "button", id: "account-signup" }, "Sign up");
  const guest = el("div", { class: "account-guest", id: "account-guest" }, login, signup);
  const user = el(
    "button",
    { type: "button", id: "account-user", "aria-expanded": "false", "aria-controls": "account-menu" },
    el("span", { id: "account-name" }),
  );
  // the rating pages (players/ctrl.js opens links marked data-route in place)
  const profile = el("a", { id: "account-profile", class: "menu-link", href: "./", "data-route": "player" }, "My profile");
  const board = el("a", { id: "account-leaderboard", class: "menu-link", href: leaderboardHref(), "data-route": "leaderboard" }, "Leaderboard");
  const pw = el("button", { type: "button", id: "account-password" }, "Change password");
  const tokens = el("button", { type: "button", id: "account-tokens" }, "API tokens");
  const out = el("button", { type: "button", id: "account-logout" }, "Log out");
  const menu = el("div", { id: "account-menu", class: "account-menu", hidden: true }, profile, board, pw, tokens, out);
  const logged = el("div", { class: "account-user", id: "account-logged", hidden: true }, user, menu);
  box.replaceChildren(guest, logged);
  const auth = dialog(
    "dlg-auth",
    "Log in",
    [
      field("Username", { type: "text", name: "username", autocomplete: "username", maxlength: "20", id: "auth-username" }),
      field("Password", { type: "password", name: "password", autocomplete: "current-password", maxlength: "256", id: "auth-password" }),
    ],
    "Log in",
  );
  const change = dialog(
    "dlg-password",
    "Change password",
    [
      field("Current password", { type: "password", name: "old_password", autocomplete: "current-password", maxlength: "256", id: "pw-old" }),
      field("New password", { type: "password", name: "new_password", autocomplete: "new-password", maxlength: "256", id: "pw-new" }),
    ],
    "Change password",
  );
  document.body.append(auth, change);
  return { guest, logged, login, signup, user, menu, profile, board, pw, tokens, out, auth, change };
}

/** Show `account` (null: a guest) in the header control `v`. */
export function render(v, account) {
  v.guest.hidden = !!account;
  v.logged.hidden = !account;
  v.menu.hidden = true;
  v.user.setAttribute("aria-expanded", "false");
  document.getElementById("account-name").textContent = account ? account.name : "";
  v.profile.href = account ? playerHref(account.name) : "./";
  v.user.setAttribute("aria-label", account ? `Account ${account.name}` : "Account");
}

/** Set the log-in dialog `dlg` for signing up (`signup`) or logging in. */
export function setAuthMode(dlg, signup) {
  const title = signup ? "Sign up" : "Log in";
  dlg.querySelector("h2").textContent = title;
  dlg.querySelector("button[type=submit]").textContent = title;
  dlg.querySelector("input[name=password]").setAttribute("autocomplete", signup ? "new-password" : "current-password");
  dlg.dataset.mode = signup ? "signup" : "login";
  dlg.querySelector("#auth-switch").textContent = signup ? "Have an account? Log in" : "New here? Sign up";
}
