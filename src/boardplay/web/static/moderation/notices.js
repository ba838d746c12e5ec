// What moderators decided about the signed-in player, shown at the top of the next page they load
// (GET /api/account/notices) in their language until they say they read it; and the header's
// link to the moderation page, shown to moderators.
import { h } from "../dom.js";
import { api } from "../api.js";
import { t, language } from "../text.js";
import { account } from "../session.js";

const day = (seconds) => new Date(seconds * 1000).toLocaleDateString(language());

export function noticeText(n) {
  if (n.action === "chat_ban") return t("notice.chat_ban", { days: n.days, until: day(n.until), reason: n.reason });
  if (n.action === "mark") return t(`notice.mark.${n.grounds}`, { reason: n.reason });
  return t(`notice.${n.action}`, { reason: n.reason });
}

let shown = [];
export async function showNotices() {
  const box = document.getElementById("notices");
  const link = document.getElementById("moderation-link");
  let answer = { moderator: false, notices: [] };
  if (account()) { // a guest has no decisions to read, and is spared the request
    try { answer = await api("/api/account/notices"); } catch { /* a failed look shows nothing */ }
  }
  if (link) link.hidden = !answer.moderator;
  shown = answer.notices;
  draw(box);
}

function draw(box) {
  if (!box) return;
  box.replaceChildren(...shown.map((n) => {
    const ok = h("button", { type: "button" }, t("notice.ok"));
    ok.addEventListener("click", () => {
      // Gone at once (a second click meets the next notice, not this one again); a notice
      // whose "seen" the server did not hear is shown again on the next page.
      shown = shown.filter((other) => other.id !== n.id);
      draw(box);
      api(`/api/account/notices/${n.id}/seen`, { method: "POST" }).catch(() => null);
    });
    return h("div", { class: "notice", role: "status", "data-action": n.action }, h("p", {}, noticeText(n)), ok);
  }));
  box.hidden = !shown.length;
}

// The notices again in the page's language (after a switch).
export const redrawNotices = () => draw(document.getElementById("notices"));
