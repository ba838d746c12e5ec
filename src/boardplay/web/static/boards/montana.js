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
import { h } from "../dom.js";
import { t, words, seatName } from "../text.js";
import { targets, legalMoves, groupBy } from "./common.js";
import { legend, pieceName } from "./montana-pieces.js";
import { mapSvg, hexWords } from "./montana-map.js";
import { workerBoard, wheel, city, AREA_NAMES } from "./montana-works.js";
import { playerBoards, panel } from "./montana-players.js";


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
  return { svg: root, drawn: marks.drawn };
}
