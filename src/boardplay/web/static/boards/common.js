// Helpers shared by the board renderers: making clickable targets and fitting the view box.
import { s } from "../dom.js";

// Marks `el` as a click target for the given legal moves (notation strings). The page asks the
// player to choose when one target stands for several moves.
export function target(el, moves, ctx, label) {
  if (!ctx.interactive || !moves.length) return el;
  el.setAttribute("data-moves", JSON.stringify(moves));
  el.classList.add("clickable");
  if (label) el.setAttribute("data-label", label);
  for (const m of moves) ctx.mapped.add(m);
  return el;
}

export function svgRoot(minX, minY, width, height, ...children) {
  return s("svg", {
    viewBox: `${minX} ${minY} ${width} ${height}`,
    xmlns: "http://www.w3.org/2000/svg",
    role: "img",
    class: "board",
  }, ...children);
}

export function legalMoves(ctx) {
  return ctx.interactive ? ctx.legal.map((l) => l.move) : [];
}

export function text(x, y, content, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, content);
}

// Marks `el` as selectable: clicking it selects `key` (e.g. a piece or a pool tile) and the board is
// redrawn with ctx.selected = key, showing where it can go. `moves` are the legal moves this
// selection leads to; they count as drawn.
export function selectable(el, key, moves, ctx) {
  if (!ctx.interactive || !moves.length) return el;
  el.setAttribute("data-select", key);
  el.classList.add("clickable");
  for (const m of moves) ctx.mapped.add(m);
  return el;
}

// A button drawn inside the SVG for a move that has no place on the board (e.g. "pass").
export function svgButton(x, y, label, move, ctx) {
  const g = s("g", {});
  g.append(s("rect", { x, y, width: 70, height: 26, rx: 5, fill: "#fff", stroke: "#1f9d55", "stroke-width": 2 }));
  g.append(text(x + 35, y + 13, label, { "font-size": 13 }));
  return target(g, [move], ctx, label);
}
