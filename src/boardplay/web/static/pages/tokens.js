// The account page's API tokens and bot: personal tokens with their scopes, made (the secret
// shown this once, never again: the server keeps only its hash), listed with when each was last
// used, and revoked (its programs' requests and open streams end at once); and turning an account
// that has played no game into a bot account, for good (docs/bots.md).
import { h } from "../dom.js";
import { api, showError } from "../api.js";
import { t, language } from "../text.js";

const SCOPES = ["bot:play", "challenge:read", "challenge:write", "tournament:write"];
const when = (seconds) => new Date(seconds * 1000).toLocaleString(language());

export async function tokenPanel(box, me) {
  let answer;
  try { answer = await api("/api/account/tokens"); } catch (e) { box.replaceChildren(h("p", { class: "muted" }, e.message)); return; }
  const redraw = (shown = null) => tokenPanel(box, me).then(() => { if (shown) box.querySelector("#new-token")?.append(t("tokens.shown"), " ", h("code", { id: "new-token-value" }, shown)); });
  const list = answer.tokens.length ? h("ul", { id: "tokens" }, answer.tokens.map((tok) => h("li", { "data-token": tok.id },
    `${tok.label} · ${tok.scopes.join(", ")} · ${tok.used ? t("tokens.used", { when: when(tok.used) }) : t("tokens.unused")} `,
    h("button", { type: "button", class: "revoke-token", onclick: async () => {
      try { await api(`/api/account/tokens/${tok.id}`, { method: "DELETE" }); redraw(); } catch (e) { showError(e.message); }
    } }, t("tokens.revoke")))))
    : h("p", { class: "muted", id: "tokens" }, t("tokens.none"));
  const label = h("input", { id: "token-label", maxlength: 40 });
  const boxes = SCOPES.map((scope) => h("input", { type: "checkbox", value: scope, class: "token-scope", checked: scope !== "tournament:write" }));
  const form = h("form", { id: "token-form" },
    h("p", {}, h("label", {}, `${t("tokens.label")} `, label)),
    h("p", {}, boxes.map((b) => h("label", { class: "nowrap" }, b, ` ${b.value} `))),
    h("button", { type: "submit", id: "make-token" }, t("tokens.make")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api("/api/account/tokens", { method: "POST", body: { label: label.value, scopes: boxes.filter((b) => b.checked).map((b) => b.value) } });
      await redraw(made.token);
    } catch (e) { showError(e.message); }
  });
  const upgrade = answer.bot ? h("p", { id: "bot-state" }, t("bot.isBot"))
    : h("details", { id: "bot-upgrade" }, h("summary", {}, t("bot.upgrade")), h("p", { class: "muted" }, t("bot.upgradeNote")),
      h("button", { type: "button", id: "make-bot", onclick: async () => {
        const typed = prompt(t("bot.upgradeType", { name: me.name }));
        if (typed === null) return;
        try { await api("/api/account/bot", { method: "POST", body: { confirm: typed } }); redraw(); } catch (e) { showError(e.message); }
      } }, t("bot.upgrade")));
  box.replaceChildren(h("h3", {}, t("tokens.title")), h("p", { class: "muted" }, t("tokens.why")), list,
    h("p", { id: "new-token", "aria-live": "polite" }), form, upgrade);
}
