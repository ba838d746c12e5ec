// Potlatch Klone: a free-form hex board in axial pointy-top coordinates (rules spec §2.4, §11).
// Tiles show their chip stack bottom to top (N neutral, R red, B blue); pawns sit on top. A
// legal Pawn Move or Chip Move is made by clicking the hex it goes to (each legal move's struct
// names it); when both are possible there, the page asks which. The hexes of the last turn are
// ringed, and a legend under the board names the target styles.
import { s } from "../dom.js";
import { svgRoot, targets, legalMoves, groupBy, text, LAST, ENDING, cueShape, seatStyle, TARGET_DASH, hexCentre, hexCorners } from "./common.js";
import { t, seatName } from "../text.js";
import { frame, hexPath, hexAt } from "./miniframe.js";
import { slideFrom, landed } from "./motion.js";

const SIZE = 40;
const NEUTRAL_CHIP = "#f4ecd8";
const CHIP_SEAT = { R: 0, B: 1 }; // the player-colour chips and their owners' seats (§2.2)
const PAWN_TARGET = "#1f9d55";
const CHIP_TARGET = "#e08a1e";

const parse = (key) => key.split(",").map(Number);
const center = (q, r) => hexCentre(q, r, SIZE);

const hexPoints = (cx, cy, size) => hexCorners(cx, cy, size, 2).join(" ");

// A move that ends the game with the mover not among the winners (a dead end, §8.2 condition 2).
export const losing = (move, seat) => !!move.struct?.ends && !(move.struct.ends.winners || []).includes(seat);

function legend(x, y, width) {
  const g = s("g", { class: "legend", "aria-hidden": "true" });
  const items = [
    [t("potlatch.legendPawn"), PAWN_TARGET, TARGET_DASH.primary],
    [t("potlatch.legendChip"), CHIP_TARGET, TARGET_DASH.secondary],
    [t("potlatch.legendBoth"), PAWN_TARGET, TARGET_DASH.both],
    [t("potlatch.legendLast"), LAST, "3 3"],
  ];
  // Two columns of two, so the labels never run into each other on a narrow board.
  const step = Math.max(width / 2, 150);
  items.forEach(([label, colour, dash], i) => {
    const x0 = x + (i % 2) * step, y0 = y + Math.floor(i / 2) * 22;
    g.append(s("rect", { x: x0, y: y0, width: 18, height: 14, rx: 3, fill: `${colour}33`, stroke: colour, "stroke-width": 3, "stroke-dasharray": dash }));
    g.append(text(x0 + 24, y0 + 7, label, { "text-anchor": "start", "font-size": 13, fill: "#333" }));
  });
  return g;
}

export function draw(position, ctx) {
  const tiles = position.tiles || {};
  const pawns = position.pawns || [];
  const mover = position.to_move ?? 0;
  const names = ctx.hints?.seat_names || [];
  const visited = new Set(position.done ? position.visited || [] : []);
  const marks = targets(ctx);
  const byHex = groupBy(legalMoves(ctx), (m) => m.struct.to);
  // The hexes the last turn touched: where each step started and ended.
  const touched = new Set(ctx.lastTurn?.flatMap((st) => [st.from, st.to].filter(Boolean)) || []);
  // What the last turn moved, for the page to animate (motion.js): each pawn slides from where
  // its turn began, a moved chip from the hex it left, a tile new from the stock drops in.
  const pawnFrom = new Map(), chipFrom = new Map(), fresh = new Set();
  for (const st of ctx.lastTurn || []) {
    if (!st.from || !st.to) continue;
    if (st.kind === "pawn" && !pawnFrom.has(st.seat)) pawnFrom.set(st.seat, st.from);
    if (st.kind === "chip") chipFrom.set(st.to, st.from);
    if (st.new_tile) fresh.add(st.to);
  }
  const offset = (from, to) => { const [a, b] = [center(...parse(from)), center(...parse(to))]; return [a[0] - b[0], a[1] - b[1]]; };

  // The end of the game (ctx.ending, ending.py): the stuck pawn and why each neighbour was
  // closed to it, or the stacks the end counted.
  const ending = ctx.ending;
  const blocked = new Map((ending?.blocked || []).map((b) => [b.to, b.why]));
  const counted = new Map((ending?.stacks || []).map((st) => [st.at, st.seat]));
  // Blank hexes are drawn where a move can go, where the last turn (or a review's better move)
  // went, and where the end closed a step.
  const hexes = new Set([...Object.keys(tiles), ...byHex.keys(), ...touched, ...blocked.keys()]);
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
    const ground = group.appendChild(s("polygon", {
      points: hexPoints(cx, cy, SIZE - 1.5), fill: shade,
      stroke: isTile ? "#6d5330" : "#888", "stroke-width": isTile ? 2 : 1.5, "stroke-dasharray": isTile ? null : "5 4",
    }));
    if (isTile && fresh.has(key)) landed(ground);
    if (visited.has(key)) group.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 7), fill: "none", stroke: "#fff8", "stroke-width": 2 }));
    if (touched.has(key)) group.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 9), fill: "none", stroke: LAST, "stroke-width": 3, "stroke-dasharray": "3 3", class: "last-move" }));
    [...chips].forEach((c, i) => {
      const owner = CHIP_SEAT[c];
      const fill = owner === undefined ? NEUTRAL_CHIP : seatStyle(ctx.hints, owner).colour;
      const chip = group.appendChild(s("rect", { x: cx - 15, y: cy + 14 - i * 9, width: 30, height: 8, rx: 3, fill, stroke: "#0006", "stroke-width": 1, "data-chip": c }));
      if (i === chips.length - 1 && chipFrom.has(key)) slideFrom(chip, ...offset(chipFrom.get(key), key));
      // A player's chip carries the player's shape as well as the colour.
      if (owner !== undefined) group.append(cueShape(seatStyle(ctx.hints, owner).cue, cx, cy + 18 - i * 9, 3.2, { fill: "#fff", class: "cue" }));
    });
    if (isTile && chips.length) group.append(text(cx + 24, cy - 18, chips.length, { "font-size": 12, fill: "#0009" }));
    if (moves.length) {
      const hasPawn = moves.some((m) => m.struct.kind === "pawn");
      const hasChip = moves.some((m) => m.struct.kind === "chip");
      const colour = hasPawn ? PAWN_TARGET : CHIP_TARGET;
      group.append(s("polygon", {
        points: hexPoints(cx, cy, SIZE - 4), fill: `${colour}33`, stroke: colour, "stroke-width": 4,
        "stroke-dasharray": hasPawn && hasChip ? TARGET_DASH.both : hasPawn ? TARGET_DASH.primary : TARGET_DASH.secondary, class: "legal-target",
      }));
      if (moves.some((m) => losing(m, mover))) {
        group.append(text(cx - 22, cy - 16, "!", { "font-size": 18, "font-weight": 700, fill: "#b00020", class: "dead-end" }));
      }
      marks.target(group, moves);
    }
    if (blocked.has(key)) {
      const d = 9;
      group.append(s("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}`, stroke: ENDING, "stroke-width": 4, "stroke-linecap": "round", class: "ending-blocked", "data-why": blocked.get(key) }));
    }
    if (counted.has(key)) {
      group.append(s("polygon", { points: hexPoints(cx, cy, SIZE - 5), fill: "none", stroke: seatStyle(ctx.hints, counted.get(key)).colour, "stroke-width": 5, class: "ending-stack", "data-seat": counted.get(key) }));
    }
    layer.append(group);
  }
  pawns.forEach((key, seat) => {
    if (!key) return;
    const [cx, cy] = center(...parse(key));
    const g = s("g", { class: "pawn", "data-seat": seat });
    const { colour, cue } = seatStyle(ctx.hints, seat);
    g.setAttribute("data-cue", cue);
    g.append(cueShape(cue, cx, cy - 17, 11, { fill: colour, stroke: seat === mover ? "#111" : "#fff", "stroke-width": 3 }));
    if (pawnFrom.has(seat)) slideFrom(g, ...offset(pawnFrom.get(seat), key));
    if (ending?.pawn === key) g.append(s("circle", { cx, cy: cy - 17, r: 19, fill: "none", stroke: ENDING, "stroke-width": 4, class: "ending-pawn" }));
    layer.append(g);
  });
  // The caption and the legend sit above and below the hexes, never across them.
  const top = minY - pad - 26, width = maxX - minX + 2 * pad;
  const caption = text(minX - pad + 8, top + 12, t("potlatch.caption", { stock: position.stock ?? "?", n: (position.done ?? 0) + 1, of: position.actions ?? "?" }),
    { "text-anchor": "start", "font-size": 13, fill: "#333", class: "caption" });
  const key = ctx.interactive ? legend(minX - pad + 8, maxY + pad + 4, width - 16) : null;
  const height = maxY - minY + 2 * pad + 26 + (key ? 48 : 0);
  const label = t("potlatch.label", { name: seatName(names[mover] || "") });
  return { svg: svgRoot(minX - pad, top, width, height, label, layer, caption, key), drawn: marks.drawn };
}

// ----- what the lobby and the walk-through read from the board module ---------------------------
// The lobby card: the game's typical length and its place among the cards (easiest to learn
// first); the card's words are in EN below, under about.potlatch.*.
export const about = { minutes: [10, 15], order: 1 };

// The first-game walk-through (pages/tutorial.js): one text per move of the first turn (tutorial.potlatch.N in EN below).
export const tutorial = { steps: 2 };

// Potlatch Klone: a small field of hex tiles with chip stacks and the two pawns.
export function miniature() {
  const cells = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1], [2, -1], [-2, 1], [1, 1], [-1, -1]];
  const stacks = { "0,0": ["#b58b5a", "#b58b5a", "#d33c3c"], "1,-1": ["#b58b5a", "#2f6fd6"], "-1,1": ["#b58b5a"], "1,1": ["#b58b5a", "#b58b5a", "#2f6fd6"] };
  const out = [];
  for (const [q, r] of cells) {
    const [x, y] = hexAt(q, r, 11, 60, 40);
    out.push(s("path", { d: hexPath(x, y, 10.5), fill: "#f7f1e3", stroke: "#8a7a62", "stroke-width": 1 }));
    (stacks[`${q},${r}`] || []).forEach((colour, i) => {
      out.push(s("ellipse", { cx: x, cy: y + 3 - i * 3, rx: 6, ry: 2.6, fill: colour, stroke: "#0005", "stroke-width": 0.6 }));
    });
  }
  const pawn = (q, r, colour) => {
    const [x, y] = hexAt(q, r, 11, 60, 40);
    return s("g", {}, s("circle", { cx: x, cy: y - 5, r: 3.4, fill: colour, stroke: "#111", "stroke-width": 0.8 }),
      s("path", { d: `M${x - 4},${y + 3}L${x},${y - 3}L${x + 4},${y + 3}Z`, fill: colour, stroke: "#111", "stroke-width": 0.8 }));
  };
  out.push(pawn(-1, 0, "#d33c3c"), pawn(2, -1, "#2f6fd6"));
  return frame(...out);
}

// ----- the game's words ------------------------------------------------------------------------
// Its words in English, by key: its title (title.potlatch), its board (potlatch.*), its lobby card
// (about.potlatch.*), its options and their tooltips (option.potlatch.*, tip.potlatch.*) and its
// walk-through (tutorial.potlatch.*). boards/load.js adds them to the page's words when it loads
// this module; `make i18n` extracts them into the `web` catalogue, each key its msgctxt.
export const EN = {
  "title.potlatch": "Potlatch Klone",
  "potlatch.caption": "stock {stock} · action {n} of {of}",
  "potlatch.label": "Potlatch Klone board; {name} to move",
  "potlatch.legendPawn": "pawn moves here",
  "potlatch.legendChip": "chip moves here",
  "potlatch.legendBoth": "pawn or chip",
  "potlatch.legendLast": "last turn",
  "about.potlatch.line": "Walk your pawn over a growing field of hex tiles; start your turn with three stacks of your colour and you win.",
  "option.potlatch.actions": "Actions per turn",
  "option.potlatch.actions.2": "2 (standard, 9 tiles)",
  "option.potlatch.actions.3": "3 (12 tiles)",
  "option.potlatch.layout": "Tiles on the table at the start",
  "option.potlatch.layout.L3": "3 tiles",
  "option.potlatch.layout.L4": "4 tiles",
  "option.potlatch.first_player": "Who starts",
  "option.potlatch.first_player.0": "Red",
  "option.potlatch.first_player.1": "Blue",
  "option.potlatch.blank_entry_ignores_height": "A pawn may step onto a blank space from any height",
  "option.potlatch.repetition_compares_full_state": "A repeated position must match everywhere (empty tiles and pawns too)",
  "option.potlatch.filter_dead_ends": "Offer only actions after which the turn can be finished",
  "option.potlatch.turn_limit": "Turn limit (then the game is scored as a repetition)",
  "tutorial.potlatch.1": "Each turn you take exactly two actions. The glowing hexes are your choices: the legend under the board tells which colour moves your pawn there and which moves the top chip from under your pawn. Click one.",
  "tutorial.potlatch.2": "Your second action. Where your pawn stops, a chip is added to the stack under it, and the third chip of a stack takes your colour. Start a turn with three stacks of your colour and you win.",
  "tip.potlatch.actions": "Actions each player takes per turn: the stock has 9 tiles for 2 actions, 12 for 3.",
  "tip.potlatch.layout": "How many tiles lie on the table when the game starts: 3 or 4.",
  "tip.potlatch.first_player": "The seat that takes the first turn: Red or Blue.",
  "tip.potlatch.blank_entry_ignores_height": "A pawn may step onto a blank space from any height; only a tile from the stock is needed.",
  "tip.potlatch.repetition_compares_full_state": "End condition 3 (repetition) also compares the empty tiles and where the pawns stand.",
  "tip.potlatch.filter_dead_ends": "Only actions after which the turn can still be completed are offered.",
  "tip.potlatch.turn_limit": "A guard of the engine, not a rule: after this many turns the game ends and is scored like a repetition.",
  "theme.potlatch.stuck_pawn": "Stuck pawn",
  "theme.potlatch.third_stack": "Third stack",
  "theme.potlatch.break_up": "Breaking up a stack",
  "theme.potlatch.new_tile": "A new tile",
};
