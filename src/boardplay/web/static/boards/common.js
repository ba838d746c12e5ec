// Helpers shared by the board views. A board is a pure function draw(position, ctx) ->
// {svg, drawn}: `drawn` is the set of legal move ids it offers as targets, so the page can
// offer the others another way. Legal moves arrive as {id, move, struct, words}; boards read
// only `struct` (never the notation) and put ids on their targets.
import { s } from "../dom.js";

// Collects the targets of one drawing. target(): clicking `el` plays one of `moves` (the page
// asks which when there are several); selectable(): clicking `el` selects `key` and the board
// is drawn again with ctx.selected = key, showing what the selection leads to.
export function targets(ctx) {
  const drawn = new Set();
  const mark = (el, moves, label) => {
    el.classList.add("clickable");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    if (label) el.setAttribute("aria-label", label);
    for (const m of moves) drawn.add(m.id);
  };
  return {
    drawn,
    target(el, moves, label) {
      if (!ctx.interactive || !moves.length) return el;
      el.setAttribute("data-moves", JSON.stringify(moves.map((m) => m.id)));
      mark(el, moves, label || moves.map((m) => m.words).filter(Boolean).join(" / "));
      return el;
    },
    selectable(el, key, moves, label) {
      if (!ctx.interactive || !moves.length) return el;
      el.setAttribute("data-select", key);
      mark(el, moves, label);
      return el;
    },
  };
}

// The legal moves a board may offer: none when it is not this viewer's turn.
export function legalMoves(ctx) {
  return ctx.interactive ? ctx.legal.filter((l) => l.struct) : [];
}

// Groups items into a Map of arrays by key (skipping null keys).
export function groupBy(items, keyOf) {
  const out = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null || key === undefined) continue;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(item);
  }
  return out;
}

export function svgRoot(minX, minY, width, height, label, ...children) {
  return s("svg", {
    viewBox: `${minX} ${minY} ${width} ${height}`,
    xmlns: "http://www.w3.org/2000/svg",
    role: "group",
    "aria-label": label,
    class: "board",
  }, ...children);
}

export function text(x, y, content, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true", ...attrs }, content);
}

// A button drawn inside the SVG for a move that has no place on the board (e.g. "pass").
export function svgButton(x, y, label, move, marks) {
  const g = s("g", { class: "svg-button" });
  g.append(s("rect", { x, y, width: 70, height: 26, rx: 5, fill: "#fff", stroke: "#1f9d55", "stroke-width": 2 }));
  g.append(text(x + 35, y + 13, label, { "font-size": 13 }));
  return marks.target(g, [move], move.words || label);
}

// The last turn's mark: a dashed ring in the "what just happened" colour, distinct from the
// green and orange of the targets.
export const LAST = "#7b3fc4";
