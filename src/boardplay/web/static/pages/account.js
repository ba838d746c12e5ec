// Signing in and the account page. A player signs up or in with a passkey (the browser's own
// prompt: a fingerprint, a face, a security key, a phone) or with a name and password; the games
// this browser held as a guest then become the account's, so they follow the player to every
// device. The account page lists passkeys and keeps the rest of the account's settings.
import { h, clear } from "../dom.js";
import { api, showError, showNote, errorLine } from "../api.js";
import { myGameIds, tokenFor } from "../store.js";
import { setSession, loadSession, account } from "../session.js";
import { t } from "../text.js";
import { previousRoute } from "../route.js";
import { pushPanel } from "./pushpanel.js";
import { tokenPanel } from "./tokens.js";

const passkeysWork = () => typeof window.PublicKeyCredential === "function" && !!PublicKeyCredential.parseCreationOptionsFromJSON;

// The games this browser holds seats in as a guest become the account's.
async function keepGuestGames() {
  const seats = myGameIds().map((game) => ({ game, token: tokenFor(game) })).filter((s) => s.token).slice(0, 200);
  if (seats.length) await api("/api/account/adopt", { method: "POST", body: { seats } }).catch(() => null);
}

// Signed in: this browser's guest games become the account's, then the page the player came
// from (a game they watched) or else the lobby, unless they have gone elsewhere meanwhile. The
// sign-in page is replaced in the history, so Back does not return to it.
async function signedIn(answer) {
  setSession(answer);
  await keepGuestGames();
  const back = previousRoute();
  if (location.hash.startsWith("#/signin")) location.replace(back && !/^#\/(signin|account)/.test(back) ? back : "#/");
}

export async function createPasskey(name) {
  const begun = await api("/api/account/passkeys/register", { method: "POST", body: name ? { name } : {} });
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(begun.options);
  const credential = await navigator.credentials.create({ publicKey });
  return api("/api/account/passkeys/register/finish", {
    method: "POST", body: { ceremony: begun.ceremony, credential: credential.toJSON(), label: t("account.passkeyLabel") },
  });
}

async function usePasskey() {
  const begun = await api("/api/account/passkeys/signin", { method: "POST", body: {} });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(begun.options);
  const credential = await navigator.credentials.get({ publicKey });
  return api("/api/account/passkeys/signin/finish", { method: "POST", body: { ceremony: begun.ceremony, credential: credential.toJSON() } });
}

// Why a sign-in, a passkey or a change failed, in words (a closed passkey prompt is no error):
// the refusals a newcomer meets in the page's language, the others as the server says them.
const KNOWN = {
  wrong_credentials: "account.wrongCredentials",
  signin_throttled: "account.throttled",
  too_many_signups: "account.tooManySignups",
  name_taken: "account.nameTaken",
  name_reserved: "account.nameReserved",
};
const reason = (e, name = "") => (e.name === "NotAllowedError" ? t("account.passkeyCancelled")
  : KNOWN[e.code] ? t(KNOWN[e.code], { name }) : e.message);

// A button whose work may fail: the server's (or the browser's) reason is shown, nothing else:
// on `line` (the form's own error line) if given, else in the toast.
const action = (attrs, label, work, line = null) => {
  const button = h("button", { type: "button", ...attrs }, label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    line?.clear();
    try { await work(); } catch (e) { if (line) line.show(reason(e)); else showError(reason(e)); } finally { button.disabled = false; }
  });
  return button;
};

// A form that signs in with a name and a password (signing in, or up: `path`): sent, its answer
// signs this browser in; a refusal is said on the form's own error `line`.
function withPassword(form, line, path, name, password) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    line.clear();
    const named = name.value.trim();
    try { await signedIn(await api(path, { method: "POST", body: { name: named, password: password.value } })); } catch (e) { line.show(reason(e, named)); }
  });
}

export async function signInPage(main) {
  await loadSession();
  if (account()) { location.replace("#/account"); return; }
  clear(main);
  const name = h("input", { id: "signin-name", autocomplete: "username", maxlength: 20, required: true });
  const password = h("input", { id: "signin-password", type: "password", autocomplete: "current-password" });
  const newName = h("input", { id: "signup-name", autocomplete: "username", maxlength: 20, pattern: "[A-Za-z0-9_\\-]{3,20}", required: true });
  const newPassword = h("input", { id: "signup-password", type: "password", autocomplete: "new-password", minlength: 8 });
  const noPasskeys = passkeysWork() ? "" : h("p", { class: "muted" }, t("account.noPasskeys"));
  // Each form says what went wrong on a line of its own, above its button (not at the foot of
  // the screen, far from the fields).
  const signInError = errorLine("signin-error");
  const signUpError = errorLine("signup-error");
  const signIn = h("form", { class: "panel", id: "signin-form" },
    h("h2", {}, t("account.signInTitle")),
    passkeysWork() ? h("p", {}, action({ id: "signin-passkey", class: "primary" }, t("account.signInPasskey"), async () => signedIn(await usePasskey()), signInError)) : noPasskeys,
    h("p", { class: "muted" }, t("account.orPassword")),
    h("p", {}, h("label", {}, `${t("account.name")} `, name)),
    h("p", {}, h("label", {}, `${t("account.password")} `, password)),
    signInError.element,
    h("button", { type: "submit", id: "signin-submit" }, t("account.signIn")));
  withPassword(signIn, signInError, "/api/account/signin", name, password);
  const signUp = h("form", { class: "panel", id: "signup-form" },
    h("h2", {}, t("account.signUpTitle")),
    h("p", { class: "muted" }, t("account.why")),
    h("p", {}, h("label", {}, `${t("account.name")} `, newName)),
    h("p", { class: "muted small" }, t("account.nameRule")),
    passkeysWork() ? h("p", {}, action({ id: "signup-passkey", class: "primary" }, t("account.signUpPasskey"), async () => {
      if (!newName.reportValidity()) return;
      try { await signedIn(await createPasskey(newName.value.trim())); } catch (e) { signUpError.show(reason(e, newName.value.trim())); }
    }, signUpError)) : noPasskeys,
    h("p", { class: "muted" }, t("account.orPasswordNew")),
    h("p", {}, h("label", {}, `${t("account.password")} `, newPassword)),
    signUpError.element,
    h("button", { type: "submit", id: "signup-submit" }, t("account.signUpPassword")));
  withPassword(signUp, signUpError, "/api/account/signup", newName, newPassword);
  main.append(h("div", { class: "columns" }, signIn, signUp));
}

// E-mail notifications of correspondence games: an address, confirmed by the link mailed to it,
// and which mails to get. The server may send no e-mail at all (its operator set no SMTP server).
async function fillEmail(box) {
  let status;
  try { status = await api("/api/account/email"); } catch (e) { box.replaceChildren(h("p", { class: "muted" }, e.message)); return; }
  const mine = status.email;
  const redraw = () => fillEmail(box);
  const remove = mine ? action({ id: "email-remove" }, t("email.remove"), async () => { await api("/api/account/email", { method: "DELETE" }); redraw(); }) : "";
  if (!status.available) {
    box.replaceChildren(h("h3", {}, t("email.title")), h("p", { class: "muted", id: "email-state" }, t("email.unavailable")),
      mine ? h("p", {}, mine.address, " ", remove) : "");
    return;
  }
  const address = h("input", { id: "email-address", type: "email", autocomplete: "email", maxlength: 254, required: true, value: mine?.address ?? "" });
  const turns = h("input", { id: "email-turns", type: "checkbox", checked: mine ? mine.notify_turns : true });
  const end = h("input", { id: "email-end", type: "checkbox", checked: mine ? mine.notify_end : true });
  const save = (resend) => api("/api/account/email", {
    method: "PUT", body: { address: address.value.trim(), notify_turns: turns.checked, notify_end: end.checked, resend },
  });
  const state = !mine ? t("email.none") : mine.confirmed ? t("email.confirmed") : t("email.unconfirmed");
  const form = h("form", { id: "email-form" },
    h("p", {}, h("label", {}, `${t("email.address")} `, address)),
    h("p", {}, h("label", {}, turns, ` ${t("email.turns")}`)),
    h("p", {}, h("label", {}, end, ` ${t("email.end")}`)),
    h("p", { class: "muted", id: "email-state", "aria-live": "polite" }, state),
    h("p", {}, h("button", { type: "submit", id: "email-save" }, t("email.save")), " ",
      mine && !mine.confirmed ? action({ id: "email-resend" }, t("email.resend"), async () => {
        if ((await save(true)).sent) showNote(t("email.sent"));
        redraw();
      }) : "", " ", remove));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await save(false);
      showNote(answer.sent ? t("email.sent") : t("email.saved"));
      redraw();
    } catch (e) { showError(e.message); }
  });
  box.replaceChildren(h("h3", {}, t("email.title")), h("p", { class: "muted" }, t("email.why")), form);
}

export async function accountPage(main) {
  await loadSession();
  const me = account();
  if (!me) { location.hash = "#/signin"; return; }
  clear(main);
  const redraw = (answer) => { setSession(answer); accountPage(main); };
  const keys = me.passkeys.length ? h("ul", { id: "passkeys" }, me.passkeys.map((k) => h("li", {},
    `${k.label} · ${new Date(k.created).toLocaleDateString()} `,
    action({ class: "remove-passkey" }, t("account.remove"), async () => redraw(await api(`/api/account/passkeys/${encodeURIComponent(k.id)}`, { method: "DELETE" }))))))
    : h("p", { class: "muted", id: "passkeys" }, t("account.noKeys"));
  const old = h("input", { type: "password", id: "old-password", autocomplete: "current-password" });
  const fresh = h("input", { type: "password", id: "new-password", autocomplete: "new-password", minlength: 8 });
  const passwordForm = h("form", { id: "password-form" },
    me.password ? h("p", {}, h("label", {}, `${t("account.oldPassword")} `, old)) : "",
    h("p", {}, h("label", {}, `${t("account.newPassword")} `, fresh)),
    h("button", { type: "submit" }, me.password ? t("account.changePassword") : t("account.setPassword")));
  passwordForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      redraw(await api("/api/account/password", { method: "POST", body: { old: me.password ? old.value : null, new: fresh.value } }));
      showNote(t("account.passwordSaved"));
    } catch (e) { showError(e.message); }
  });
  const out = (path) => async () => { setSession(await api(path, { method: "POST", body: {} })); location.hash = "#/"; };
  const email = h("div", { id: "email-section" });
  const notices = h("section", { id: "push-section", class: "push-section" });
  const tokens = h("section", { id: "tokens-section" });
  main.append(
    h("div", { class: "panel", id: "account-page" },
      h("h2", {}, t("account.title", { name: me.name })),
      h("p", {}, h("a", { href: `#/player/${encodeURIComponent(me.name)}`, id: "my-profile" }, t("account.profile")), " · ",
        h("a", { href: "#/following", id: "my-following" }, t("relations.link"))),
      h("h3", {}, t("account.passkeys")), keys,
      passkeysWork() ? h("p", {}, action({ id: "add-passkey" }, t("account.addPasskey"), async () => redraw(await createPasskey(null)))) : "",
      h("h3", {}, t("account.passwordTitle")), passwordForm,
      notices,
      email,
      tokens,
      h("h3", {}, t("account.sessions")),
      h("p", {}, action({ id: "signout" }, t("account.signOut"), out("/api/account/signout")), " ",
        action({ id: "signout-everywhere" }, t("account.signOutEverywhere"), out("/api/account/signout-everywhere"))),
      h("details", { class: "danger" }, h("summary", {}, t("account.delete")),
        h("p", {}, t("account.deleteNote")),
        action({ id: "delete-account" }, t("account.deleteConfirm"), async () => {
          const typed = prompt(t("account.deleteType", { name: me.name }));
          if (typed === null) return;
          setSession(await api("/api/account/delete", { method: "POST", body: { confirm: typed } }));
          location.hash = "#/";
        }))));
  await Promise.all([pushPanel(notices), fillEmail(email), tokenPanel(tokens, me)]);
}
