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
