// Montana's landscape: the generated hexes (server hint `landscape`) as a pointy-top axial map.
// A plain shows its building cost as goods pieces (no letters), a double-settlement icon, the
// cattle still on it; a lake its canteen while nobody has taken it; the start tile a star. A
// settlement is its owner's seat shape in the seat colour, one shape per tile on the hex.
// Buildable hexes (legal `build` structs) are ringed and selectable: selecting one shows its
// cost and effect in the decision panel before the build is committed.
import { s, h } from "../dom.js";
import { t } from "../text.js";
import { LAST, ENDING, hexCentre, hexCorners } from "./common.js";
import { use } from "./montana-pieces.js";
import { landed } from "./motion.js";

const SIZE = 30;
const FILL = { plain: "#d9e8b5", mountain: "#a39a8e", lake: "#9ccbe8" };
const centre = (q, r) => hexCentre(q, r, SIZE);
let pan = null;
export const hexKey = (hex) => `${hex[0]},${hex[1]}`;

const points = (cx, cy, size) => hexCorners(cx, cy, size).join(" ");

// The goods of a cost ("c+s+g") laid out inside the hex: a row of 1–2, two rows for 3–4.
function costIcons(cost, cx, cy) {
  const goods = cost ? cost.split("+") : [];
  const size = 17;
  const rows = goods.length <= 2 ? [goods] : [goods.slice(0, 2), goods.slice(2)];
  const out = [];
  rows.forEach((row, r) => {
    const y = cy - (rows.length * size) / 2 + r * size - 4;
    row.forEach((g, i) => out.push(use(`mt-${g}`, cx - (row.length * size) / 2 + i * size, y, size)));
  });
  return out;
}

// Words for a hex: its cost and icons, for labels and the decision panel.
export function hexWords(hex, words) {
  if (hex.kind === "mountain") return t("montana.hex.mountain");
  if (hex.kind === "lake") return t("montana.hex.lake");
  const parts = [t("montana.hex.cost", { cost: words(hex.cost) })];
  if (hex.double) parts.push(t("montana.hex.double"));
  if (hex.cattle) parts.push(t("montana.hex.cattle"));
  return parts.join(" · ");
}

export function mapSvg(env) {
  const { position, hexes, colours, sel, marks } = env;
  const settlements = new Map((position.landscape.settlements || []).map((st) => [hexKey(st.hex), st]));
  const cattle = new Set((position.landscape.cattle || []).map(hexKey));
  const canteens = new Set((position.landscape.canteens || []).map(hexKey));
  const builds = env.byKey("build", (m) => hexKey(m.struct.hex));
  const last = new Set(env.lastTurn.filter((st) => st.kind === "build" && st.hex).map((st) => hexKey(st.hex)));
  const ended = new Map((env.ending?.settlements || []).map((st) => [hexKey(st.hex), st.seat]));
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const ground = s("g", {}), marksLayer = s("g", {});
  for (const hex of hexes) {
    const [cx, cy] = centre(...hex.hex);
    minX = Math.min(minX, cx); maxX = Math.max(maxX, cx); minY = Math.min(minY, cy); maxY = Math.max(maxY, cy);
    const k = hexKey(hex.hex);
    const g = s("g", { "data-hex": k, class: "mt-hex" });
    g.append(s("polygon", { points: points(cx, cy, SIZE - 0.8), fill: FILL[hex.kind] || "#ddd", stroke: "#7d8c62", "stroke-width": 1.2 }));
    const st = settlements.get(k);
    if (k === "0,0") g.append(use("mt-start", cx - 13, cy - 13, 26));
    else if (hex.kind === "mountain") g.append(s("path", { d: `M${cx - 17},${cy + 9} L${cx - 6},${cy - 10} L${cx + 1},${cy + 1} L${cx + 7},${cy - 6} L${cx + 17},${cy + 9} Z`, fill: "#7a7066", stroke: "#4a433c" }));
    else if (hex.kind === "lake") {
      for (const dy of [-6, 2, 10]) g.append(s("path", { d: `M${cx - 14},${cy + dy} q3.5,-4 7,0 t7,0 t7,0 t7,0`, fill: "none", stroke: "#3d7fb0", "stroke-width": 1.5 }));
      if (canteens.has(k)) g.append(use("mt-canteen", cx - 11, cy - 14, 22));
    } else if (!st) g.append(...costIcons(hex.cost, cx, cy));
    if (hex.double && !st) g.append(use("mt-double", cx + 5, cy + 9, 13));
    if (cattle.has(k)) g.append(use("mt-cattle", cx - 18, cy + 8, 14));
    if (st) {
      const shape = `mt-seat-${st.owner % 4}`;
      for (let i = st.tiles - 1; i >= 0; i--) g.append(use(shape, cx - 12 + i * 5, cy - 14 + i * 5, 24, { fill: colours[st.owner] || "#555" }));
      if (last.has(k)) landed(g.lastChild); // the settlement just built drops in (motion.js)
    }
    const moves = builds.get(k);
    if (moves) {
      const chosen = sel === `hex:${k}`;
      g.append(s("polygon", { points: points(cx, cy, SIZE - 3.5), fill: chosen ? "#e08a1e40" : "#1f9d5526", stroke: chosen ? "#c2410c" : "#1f7a3f", "stroke-width": chosen ? 5 : 3.5, class: "mt-ring" }));
      marks.selectable(g, `hex:${k}`, moves, t("montana.selectHex", { where: hexWords(hex, env.costWords) }));
    }
    if (ended.has(k)) marksLayer.append(s("polygon", { points: points(cx, cy, SIZE - 2.5), fill: "none", stroke: ENDING, "stroke-width": 4, class: "ending-settlement", "data-seat": ended.get(k) }));
    if (last.has(k)) marksLayer.append(s("polygon", { points: points(cx, cy, SIZE - 7), fill: "none", stroke: LAST, "stroke-width": 3.5, "stroke-dasharray": "4 3", class: "last-move" }));
    ground.append(g);
  }
  const pad = SIZE + 4;
  const [x0, y0, w, hgt] = [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad];
  // On a phone the map pans sideways in its own box: centred at first, then kept where the
  // player left it across redrawings.
  const box = h("div", { class: "mt-map", onscroll: () => { pan = box.scrollLeft; } },
    s("svg", { viewBox: `${x0} ${y0} ${w} ${hgt}`, class: "board mt-map-svg", role: "group", "aria-label": t("montana.map") }, ground, marksLayer));
  // Said only where the map is wider than its box (a phone): part of it is out of sight.
  const note = h("p", { class: "mt-note", hidden: true }, t("montana.mapPan"));
  requestAnimationFrame(() => {
    note.hidden = box.scrollWidth <= box.clientWidth;
    if (!note.hidden) box.scrollLeft = pan ?? (box.scrollWidth - box.clientWidth) / 2;
  });
  return h("div", {}, box, note);
}
