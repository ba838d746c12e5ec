// Helpers shared by the board views. A board is a pure function draw(position, ctx) ->
// {svg, drawn}: `drawn` is the set of legal move ids it offers as targets, so the page can
// offer the others another way. Legal moves arrive as {id, move, struct, words}; boards read
// only `struct` (never the notation) and put ids on their targets.
import { s } from "../dom.js";
import { words } from "../text.js";

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
      mark(el, moves, label || moves.map(words).filter(Boolean).join(" / "));
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

// Pointy-top hexagons in axial coordinates (Montana's landscape, Potlatch Klone's board, and
// their miniatures): the centre of hex (q, r) whose corners are `size` from it, and the six
// corners of such a hex around (cx, cy), each "x,y" with `digits` decimals.
const SQRT3 = Math.sqrt(3);
export const hexCentre = (q, r, size) => [size * SQRT3 * (q + r / 2), size * 1.5 * r];
export function hexCorners(cx, cy, size, digits = 1) {
  const corners = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    corners.push(`${(cx + size * Math.cos(a)).toFixed(digits)},${(cy + size * Math.sin(a)).toFixed(digits)}`);
  }
  return corners;
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
  return marks.target(g, [move], words(move) || label);
}

// The last turn's mark: a dashed ring in the "what just happened" colour, distinct from the
// green and orange of the targets.
export const LAST = "#7b3fc4";
// Where the game ended (the stuck pawn, the lines that scored), drawn on the final board.
export const ENDING = "#b00020";

// ----- Seat colours with a second cue ----------------------------------------------------------
// A seat's colour (the server's `seat_colours` hint, from a colour-blind-safe palette) always
// comes with the seat's shape, so no one needs to tell the colours apart: pawns, markers and
// swatches are drawn as that shape. Shapes, not letters, so the cue reads the same in every
// language; no emoji or font glyph, so it draws on any system.
export const SEAT_CUES = ["circle", "triangle", "square", "diamond", "star"];

export const seatCue = (seat) => SEAT_CUES[((seat % SEAT_CUES.length) + SEAT_CUES.length) % SEAT_CUES.length];

// The shape `cue` centred on (cx, cy) with radius r, as an SVG element.
export function cueShape(cue, cx, cy, r, attrs = {}) {
  const poly = (pts) => s("polygon", { points: pts.map(([x, y]) => `${(cx + x * r).toFixed(2)},${(cy + y * r).toFixed(2)}`).join(" "), ...attrs });
  if (cue === "triangle") return poly([[0, -1.1], [1, 0.75], [-1, 0.75]]);
  if (cue === "square") return s("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...attrs });
  if (cue === "diamond") return poly([[0, -1.15], [1.05, 0], [0, 1.15], [-1.05, 0]]);
  if (cue === "star") {
    const pts = [];
    for (let k = 0; k < 10; k++) {
      const a = (Math.PI / 5) * k - Math.PI / 2, rr = k % 2 ? 0.5 : 1.15;
      pts.push([Math.cos(a) * rr, Math.sin(a) * rr]);
    }
    return poly(pts);
  }
  return s("circle", { cx, cy, r, ...attrs });
}

// The colour and shape of `seat` from a game's hints.
export function seatStyle(hints, seat) {
  return { colour: hints?.seat_colours?.[seat] || "#999999", cue: seatCue(seat) };
}

// A seat's swatch for HTML (seat lists, the lobby): its shape filled with its colour, hidden from
// screen readers, which read the seat's name next to it.
export function seatSwatch(hints, seat) {
  const { colour, cue } = seatStyle(hints, seat);
  const svg = s("svg", { viewBox: "0 0 20 20", width: 16, height: 16, class: "swatch-cue", "aria-hidden": "true", focusable: "false", "data-cue": cue });
  svg.append(cueShape(cue, 10, 10.5, 7.5, { fill: colour, stroke: "#222", "stroke-width": 1.5 }));
  return svg;
}

// Target styles: the kind of a target is told by its line pattern as well as its colour.
export const TARGET_DASH = { primary: null, secondary: "2 5", both: "10 5" };
