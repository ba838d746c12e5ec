// Passtally: the 6×6 board (a1 top left, f6 bottom right; its columns a–f and rows 1–6 labelled,
// as the move words name cells) with the ring of 24 marker slots
// (clockwise from the top-left), the visible top half of every stack with its lines, stack
// heights, and the three piles' face-up tiles. Setup: click a slot. Place a tile: select a pile;
// the tile then follows the pointer as a ghost on the two cells it would cover (pure CSS :hover
// and :focus, so nothing is redrawn under the pointer), turned by the Rotate and Turn buttons or
// the R and F keys (ctx.view.orient); click to lay it. Move a marker: select it, then click the
// slot it goes to. Every target comes from a legal move's struct. Before a tile or a marker is
// placed, the lines it would complete are traced on the board with the points the move scores;
// after a turn that scored, its lines are traced in the mover's colour with "+N"; at the end,
// the last turn's lines, the used-up piles and the winner are marked (ctx.ending, ending.py).
// Formats from the rules spec §2.2, §2.3, §11, §12.
import { s } from "../dom.js";
import { svgRoot, targets, legalMoves, groupBy, text, LAST, ENDING, cueShape, seatStyle } from "./common.js";
import { t, seatName } from "../text.js";
import { frame } from "./miniframe.js";
import { slideFrom, landed } from "./motion.js";
import { passtallyTurn, passtallyStep } from "./passtally-tutorial.js";

const CELL = 56;
const OX = 50, OY = 50;
const DESIGN_COLOURS = { XX: "#d33c3c", XNE: "#27b3c4", XNW: "#2f55c9", NENE: "#e3c020", NWNW: "#3a9a4a", NENW: "#e06aa8" };
// The second cue of a design's colour (issue 29): its line pattern. Red and green, cyan and pink
// look alike to many colour-blind players, so no two designs share a pattern: red solid, green
// dotted, cyan long dashes, pink dash and dot, yellow short dashes, blue a twin line (a light
// core down the middle). The dashes are measured for round caps 4 wide (each dash drawn 4
// longer, each gap 4 shorter than written).
const DESIGN_LINES = {
  XX: { cue: "solid", dash: null },
  NWNW: { cue: "dotted", dash: "0.1 8.5" },
  XNE: { cue: "long-dash", dash: "16 9" },
  NENW: { cue: "dash-dot", dash: "13 9 0.1 9" },
  NENE: { cue: "short-dash", dash: "5 9" },
  XNW: { cue: "twin", dash: null, core: true },
};
const HALVES = { XX: ["X", "X"], XNE: ["X", "NE"], XNW: ["X", "NW"], NENE: ["NE", "NE"], NWNW: ["NW", "NW"], NENW: ["NE", "NW"] };
const STEP = { E: [0, 1], S: [1, 0], W: [0, -1], N: [-1, 0] };

const ROTATE = { E: "S", S: "W", W: "N", N: "E" };
const TURN = { E: "W", W: "E", S: "N", N: "S" };
const SYMMETRIC = new Set(["XX", "NENE", "NWNW"]);

const cellName = (r, c) => `${"abcdef"[c]}${r + 1}`;
const CELLS = Array.from({ length: 36 }, (_, i) => cellName(Math.floor(i / 6), i % 6));
const neighbour = (cell, orient) => {
  const [r, c] = cellRC(cell), [dr, dc] = STEP[orient];
  const [nr, nc] = [r + dr, c + dc];
  return nr >= 0 && nr < 6 && nc >= 0 && nc < 6 ? cellName(nr, nc) : null;
};

// The legal placement that puts half a on `cell` with half b toward `orient`. A symmetric
// design is listed only in its canonical spelling (E or S from the west or north cell, §11), so
// for it any move covering the same two cells is the same placement.
function placementAt(moves, cell, orient, design) {
  const other = neighbour(cell, orient);
  if (!other) return null;
  return moves.find((m) => m.struct.anchor === cell && m.struct.orient === orient)
    || (SYMMETRIC.has(design) ? moves.find((m) => m.struct.cells.includes(cell) && m.struct.cells.includes(other)) : null)
    || null;
}

// R turns the tile a quarter clockwise, F turns it end for end; the page calls this on a key.
export function onKey(key, view) {
  const orient = view.orient || "E";
  if (key === "r" || key === "R") return { ...view, orient: ROTATE[orient] };
  if (key === "f" || key === "F") return { ...view, orient: TURN[orient] };
  return null;
}
const cellRC = (name) => [Number(name[1]) - 1, "abcdef".indexOf(name[0])];

function slotXY(slot) {
  const side = Math.floor(slot / 6), i = slot % 6;
  if (side === 0) return [OX + (i + 0.5) * CELL, OY - 22];
  if (side === 1) return [OX + 6 * CELL + 22, OY + (i + 0.5) * CELL];
  if (side === 2) return [OX + (5 - i + 0.5) * CELL, OY + 6 * CELL + 22];
  return [OX - 22, OY + (5 - i + 0.5) * CELL];
}

// The cells' top halves after stacking every placement in order.
function stacks(placements) {
  const top = {};
  placements.forEach(([design, anchor, orient], id) => {
    let [a, b] = HALVES[design] || ["X", "X"];
    if (orient === "S" || orient === "N") [a, b] = [a, b].map((h) => (h === "NE" ? "NW" : h === "NW" ? "NE" : h));
    const [r, c] = cellRC(anchor);
    const [dr, dc] = STEP[orient] || [0, 1];
    for (const [rr, cc, shape] of [[r, c, a], [r + dr, c + dc, b]]) {
      const key = cellName(rr, cc);
      top[key] = { id, design, shape, height: (top[key]?.height || 0) + 1 };
    }
  });
  return top;
}

// The two lines of a half tile (shape X, NE or NW) in its design's colour and pattern, as one
// group naming the design and its cue; without a design, the board's own faint printed lines.
function halfLines(x, y, shape, design) {
  const m = CELL / 2;
  const N = [x + m, y], E = [x + CELL, y + m], S = [x + m, y + CELL], W = [x, y + m], C = [x + m, y + m];
  const line = (p, q) => `M${p[0]},${p[1]} Q${C[0]},${C[1]} ${q[0]},${q[1]}`;
  const paths = shape === "NE" ? [line(N, E), line(S, W)] : shape === "NW" ? [line(N, W), line(S, E)] : [`M${W[0]},${W[1]} L${E[0]},${E[1]}`, `M${N[0]},${N[1]} L${S[0]},${S[1]}`];
  const style = DESIGN_LINES[design];
  const stroke = { fill: "none", "stroke-linecap": "round" };
  if (!style) return s("g", {}, paths.map((d) => s("path", { d, ...stroke, stroke: "#c9bba0", "stroke-width": 4 })));
  const colour = DESIGN_COLOURS[design];
  return s("g", { class: "pt-lines", "data-design": design, "data-cue": style.cue }, paths.map((d) => style.core
    ? [s("path", { d, ...stroke, stroke: colour, "stroke-width": 5.5 }), s("path", { d, ...stroke, stroke: "#fbf6ea", "stroke-width": 1.6, class: "pt-core" })]
    : s("path", { d, ...stroke, stroke: colour, "stroke-width": 4, "stroke-dasharray": style.dash })));
}

// One target per cell where the chosen tile can go in the current orientation: a green frame,
// and the ghost of the tile on the two cells it would cover, shown while the cell is hovered or
// focused. Drawn above the board so a ghost covers the neighbouring cell.
// On a touch screen (ctx.coarse) nothing hovers: the first tap on a cell shows its ghost
// (view.at), a second tap lays the tile.
function ghosts(moves, design, orient, marks, ctx) {
  const at = ctx.coarse ? ctx.view?.at : null;
  const layer = s("g", { class: "ghosts" });
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      const cell = cellName(r, c);
      const move = placementAt(moves, cell, orient, design);
      if (!move) continue;
      const x = OX + c * CELL, y = OY + r * CELL;
      const g = s("g", { "data-cell": cell, class: "place-target" });
      g.append(s("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: "#1f9d5522", stroke: "#1f9d55", "stroke-width": 3 }));
      const ghost = s("g", { class: at === cell ? "ghost shown" : "ghost" });
      const shapes = stacks([[design, cell, orient]]);
      for (const [name, half] of Object.entries(shapes)) {
        const [hr, hc] = cellRC(name);
        const gx = OX + hc * CELL, gy = OY + hr * CELL;
        ghost.append(s("rect", { x: gx, y: gy, width: CELL, height: CELL, fill: "#fbf6ea", stroke: "#e08a1e", "stroke-width": 3 }));
        ghost.append(halfLines(gx, gy, half.shape, design));
      }
      previewLines(ghost, move);
      if (ctx.coarse && at !== cell) {
        g.setAttribute("data-view", JSON.stringify({ at: cell }));
        g.classList.add("clickable");
        marks.drawn.add(move.id);
      } else marks.target(g, [move]);
      // The ghost follows its target (CSS: target:hover + ghost), outside it, so the target's
      // box stays one cell and a click lands on the cell pointed at.
      layer.append(g, ghost);
    }
  }
  return layer;
}

// A line's path (the struct's [[cell, entry face, exit face], …]) as SVG path data, and the
// centre of its middle cell, where its points are written.
function linePath(line) {
  const m = CELL / 2;
  const face = (x, y, f) => ({ N: [x + m, y], S: [x + m, y + CELL], E: [x + CELL, y + m], W: [x, y + m] })[f];
  return line.path.map(([cell, entry, exit]) => {
    const [r, c] = cellRC(cell);
    const x = OX + c * CELL, y = OY + r * CELL;
    const [a, b] = [face(x, y, entry), face(x, y, exit)];
    return `M${a[0]},${a[1]} Q${x + m},${y + m} ${b[0]},${b[1]}`;
  }).join(" ");
}
function lineMiddle(line) {
  const [r, c] = cellRC(line.path[Math.floor((line.path.length - 1) / 2)][0]);
  return [OX + (c + 0.5) * CELL, OY + (r + 0.5) * CELL];
}

// A complete line of the mover's, drawn over the board in the target colour so the player sees
// what the placement would complete.
function traced(line) {
  return s("path", { d: linePath(line), fill: "none", stroke: "#1f7a3f", "stroke-width": 7, "stroke-opacity": 0.7, "stroke-linecap": "round", class: "traced-line" });
}

// Lines that scored, in the seat's colour over a dark halo, each naming its end slots and
// passes; and the turn's points, "+N", once, on the middle of its longest line.
function scoredLines(lines, seat, points, ctx, cls) {
  const { colour } = seatStyle(ctx.hints, seat);
  const g = s("g", { class: `${cls}s`, "data-seat": seat });
  for (const line of lines) {
    if (!line.path?.length) continue;
    const d = linePath(line);
    const round = { fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" };
    g.append(s("g", { class: cls, "data-seat": seat, "data-from": line.from, "data-to": line.to, "data-passes": line.passes },
      s("path", { d, ...round, stroke: "#1b1b1b", "stroke-width": 11, "stroke-opacity": 0.75 }),
      s("path", { d, ...round, stroke: colour, "stroke-width": 5.5 })));
  }
  const longest = lines.filter((l) => l.path?.length).sort((a, b) => b.path.length - a.path.length)[0];
  if (points > 0 && longest) g.append(pointsBadge(...lineMiddle(longest), `+${points}`, colour, `${cls.replace("-line", "")}-points`));
  return g;
}

// "+N" on a white badge ringed in `colour`.
function pointsBadge(x, y, label, colour, cls) {
  const w = 12 + 9 * label.length;
  return s("g", { class: cls, "data-points": label.slice(1) },
    s("rect", { x: x - w / 2, y: y - 12, width: w, height: 24, rx: 12, fill: "#fff", stroke: colour, "stroke-width": 3 }),
    text(x, y, label, { "font-size": 15, "font-weight": 700, fill: "#1b1b1b" }));
}

// What a marker move would complete, shown while its slot is hovered or focused (or, on a touch
// screen, after a first tap): the lines traced and the points the move scores.
function slotPreview(move, shown) {
  return previewLines(s("g", { class: shown ? "ghost slot-preview shown" : "ghost slot-preview" }), move);
}

// The lines a move would complete, traced, and the points it scores on the longest of them (a
// tile's or a marker's preview).
function previewLines(g, move) {
  for (const line of move.struct.lines || []) g.append(traced(line));
  const longest = (move.struct.lines || []).filter((l) => l.path?.length).sort((a, b) => b.path.length - a.path.length)[0];
  if (move.struct.scored && longest) g.append(pointsBadge(...lineMiddle(longest), `+${move.struct.scored}`, "#1f7a3f", "preview-points"));
  return g;
}

// The names the move words use ("c3 and d3"): the columns a–f over the board, the rows 1–6 down
// its left side, outside the ring of marker slots (and the last turn's ring round a slot), so no
// label stands on a slot or a tile: at the drawing's edge, its view box opened 8 wider for them.
const LABEL = 50;
function coordinates() {
  const attrs = { "font-size": 14, "font-weight": 600, fill: "#6b5a3c", class: "coord" };
  const g = s("g", { class: "coords" });
  for (let i = 0; i < 6; i++) {
    g.append(text(OX + (i + 0.5) * CELL, OY - LABEL, "abcdef"[i], { ...attrs, "data-col": "abcdef"[i] }));
    g.append(text(OX - LABEL, OY + (i + 0.5) * CELL, i + 1, { ...attrs, "data-row": i + 1 }));
  }
  return g;
}

// Rotate and Turn, as buttons inside the board (the R and F keys do the same).
function turnButtons(x, y, orient) {
  const g = s("g", { class: "turn-buttons" });
  [["passtally.rotate", { orient: ROTATE[orient] }, 0], ["passtally.turn", { orient: TURN[orient] }, 84]].forEach(([key, view, dx]) => {
    const b = s("g", { "data-view": JSON.stringify(view), class: "clickable svg-button", tabindex: "0", role: "button", "aria-label": t(key) });
    b.append(s("rect", { x: x + dx, y, width: 78, height: 28, rx: 5, fill: "#fff", stroke: "#e08a1e", "stroke-width": 2 }));
    b.append(text(x + dx + 39, y + 14, t(key), { "font-size": 12 }));
    g.append(b);
  });
  return g;
}

export function draw(position, ctx) {
  const markers = position.markers || {};
  const top = stacks(position.placements || []);
  const moves = legalMoves(ctx);
  const sel = ctx.selected || null;
  const marks = targets(ctx);
  const layer = s("g", {});
  // The parts the walk-through can light up: a group with a frame drawn only then.
  const part = (name, x, y, w, hgt) => {
    const g = s("g", { class: name }, s("rect", { x, y, width: w, height: hgt, rx: 8, fill: "none", class: "part-frame" }));
    layer.append(g);
    return g;
  };
  part("pt-board", OX - 30, OY - 30, 6 * CELL + 60, 6 * CELL + 60);
  layer.append(coordinates());

  // Targets from the legal moves' structs: setup placements on slots; tile placements by pile
  // and anchor cell; marker moves by the slot they leave and the slot they reach.
  const pileMoves = groupBy(moves.filter((m) => m.struct.kind === "place"), (m) => m.struct.pile);
  const markerMoves = groupBy(moves.filter((m) => m.struct.kind === "marker"), (m) => String(m.struct.from));
  const slotTargets = groupBy(moves.filter((m) => m.struct.kind === "setup"), (m) => String(m.struct.slot));
  const chosenPile = sel?.startsWith("pile:") ? sel.slice(5) : null;
  const design = chosenPile ? position.piles?.["ABC".indexOf(chosenPile)]?.face_up : null;
  // The orientation asked for, or the next one clockwise where the tile fits somewhere.
  let orient = ctx.view?.orient || "E";
  if (design) {
    const fits = (o) => CELLS.some((cell) => placementAt(pileMoves.get(chosenPile) || [], cell, o, design));
    for (let k = 0; k < 4 && !fits(orient); k++) orient = ROTATE[orient];
  }
  if (sel?.startsWith("marker:")) {
    for (const [slot, list] of groupBy(markerMoves.get(sel.slice(7)) || [], (m) => String(m.struct.to ?? m.struct.from))) slotTargets.set(slot, list);
  }
  // What the last turn touched: the cells of a laid tile, the slots of a marker.
  const lastCells = new Set(), lastSlots = new Set();
  for (const st of ctx.lastTurn || []) {
    for (const c of st.cells || []) lastCells.add(c);
    for (const slot of [st.slot, st.from, st.to]) if (slot !== undefined && slot !== null) lastSlots.add(String(slot));
  }
  // What the last turn moved, for the page to animate (motion.js): a laid tile drops onto its
  // two cells, a placed marker drops onto its slot, a moved marker slides round from its slot.
  const laid = new Set((ctx.lastTurn || []).filter((st) => st.kind === "place").flatMap((st) => st.cells || []));
  const markerFrom = new Map((ctx.lastTurn || []).filter((st) => st.kind === "marker" || st.kind === "setup")
    .map((st) => (st.kind === "setup" ? [String(st.slot), null] : [String(st.to), st.from])));

  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      const key = cellName(r, c);
      const x = OX + c * CELL, y = OY + r * CELL;
      const stack = top[key];
      const g = s("g", { "data-cell": key });
      g.append(s("rect", { x, y, width: CELL, height: CELL, fill: stack ? "#fbf6ea" : "#e7dcc6", stroke: "#b9a888" }));
      g.append(halfLines(x, y, stack ? stack.shape : "X", stack?.design));
      if (stack) g.append(text(x + CELL - 9, y + 9, stack.height, { "font-size": 10, fill: "#333" }));
      if (lastCells.has(key)) g.append(s("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, fill: "none", stroke: LAST, "stroke-width": 3, "stroke-dasharray": "3 3", class: "last-move" }));
      layer.append(laid.has(key) ? landed(g) : g);
    }
  }
  // Tile outlines: a seam is drawn only between halves of different tiles.
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      const here = top[cellName(r, c)];
      if (!here) continue;
      const x = OX + c * CELL, y = OY + r * CELL;
      const edge = (nr, nc, x1, y1, x2, y2) => {
        const other = nr >= 0 && nr < 6 && nc >= 0 && nc < 6 ? top[cellName(nr, nc)] : null;
        if (!other || other.id !== here.id) layer.append(s("line", { x1, y1, x2, y2, stroke: "#5b4a2e", "stroke-width": 2 }));
      };
      edge(r - 1, c, x, y, x + CELL, y);
      edge(r + 1, c, x, y + CELL, x + CELL, y + CELL);
      edge(r, c - 1, x, y, x, y + CELL);
      edge(r, c + 1, x + CELL, y, x + CELL, y + CELL);
    }
  }
  // The lines that scored: at the end, the last turn's (ctx.ending); before it, the last turn's
  // if it scored (the struct of its last action carries the points and the mover's lines).
  const ending = ctx.ending || null;
  const scoring = [...(ctx.lastTurn || [])].reverse().find((st) => st.scored > 0 && st.lines);
  if (ending) layer.append(scoredLines(ending.lines || [], ending.seat, ending.scored, ctx, "ending-line"));
  else if (scoring) layer.append(scoredLines(scoring.lines, scoring.seat, scoring.scored, ctx, "scored-line"));
  // A marker's destinations preview what the move completes; on a touch screen a first tap
  // shows it (view.at), a second tap moves the marker.
  const at = ctx.coarse ? ctx.view?.at : null;
  for (let slot = 0; slot < 24; slot++) {
    const [cx, cy] = slotXY(slot);
    const key = String(slot);
    const g = s("g", { "data-slot": key });
    g.append(s("circle", { cx, cy, r: 13, fill: "#fff", stroke: "#aaa" }));
    g.append(text(cx, cy, slot, { "font-size": 9, fill: "#999" }));
    if (key in markers) {
      const { colour, cue } = seatStyle(ctx.hints, markers[key]);
      g.setAttribute("data-cue", cue);
      const marker = g.appendChild(cueShape(cue, cx, cy, 11, { fill: colour, stroke: sel === `marker:${key}` ? "#e08a1e" : "#222", "stroke-width": sel === `marker:${key}` ? 4 : 1.5 }));
      if (markerFrom.has(key)) {
        const from = markerFrom.get(key);
        if (from === null || from === undefined) landed(marker);
        else { const [fx, fy] = slotXY(from); slideFrom(marker, fx - cx, fy - cy); }
      }
      marks.selectable(g, `marker:${key}`, markerMoves.get(key) || [], t("passtally.selectMarker", { slot: key }));
    }
    if (lastSlots.has(key)) g.append(s("circle", { cx, cy, r: 17, fill: "none", stroke: LAST, "stroke-width": 3, "stroke-dasharray": "3 3", class: "last-move" }));
    const here = slotTargets.get(key);
    const moving = here && here[0].struct.kind === "marker";
    if (here) {
      g.append(s("circle", { cx, cy, r: 15, fill: "#1f9d5533", stroke: "#1f9d55", "stroke-width": 3 }));
      if (moving && ctx.coarse && at !== `slot:${key}`) {
        g.setAttribute("data-view", JSON.stringify({ at: `slot:${key}` }));
        g.classList.add("clickable");
        for (const m of here) marks.drawn.add(m.id);
      } else marks.target(g, here);
      if (moving) g.classList.add("place-target", "slot-target");
    }
    layer.append(g);
    // The preview follows its target (CSS: .place-target:hover + .ghost).
    if (moving) layer.append(slotPreview(here[0], at === `slot:${key}`));
  }
  if (chosenPile && design) layer.append(ghosts(pileMoves.get(chosenPile) || [], design, orient, marks, ctx));
  // The piles, the turn buttons and the scores: beside the board, or under it on a narrow
  // screen (ctx.narrow) so the board can use the whole width of a phone.
  const narrow = !!ctx.narrow;
  const bottom = OY + 6 * CELL + 44;
  const px = narrow ? OX : OX + 6 * CELL + 60;
  const pileAt = (i) => (narrow ? [OX + i * 118, bottom + 12] : [px, OY + i * 80]);
  const piles = narrow ? part("pt-piles", OX - 8, bottom - 6, 3 * 118, 58) : part("pt-piles", px - 8, OY - 18, 170, 3 * 80 - 10);
  (position.piles || []).forEach((pile, i) => {
    const name = "ABC"[i];
    const [x, y] = pileAt(i);
    const g = s("g", { "data-pile": name });
    g.append(text(x, y + 10, name, { "font-size": 14, "font-weight": 700 }));
    if (pile.face_up) {
      const [a, b] = HALVES[pile.face_up];
      const tile = s("g", { transform: `translate(${x + 14},${y - 6}) scale(0.6)` });
      tile.append(s("rect", { x: 0, y: 0, width: 2 * CELL, height: CELL, fill: "#fbf6ea", stroke: sel === `pile:${name}` ? "#e08a1e" : "#5b4a2e", "stroke-width": sel === `pile:${name}` ? 6 : 2 }));
      tile.append(halfLines(0, 0, a, pile.face_up), halfLines(CELL, 0, b, pile.face_up));
      g.append(tile);
    } else {
      g.append(text(x + 50, y + 10, pile.hidden ? t("passtally.revealing") : t("passtally.empty"), { "font-size": 11, fill: "#777" }));
    }
    g.append(text(x + 50, y + 36, t("passtally.hidden", { n: pile.hidden }), { "font-size": 11, fill: "#777" }));
    marks.selectable(g, `pile:${name}`, pileMoves.get(name) || [], t("passtally.selectPile", { pile: name }));
    if (ending?.piles?.includes(name)) g.append(s("rect", { x: x - 10, y: y - 14, width: narrow ? 112 : 158, height: 62, rx: 8, fill: "none", stroke: ENDING, "stroke-width": 3, class: "ending-pile" }));
    piles.append(g);
  });
  const [bx, by] = narrow ? [OX, bottom + 62] : [px, OY + 222];
  if (chosenPile && design) layer.append(turnButtons(bx, by, orient));
  // One line per player, so three players' scores never run off the board.
  const names = ctx.hints?.seat_names || [];
  let y = narrow ? by + 48 : OY + 270;
  const scores = part("pt-scores", bx - 6, y - 12, 164, 18 * (position.scores || []).length + 6);
  (position.scores || []).forEach((v, i) => {
    const { colour, cue } = seatStyle(ctx.hints, i);
    scores.append(cueShape(cue, bx + 5, y, 5.5, { fill: colour, stroke: "#222", "stroke-width": 1 }));
    scores.append(text(bx + 15, y, t("passtally.score", { name: seatName(names[i] || `#${i + 1}`), score: v }), { "text-anchor": "start", "font-size": 12, "font-weight": ending?.winner === i ? 700 : 400 }));
    if (ending?.winner === i) scores.append(s("rect", { x: bx - 4, y: y - 9, width: 160, height: 18, rx: 5, fill: "none", stroke: ENDING, "stroke-width": 2.5, class: "ending-winner" }));
    y += 18;
  });
  if (position.actions_left) layer.append(text(bx, y, t("passtally.actionsLeft", { n: position.actions_left }), { "text-anchor": "start", "font-size": 12 }));
  const [width, height] = narrow ? [OX * 2 + 6 * CELL, y + 16] : [px + 170, OY * 2 + 6 * CELL];
  const svg = svgRoot(-8, -8, width + 8, height + 8, t("passtally.label"), layer);
  return { svg, drawn: marks.drawn };
}

// ----- what the lobby and the walk-through read from the board module ---------------------------
// The lobby card: the game's typical length and its place among the cards (easiest to learn
// first); the card's words are in EN below, under about.passtally.*.
export const about = { minutes: [30, 45], order: 3 };

// The first-game walk-through (pages/tutorial.js): a first game, stage by stage
// (passtally-tutorial.js).
export const tutorial = { byStage: true, turn: passtallyTurn, step: passtallyStep };

// Passtally: part of the 6×6 board with a few path tiles and markers on the ring.
export function miniature() {
  const out = [s("rect", { x: 30, y: 8, width: 60, height: 60, fill: "#f7f1e3", stroke: "#8a7a62", "stroke-width": 1 })];
  for (let i = 1; i < 6; i++) {
    out.push(s("line", { x1: 30 + i * 10, y1: 8, x2: 30 + i * 10, y2: 68, stroke: "#d8cbb3", "stroke-width": 0.6 }));
    out.push(s("line", { x1: 30, y1: 8 + i * 10, x2: 90, y2: 8 + i * 10, stroke: "#d8cbb3", "stroke-width": 0.6 }));
  }
  const tiles = [[40, 18, 20, 10], [60, 28, 10, 20], [40, 48, 20, 10], [70, 48, 10, 20]];
  for (const [x, y, w, hgt] of tiles) out.push(s("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: hgt - 1, rx: 1.5, fill: "#e9dcc0", stroke: "#6d5c40", "stroke-width": 0.8 }));
  out.push(s("path", { d: "M30,23 C45,23 45,23 50,23 S60,33 65,38 S65,53 75,58 S85,68 85,68", fill: "none", stroke: "#2f6fd6", "stroke-width": 2 }));
  out.push(s("path", { d: "M30,53 C40,53 45,48 50,53 S60,63 60,68", fill: "none", stroke: "#d33c3c", "stroke-width": 2 }));
  const marker = (x, y, colour) => s("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, rx: 1.5, fill: colour, stroke: "#111", "stroke-width": 0.8 });
  out.push(marker(25, 23, "#2f6fd6"), marker(85, 73, "#2f6fd6"), marker(25, 53, "#d33c3c"), marker(60, 73, "#d33c3c"), marker(95, 33, "#e0a020"));
  return frame(...out);
}

// ----- the game's words ------------------------------------------------------------------------
// Its words in English, by key: its title (title.passtally), its board (passtally.*), its lobby card
// (about.passtally.*), its options and their tooltips (option.passtally.*, tip.passtally.*) and its
// walk-through (tutorial.passtally.*). boards/load.js adds them to the page's words when it loads
// this module; `make i18n` extracts them into the `web` catalogue, each key its msgctxt.
export const EN = {
  "title.passtally": "Passtally",
  "passtally.label": "Passtally board",
  "passtally.selectMarker": "select your marker on slot {slot}",
  "passtally.selectPile": "select the tile of pile {pile}",
  "passtally.rotate": "⟳ Rotate (R)",
  "passtally.turn": "⇄ Turn (F)",
  "passtally.score": "{name}: {score}",
  "passtally.actionsLeft": "actions left: {n}",
  "passtally.revealing": "revealing…",
  "passtally.empty": "empty",
  "passtally.hidden": "{n} face down",
  "about.passtally.line": "Lay two-cell path tiles and walk your markers round the edge; score for every line that joins two of your markers.",
  "option.passtally.players": "Players",
  "option.passtally.jump_counts_as_step": "Occupied spaces count as steps when a marker moves",
  "option.passtally.ring_corners_continuous": "Markers move round the corners",
  "option.passtally.finish_turn_on_immediate_end": "When no tile fits mid-turn, finish the turn and score",
  "option.passtally.turn_time_limit_s": "Seconds per turn (noted only; see Clock)",
  "option.passtally.max_turns": "Turn limit (empty: none)",
  "tutorial.passtally.goal": "Passtally: lay path tiles on the 6×6 board and walk your four markers round its edge. At the end of each of your turns, every line that joins two of your own markers scores, and the higher the tiles it crosses, the more it is worth.",
  "tutorial.passtally.setup": "Setup first: each player puts a marker on the edge of the board, one side at a time. Your lines will run between your own markers, so spread them out. Click a glowing space.",
  "tutorial.passtally.place": "Now each turn is exactly two actions. Lay a tile: select one of the three face-up tiles beside the board, turn it with the Rotate and Turn buttons (keys R and F), and click where it goes. Both halves must rest at the same height, and a raised tile must straddle two tiles.",
  "tutorial.passtally.marker": "Your second action: lay another tile, or move one of your markers 1 or 2 spaces round the edge (spaces holding a marker are jumped, not counted). Select the marker, then a glowing space.",
  "tutorial.passtally.score": "Your turn ended with scoring. Follow the line from each of your markers: a line that ends at another of your markers is yours. Its passes are the levels of the tiles it crosses; the passes of your lines are added and turned into points by the table in the rules (the scores are beside the board). A line that stays complete scores again every turn.",
  "tutorial.passtally.scored": "Points from your last turn: {points}. At the end of each of your turns, every line that joins two of your markers scores (its end markers are lit): {each}. A line's passes are the levels of the tiles it crosses; your lines' passes are added ({passes} in all) and the table in the rules turns them into points. A line that stays complete scores again every turn.",
  "tutorial.passtally.line": "the line from space {from} to space {to} (passes: {passes})",
  "tutorial.passtally.and": "; ",
  "tutorial.passtally.again": "Your turn again: two actions, each one laying a tile or moving a marker. A line is worth more for every tile it crosses and for every level a tile is raised, so lay tiles on your own lines, stack them where your lines cross, and keep your markers at the ends of good lines.",
  "tip.passtally.players": "Number of players; the first seat is the start player.",
  "tip.passtally.jump_counts_as_step": "On: every space of the edge counts as a step, occupied ones too. Off: occupied spaces are jumped for free, and a marker stops on the first or second empty space.",
  "tip.passtally.ring_corners_continuous": "On: markers move round the corners freely. Off: only along their own side.",
  "tip.passtally.finish_turn_on_immediate_end": "On: when no tile can be laid mid-turn, the player finishes the turn and scores. Off: the game ends right after that tile, without scoring.",
  "tip.passtally.turn_time_limit_s": "Seconds per turn (the rulebook's variant uses 60). It is only recorded; the table's clock is the one chosen under Clock.",
  "tip.passtally.max_turns": "A guard of the engine, not a rule: the game ends after this many turns and is ranked by score (ties go to the earliest seat). Empty: no limit.",
  "theme.passtally.marker_moves": "Marker moves only",
  "theme.passtally.cut_line": "Cutting a line",
  "theme.passtally.final_turn": "The final turn",
};
