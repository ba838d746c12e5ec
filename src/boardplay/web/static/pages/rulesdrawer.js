// The rules beside the board: a panel at the right of the game page on a wide screen (the board
// stays in view and playable), a full-screen sheet on a phone. The text (with its diagrams: the
// rules' drawn figures come as preformatted blocks) is fetched when first opened.
import { h } from "../dom.js";
import { api, showError } from "../api.js";
import { markdownToHtml } from "../markdown.js";
import { t, language, gameTitle } from "../text.js";

// `resized` is called when the panel opens or closes (the board beside it changes width).
export function rulesDrawer(name, title, resized = () => {}) {
  const body = h("div", { class: "rules", id: "rules-panel-text" });
  const heading = h("h2", { id: "rules-panel-title" }, t("rules.title", { title: gameTitle(name, title) }));
  const close = h("button", { type: "button", class: "close", id: "rules-close", "aria-label": t("rules.close") }, "×");
  const panel = h("aside", { class: "rules-drawer", id: "rules-panel", role: "dialog", "aria-labelledby": "rules-panel-title", hidden: true },
    h("div", { class: "drawer-head" }, heading, close), body);
  const button = h("button", { type: "button", id: "rules-open", "aria-expanded": "false", "aria-controls": "rules-panel" }, t("rules.open"));
  let loaded = false;

  async function open() {
    panel.hidden = false;
    document.body.classList.add("rules-open");
    button.setAttribute("aria-expanded", "true");
    close.focus();
    resized();
    if (loaded) return;
    try {
      // In the page's language, as the lobby's rules page (English where a game has no other).
      const rules = await api(`/api/rules/${encodeURIComponent(name)}?lang=${language()}`);
      body.lang = rules.lang;
      body.innerHTML = markdownToHtml(rules.markdown); // safe: the converter escapes all input first
      loaded = true;
    } catch (e) { showError(e.message); }
  }
  function hide() {
    if (panel.hidden) return;
    panel.hidden = true;
    document.body.classList.remove("rules-open");
    button.setAttribute("aria-expanded", "false");
    button.focus();
    resized();
  }
  button.addEventListener("click", () => (panel.hidden ? open() : hide()));
  close.addEventListener("click", hide);
  panel.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  const remove = () => { document.body.classList.remove("rules-open"); panel.remove(); };
  document.body.append(panel);
  return { button, panel, remove };
}
