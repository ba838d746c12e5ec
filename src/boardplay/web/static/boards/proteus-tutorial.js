// Proteus's walk-through: a first game from the first placement to the player's first move or
// trade, on the real board. It follows what the position asks of the player (rules spec §5-§8):
// two pages introduce the tiles and the rules they carry, then the building of the board, how a
// face-up tile puts its rule in force and replaces another, and, once everything is placed,
// moving, trading and the goal. The walk is over when the player has made their first move or
// trade (or the game ends first).

const own = (game, kinds) => (game.moves || []).some((m) => (game.your_seats || []).includes(m.player) && kinds.includes(m.struct?.kind));

export const INTRO = [
  { key: "tutorial.proteus.tiles", part: ".pr-pool" },
  { key: "tutorial.proteus.colours", part: ".pr-rules" },
  { key: "tutorial.proteus.build", part: null },
];

// The walk begins when it is the player's turn and is over after their first move or trade.
export function proteusTurn(game, walked) {
  if (walked === null) return { walked: game.your_turn ? game.ply : null, over: false };
  return { walked, over: !!game.terminal || own(game, ["move", "trade"]) };
}

// The step for this view: the introduction's `page` before the player's first placement, then
// the step of the phase the position is in; `intro` says whether "Next" leads on.
export function proteusStep(game, walked, acted, page) {
  const kinds = new Set((game.legal || []).map((m) => m.struct?.kind));
  if (kinds.has("move") || kinds.has("trade")) return { key: "tutorial.proteus.move", part: ".pr-rules", intro: false };
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
  const faceUp = Object.values(game.position?.board || {}).some((v) => String(v).includes("*"));
  if (faceUp) return { key: "tutorial.proteus.active", part: ".pr-rules", intro: false };
  return { key: kinds.has("piece") ? "tutorial.proteus.pieces" : "tutorial.proteus.build", part: kinds.has("piece") ? ".pr-hands" : ".pr-pool", intro: false };
}
