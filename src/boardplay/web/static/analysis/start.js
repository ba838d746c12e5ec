// The analysis board's start (`#/analysis`, from the site's navigation): a study of a game's first
// position with the players and rule options chosen as in the lobby's form, or of a record (its
// variations included) or a position JSON of the chosen game, pasted or read from a file.
import { h, clear } from "../dom.js";
import { getCatalogue, errorLine } from "../api.js";
import { t, gameTitle } from "../text.js";
import { optionInput, readOptions } from "../pages/lobby.js";
import { inCardOrder } from "../about.js";
import { openStudy, refusal } from "./door.js";

// What was pasted or read, as a study's source: a boardplay record, else a position of `game`.
export function sourceOf(text, game, options) {
  let data;
  try { data = JSON.parse(text); } catch { throw new Error(t("error.notJson")); }
  if (data && typeof data === "object" && (data.format === "boardplay-record" || Array.isArray(data.moves))) return { record: data };
  return { game, options, position: data };
}

export async function startPage(main) {
  const catalogue = await getCatalogue();
  const order = await inCardOrder(catalogue.map((g) => g.name));
  const games = order.names.map((name) => catalogue.find((g) => g.name === name));
  clear(main);
  const gameSelect = h("select", { id: "analysis-game" }, games.map((g) => h("option", { value: g.name }, gameTitle(g.name, g.title))));
  const optionsBox = h("div", { id: "analysis-options", class: "analysis-options" });
  const startError = errorLine("analysis-start-error");
  const pasteError = errorLine("analysis-open-error");
  const file = h("input", { type: "file", id: "analysis-file", accept: ".json,application/json", "aria-label": t("analysis.file") });
  const pasted = h("textarea", { id: "analysis-json", rows: 5, translate: "no", "aria-label": t("analysis.paste") });
  const chosen = () => games.find((g) => g.name === gameSelect.value);
  const drawOptions = () => clear(optionsBox).append(...chosen().options.map((o) => optionInput(chosen().name, o)));
  gameSelect.addEventListener("change", drawOptions);
  drawOptions();

  const open = async (body, line, button) => {
    line.clear();
    button.disabled = true;
    try { await openStudy(body); } catch (e) { line.show(refusal(e)); } finally { button.disabled = false; }
  };
  const start = h("button", { type: "button", class: "primary", id: "analysis-start" }, t("analysis.startBoard"));
  start.addEventListener("click", () => open({ game: chosen().name, options: readOptions(optionsBox) }, startError, start));
  const openButton = h("button", { type: "button", id: "analysis-open" }, t("analysis.openPasted"));
  const fromText = (text) => {
    let body;
    try { body = sourceOf(text, chosen().name, readOptions(optionsBox)); } catch (e) { pasteError.show(e.message); return; }
    open(body, pasteError, openButton);
  };
  openButton.addEventListener("click", () => fromText(pasted.value));
  file.addEventListener("change", async () => {
    const text = await file.files[0]?.text();
    file.value = "";
    if (text !== undefined) fromText(text);
  });

  main.append(h("div", { class: "panel analysis-start", id: "analysis-start-page" },
    h("h2", {}, t("analysis.boardTitle")),
    h("p", {}, t("analysis.intro")),
    h("h3", {}, t("analysis.fromStartTitle")),
    h("p", {}, h("label", {}, `${t("lobby.game")} `, gameSelect)),
    optionsBox, startError.element, start,
    h("h3", {}, t("analysis.fromFileTitle")),
    h("p", { class: "muted" }, t("analysis.fromFileAbout")),
    h("p", {}, h("label", { class: "file-label" }, `${t("analysis.file")} `, file)),
    h("label", { class: "paste-label" }, h("span", {}, t("analysis.paste")), pasted),
    pasteError.element, openButton));
}
