// Passtally's walk-through: a first game from the first marker to the player's second turn of
// play, on the real board (rules spec §3-§6). A page introduces the goal (lines between your own
// markers score); then the setup; then the two actions of a turn, one at a time (laying a tile
// from the piles beside the board, moving a marker round the edge); then, once the first turn
// has been scored, how a line scores. The walk is over after the player's second turn of play.

const PLAY = ["place", "marker"];

// The player's own actions of the game after the setup (tile placements and marker moves).
const played = (game) => (game.moves || []).filter((m) => (game.your_seats || []).includes(m.player) && PLAY.includes(m.struct?.kind)).length;

export function passtallyTurn(game, walked) {
  if (walked === null) return { walked: game.your_turn ? game.ply : null, over: false };
  return { walked, over: !!game.terminal || played(game) >= 4 };
}

export function passtallyStep(game, walked, acted, page) {
  const kinds = new Set((game.legal || []).map((m) => m.struct?.kind));
  if (kinds.has("setup")) {
    if (!acted && page === 0) return { key: "tutorial.passtally.goal", part: ".pt-board", intro: true };
    return { key: "tutorial.passtally.setup", part: null, intro: false };
  }
  if (!kinds.has("place") && !kinds.has("marker")) return { key: "tutorial.generic.1", part: null, intro: false };
  const done = played(game);
  if (done === 0) return { key: "tutorial.passtally.place", part: ".pt-piles", intro: false };
  if (done === 1) return { key: "tutorial.passtally.marker", part: ".pt-board", intro: false };
  return { key: "tutorial.passtally.score", part: ".pt-scores", intro: false };
}
