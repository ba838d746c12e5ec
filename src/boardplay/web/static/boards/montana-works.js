// Montana's worker board, recruitment wheel and City (General Store), with the printed values
// of the component data (server hint `table`) written on them: what each space takes (workers)
// and gives (silver, goods), each right part's bonus, each store column's pumpkin cost and each
// row's reward. The workers and contractors standing there come from the position JSON. Spaces
// with legal `work` structs are selectable (the decision panel then offers which workers to
// send); the wheel is the `recruit` target and, after a spin, its segments are the `push`
// targets; store cells are the `place` targets.
import { s, h } from "../dom.js";
import { t } from "../text.js";
import { LAST } from "./common.js";
import { icon, goodIcon, workerIcon, counted, seatIcon, piecesRow, use } from "./montana-pieces.js";
import { landed } from "./motion.js";

// The areas' names by the data file's area and by the first letter of their spaces.
export const AREA_NAMES = {
  MINE: () => t("montana.area.mine"), QUARRY: () => t("montana.area.quarry"),
  GRAIN: () => t("montana.area.grainField"), FARM: () => t("montana.area.farm"),
};

// "Cu+Cu+St" (the position's occupancy text) → {Cu: 2, St: 1}.
const letters = (text) => {
  const out = {};
  for (const part of text ? text.split("+") : []) if (part) out[part] = (out[part] || 0) + 1;
  return out;
};

function spaceBox(env, name, cls, ...children) {
  const moves = env.byKey("work", (m) => m.struct.space).get(name) || [];
  const chosen = env.sel === `space:${name}`;
  const last = env.lastTurn.some((st) => (st.kind === "work" || st.kind === "right") && st.space === name);
  const box = h("div", { class: `mt-space ${cls} ${moves.length ? "mt-target" : ""} ${chosen ? "mt-chosen" : ""} ${last ? "mt-last last-move" : ""}`, "data-space": name }, ...children);
  if (last) landed(box.querySelector(".mt-on")); // the workers just placed drop in (motion.js)
  if (moves.length) env.marks.selectable(box, `space:${name}`, moves, t("montana.selectSpace", { space: env.spaceWords(name) }));
  return box;
}

function bank(env) {
  const wb = env.position.worker_board || {};
  return h("section", { class: "mt-area", "data-area": "bank" },
    h("h4", {}, t("montana.area.bank")),
    h("div", { class: "mt-spaces" }, env.table.bank.map((b) => spaceBox(env, b.space, "mt-bank",
      h("div", { class: "mt-gives" }, counted(icon("mt-w-any", t("montana.anyWorkers", { n: b.workers })), b.workers), icon("mt-arrow", null, 16), counted(icon("mt-silver", t("montana.piece.silver")), b.silver)),
      h("div", { class: "mt-on" }, piecesRow(letters(wb.bank?.[b.space]), 18))))));
}

function area(env, a) {
  const spots = env.position.worker_board?.production || {};
  const stage = env.position.stage || {};
  const good = goodIcon(a.good, 20);
  return h("section", { class: "mt-area", "data-area": a.area },
    h("h4", {}, AREA_NAMES[a.area]?.() ?? a.area, " ",
      h("span", { class: "mt-needs-note" }, workerIcon(a.colour, 18), t("montana.needs"))),
    h("div", { class: "mt-spaces" }, a.spaces.map((sp) => {
      const spot = spots[sp.space] || {};
      const rightOpen = stage.name === "RIGHT" && stage.production_space === sp.space;
      return spaceBox(env, sp.space, "mt-prod",
        h("div", { class: "mt-left" },
          h("div", { class: "mt-gives" }, counted(icon("mt-silver", t("montana.piece.silver")), sp.cost), icon("mt-arrow", null, 16), counted(goodIcon(a.good, 20), sp.yield)),
          h("div", { class: "mt-on" }, piecesRow(letters(spot.left), 18))),
        h("div", { class: `mt-right ${rightOpen ? "mt-right-open" : ""}`, title: t("montana.rightPart") },
          h("div", { class: "mt-gives" }, counted(good.cloneNode(true), a.right_bonus, true)),
          h("div", { class: "mt-on" }, piecesRow(letters(spot.right), 18))));
    })));
}

export function workerBoard(env) {
  return h("div", { class: "mt-workers", role: "group", "aria-label": t("montana.workerBoard") },
    h("h3", {}, t("montana.workerBoard")),
    h("div", { class: "mt-areas" }, bank(env), ...env.table.areas.map((a) => area(env, a))));
}

// The wheel: 8 segments of 2 worker symbols; the arrow on the spin; after the spin, each
// segment the player can push to is a target with its grain cost written on it.
export function wheel(env) {
  const segs = env.table.wheel;
  const R = 86, C = 100, n = segs.length;
  const stage = env.position.stage || {};
  const spin = stage.spin ?? null;
  const pushes = new Map(env.legal.filter((m) => m.struct.kind === "push").map((m) => [m.struct.n, m]));
  const last = env.lastTurn.some((st) => st.kind === "recruit" || st.kind === "push");
  const g = s("g", {});
  const angle = (i) => (2 * Math.PI * i) / n - Math.PI / 2 - Math.PI / n;
  const at = (a, r) => [C + r * Math.cos(a), C + r * Math.sin(a)];
  segs.forEach((seg, i) => {
    const [a0, a1] = [angle(i), angle(i + 1)];
    const [x0, y0] = at(a0, R), [x1, y1] = at(a1, R);
    const steps = spin === null ? null : (i - (spin - 1) + n) % n;
    const move = steps === null ? null : pushes.get(steps);
    const wedge = s("g", { "data-segment": i + 1, class: "mt-segment" });
    wedge.append(s("path", { d: `M${C},${C} L${x0},${y0} A${R},${R} 0 0 1 ${x1},${y1} Z`, fill: i % 2 ? "#f4ead6" : "#ead9b8", stroke: "#8a7350", "stroke-width": 1 }));
    const mid = (a0 + a1) / 2;
    seg.forEach((w, k) => {
      const [x, y] = at(mid + (k ? 0.2 : -0.2), R * 0.68);
      wedge.append(use(`mt-w-${w}`, x - 11, y - 11, 22));
    });
    if (move) {
      wedge.append(s("path", { d: `M${C},${C} L${x0},${y0} A${R},${R} 0 0 1 ${x1},${y1} Z`, fill: "#1f9d5522", stroke: "#1f7a3f", "stroke-width": 3, class: "mt-ring" }));
      const [tx, ty] = at(mid, R * 0.33);
      if (steps > 0) wedge.append(s("text", { x: tx, y: ty, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 14, "font-weight": 700, fill: "#1f5f2f" }, t("montana.grainCost", { n: steps })));
      env.offer(wedge, [move]);
    }
    g.append(wedge);
  });
  if (spin !== null) {
    const a = (angle(spin - 1) + angle(spin)) / 2;
    const [x, y] = at(a, R + 12);
    g.append(s("path", { d: `M${C},${C} L${x},${y}`, stroke: "#8b1e1e", "stroke-width": 4, "stroke-linecap": "round", class: "mt-needle" }));
    g.append(s("circle", { cx: C, cy: C, r: 6, fill: "#8b1e1e" }));
  }
  if (last) g.append(s("circle", { cx: C, cy: C, r: R + 6, fill: "none", stroke: LAST, "stroke-width": 3.5, "stroke-dasharray": "5 4", class: "last-move" }));
  const svg = s("svg", { viewBox: "-10 -10 220 220", width: 200, height: 200, class: "board mt-wheel-svg", role: "group", "aria-label": t("montana.wheel") }, g);
  const recruit = env.legal.find((m) => m.struct.kind === "recruit");
  const box = h("section", { class: `mt-wheel ${recruit ? "mt-target" : ""}`, "data-wheel": "" },
    h("h4", {}, t("montana.wheel")), svg,
    h("p", { class: "mt-note" }, recruit ? t("montana.wheelRecruit") : t("montana.wheelNote")));
  if (recruit) env.offer(box, [recruit]);
  return box;
}

// The reward of a store row, in icons and words.
function reward(row) {
  const parts = [];
  if (row.cattle) parts.push(counted(icon("mt-cattle", t("montana.piece.cattle")), row.cattle));
  if (row.silver) parts.push(counted(icon("mt-silver", t("montana.piece.silver")), row.silver));
  if (row.upgrades) parts.push(h("span", { class: "mt-upgrade" }, goodIcon("c", 16), icon("mt-arrow", null, 12), goodIcon("C", 18), " / ", goodIcon("s", 16), icon("mt-arrow", null, 12), goodIcon("S", 18)));
  if (row.picks) parts.push(h("span", { class: "mt-pieces" }, `${row.picks}×`, row.pick_from.map((g) => goodIcon(g, 18))));
  const words = [];
  if (row.cattle) words.push(t("montana.reward.cattle", { n: row.cattle }));
  if (row.silver) words.push(t("montana.reward.silver", { n: row.silver }));
  if (row.upgrades) words.push(t("montana.reward.upgrades", { n: row.upgrades }));
  if (row.picks) words.push(t("montana.reward.picks", { n: row.picks }));
  return h("div", { class: "mt-reward" }, h("div", { class: "mt-reward-icons" }, parts), h("div", { class: "mt-reward-words" }, words.join(", ")));
}

export function city(env) {
  const { table, position, colours, names } = env;
  const contractors = position.contractors || [];
  const places = env.byKey("place", (m) => `${m.struct.row}${m.struct.column}`);
  const stage = position.stage || {};
  const rewarding = stage.name === "REWARD" ? contractors[stage.decider] : null;
  const lastPlaces = new Set(env.lastTurn.filter((st) => st.kind === "place").map((st) => `${st.row}${st.column}`));
  const lastCity = env.lastTurn.some((st) => st.kind === "city" || st.kind === "reward");
  const who = (spot) => contractors.map((c, seat) => (c === spot ? seat : -1)).filter((seat) => seat >= 0)
    .map((seat) => h("span", { class: "mt-contractor" }, icon("mt-contractor", t("montana.contractorOf", { name: names[seat] }), 22, { fill: colours[seat] }), seatIcon(seat, colours[seat], 14)));
  const grid = h("div", { class: "mt-store", style: `--columns: ${table.column_cost.length}` },
    h("div", { class: "mt-store-head" }),
    ...table.column_cost.map((cost) => h("div", { class: "mt-store-head" }, counted(goodIcon("p", 18), cost))),
    h("div", { class: "mt-store-head" }, t("montana.rewardHead")));
  for (const row of table.rows) {
    const here = rewarding && rewarding[0] === row.row;
    grid.append(h("div", { class: "mt-row-name" }, row.row));
    table.column_cost.forEach((cost, i) => {
      const spot = `${row.row}${i + 1}`;
      const move = places.get(spot);
      const cell = h("div", { class: `mt-cell ${move ? "mt-target" : ""} ${lastPlaces.has(spot) ? "mt-last last-move" : ""}`, "data-cell": spot }, who(spot));
      if (lastPlaces.has(spot)) landed(cell.querySelector(".mt-contractor"));
      if (move) env.offer(cell, move);
      grid.append(cell);
    });
    const rw = reward(row);
    if (here) rw.classList.add("mt-rewarding");
    grid.append(rw);
  }
  const box = h("section", { class: `mt-city ${lastCity ? "mt-last last-move" : ""}`, role: "group", "aria-label": t("montana.city") },
    h("h4", {}, t("montana.city")),
    h("p", { class: "mt-note" }, t("montana.cityNote")),
    grid,
    h("div", { class: "mt-home" }, t("montana.home"), " ", who("home")));
  return box;
}
