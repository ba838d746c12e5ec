// The rules of one game, from the server's Markdown.
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { markdownToHtml } from "../markdown.js";
import { t, language } from "../text.js";

export async function rulesPage(main, name) {
  const rules = await api(`/api/rules/${encodeURIComponent(name)}?lang=${language()}`);
  clear(main);
  const body = h("div", { class: "panel rules", id: "rules-text" });
  body.lang = rules.lang; // English rules (a game without Japanese ones) are marked as such
  body.innerHTML = markdownToHtml(rules.markdown); // safe: the converter escapes all input first
  // Wide tables and code blocks scroll sideways on a phone: focusable, so a keyboard scrolls them.
  for (const block of body.querySelectorAll("pre, table")) block.tabIndex = 0;
  main.append(h("p", {}, h("a", { href: "#/" }, t("rules.back"))), body);
}
