// Montana: the whole table, played by clicking it. The decision panel (what is asked, and the
// choices of the selected target), the landscape map, the player boards, the worker board, the
// recruitment wheel and the City, drawn as HTML with SVG pieces so every word stays legible on
// a phone (the parts stack) and on a desktop (side by side). Every target comes from a legal
// move's struct, never from its notation: `work` spaces, `build` hexes and the cattle are
// selected first (the panel then shows the choices with what each gains and pays); the wheel,
// its push segments, the store cells, the canteen and the panel's buttons play at once. Moving
// the pointer over (or focusing) a target writes its move in words under the panel first. The
// last turn is ringed everywhere it touched. The printed values come from the server hint
// `table`, the hexes from `landscape`, the rest from the position JSON (rules spec §12.2).
import { h, s } from "../dom.js";
import { t, words, seatName } from "../text.js";
import { targets, legalMoves, groupBy } from "./common.js";
import { legend, pieceName } from "./montana-pieces.js";
import { mapSvg, hexWords } from "./montana-map.js";
import { workerBoard, wheel, city, AREA_NAMES } from "./montana-works.js";
import { playerBoards, panel } from "./montana-players.js";
import { frame, hexPath, hexAt } from "./miniframe.js";
import { montanaTurn, montanaStep } from "./montana-tutorial.js";


// "c+c+g" → "2 small copper, 1 grain".
function costWords(cost) {
  const counts = {};
  for (const g of cost ? cost.split("+") : []) counts[g] = (counts[g] || 0) + 1;
  return Object.entries(counts).map(([g, n]) => `${n} ${pieceName(g)}`).join(", ");
}

// "M2" → "the Mine, space 2 (3 silver → 2 small copper)".
function spaceWords(table, name) {
  if (!name) return "";
  if (name[0] === "B") {
    const b = table.bank.find((x) => x.space === name);
    return t("montana.bankSpace", { n: name.slice(1), workers: b?.workers ?? "?", silver: b?.silver ?? "?" });
  }
  const a = table.areas.find((x) => x.spaces.some((sp) => sp.space === name));
  const sp = a?.spaces.find((x) => x.space === name);
  return t("montana.prodSpace", { area: AREA_NAMES[a?.area]?.() ?? "", n: name.slice(1), cost: sp?.cost ?? "?", yield: sp?.yield ?? "?", good: pieceName(a?.good || "") });
}

export function draw(position, ctx) {
  const table = ctx.hints?.table;
  const hexes = ctx.hints?.landscape;
  if (!table || !hexes || !position.landscape) return null; // before the board is dealt: text picture
  const marks = targets(ctx);
  const legal = legalMoves(ctx);
  const env = {
    position, table, hexes, marks, legal,
    interactive: !!ctx.interactive,
    sel: ctx.selected || null,
    colours: ctx.hints?.seat_colours || [],
    names: (ctx.hints?.seat_names || []).map(seatName), // in this language
    lastTurn: ctx.lastTurn || [],
    // The end of the game (ctx.ending, games/montana/ending.py): the settlements of the players
    // who placed every settlement, ringed on the map, and the deciding tie-break on their boards.
    ending: ctx.ending || null,
    byKey: (kind, keyOf) => groupBy(legal.filter((m) => m.struct.kind === kind), keyOf),
    costWords,
    spaceWords: (name) => spaceWords(table, name),
    hexWords: (hex) => (hex ? hexWords(hex, costWords) : ""),
    // A target that plays at once; pointing at it or focusing it says what it does first.
    offer(el, moves) {
      marks.target(el, moves);
      const say = () => { const p = el.closest(".montana-table")?.querySelector("#mt-preview"); if (p) p.textContent = t("montana.preview", { words: moves.map(words).join(" / ") }); };
      el.addEventListener("pointerenter", say);
      el.addEventListener("focus", say);
      return el;
    },
  };
  const root = h("div", { class: "montana-table", "data-stage": position.stage?.name || "" },
    panel(env),
    h("div", { class: "mt-top" }, mapSvg(env), h("div", { class: "mt-side" }, playerBoards(env), wheel(env))),
    workerBoard(env),
    city(env),
    legend());
  bringAsked(root, position, env.interactive);
  return { svg: root, drawn: marks.drawn };
}

// The part of the table a decision is made in, brought into view once when the decision comes
// if it is not in view below the sticky panel: the City, which lies below the map and the worker
// board, once the player has gone there (or is to bid in its auction); the wheel after a spin.
const ASKED = { PLACE: ".mt-city .mt-store", PUSH: "[data-wheel]" };
let brought = null;
function bringAsked(root, position, interactive) {
  const stage = position.stage || {};
  const part = interactive ? ASKED[stage.name] : null;
  const key = part ? `${position.turn?.number}:${stage.name}:${stage.decider}` : null;
  if (!key || key === brought) return;
  brought = key;
  requestAnimationFrame(() => {
    const el = root.querySelector(part);
    if (!el?.isConnected) return;
    const box = el.getBoundingClientRect();
    const top = root.querySelector("#mt-panel")?.getBoundingClientRect().bottom ?? 0;
    if (box.top >= Math.max(top, 0) && box.bottom <= innerHeight) return;
    el.scrollIntoView({ block: box.height < innerHeight - top ? "end" : "start" });
  });
}

// ----- what the lobby and the walk-through read from the board module ---------------------------
// The lobby card: the game's typical length and its place among the cards (easiest to learn
// first); the card's words are in strings-games.js under about.montana.*.
export const about = { minutes: [45, 90], order: 4 };

// The first-game walk-through (pages/tutorial.js): the stage-driven walk of montana-tutorial.js.
export const tutorial = { byStage: true, turn: montanaTurn, step: montanaStep };

// Montana: a patch of the landscape with settlements, and a worker and coins at the side.
export function miniature() {
  const kinds = ["#9bc36b", "#c9b27a", "#9bc36b", "#7fb0d8", "#9bc36b", "#c9b27a", "#9bc36b"];
  const cells = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
  const out = [];
  cells.forEach(([q, r], i) => {
    const [x, y] = hexAt(q, r, 12, 50, 40);
    out.push(s("path", { d: hexPath(x, y, 11.5), fill: kinds[i], stroke: "#5b5141", "stroke-width": 0.9 }));
  });
  const house = (q, r, colour) => {
    const [x, y] = hexAt(q, r, 12, 50, 40);
    return s("path", { d: `M${x - 4},${y + 4}V${y - 1}L${x},${y - 5}L${x + 4},${y - 1}V${y + 4}Z`, fill: colour, stroke: "#111", "stroke-width": 0.8 });
  };
  out.push(house(0, 0, "#2f6fd6"), house(1, -1, "#e0b020"), house(-1, 1, "#2f6fd6"), house(0, 1, "#d33c3c"));
  out.push(s("circle", { cx: 96, cy: 26, r: 5, fill: "#3a9a4a", stroke: "#111", "stroke-width": 0.8 }),
    s("rect", { x: 91, y: 31, width: 10, height: 9, rx: 3, fill: "#3a9a4a", stroke: "#111", "stroke-width": 0.8 }));
  for (let i = 0; i < 3; i++) out.push(s("circle", { cx: 91 + i * 5, cy: 55, r: 4, fill: "#c8ccd2", stroke: "#6b7078", "stroke-width": 0.8 }));
  return frame(...out);
}
