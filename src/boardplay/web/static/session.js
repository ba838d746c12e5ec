// Who is signed in on this browser: the account (or null for a guest) and the session's CSRF
// token, which api.js sends with every change. Asked of the server once per page load and after
// every sign-in or sign-out; the header's account link, the lobby's connection and the "your
// turn" badge follow it.
import { t } from "./text.js";

let current = { account: null, csrf: null };
let loaded = null;
let known = false; // the server has answered once: `current` is who is signed in
const listeners = new Set();

export const account = () => current.account;
export const csrf = () => current.csrf;

// Calls `listener(account)` with who is signed in now (at once if the server has said already,
// else as soon as it does) and again after every sign-in or sign-out. A listener added after the
// page's session was loaded must not miss it: the lobby's connection once did (issue 52).
export function onAccount(listener) {
  listeners.add(listener);
  if (known) listener(current.account);
  return () => listeners.delete(listener);
}

export function setSession(answer) {
  current = { account: answer?.account ?? null, csrf: answer?.csrf ?? null };
  loaded = Promise.resolve(current);
  known = true;
  for (const listener of listeners) listener(current.account);
  return current;
}

export function loadSession() {
  if (!loaded) {
    const early = globalThis.boardplayEarly?.take("/api/account/me"); // early.js asked already
    loaded = (early || fetch("/api/account/me")).then((r) => (r.ok ? r.json() : null)).catch(() => null)
      .then((answer) => setSession(answer));
  }
  return loaded;
}

// The header's link: "Sign in" for a guest, the player's name (their account page) once signed
// in. Called again after a change of language: it follows the account from the first call on.
let linked = null;
export function accountLink(el) {
  const draw = (who) => {
    el.textContent = who ? who.name : t("account.signIn");
    el.href = who ? "#/account" : "#/signin";
    el.title = who ? t("account.signedInAs", { name: who.name }) : "";
  };
  if (linked !== el) { linked = el; onAccount((who) => draw(who)); }
  draw(current.account);
}
