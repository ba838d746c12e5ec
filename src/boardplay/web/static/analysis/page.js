// The analysis board's page (`#/analysis/{id}/{node}`; docs/web.md, "The analysis board"): a
// study's position drawn by its game's own board, stepped through with buttons and the arrow
// keys, any legal move played on the board to add a branch (or go into the one already there),
// a chance node's outcome chosen or drawn; beside it the engine's lines (lines.js) and the tree
// of variations with the node's tools (tree.js); under them export, share and a copy of one's
// own. The controller is study.js; `#/analysis` with no study is the start form (start.js).
import { h, clear } from "../dom.js";
import { api, showError, showNote } from "../api.js";
import { t, words, say, seatName, gameTitle, resultWords } from "../text.js";
import { drawBoard, chooser } from "../pages/parts.js";
import { boardModule } from "../boards/load.js";
import { StudyBoard } from "./study.js";
import { drawTree, nodeTools } from "./tree.js";
import { linesPanel } from "./lines.js";
import { refusal, refusedPanel, positionLink } from "./door.js";

// A refusal in plain words where the page knows it (fair play's 403, a 429's wait), else the
// server's sentence, in the red toast.
const fail = (e) => showError(refusal(e));

// Where the study began, in words (a stored game and a forked study as links).
function sourceLine(study) {
  const source = study.source || {};
  if (source.kind === "game") return [t("analysis.fromGame"), " ", h("a", { href: `#/game/${source.game_id}` }, t("analysis.theGame"))];
  if (source.kind === "fork") return [t("analysis.fromFork"), " ", h("a", { href: `#/analysis/${source.study}` }, t("analysis.theStudy"))];
  return t(`analysis.from.${source.kind}`) === `analysis.from.${source.kind}` ? "" : t(`analysis.from.${source.kind}`);
}

// The status line: the move that led here in words (or the first position), then whose move it
// is, what chance decides, or the result.
function statusWords(position, names) {
  const moved = position.moved;
  const head = moved ? t("replay.after", { n: position.ply, words: words(moved) || moved.move }) : t("analysis.firstPosition");
  const now = position.terminal ? t("replay.result", { result: resultWords(position.result, names) })
    : position.chance ? t("analysis.chanceDecides")
    : t("game.toMove", { name: seatName(names[position.current_player] ?? "") });
  return { head, now, why: position.terminal ? say(moved?.struct?.ends?.say, "") : "" };
}

export async function analysisPage(main, id, node) {
  clear(main);
  let study;
  try { study = await api(`/api/analysis/${encodeURIComponent(id)}`); } catch (e) {
    refusedPanel(main, e);
    return () => {};
  }
  const board = new StudyBoard(study, Number(node) || 0);
  // The address follows the node shown (without a new history entry, nor a new drawing of the
  // page), so a reload or a copied address opens the same position.
  board.moved = (at) => history.replaceState(null, "", `#/analysis/${board.id}/${at}`);
  const names = study.players.length ? study.players : [];

  const title = h("h2", { id: "analysis-title" }, t("analysis.title", { title: gameTitle(study.game, study.title) }));
  const source = h("p", { class: "muted small", id: "analysis-source" }, sourceLine(study));
  const fork = h("button", { type: "button", id: "fork", class: "primary", onclick: async () => {
    try { location.hash = `#/analysis/${await board.fork()}/${board.node}`; } catch (e) { fail(e); }
  } }, t("analysis.fork"));
  const readOnly = study.yours ? "" : h("p", { class: "read-only", id: "read-only" }, t("analysis.readOnly"), " ", fork);
  const status = h("div", { class: "status", id: "analysis-status", "aria-live": "polite" });
  const boardBox = h("div", { class: "board-wrap", id: "analysis-board" });
  const chanceBox = h("div", { class: "chance-box", id: "chance-box" });
  const legalBox = h("div", { class: "legal-list", id: "analysis-legal" });
  const plyLabel = h("span", { id: "analysis-ply", class: "muted" });
  const stepButton = (key, name, symbol, go) => h("button", { type: "button", id: name, "aria-label": t(key), title: t(key), onclick: () => go() }, symbol);
  const steps = [stepButton("analysis.first", "first", "|◀", () => board.first()), stepButton("analysis.back", "prev", "◀", () => board.back()),
    stepButton("analysis.forward", "next", "▶", () => board.forward()), stepButton("analysis.last", "last", "▶|", () => board.last())];
  const treeBox = h("div", { id: "tree-box" });
  const toolsBox = h("div", { id: "node-tools" });
  const lines = linesPanel(board, fail);
  const shareBox = h("div", { id: "share-box" });
  const share = h("button", { type: "button", id: "share", onclick: () => copyLink(`${location.origin}/#/analysis/${board.id}/${board.node}`, "share-link") }, t("analysis.share"));
  const sharePosition = h("button", { type: "button", id: "share-position", title: t("analysis.sharePositionTitle"), onclick: async () => {
    const at = await board.position();
    copyLink(`${location.origin}/${positionLink(study.game, study.options, at.position)}`, "position-link");
  } }, t("analysis.sharePosition"));

  // A link copied to the clipboard, and shown in a box to copy by hand where the browser refuses.
  async function copyLink(url, boxId) {
    const field = h("input", { id: boxId, readonly: true, value: url, translate: "no", "aria-label": t("analysis.linkLabel"), onfocus: (e) => e.target.select() });
    clear(shareBox).append(field);
    try { await navigator.clipboard.writeText(url); showNote(t("analysis.copied")); } catch { field.focus(); }
  }

  main.append(h("div", { class: "columns analysis" },
    h("div", {}, h("div", { class: "panel" }, title, source, readOnly, status, boardBox, chanceBox, legalBox,
      h("div", { class: "replay-controls", id: "analysis-steps" }, steps, plyLabel, h("span", { class: "muted small keys-note" }, t("analysis.keys"), ["←", "→", "Home", "End"].map((key) => [" ", h("kbd", { translate: "no" }, key)]))))),
    h("div", {}, lines.panel,
      h("div", { class: "panel", id: "tree-panel" }, h("h3", {}, t("analysis.tree")), h("p", { class: "muted small" }, t(study.yours ? "analysis.treeAbout" : "analysis.treeAboutReader")), treeBox, toolsBox),
      h("div", { class: "panel", id: "study-tools" }, h("h3", {}, t("analysis.studyTools")),
        h("p", { class: "tools" }, h("a", { href: `/api/analysis/${board.id}/export`, download: "", id: "export" }, t("analysis.export")), " ", share, " ", sharePosition), shareBox,
        h("p", {}, h("a", { href: `#/rules/${study.game}` }, t("game.rules")), " · ", h("a", { href: "#/analysis" }, t("analysis.newStudy")))))));

  const play = async (move) => {
    try {
      const answer = await board.play(move);
      if (!answer.new) showNote(t("analysis.alreadyThere"));
    } catch (e) { fail(e); }
  };
  let drawn = ""; // the node, revision and comment the tree and tools were drawn for
  board.render = async () => {
    const position = await board.position();
    const hints = position.hints || {};
    const seatNames = hints.seat_names || names;
    const said = statusWords(position, seatNames);
    clear(status).append(h("div", {}, said.head), h("div", { class: "status-now" }, said.now));
    if (said.why) status.append(h("div", { class: "ending-words" }, said.why));
    const interactive = board.yours && !position.terminal && !position.chance;
    const moved = position.moved?.struct;
    const ctx = {
      legal: interactive ? position.legal : [], interactive, hints, options: study.options,
      selected: board.look.selected, view: board.look.view, narrow: boardBox.clientWidth < 560,
      coarse: matchMedia("(pointer: coarse)").matches, currentPlayer: position.current_player,
      lastTurn: moved ? [moved] : [], ending: position.terminal ? moved?.ends?.mark || null : null,
    };
    const undrawn = await drawBoard(boardBox, hints.renderer, position.position, position.text, ctx);
    boardBox.dataset.selected = board.look.selected || "";
    clear(legalBox);
    if (interactive && undrawn.length) {
      legalBox.append(h("div", { class: "muted" }, t("game.otherMoves")),
        ...undrawn.map((l) => h("button", { type: "button", "data-move": l.id, onclick: () => play(l.id) }, words(l) || l.move)));
    }
    clear(chanceBox);
    if (position.chance) {
      chanceBox.append(h("p", {}, t(board.yours ? "analysis.chooseOutcome" : "analysis.chanceDecides")));
      if (board.yours) {
        chanceBox.append(h("div", { class: "outcomes" }, position.outcomes.map((o) => h("button", { type: "button", "data-outcome": o.id, onclick: () => play(o.id) },
          words(o) || o.move, h("span", { class: "muted" }, ` (${Math.round(o.probability * 100)}%)`))),
        h("button", { type: "button", id: "draw-random", class: "primary", onclick: () => play({ draw: true }) }, t("analysis.drawRandom"))));
      }
    }
    const at = board.nodes.get(board.node);
    plyLabel.textContent = t("analysis.plyLabel", { n: at.ply });
    steps[0].disabled = steps[1].disabled = at.parent === null;
    steps[2].disabled = steps[3].disabled = !at.children.length;
    const key = `${board.node}:${board.study.revision}:${at.comment ?? ""}`;
    if (key !== drawn) {
      drawTree(treeBox, board, seatNames, hints);
      nodeTools(toolsBox, board, fail);
      lines.update(position);
      drawn = key;
    }
    // The marks tests wait on, set last.
    boardBox.dataset.node = board.node;
    status.dataset.node = board.node;
    status.dataset.revision = board.study.revision;
  };

  boardBox.addEventListener("click", (event) => {
    const own = event.target.closest("[data-view]");
    if (own) return board.changeView(JSON.parse(own.getAttribute("data-view")));
    const picked = event.target.closest("[data-select]");
    if (picked) return board.select(picked.getAttribute("data-select"));
    const el = event.target.closest("[data-moves]");
    if (!el) return undefined;
    const ids = JSON.parse(el.getAttribute("data-moves"));
    if (ids.length === 1) return play(ids[0]);
    return board.position().then((position) => chooser(boardBox, event, ids, position.legal, play));
  });
  boardBox.addEventListener("keydown", (event) => {
    if (event.key === "Escape") board.unselect();
    if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("[data-moves], [data-select]")) {
      event.preventDefault();
      const rect = event.target.getBoundingClientRect();
      event.target.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: rect.x, clientY: rect.y }));
    }
  });
  // ←/→ step back and forward, Home and End go to the first position and the line's end; a
  // board's own keys (R rotates a tile) while something is selected. Not while typing.
  const onKey = async (event) => {
    if (event.target.matches?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const step = { ArrowLeft: () => board.back(), ArrowRight: () => board.forward(), Home: () => board.first(), End: () => board.last() }[event.key];
    if (step) { event.preventDefault(); step(); return; }
    board.key(event.key, await boardModule((await board.position()).hints?.renderer));
  };
  document.addEventListener("keydown", onKey);
  board.moved(board.node);
  await board.redraw();
  return () => { board.leave(); document.removeEventListener("keydown", onKey); };
}
