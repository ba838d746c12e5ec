// The ways into the analysis board from elsewhere: the Analyse button of a game's page and of a
// replay, a game's direct link (`#/analysis/game/{id}`), a position link
// (`#/analysis/new/{game}/{options and position}`), and the words for its refusals. Fair play decides on the server (web/table/analysable.py); a game's view says
// what it decided (`analysable`), so a page offers the button only where the door would open.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t } from "../text.js";

// A refusal of the analysis board in plain words: fair play's (a game still being played), a
// rate's ("try again in N s"), else the server's own sentence.
export function refusal(e) {
  if (e.code === "game_in_progress") return t("analysis.inProgress");
  if (e.status === 429 && e.retryAfter) return t("analysis.tryAgain", { n: Math.ceil(e.retryAfter) });
  if (e.status === 404) return t("analysis.notFound");
  return e.message;
}

// A new study from `body` (POST /api/analysis), then its page; `replace`: the address it was
// made from is not kept in the history (a position link opened again would make another).
export async function openStudy(body, replace = false) {
  const study = await api("/api/analysis", { method: "POST", body });
  const to = `#/analysis/${study.id}`;
  if (replace) location.replace(to);
  else location.hash = to;
  return study;
}

// Whether this viewer may analyse the game of `view` now: anyone once it has ended; while it
// is played, nobody for a rated game and none of its players for another.
export function mayAnalyse(view) {
  if (view.analysable === "anyone") return true;
  return view.analysable === "spectators" && !(view.your_seats || []).length;
}

// The Analyse button: a study of `body`'s source ({from_game} or {record}), then its page.
export function analyseButton(body) {
  const button = h("button", { type: "button", id: "analyse", title: t("analysis.analyseTitle") }, t("analysis.analyse"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try { await openStudy(body); } catch (e) { showError(refusal(e)); } finally { button.disabled = false; }
  });
  return button;
}

// The link that opens a new study at `position` of `game` with `options`.
export const positionLink = (game, options, position) => `#/analysis/new/${encodeURIComponent(game)}/${encodeURIComponent(JSON.stringify({ options, position }))}`;

// A position link opened: its study made, then shown in place of the link.
export async function openPositionLink(game, encoded) {
  let given;
  try { given = JSON.parse(encoded); } catch { throw new Error(t("analysis.badLink")); }
  try { await openStudy({ game, options: given.options || {}, position: given.position }, true); } catch (e) { throw new Error(refusal(e)); }
}

// A refusal drawn as the page, in plain words, with the way to a study of one's own.
export function refusedPanel(main, e) {
  clear(main).append(h("div", { class: "panel", id: "analysis-refused" }, h("h2", {}, t("analysis.closedTitle")),
    h("p", {}, refusal(e)), h("a", { href: "#/analysis" }, t("analysis.newStudy"))));
}

// A game's direct link: a study of its moves so far, shown in place of the link; a refusal
// (fair play's, while the game is played) as the page.
export async function openGameStudy(main, gameId) {
  try { await openStudy({ from_game: gameId }, true); } catch (e) { refusedPanel(main, e); }
}
