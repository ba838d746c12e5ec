// Proteus's walk-through: a whole first game on the real board, from the first placement until the
// player has made a move and a trade. It follows what the position asks of the player (rules spec
// §4-§7): two pages introduce the tiles and the rules they carry, then the building of the board and
// how a face-up tile puts its rule in force; once everything is placed, the goal in force (what it
// asks), a move by the red rule, a trade by the blue rule, and, whenever a new face-up tile has
// replaced the rule of its colour, which rule replaced which. Each card lights up the part it talks
// about: the pool, the hands, the line of the rule in the list and its face-up tile on the board.
import { t, phrase } from "../text.js";

const RULE_NAMES = {
  Rc: "KING", Rs: "ROOK", Rt: "BISHOP/KNIGHT",
  Bc: "POLARITY", Bs: "COLOR trade", Bt: "SHAPE trade",
  Yc: "3-IN-LINE", Ys: "COLOR goal", Yt: "SHAPE goal",
}; // rules spec §6.1, as boards/proteus.js names them
const KIND = { R: "proteus.move", B: "proteus.trade", Y: "proteus.goal" };
const MOVES_SHOWN = 3; // the walk lets go after this many moves and trades, even without both kinds

export const INTRO = [
  { key: "tutorial.proteus.tiles", part: ".pr-pool" },
  { key: "tutorial.proteus.colours", part: ".pr-rules" },
  { key: "tutorial.proteus.build", part: null },
];

const mine = (game, kinds) => (game.moves || []).filter((m) => (game.your_seats || []).includes(m.player) && kinds.includes(m.struct?.kind)).length;

// The face-up tile of each colour: colour → { tile, cell }.
function inForce(game) {
  const out = {};
  for (const [cell, value] of Object.entries(game?.position?.board || {})) {
    const m = /^([RBY][cst])\*/.exec(String(value));
    if (m) out[m[1][0]] = { tile: m[1], cell };
  }
  return out;
}

// The parts a rule's card lights up: its line in the list of rules in force and its tile.
const ruleParts = (colour, at) => [`.pr-rules [data-rule='${colour}']`, at ? `[data-cell='${at.cell}']` : null].filter(Boolean);
const ruleName = (tile) => phrase(RULE_NAMES[tile]);
const ruleArgs = (at) => ({ rule: ruleName(at.tile), how: t(`tutorial.proteus.rule.${at.tile}`) });

// The walk begins when it is the player's turn; it is over once they have made a move and a trade,
// or MOVES_SHOWN of them (the position may not allow both), or when the game ends.
export function proteusTurn(game, walked) {
  if (walked === null) return { walked: game.your_turn ? game.ply : null, over: false };
  const moved = mine(game, ["move"]), traded = mine(game, ["trade"]);
  return { walked, over: !!game.terminal || (moved > 0 && traded > 0) || moved + traded >= MOVES_SHOWN };
}

// Called with each new position the walk sees: a colour whose face-up tile changed from one tile to
// another has had its rule replaced; the card says so on the player's next turn.
export function proteusObserve(before, next, notes) {
  const was = inForce(before), now = inForce(next);
  for (const colour of Object.keys(now)) {
    if (was[colour] && was[colour].tile !== now[colour].tile) {
      (notes.replaced ||= []).push({ ply: next.ply, colour, old: was[colour].tile, now: now[colour] });
    }
  }
}

// The step for this view; `intro` says whether "Next" leads on (it then marks the step's `id`, or
// its key, as read in `notes.read`).
export function proteusStep(game, walked, acted, page, notes = { read: new Set() }) {
  const kinds = new Set((game.legal || []).map((m) => m.struct?.kind));
  const active = inForce(game);
  if (kinds.has("move") || kinds.has("trade")) return movementStep(game, kinds, active, notes);
  if (!kinds.has("tile") && !kinds.has("piece")) {
    // Only a pass: nothing left to place while the other player builds on, or, with everything
    // placed, no red or blue rule in force to move or trade by.
    const cells = Object.values(game.position?.board || {}).map(String);
    const placed = cells.length === 9 && cells.filter((v) => /[XO]/.test(v)).length === 6;
    return { key: placed ? "tutorial.proteus.stuck" : "tutorial.proteus.placed", part: ".pr-rules", intro: false };
  }
  if (!acted) {
    const at = Math.min(page, INTRO.length - 1);
    return { ...INTRO[at], intro: at < INTRO.length - 1 };
  }
  const up = Object.keys(active);
  if (up.length) return { key: "tutorial.proteus.active", part: [".pr-rules", ...up.map((c) => `[data-cell='${active[c].cell}']`)], intro: false };
  return { key: kinds.has("piece") ? "tutorial.proteus.pieces" : "tutorial.proteus.build", part: kinds.has("piece") ? ".pr-hands" : ".pr-pool", intro: false };
}

// Everything is placed: first what the goal in force asks, then any rule just replaced, then a move
// (until the player has made one), then a trade.
function movementStep(game, kinds, active, notes) {
  const read = notes.read || new Set();
  if (active.Y && !read.has("goal")) {
    return { key: "tutorial.proteus.goal", id: "goal", args: ruleArgs(active.Y), part: ruleParts("Y", active.Y), intro: true };
  }
  const news = (notes.replaced || []).filter((r) => !read.has(`replaced:${r.ply}:${r.colour}`));
  if (news.length) {
    const r = news[0];
    return {
      key: "tutorial.proteus.replaced", id: `replaced:${r.ply}:${r.colour}`, intro: true,
      args: { kind: t(KIND[r.colour]), rule: ruleName(r.now.tile), old: ruleName(r.old) },
      part: ruleParts(r.colour, r.now),
    };
  }
  const trade = kinds.has("trade") && (mine(game, ["move"]) > 0 || !kinds.has("move"));
  if (trade) return { key: "tutorial.proteus.trade", args: ruleArgs(active.B), part: ruleParts("B", active.B), intro: false, teach: teach(game, "trade") };
  return { key: "tutorial.proteus.move", args: ruleArgs(active.R), part: ruleParts("R", active.R), intro: false, teach: teach(game, "move") };
}

// The places a move card or a trade card makes glow: the cells to select first and the targets of
// that kind of action only (a cell may offer both).
function teach(game, kind) {
  const legal = (game.legal || []).filter((m) => m.struct?.kind === kind);
  const cells = legal.flatMap((m) => (kind === "move" ? [m.struct.from] : m.struct.cells));
  return { moves: legal.map((m) => m.id), select: [...new Set(cells)].map((c) => `cell:${c}`) };
}
