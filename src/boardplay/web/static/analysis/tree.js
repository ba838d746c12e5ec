// The variation tree of a study, beside the board (below it on a phone): the mainline as a run
// of numbered moves, each other line indented under the move it branches from, the node shown
// highlighted, every move a button that shows its position. Under it, the node shown's tools:
// promote, delete (confirmed), its comment (an edit box) for the study's owner; for everyone
// else the comment to read and "Make a copy to edit".
import { h, clear } from "../dom.js";
import { t, seatName } from "../text.js";
import { seatSwatch } from "../boards/common.js";

// One move of the tree: "12. P-E" (the notation is the engine's, never translated) after the
// swatch of the seat that played it, named in its tooltip and accessible name; a chance outcome
// is shown apart.
function moveButton(node, { names, hints, current, pick }) {
  const who = node.seat === -1 ? t("game.chance") : seatName(names[node.seat] ?? `#${node.seat + 1}`);
  const label = t("analysis.treeMove", { n: node.ply, who, move: node.move });
  return h("button", {
    type: "button",
    class: `tree-move${node.seat === -1 ? " chance" : ""}${node.comment ? " commented" : ""}`,
    "data-node": node.id,
    "aria-current": node.id === current ? "true" : null,
    "aria-label": label,
    title: label,
    onclick: () => pick(node.id),
  }, h("span", { class: "ply" }, `${node.ply}.`), node.seat >= 0 ? seatSwatch(hints, node.seat) : "", h("span", { translate: "no" }, node.move), node.comment ? h("span", { class: "note-mark", "aria-hidden": "true" }, " ✎") : "");
}

// The moves after `at` along its first children, in a run (`look`: as drawTree's); after each move that has other lines
// beside it (its siblings), those lines indented under it, each drawn the same way.
function continueLine(run, nodes, at, look) {
  while (at.children.length) {
    const [main, ...others] = at.children.map((kid) => nodes.get(kid));
    run.append(moveButton(main, look));
    if (others.length) run.append(h("div", { class: "tree-branches" }, others.map((other) => branch(nodes, other, look))));
    at = main;
  }
  return run;
}

// A line that starts with the move of node `first`.
function branch(nodes, first, look) {
  return continueLine(h("div", { class: "tree-line" }, moveButton(first, look)), nodes, first, look);
}

// The tree of `board` (analysis/study.js) into `box`, the node shown scrolled into view.
// `names` and `hints`: the seats' names and colours.
export function drawTree(box, board, names, hints) {
  const pick = (id) => board.go(id);
  const look = { names, hints, current: board.node, pick };
  const start = h("button", { type: "button", class: "tree-move start", "data-node": 0, "aria-current": board.node === 0 ? "true" : null, onclick: () => pick(0) }, t("analysis.startShort"));
  const tree = h("div", { class: "tree", id: "tree", role: "group", "aria-label": t("analysis.tree") },
    continueLine(h("div", { class: "tree-line" }, start), board.nodes, board.nodes.get(0), look));
  clear(box).append(tree);
  const shown = tree.querySelector("[aria-current='true']");
  if (shown) tree.scrollTop = Math.max(0, shown.offsetTop - tree.offsetTop - tree.clientHeight / 2);
}

// How many positions deleting node `id` takes away: it and every one after it.
function subtree(nodes, id) {
  let count = 0;
  for (const todo = [id]; todo.length; count++) todo.push(...nodes.get(todo.pop()).children);
  return count;
}

// Whether node `id` is on the study's mainline (every node above it its parent's first line).
function onMainline(nodes, id) {
  for (let at = nodes.get(id); at.parent !== null; at = nodes.get(at.parent)) {
    if (nodes.get(at.parent).children[0] !== at.id) return false;
  }
  return true;
}

// The node shown's tools into `box`: for the owner, promote it, make its line the mainline,
// delete it (after a question that says how much goes) and its comment in an edit box; for a
// reader, its comment. `fail(error)` shows a refusal.
export function nodeTools(box, board, fail) {
  const node = board.nodes.get(board.node);
  clear(box);
  if (!board.yours) {
    if (node.comment) box.append(h("p", { class: "node-comment", id: "node-comment" }, node.comment));
    return;
  }
  const act = (fn) => async () => { try { await fn(); } catch (e) { fail(e); } };
  const text = h("textarea", { id: "comment-text", rows: 3, maxlength: 1000, "aria-label": t("analysis.comment"), placeholder: t("analysis.commentHint") });
  text.value = node.comment || "";
  const save = h("button", { type: "button", id: "comment-save", onclick: act(() => board.comment(text.value)) }, t("analysis.saveComment"));
  const tools = h("div", { class: "node-tools" });
  if (node.parent !== null) {
    const first = board.nodes.get(node.parent).children[0] === node.id;
    tools.append(
      h("button", { type: "button", id: "promote", disabled: first, title: t("analysis.promoteTitle"), onclick: act(() => board.promote(false)) }, t("analysis.promote")),
      h("button", { type: "button", id: "mainline", disabled: onMainline(board.nodes, node.id), title: t("analysis.mainlineTitle"), onclick: act(() => board.promote(true)) }, t("analysis.mainline")),
      h("button", { type: "button", id: "delete-node", class: "danger", onclick: act(async () => {
        if (confirm(t("analysis.deleteConfirm", { n: subtree(board.nodes, node.id) }))) await board.remove();
      }) }, t("analysis.delete")));
  }
  box.append(tools, h("label", { class: "comment-box" }, h("span", {}, t("analysis.comment")), text), save);
}
