// The engine's lines at the node shown: a level of the ladder, a button that asks the server
// (one search of that level's own agent; lines found are kept on the position, so they show at
// once when it is shown again, for every reader), each line's move in words, its chance to win
// for the player to move and the moves the search expects after it, every one of them a button
// that adds the line up to there to the tree (the owner's). Above them, the evaluation bar.
import { h, clear } from "../dom.js";
import { t, term, words, seatName } from "../text.js";
import { seatSwatch } from "../boards/common.js";

const LEVELS = ["easy", "medium", "hard", "expert"];
const pct = (p) => `${Math.round(p * 100)}%`;

// What the lines of `level` say of each seat's chance to win at the node shown: the seat to move
// by the lines here; with more than two players every other seat by the lines of its own last
// decision on the way here, where the page has them ({seat, p, ply}; ply null: here).
function seatChances(board, position, level) {
  const here = position.lines?.[level];
  const best = (found) => found?.lines?.[0]?.win_probability;
  const chances = [];
  if (here && best(here) !== null && best(here) !== undefined) chances.push({ seat: here.seat, p: best(here), ply: null });
  if (position.hints?.seat_names?.length > 2) {
    const path = board.path().reverse();
    for (let seat = 0; seat < position.hints.seat_names.length; seat++) {
      if (chances.some((c) => c.seat === seat)) continue;
      const at = path.find((n) => { const found = board.positions.get(n.id)?.lines?.[level]; return found?.seat === seat && typeof best(found) === "number"; });
      if (at) chances.push({ seat, p: best(board.positions.get(at.id).lines[level]), ply: at.ply });
    }
  }
  return chances;
}

// The evaluation bar: with two players one bar, the chance to win of the seat to move; with more,
// a small bar per seat, each from the position it was last judged at (or "not judged yet").
function drawEval(box, board, position, level) {
  clear(box);
  const names = position.hints?.seat_names || [];
  const chances = seatChances(board, position, level);
  const bar = (seat, p, label) => h("div", { class: "eval-row", "data-seat": seat },
    seatSwatch(position.hints, seat), h("span", { class: "eval-name" }, seatName(names[seat] ?? `#${seat + 1}`)),
    h("span", { class: "eval-bar", role: "img", "aria-label": label, title: label },
      p === null ? "" : h("span", { class: "eval-fill", style: `width:${Math.round(p * 100)}%;background:${position.hints?.seat_colours?.[seat] || "#888"}` })),
    h("span", { class: "eval-value" }, p === null ? t("analysis.notJudged") : pct(p)));
  if (!chances.length) return;
  box.append(h("div", { class: "muted small" }, t("analysis.evalCaption")));
  if (names.length <= 2) {
    const mine = chances[0];
    box.append(bar(mine.seat, mine.p, t("analysis.evalLabel", { name: seatName(names[mine.seat] ?? ""), chance: pct(mine.p) })));
    return;
  }
  for (let seat = 0; seat < names.length; seat++) {
    const c = chances.find((x) => x.seat === seat);
    const name = seatName(names[seat]);
    const label = !c ? t("analysis.evalUnknown", { name }) : c.ply === null ? t("analysis.evalLabel", { name, chance: pct(c.p) }) : t("analysis.evalEarlier", { name, chance: pct(c.p), n: c.ply });
    box.append(bar(seat, c ? c.p : null, label));
  }
}

// The panel; `update(position)` follows the node shown, `fail(error)` shows a refusal.
export function linesPanel(board, fail) {
  const level = h("select", { id: "lines-level" }, LEVELS.map((l) => h("option", { value: l, selected: l === "medium" }, term("level", l))));
  const ask = h("button", { type: "button", id: "lines-ask", class: "primary" }, t("analysis.askLines"));
  const status = h("p", { class: "muted", id: "lines-status", "aria-live": "polite" });
  const evalBox = h("div", { class: "eval", id: "eval" });
  const list = h("ol", { class: "engine-lines", id: "lines" });
  const panel = h("div", { class: "panel", id: "lines-panel" },
    h("h3", {}, t("analysis.linesTitle")), h("p", { class: "muted small" }, t("analysis.linesAbout")),
    h("div", { class: "lines-controls" }, h("label", {}, `${t("analysis.level")} `, level), ask), status, evalBox, list);
  let shown = null; // the position the panel shows

  // A move of a line: a button adding the line up to it (an owner's), else its text.
  // `notation`: the label is the engine's notation, which is not translated.
  const step = (moves, label, cls, notation = false) => (board.yours
    ? h("button", { type: "button", class: cls, translate: notation ? "no" : null, title: t("analysis.addLine"), onclick: async () => { try { await board.playLine(moves); } catch (e) { fail(e); } } }, label)
    : h("span", { class: cls, translate: notation ? "no" : null }, label));

  const draw = (position) => {
    const found = position.lines?.[level.value];
    clear(list);
    drawEval(evalBox, board, position, level.value);
    if (!found) return;
    status.textContent = found.stored ? "" : t("analysis.searched", { n: found.iterations, seconds: Number(found.seconds).toFixed(1) });
    for (const line of found.lines) {
      const legal = position.legal.find((l) => l.move === line.move);
      const chance = line.win_probability === null || line.win_probability === undefined ? "—" : pct(line.win_probability);
      list.append(h("li", { "data-move": line.move },
        h("span", { class: "line-chance", title: t("analysis.chanceTitle") }, chance), " ",
        step([line.move], legal && words(legal) ? words(legal) : line.move, "line-move", !(legal && words(legal))), " ",
        line.line.length > 1 ? h("span", { class: "line-then" }, t("analysis.then"), " ",
          line.line.slice(1).map((move, k) => [step(line.line.slice(0, k + 2), move, "line-next", true), " "])) : ""));
    }
  };

  ask.addEventListener("click", async () => {
    const node = board.node;
    ask.disabled = true;
    status.textContent = t("analysis.thinking");
    try {
      await board.lines(level.value);
      if (board.node === node && shown) draw(shown);
    } catch (e) {
      status.textContent = e.status === 429 && e.retryAfter ? t("analysis.tryAgain", { n: Math.ceil(e.retryAfter) }) : e.message;
    } finally { ask.disabled = false; }
  });
  level.addEventListener("change", () => { status.textContent = ""; if (shown) draw(shown); });

  return {
    panel,
    update(position) {
      shown = position;
      const judged = !position.terminal && !position.chance;
      ask.hidden = !judged;
      status.textContent = judged ? "" : t(position.terminal ? "analysis.noLinesOver" : "analysis.noLinesChance");
      draw(position);
    },
  };
}
