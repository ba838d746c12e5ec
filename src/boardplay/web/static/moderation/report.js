// "Report this player": a folded form (reason, an optional note) on a profile and on a game page,
// sent to POST /api/players/{name}/report for the moderators (web/moderation/).
import { h } from "../dom.js";
import { api, errorLine, showNote } from "../api.js";
import { t } from "../text.js";

const REASONS = ["abuse", "cheating", "farming", "other"];

// `names`: the players this form may report (one on a profile, the other players on a game page).
export function reportForm(names, gameId = null) {
  const error = errorLine("report-error");
  const who = h("select", { id: "report-player" }, names.map((n) => h("option", { value: n }, n)));
  const reason = h("select", { id: "report-reason" }, REASONS.map((r) => h("option", { value: r }, t(`report.reason.${r}`))));
  const text = h("textarea", { id: "report-text", maxlength: 500, rows: 3 });
  const send = h("button", { type: "submit", id: "report-send" }, t("report.send"));
  const form = h("form", { class: "report-form" },
    names.length > 1 ? h("label", {}, t("report.player"), " ", who) : "",
    h("label", {}, t("report.reason"), " ", reason),
    h("label", { class: "report-text" }, t("report.text"), text),
    send, error.element);
  const box = h("details", { class: "report", id: "report" }, h("summary", {}, t(names.length > 1 ? "report.openGame" : "report.open")), form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.clear();
    send.disabled = true;
    const body = { reason: reason.value, note: text.value };
    if (gameId) body.game = gameId;
    try {
      await api(`/api/players/${encodeURIComponent(names.length > 1 ? who.value : names[0])}/report`, { method: "POST", body });
      text.value = "";
      box.open = false;
      showNote(t("report.sent"));
    } catch (e) { error.show(e.message); } finally { send.disabled = false; }
  });
  return box;
}
