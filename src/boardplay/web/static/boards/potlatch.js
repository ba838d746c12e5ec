// Potlatch Klone: a free-form hex board in axial pointy-top coordinates (rules spec §2.4, §11).
// Tiles show their chip stack bottom to top (N neutral, R red, B blue); pawns sit on top. A
// legal Pawn Move or Chip Move is made by clicking the hex it goes to (the mover's pawn hex +
// the direction); when both are possible there, the page asks which.
import { s } from "../dom.js";
import { svgRoot, target, legalMoves, text } from "./common.js";

const DIRS = { E: [1, 0], NE: [1, -1], NW: [0, -1], W: [-1, 0], SW: [-1, 1], SE: [0, 1] };
const SIZE = 40;
const CHIP = { N: "#f4ecd8", R: "#d33c3c", B: "#2f6fd6" };

const parse = (key) => key.split(",").map(Number);
const center = (q, r) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];

function hexPoints(cx, cy, size) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(2)},${(cy + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

export function draw(position, ctx) {
  const tiles = position.tiles || {};
  const pawns = position.pawns || [];
  const mover = position.to_move ?? 0;
  const colours = ctx.hints?.seat_colours || ["#d33c3c", "#2f6fd6"];
  const visited = new Set(position.done ? position.visited || [] : []);

  // Which hexes the legal moves reach, and with what.
  const byHex = new Map();
  const from = pawns[mover];
  if (from) {
    const [q0, r0] = parse(from);
    for (const move of legalMoves(ctx)) {
      const m = /^([PC])-(E|NE|NW|W|SW|SE)$/.exec(move);
      if (!m) continue;
      const [dq, dr] = DIRS[m[2]];
      const key = `${q0 + dq},${r0 + dr}`;
      if (!byHex.has(key)) byHex.set(key, []);
      byHex.get(key).push(move);
    }
  }
  const hexes = new Set([...Object.keys(tiles), ...byHex.keys()]);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const key of hexes) {
    const [x, y] = center(...parse(key));
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  if (!hexes.size) { minX = minY = 0; maxX = maxY = 0; }
  const pad = SIZE * 1.3;
  const layer = s("g");
  for (const key of hexes) {
    const [q, r] = parse(key);
    const [cx, cy] = center(q, r);
    const isTile = key in tiles;
    const chips = isTile ? tiles[key] : "";
    const moves = byHex.get(key) || [];
    const group = s("g", { "data-hex": key, class: isTile ? "hex tile" : "hex blank" });
    const shade = isTile ? ["#c9a66b", "#b88f4f", "#a07a3c", "#8a6630"][chips.length] : "none";
    group.append(s("polygon", {
      points: hexPoints(cx, cy, SIZE - 1.5),
      fill: shade,
      stroke: isTile ? "#6d5330" : "#888",
      "stroke-width": isTile ? 2 : 1.5,
      "stroke-dasharray": isTile ? null : "5 4",
    }));
    if (visited.has(key)) {
      group.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 7), fill: "none", stroke: "#fff8", "stroke-width": 2 }));
    }
    // The stack: one bar per chip, bottom chip lowest.
    [...chips].forEach((c, i) => {
      group.append(s("rect", {
        x: cx - 15, y: cy + 14 - i * 9, width: 30, height: 8, rx: 3,
        fill: CHIP[c] || "#999", stroke: "#0006", "stroke-width": 1,
      }));
    });
    if (isTile && chips.length) group.append(text(cx + 24, cy - 18, chips.length, { "font-size": 12, fill: "#0009" }));
    if (moves.length) {
      const hasPawn = moves.some((m) => m.startsWith("P-"));
      const hasChip = moves.some((m) => m.startsWith("C-"));
      const colour = hasPawn ? "#1f9d55" : "#e08a1e";
      group.append(s("polygon", {
        points: hexPoints(cx, cy, SIZE - 4), fill: `${colour}33`, stroke: colour, "stroke-width": 4,
        "stroke-dasharray": hasPawn && hasChip ? "10 5" : null, class: "legal-target",
      }));
      const label = moves.map((m) => (m.startsWith("P-") ? "pawn" : "chip")).join("+");
      target(group, moves, ctx, `${label} → ${key}`);
    }
    layer.append(group);
  }
  pawns.forEach((key, seat) => {
    if (!key) return;
    const [cx, cy] = center(...parse(key));
    const g = s("g", { class: "pawn", "data-seat": seat });
    g.append(s("circle", { cx, cy: cy - 17, r: 11, fill: colours[seat], stroke: seat === mover ? "#111" : "#fff", "stroke-width": 3 }));
    layer.append(g);
  });
  const info = text(minX - pad + 8, minY - pad + 12, `stock ${position.stock ?? "?"} · action ${(position.done ?? 0) + 1} of ${position.actions ?? "?"}`, { "text-anchor": "start", "font-size": 10, fill: "#333", class: "caption" });
  return svgRoot(minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad, layer, info);
}
