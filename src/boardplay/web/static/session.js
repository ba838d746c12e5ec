// Who is signed in on this browser: the account (or null for a guest) and the session's CSRF
// token, which api.js sends with every change. Asked of the server once per page load and after
// every sign-in or sign-out; the header's account link follows it.
import { t } from "./text.js";

let current = { account: null, csrf: null };
let loaded = null;
const listeners = new Set();

export const account = () => current.account;
export const csrf = () => current.csrf;
export const onAccount = (listener) => { listeners.add(listener); return () => listeners.delete(listener); };

export function setSession(answer) {
  current = { account: answer?.account ?? null, csrf: answer?.csrf ?? null };
  loaded = Promise.resolve(current);
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

// The header's link: "Sign in" for a guest, the player's name (their account page) once signed in.
export function accountLink(el) {
  const draw = (who) => {
    el.textContent = who ? who.name : t("account.signIn");
    el.href = who ? "#/account" : "#/signin";
    el.title = who ? t("account.signedInAs", { name: who.name }) : "";
  };
  onAccount(draw);
  draw(current.account);
}
