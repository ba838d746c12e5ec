// A tournament's chat on its page: everyone reads it; a signed-in person who joined (or whose
// account is old enough) writes in it. Messages are written as text, never HTML. The server
// keeps the rules (tournaments/talk.py: length, rate); its refusal is said under the box, in the
// page's language (tournaments/refusals.js). The page's poll (tournament.js) calls `refresh` with
// the view, every few seconds.
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { t } from "../text.js";
import { account } from "../session.js";
import { refusal } from "../tournaments/refusals.js";

export function tournamentChat(id) {
  const path = `/api/tournament-pages/${encodeURIComponent(id)}/chat`;
  const log = h("div", { class: "chat-log tournament-chat-log", id: "tournament-chat-log", role: "log", "aria-live": "polite", "aria-labelledby": "tournament-chat-title" });
  const input = h("input", { type: "text", id: "tournament-chat-input", maxlength: 300, autocomplete: "off", "aria-label": t("tournament.chatLabel"), placeholder: t("tournament.chatPlaceholder") });
  const send = h("button", { type: "submit", id: "tournament-chat-send" }, t("tournament.chatSend"));
  const error = h("p", { class: "form-error", id: "tournament-chat-error", role: "alert", hidden: true });
  const form = h("form", { class: "chat-form", id: "tournament-chat-form", hidden: true, onsubmit: (event) => { event.preventDefault(); write(); } }, input, " ", send);
  const note = h("p", { class: "muted", id: "tournament-chat-note", hidden: true });
  const element = h("section", { class: "panel tournament-chat", id: "tournament-chat", "aria-labelledby": "tournament-chat-title" },
    h("h2", { id: "tournament-chat-title" }, t("tournament.chatTitle")), log, form, error, note);
  let shown = "";

  function draw(answer) {
    const text = JSON.stringify(answer.messages);
    if (text !== shown) {
      shown = text;
      const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
      clear(log);
      for (const m of answer.messages) {
        log.append(h("div", { class: `chat-message${m.name === account()?.name ? " mine" : ""}`, "data-id": m.id },
          h("span", { class: "chat-name" }, m.name), " ", h("span", { class: "chat-text" }, m.text)));
      }
      if (!answer.messages.length) log.append(h("p", { class: "muted chat-empty" }, t("tournament.chatEmpty")));
      if (atEnd) log.scrollTop = log.scrollHeight;
    }
    input.maxLength = answer.length;
    form.hidden = !answer.can_write;
    clear(note).hidden = answer.can_write;
    if (!answer.can_write) {
      if (account()) note.append(t("tournament.chatJoinFirst"));
      else note.append(h("a", { href: "#/signin" }, t("tournament.signInLink")), t("tournament.chatSignIn"));
    }
  }

  async function refresh() {
    try { draw(await api(path)); } catch { /* the next poll asks again */ }
  }

  async function write() {
    const text = input.value.trim();
    if (!text || send.disabled) return;
    send.disabled = true;
    error.hidden = true;
    try {
      await api(path, { method: "POST", body: { text } });
      input.value = "";
      await refresh();
    } catch (e) {
      error.textContent = refusal(e);
      error.hidden = false;
    } finally {
      send.disabled = false;
      input.focus();
    }
  }

  return { element, refresh };
}
