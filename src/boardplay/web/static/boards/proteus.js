// Proteus: the 3×3 board (a1 bottom left, c3 top right), rule tiles coloured by kind (R move,
// B trade, Y goal) and drawn with their shape, face up (active, marked ★) or face down (pale);
// pieces of Black (X) and White (O) with their shape. Placement: select a pool tile or a piece
// from the hand, then click a cell. Movement: select a cell, then click where its piece goes
// (a green ring and a dot) or the cell to trade tiles with (a blue dashed ring and ⇄); the page
// asks when both are possible. What can be selected has a dashed orange outline. Highlights
// are outlines only, so the colour of a tile (its rule kind) always shows. Legal moves are
// read from their structs; the cells of the last turn get the "last move" ring. On the final
// board of a finished game, ctx.ending (games/proteus/ending.py) says where it ended: see
// ENDING_DASH below.
import { s } from "../dom.js";
import { svgRoot, targets, svgButton, legalMoves, text, LAST, ENDING } from "./common.js";
import { slideFrom, landed } from "./motion.js";
import { t, seatName, phrase } from "../text.js";
import { frame } from "./miniframe.js";
import { proteusTurn, proteusStep, proteusObserve } from "./proteus-tutorial.js";

const CELL = 90;
const TILE_COLOURS = { R: "#c0392b", B: "#2e86c1", Y: "#d4ac0d" };
const TILES = ["Rc", "Rs", "Rt", "Bc", "Bs", "Bt", "Yc", "Ys", "Yt"];
const RULE_NAMES = {
  Rc: "KING", Rs: "ROOK", Rt: "BISHOP/KNIGHT",
  Bc: "POLARITY", Bs: "COLOR trade", Bt: "SHAPE trade",
  Yc: "3-IN-LINE", Ys: "COLOR goal", Yt: "SHAPE goal",
}; // rules spec §6.1
const CELLS = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
// How the end of a game is drawn (ctx.ending), in the ending colour: a ring round each piece
// that counts (the winner's three, or those that cannot act), a stroke along a 3-IN-LINE line,
// and a square ring round each tile that explains the end, its line pattern telling why: solid
// for the goal in force, dashed for a colour with no face-up tile, dotted for a MOVE rule that
// leaves no free cell.
const ENDING_DASH = { goal: null, missing: "10 6", blocked: "2 5" };

function shapeAt(shape, cx, cy, r, attrs) {
  if (shape === "c") return s("circle", { cx, cy, r, ...attrs });
  if (shape === "s") return s("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...attrs });
  const pts = [[cx, cy - r], [cx + r * 0.95, cy + r * 0.7], [cx - r * 0.95, cy + r * 0.7]];
  return s("polygon", { points: pts.map((p) => p.join(",")).join(" "), ...attrs });
}

// The tile's kind told by a drawn sign as well as by its colour: an arrow for a move rule, two
// opposed arrows for a trade rule, a flag for a goal (colour-blind players read the sign).
function kindMark(kind, x, y, colour) {
  const d = {
    R: `M${x - 7},${y} H${x + 5} M${x + 1},${y - 4} L${x + 6},${y} L${x + 1},${y + 4}`,
    B: `M${x - 7},${y - 3} H${x + 6} M${x + 3},${y - 6} L${x + 6},${y - 3} L${x + 3},${y} M${x + 7},${y + 3} H${x - 6} M${x - 3},${y} L${x - 6},${y + 3} L${x - 3},${y + 6}`,
    Y: `M${x - 5},${y + 7} V${y - 7} L${x + 6},${y - 4} L${x - 5},${y}`,
  }[kind];
  return s("path", { d, fill: "none", stroke: colour, "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round", class: "kind-mark", "data-kind": kind });
}

function parseCell(value) {
  const m = /^([RBY][cst])(\*)?([XO][cst])?$/.exec(value || "");
  return m ? { tile: m[1], active: !!m[2], piece: m[3] || null } : null;
}

function tileGlyph(tile, active, cx, cy, size) {
  const g = s("g", {});
  const colour = TILE_COLOURS[tile[0]];
  g.append(s("rect", {
    x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 8,
    fill: active ? colour : `${colour}55`, stroke: active ? "#222" : colour, "stroke-width": active ? 3 : 2,
  }));
  g.append(shapeAt(tile[1], cx, cy, size * 0.22, { fill: "none", stroke: active ? "#fff" : colour, "stroke-width": 2 }));
  if (active) g.append(text(cx + size / 2 - 10, cy - size / 2 + 10, "★", { "font-size": 12, fill: "#fff" }));
  // The tile's shape again in its corner, visible when a piece covers the middle.
  g.append(shapeAt(tile[1], cx - size / 2 + 11, cy - size / 2 + 11, 6, { fill: active ? "#fff" : colour }));
  g.append(kindMark(tile[0], cx + size / 2 - 12, cy + size / 2 - 12, active ? "#fff" : colour));
  return g;
}

function pieceGlyph(piece, cx, cy) {
  const black = piece[0] === "X";
  return shapeAt(piece[1], cx, cy, 17, { fill: black ? "#111" : "#fafafa", stroke: black ? "#fafafa" : "#111", "stroke-width": 2.5 });
}

export function draw(position, ctx) {
  const board = position.board || {};
  const cells = Object.fromEntries(CELLS.map((c) => [c, parseCell(board[c])]));
  const moves = legalMoves(ctx);
  const sel = ctx.selected || null;
  const marks = targets(ctx);
  const xy = (cell) => [("abc".indexOf(cell[0]) + 0.5) * CELL + 20, (3 - Number(cell[1]) + 0.5) * CELL + 20];

  // What each selection leads to, and where each move lands once that selection is made.
  const leadsTo = new Map();
  const add = (key, move) => { if (!leadsTo.has(key)) leadsTo.set(key, []); leadsTo.get(key).push(move); };
  for (const move of moves) {
    const st = move.struct;
    if (st.kind === "tile") add(`tile:${st.tile}`, move);
    else if (st.kind === "piece") add(`hand:${st.shape}`, move);
    else if (st.kind === "move") add(`cell:${st.from}`, move);
    else if (st.kind === "trade") { add(`cell:${st.cells[0]}`, move); add(`cell:${st.cells[1]}`, move); }
  }
  const landing = (st) => (st.kind === "trade" ? (sel === `cell:${st.cells[0]}` ? st.cells[1] : st.cells[0]) : st.to);
  const byCell = new Map();
  for (const move of leadsTo.get(sel) || []) {
    const cell = landing(move.struct);
    if (!byCell.has(cell)) byCell.set(cell, []);
    byCell.get(cell).push(move);
  }
  const lastCells = new Set((ctx.lastTurn || []).flatMap((st) => [st.to, st.from, ...(st.cells || [])].filter(Boolean)));
  // What the last turn moved, for the page to animate (motion.js): a tile or piece put down
  // drops in; a moved piece slides from its cell, two traded tiles each from the other's cell.
  const tileFrom = new Map(), pieceFrom = new Map();
  for (const st of ctx.lastTurn || []) {
    if (st.kind === "tile") tileFrom.set(st.to, null);
    if (st.kind === "piece") pieceFrom.set(st.to, null);
    if (st.kind === "move") pieceFrom.set(st.to, st.from);
    if (st.kind === "trade") { tileFrom.set(st.cells[0], st.cells[1]); tileFrom.set(st.cells[1], st.cells[0]); }
  }
  const arrive = (el, from, cell) => {
    if (!from.has(cell)) return el;
    if (!from.get(cell)) return landed(el);
    const [a, b] = [xy(from.get(cell)), xy(cell)];
    return slideFrom(el, a[0] - b[0], a[1] - b[1]);
  };
  const ring = (cx, cy, size, attrs) => s("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 10, fill: "none", ...attrs });
  const selectableMark = (cx, cy, size) => ring(cx, cy, size, { stroke: "#e08a1e", "stroke-width": 2.5, "stroke-dasharray": "6 4", class: "selectable-mark" });
  const ending = ctx.ending || null;
  const endPieces = new Set(ending?.pieces || []);
  const endTiles = new Map((ending?.tiles || []).map((tl) => [tl.at, tl.why]));

  const layer = s("g", {});
  for (const cell of CELLS) {
    const [cx, cy] = xy(cell);
    const info = cells[cell];
    const g = s("g", { "data-cell": cell });
    g.append(s("rect", { x: cx - CELL / 2 + 3, y: cy - CELL / 2 + 3, width: CELL - 6, height: CELL - 6, rx: 10, fill: "#e9dfcc", stroke: "#b9a888" }));
    if (info) g.append(arrive(tileGlyph(info.tile, info.active, cx, cy, CELL - 16), tileFrom, cell));
    if (info?.piece) g.append(arrive(pieceGlyph(info.piece, cx, cy), pieceFrom, cell));
    if (lastCells.has(cell)) g.append(ring(cx, cy, CELL - 2, { stroke: LAST, "stroke-width": 3, "stroke-dasharray": "3 3", class: "last-move" }));
    if (endTiles.has(cell)) {
      const why = endTiles.get(cell);
      g.append(ring(cx, cy, CELL - 7, { stroke: ENDING, "stroke-width": 5, "stroke-dasharray": ENDING_DASH[why] ?? null, class: "ending-tile", "data-why": why }));
    }
    if (endPieces.has(cell)) {
      // A white halo under the ring, so it shows on a tile of any colour.
      g.append(s("circle", { cx, cy, r: 25, fill: "none", stroke: "#fff", "stroke-width": 8 }));
      g.append(s("circle", { cx, cy, r: 25, fill: "none", stroke: ENDING, "stroke-width": 4, class: "ending-piece" }));
    }
    if (sel === `cell:${cell}`) g.append(ring(cx, cy, CELL - 4, { stroke: "#e08a1e", "stroke-width": 5 }));
    const here = byCell.get(cell) || [];
    if (here.length) {
      const trade = here.some((m) => m.struct.kind === "trade");
      const move = here.some((m) => m.struct.kind !== "trade");
      if (move) {
        g.append(ring(cx, cy, CELL - 12, { stroke: "#1f9d55", "stroke-width": 5, class: "legal-target move-target" }));
        g.append(s("circle", { cx: cx + CELL / 2 - 16, cy: cy + CELL / 2 - 16, r: 7, fill: "#1f9d55", stroke: "#fff", "stroke-width": 2 }));
      }
      if (trade) {
        g.append(ring(cx, cy, CELL - (move ? 22 : 12), { stroke: "#1b4f9c", "stroke-width": 4, "stroke-dasharray": "9 5", class: "legal-target trade-target" }));
        g.append(s("circle", { cx: cx - CELL / 2 + 17, cy: cy + CELL / 2 - 17, r: 10, fill: "#1b4f9c" }));
        g.append(text(cx - CELL / 2 + 17, cy + CELL / 2 - 17, "⇄", { "font-size": 13, fill: "#fff", "font-weight": 700 }));
      }
      marks.target(g, here);
    } else {
      const options = leadsTo.get(`cell:${cell}`) || [];
      if (options.length && !sel) g.append(selectableMark(cx, cy, CELL - 4));
      marks.selectable(g, `cell:${cell}`, options, t("proteus.selectCell", { cell }));
    }
    layer.append(g);
  }
  // A 3-IN-LINE that met the goal: a stroke through its three cells, over the pieces.
  for (const line of ending?.lines || []) {
    const [x1, y1] = xy(line[0]), [x2, y2] = xy(line[line.length - 1]);
    layer.append(s("line", { x1, y1, x2, y2, stroke: ENDING, "stroke-width": 8, "stroke-linecap": "round", opacity: 0.6, "pointer-events": "none", class: "ending-line" }));
  }
  ["a", "b", "c"].forEach((c, i) => layer.append(text(20 + (i + 0.5) * CELL, 20 + 3 * CELL + 12, c, { "font-size": 12, fill: "#555" })));
  [3, 2, 1].forEach((r, i) => layer.append(text(8, 20 + (i + 0.5) * CELL, r, { "font-size": 12, fill: "#555" })));

  // The pool (tiles not on the board) and the hands (pieces not on the board). Each part is a
  // group with a frame the walk-through can light up (class "part-frame", drawn only then).
  const side = s("g", {});
  const part = (name, x, y, w, hgt) => {
    const g = s("g", { class: name }, s("rect", { x, y, width: w, height: hgt, rx: 8, fill: "none", class: "part-frame" }));
    side.append(g);
    return g;
  };
  const onBoard = new Set(CELLS.map((c) => cells[c]?.tile).filter(Boolean));
  const piecesOn = new Set(CELLS.map((c) => cells[c]?.piece).filter(Boolean));
  // Beside the board, or under it on a narrow screen (ctx.narrow): the pool on the left, the
  // hands and the active rules on the right, so the board can use a phone's whole width.
  const narrow = !!ctx.narrow;
  const boardBottom = 20 + 3 * CELL + 30;
  const x0 = narrow ? 20 : 20 + 3 * CELL + 30;
  const poolY = narrow ? boardBottom : 20;
  const handX = narrow ? 20 + 170 : x0;
  const handY = narrow ? boardBottom + 30 : 200;
  // Once everything is placed (the movement phase) the pool and hands are empty: no room for them.
  const placing = onBoard.size < TILES.length || piecesOn.size < 6;
  const rulesY = narrow ? (placing ? handY + 112 : boardBottom) : 292;
  const pool = part("pr-pool", x0 - 6, poolY - 16, 156, 160);
  if (placing) pool.append(text(x0, poolY, t("proteus.pool"), { "text-anchor": "start", "font-size": 13 }));
  TILES.filter((tile) => !onBoard.has(tile)).forEach((tile, i) => {
    const cx = x0 + 22 + (i % 3) * 48, cy = poolY + 30 + Math.floor(i / 3) * 48;
    const g = s("g", { "data-tile": tile }, tileGlyph(tile, false, cx, cy, 40));
    const options = leadsTo.get(`tile:${tile}`) || [];
    if (sel === `tile:${tile}`) g.append(s("rect", { x: cx - 23, y: cy - 23, width: 46, height: 46, rx: 8, fill: "none", stroke: "#e08a1e", "stroke-width": 4 }));
    else if (options.length && !sel) g.append(selectableMark(cx, cy, 46));
    marks.selectable(g, `tile:${tile}`, options, t("proteus.selectTile", { rule: phrase(RULE_NAMES[tile]) }));
    pool.append(g);
  });
  const mover = position.to_move ?? 0;
  const hands = placing ? part("pr-hands", handX - 6, handY - 46, 156, 120) : side;
  ["X", "O"].forEach((player, seat) => {
    const y = handY + seat * 56;
    if (placing) hands.append(text(handX, y - 29, seat === 0 ? t("proteus.blackHand") : t("proteus.whiteHand"), { "text-anchor": "start", "font-size": 12 }));
    ["c", "s", "t"].filter((sh) => !piecesOn.has(player + sh)).forEach((shape, i) => {
      const cx = handX + 20 + i * 44;
      const g = s("g", { "data-piece": player + shape }, pieceGlyph(player + shape, cx, y));
      if (seat === mover) {
        const options = leadsTo.get(`hand:${shape}`) || [];
        if (sel === `hand:${shape}`) g.append(s("circle", { cx, cy: y, r: 22, fill: "none", stroke: "#e08a1e", "stroke-width": 4 }));
        else if (options.length && !sel) g.append(s("circle", { cx, cy: y, r: 22, fill: "none", stroke: "#e08a1e", "stroke-width": 2.5, "stroke-dasharray": "6 4", class: "selectable-mark" }));
        marks.selectable(g, `hand:${shape}`, options, t("proteus.selectPiece", { shape: t(`proteus.shape.${shape}`) }));
      }
      hands.append(g);
    });
  });
  // The active rules, named (face-up tiles), so nobody has to remember the shapes.
  const active = Object.fromEntries(CELLS.map((c) => cells[c]).filter((i) => i?.active).map((i) => [i.tile[0], i.tile]));
  const rules = part("pr-rules", handX - 6, rulesY - 13, 166, 3 * 16 + 6);
  [["R", "move"], ["B", "trade"], ["Y", "goal"]].forEach(([colour, kind], i) => {
    const tile = active[colour];
    rules.append(text(handX, rulesY + i * 16, `${t(`proteus.${kind}`)}: ${tile ? phrase(RULE_NAMES[tile]) : "—"}`, { "text-anchor": "start", "font-size": 12, fill: TILE_COLOURS[colour], "data-rule": colour }));
  });
  const pass = moves.find((m) => m.struct.kind === "pass");
  if (pass) side.append(svgButton(handX + 60, narrow ? poolY - 14 : 20 + 3 * CELL - 26, t("proteus.pass"), pass, marks));
  // Every move starts from something on this board (a cell, a pool tile, a hand piece or the
  // pass button), reachable once the current selection is dropped: none needs a list.
  for (const move of moves) marks.drawn.add(move.id);
  const [width, height] = narrow ? [handX + 160, rulesY + 3 * 16 + 10] : [x0 + 170, 20 + 3 * CELL + 56];
  const svg = svgRoot(0, 0, width, height, t("proteus.label", { name: seatName(ctx.hints?.seat_names?.[mover] || "") }), layer, side);
  return { svg, drawn: marks.drawn };
}

// ----- what the lobby and the walk-through read from the board module ---------------------------
// The lobby card: the game's typical length and its place among the cards (easiest to learn
// first); the card's words are in EN below, under about.proteus.*.
export const about = { minutes: [10, 20], order: 2 };

// The first-game walk-through (pages/tutorial.js): a whole first game, stage by stage
// (proteus-tutorial.js).
export const tutorial = { byStage: true, turn: proteusTurn, step: proteusStep, observe: proteusObserve, end: "tutorial.proteus.end" };

// Proteus: the 3×3 board of rule tiles in red, blue and yellow, with black and white pieces.
export function miniature() {
  const colours = ["#d24b3e", "#3b6fd0", "#e3b62b"];
  const shape = (kind, x, y, fill, stroke) => {
    if (kind === 0) return s("circle", { cx: x, cy: y, r: 5, fill, stroke, "stroke-width": 1.2 });
    if (kind === 1) return s("rect", { x: x - 4.5, y: y - 4.5, width: 9, height: 9, fill, stroke, "stroke-width": 1.2 });
    return s("path", { d: `M${x},${y - 5.5}L${x + 5.5},${y + 4.5}L${x - 5.5},${y + 4.5}Z`, fill, stroke, "stroke-width": 1.2 });
  };
  const out = [];
  const pieces = { 0: ["#111", 0], 4: ["#fafafa", 2], 5: ["#111", 1], 7: ["#fafafa", 0] };
  for (let i = 0; i < 9; i++) {
    const x = 33 + (i % 3) * 20;
    const y = 11 + Math.floor(i / 3) * 20;
    const up = i !== 2 && i !== 6;
    out.push(s("rect", { x, y, width: 18, height: 18, rx: 2.5, fill: up ? colours[(i * 2) % 3] : "#7a6f5e", stroke: "#3a3229", "stroke-width": 0.8 }));
    if (up) out.push(shape(i % 3, x + 9, y + 9, "#fff8", "none"));
    const piece = pieces[i];
    if (piece) out.push(shape(piece[1], x + 9, y + 9, piece[0], piece[0] === "#111" ? "#fafafa" : "#111"));
  }
  return frame(...out);
}

// ----- the game's words ------------------------------------------------------------------------
// Its words in English, by key: its title (title.proteus), its board (proteus.*), its lobby card
// (about.proteus.*), its options and their tooltips (option.proteus.*, tip.proteus.*) and its
// walk-through (tutorial.proteus.*). boards/load.js adds them to the page's words when it loads
// this module; `make i18n` extracts them into the `web` catalogue, each key its msgctxt.
export const EN = {
  "title.proteus": "Proteus",
  "proteus.pool": "pool",
  "proteus.blackHand": "Black's hand",
  "proteus.whiteHand": "White's hand",
  "proteus.move": "move",
  "proteus.trade": "trade",
  "proteus.goal": "goal",
  "proteus.pass": "pass",
  "proteus.label": "Proteus board; {name} to move",
  "proteus.selectCell": "select the piece or tile on {cell}",
  "proteus.selectTile": "select the {rule} tile from the pool",
  "proteus.selectPiece": "select your {shape} from your hand",
  "proteus.shape.c": "circle",
  "proteus.shape.s": "square",
  "proteus.shape.t": "triangle",
  "about.proteus.line": "Nine rule tiles make the board, and the face-up ones decide how pieces move, trade and win — every activation changes the rules.",
  "option.proteus.rules": "Rule set",
  "option.proteus.rules.seed": "Japanese rules (no win during placement; two passes draw)",
  "option.proteus.rules.kadon": "Kadon rules (wins count from the first turn)",
  "option.proteus.repetition": "Repeating an earlier position",
  "option.proteus.repetition.none": "allowed",
  "option.proteus.repetition.forbid": "not allowed while moving",
  "option.proteus.max_turns": "Turn limit: a draw after this many turns (empty: none)",
  "tutorial.proteus.tiles": "Proteus begins with no board and no rules. The nine tiles in the pool make the board, and each carries a rule: its colour says what kind of rule, its shape which one. Nothing is hidden: every tile shows its colour and shape.",
  "tutorial.proteus.colours": "A rule counts only while its tile is face up, and each colour has at most one face-up tile: red says how pieces move, blue which two tiles may swap, yellow how to win. This list names the rules in force; at first there are none.",
  "tutorial.proteus.build": "You build the board together, one placement a turn. Click a glowing tile in the pool to pick it up, then a glowing cell to put it there, face down.",
  "tutorial.proteus.pieces": "Keep building: place a tile, or put one of your three pieces from your hand on a tile with no piece. A piece on a tile of its own shape turns that tile face up, and its rule starts to count.",
  "tutorial.proteus.active": "A face-up tile's rule is in force now: its line in the list and its tile on the board are lit. While the board is being built, a colour keeps its first face-up tile (a piece on another tile of that colour and its own shape leaves that tile face down). Keep placing until every tile and piece is on the board.",
  "tutorial.proteus.placed": "You have nothing left to place: pass, while the other player finishes building the board.",
  "tutorial.proteus.stuck": "Everything is placed, but no rule in force lets you move or trade: that needs a face-up red or blue tile. You can only pass; if neither player can do anything, two passes in a row end the game in a draw.",
  "tutorial.proteus.goal": "Everything is placed. The goal in force is {rule}: {how} It is checked after every turn: if exactly one of you meets it, that player wins; if both do, play goes on. The goal can change too, when another yellow tile turns face up.",
  "tutorial.proteus.move": "Now each turn is one move or one trade. To move: select one of your pieces (dashed orange), then a green-ringed cell. The red rule in force, {rule}, says where: {how} A piece that lands on a tile of its own shape turns that tile face up.",
  "tutorial.proteus.trade": "Now try a trade. Select a cell, then a cell with a blue dashed ring and ⇄: the two tiles swap places and the pieces stay where they are. The blue rule in force, {rule}, says which tiles: {how} A tile that comes to lie under a piece of its own shape turns face up.",
  "tutorial.proteus.replaced": "The rules have changed: a piece landed on a tile of its own shape, so that tile turned face up and {rule} is the {kind} rule now. It replaced {old}, whose tile is face down again and no longer counts. Each colour has one rule in force at a time.",
  "tutorial.proteus.end": "You have seen every part of the game: building the board, a move, a trade, the goal, and a rule replaced as tiles turn face up. Play on to the end; the Rules button beside the board explains every rule.",
  "tutorial.proteus.rule.Rc": "a piece steps to one of the up to eight cells around it.",
  "tutorial.proteus.rule.Rs": "a piece goes to any free tile in its row or its column, leaping over pieces.",
  "tutorial.proteus.rule.Rt": "a piece goes to any free tile outside its row and its column, leaping over pieces.",
  "tutorial.proteus.rule.Bc": "a tile holding one of your pieces swaps with a tile holding one of the other player's.",
  "tutorial.proteus.rule.Bs": "any two tiles of the same colour swap.",
  "tutorial.proteus.rule.Bt": "any two tiles of the same shape swap.",
  "tutorial.proteus.rule.Yc": "your three pieces in one line (a row, a column or a diagonal).",
  "tutorial.proteus.rule.Ys": "your three pieces on the three tiles of one colour.",
  "tutorial.proteus.rule.Yt": "your three pieces on the three tiles of one shape (the pieces' own shapes do not matter).",
  "tip.proteus.rules": "Japanese rules: no win while the board is being built, and two passes in a row draw. Kadon rules: a win counts from the first turn, and each colour is turned face up exactly once while the board is built.",
  "tip.proteus.repetition": "Whether a move of the movement phase may bring back a position seen before (Boardspace forbids it).",
  "tip.proteus.max_turns": "The game is drawn at the end of this turn unless someone won in it; empty: no limit.",
  "theme.proteus.rule_change": "A rule changes",
  "theme.proteus.goal_change": "A new goal",
  "theme.proteus.trade": "Trade",
  "theme.proteus.goal_reached": "Goal reached",
};
