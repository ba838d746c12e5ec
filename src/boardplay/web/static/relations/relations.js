// Following and blocking a player, as a profile offers it (api/relations.py): the Follow/Unfollow
// and Block/Unblock buttons (`relationButtons`), and the button and refusals the Following page
// (pages/following.js) shares with them.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t } from "../text.js";
import { account, loadSession } from "../session.js";

export const path = (what, name) => `/api/relations/${what}/${encodeURIComponent(name)}`;
// The refusals the page words in its own language; any other is the server's sentence.
const KNOWN = new Set(["too_many_follows", "too_many_blocks", "relations_rate", "blocking", "not_followable"]);
const refusal = (e, name) => (KNOWN.has(e.code) ? t(`relations.error.${e.code}`, { name }) : e.message);

// A button whose work may be refused: the refusal in the toast, the button usable again.
export function button(attrs, label, work) {
  const element = h("button", { type: "button", ...attrs }, label);
  element.addEventListener("click", async () => {
    element.disabled = true;
    try { await work(); } catch (e) { showError(refusal(e, attrs["data-name"])); } finally { element.disabled = false; }
  });
  return element;
}

// Follow/Unfollow and Block/Unblock for the profile of `name` (nothing for a guest or oneself).
export async function relationButtons(name) {
  await loadSession();
  const me = account();
  if (!me || me.name.toLowerCase() === name.toLowerCase()) return "";
  const box = h("p", { class: "relation-buttons", id: "relation-buttons" });
  const draw = (state) => {
    const follow = state.following
      ? button({ id: "unfollow", "data-name": name }, t("relations.unfollow"), async () => {
        await api(path("follow", name), { method: "DELETE" });
        draw({ ...state, following: false });
      })
      : button({ id: "follow", "data-name": name, title: t("relations.followTitle", { name }), disabled: state.blocking }, t("relations.follow"),
        async () => draw({ ...state, ...(await api(path("follow", name), { method: "POST" })) }));
    const block = state.blocking
      ? button({ id: "unblock", "data-name": name }, t("relations.unblock"), async () => draw({ ...state, ...(await api(path("block", name), { method: "DELETE" })) }))
      : button({ id: "block", "data-name": name, class: "quiet" }, t("relations.block"), async () => {
        if (!confirm(t("relations.blockConfirm", { name }))) return;
        draw({ ...state, ...(await api(path("block", name), { method: "POST" })), following: false });
      });
    clear(box).append(follow, " ", block, state.blocking ? h("span", { class: "muted small" }, " ", t("relations.blocking", { name })) : "");
  };
  try { draw(await api(path("with", name))); } catch { return ""; }
  return box;
}
