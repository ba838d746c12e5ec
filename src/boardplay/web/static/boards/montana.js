// Montana: the generated landscape as a pointy-top axial hex map (plains with their building
// cost, mountains, lakes), settlements in the owners' colours with their tile count, cattle and
// canteens still in the landscape, and a summary of the player boards and the worker board.
// A build is made by clicking the hex; the other decisions (spins, worker placements, rewards,
// trades) are offered as the list of moves beside the board. The hexes come from the server's
// render hints (the position JSON holds only the board seed); the rest from the position JSON.
import { s } from "../dom.js";
import { svgRoot, targets, legalMoves, groupBy, text, LAST } from "./common.js";
import { t } from "../text.js";

const SIZE = 30;
const KIND = { plain: "#cfe3a6", mountain: "#9c9386", lake: "#8cc3e8" };
const center = (q, r) => [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];

function hexPoints(cx, cy, size) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    pts.push(`${(cx + size * Math.cos(a)).toFixed(1)},${(cy + size * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

const key = (h) => `${h[0]},${h[1]}`;

export function draw(position, ctx) {
  const hexes = ctx.hints?.landscape;
  if (!hexes || !position.landscape) return null; // before the board is dealt: text picture
  const colours = ctx.hints?.seat_colours || [];
  const settlements = new Map((position.landscape.settlements || []).map((st) => [key(st.hex), st]));
  const cattle = new Set((position.landscape.cattle || []).map(key));
  const canteens = new Set((position.landscape.canteens || []).map(key));
  const marks = targets(ctx);
  const legal = legalMoves(ctx);
  const builds = groupBy(legal.filter((m) => m.struct.kind === "build"), (m) => key(m.struct.hex));
  const lastHexes = new Set((ctx.lastTurn || []).filter((st) => st.hex).map((st) => key(st.hex)));
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const layer = s("g", {});
  for (const hex of hexes) {
    const [cx, cy] = center(...hex.hex);
    minX = Math.min(minX, cx); maxX = Math.max(maxX, cx); minY = Math.min(minY, cy); maxY = Math.max(maxY, cy);
    const k = key(hex.hex);
    const g = s("g", { "data-hex": k });
    g.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 1), fill: KIND[hex.kind] || "#ddd", stroke: "#6b7a55", "stroke-width": 1 }));
    if (k === "0,0") g.append(text(cx, cy - 10, "START", { "font-size": 7 }));
    if (hex.kind === "plain" && hex.cost && k !== "0,0") g.append(text(cx, cy - 10, hex.cost.replace(/\+/g, ""), { "font-size": 8, fill: "#333" }));
    if (hex.kind === "mountain") g.append(text(cx, cy, "▲", { "font-size": 14, fill: "#5a524a" }));
    if (hex.double) g.append(text(cx + 13, cy + 10, "D", { "font-size": 8, "font-weight": 700 }));
    if (cattle.has(k)) g.append(text(cx - 13, cy + 10, "K", { "font-size": 9, fill: "#7a4a1a", "font-weight": 700 }));
    if (canteens.has(k)) g.append(s("circle", { cx, cy, r: 6, fill: "#fff", stroke: "#2c6d99" }));
    const st = settlements.get(k);
    if (st) {
      g.append(s("rect", { x: cx - 9, y: cy - 3, width: 18, height: 14, rx: 2, fill: colours[st.owner] || "#555", stroke: "#222" }));
      g.append(text(cx, cy + 4, st.tiles, { "font-size": 9, fill: "#fff" }));
    }
    if (lastHexes.has(k)) g.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 6), fill: "none", stroke: LAST, "stroke-width": 3, "stroke-dasharray": "3 3", class: "last-move" }));
    const moves = builds.get(k);
    if (moves) {
      g.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 4), fill: "#1f9d5533", stroke: "#1f9d55", "stroke-width": 3 }));
      marks.target(g, moves);
    }
    layer.append(g);
  }
  const pad = SIZE * 1.2;
  const x0 = maxX + pad + 10;
  const info = s("g", {});
  let y = minY - pad + 14;
  const line = (content, attrs = {}) => { info.append(text(x0, y, content, { "text-anchor": "start", "font-size": 11, ...attrs })); y += 15; };
  for (const p of position.players || []) {
    const goods = Object.entries(p.goods || {}).filter(([, n]) => n).map(([g, n]) => `${n}${g}`).join(" ") || "—";
    const workers = Object.entries(p.workers || {}).filter(([, n]) => n).map(([w, n]) => `${n}${w}`).join(" ") || "—";
    line(`${p.colour}: ${p.silver} silver, ${p.settlements_left} tiles left`, { fill: colours[p.seat] || "#333", "font-weight": 700 });
    line(`goods ${goods} · workers ${workers} · cattle ${p.cattle} · canteens ${p.canteens}`);
  }
  y += 6;
  const stage = position.stage || {};
  line(`stage ${stage.name ?? "?"}${stage.spin !== null && stage.spin !== undefined ? ` · spin ${stage.spin}` : ""}`);
  // The worker board: one box per bank or production space with the workers on it; clicking a
  // box offers the legal "work" choices for that space (which workers to put there).
  const wb = position.worker_board || {};
  const work = groupBy(legal.filter((m) => m.struct.kind === "work"), (m) => m.struct.space);
  const lastSpaces = new Set((ctx.lastTurn || []).filter((st) => st.space).map((st) => st.space));
  const spaces = [
    ...Object.entries(wb.bank || {}).map(([name, w]) => [name, w || "·"]),
    ...Object.entries(wb.production || {}).map(([name, spot]) => [name, `${spot.left || "·"} | ${spot.right || "·"}`]),
  ];
  y += 4;
  spaces.forEach(([name, label], i) => {
    const bx = x0 + (i % 4) * 86, by = y + Math.floor(i / 4) * 34;
    const g = s("g", { "data-space": name });
    const moves = work.get(name) || [];
    g.append(s("rect", { x: bx, y: by, width: 82, height: 30, rx: 4, fill: moves.length ? "#1f9d5522" : "#fffdf6", stroke: moves.length ? "#1f9d55" : "#b9a888", "stroke-width": moves.length ? 2.5 : 1 }));
    g.append(text(bx + 4, by + 9, name, { "text-anchor": "start", "font-size": 9, "font-weight": 700 }));
    g.append(text(bx + 41, by + 21, label, { "font-size": 8.5 }));
    if (lastSpaces.has(name)) g.append(s("rect", { x: bx - 2, y: by - 2, width: 86, height: 34, rx: 5, fill: "none", stroke: LAST, "stroke-width": 2.5, "stroke-dasharray": "3 3", class: "last-move" }));
    marks.target(g, moves);
    info.append(g);
  });
  y += Math.ceil(spaces.length / 4) * 34 + 6;
  const width = x0 - (minX - pad) + 360;
  const height = Math.max(maxY - minY + 2 * pad, y - (minY - pad) + 10);
  const svg = svgRoot(minX - pad, minY - pad, width, height, t("montana.label"), layer, info);
  return { svg, drawn: marks.drawn };
}
