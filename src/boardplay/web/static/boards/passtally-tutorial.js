// Passtally's walk-through: a first game from the first marker to the player's second turn of play,
// on the real board (rules spec §3-§7). A page introduces the goal (lines between your own markers
// score); then the setup; then the two actions of a turn, one at a time (laying a tile from the
// piles beside the board, moving one of your markers round the edge, which are lit); then, once the
// first turn has been scored, a page on how it scored: the player's lines of that turn (their end
// markers lit), each line's passes, their sum and the points the table turns it into; then the
// second turn, with what makes lines worth more. The walk is over after the player's second turn
// of play.
import { t } from "../text.js";

const PLAY = ["place", "marker"];

// The player's own actions of the game after the setup (tile placements and marker moves).
const own = (game) => (game.moves || []).filter((m) => (game.your_seats || []).includes(m.player) && PLAY.includes(m.struct?.kind));

export function passtallyTurn(game, walked) {
  if (walked === null) return { walked: game.your_turn ? game.ply : null, over: false };
  return { walked, over: !!game.terminal || own(game).length >= 4 };
}

// The slots of the player's markers, as parts to light up.
const ownSlots = (game) => Object.entries(game.position?.markers || {})
  .filter(([, seat]) => (game.your_seats || []).includes(seat)).map(([slot]) => `[data-slot='${slot}']`);

// How the player's last turn scored, from the struct of its second action, which ended it (the
// mover's complete lines after it, and the points the turn gained): the card's text and its lit
// parts.
function scoring(game, notes) {
  const done = own(game);
  const last = done[done.length - (done.length % 2) - 1]?.struct;
  const lines = (last?.lines || []).filter((l) => l.passes > 0);
  if (notes.read.has("scored")) return { key: "tutorial.passtally.again", part: [".pt-piles", ...ownSlots(game)], intro: false };
  if (!last || !lines.length) return { key: "tutorial.passtally.score", id: "scored", part: ".pt-scores", intro: true };
  const passes = lines.reduce((sum, l) => sum + l.passes, 0);
  const each = lines.map((l) => t("tutorial.passtally.line", { from: l.from, to: l.to, passes: l.passes })).join(t("tutorial.passtally.and"));
  return {
    key: "tutorial.passtally.scored", id: "scored", intro: true,
    args: { points: last.scored, passes, each },
    part: [".pt-scores", ...lines.flatMap((l) => [`[data-slot='${l.from}']`, `[data-slot='${l.to}']`])],
  };
}

export function passtallyStep(game, walked, acted, page, notes = { read: new Set() }) {
  const kinds = new Set((game.legal || []).map((m) => m.struct?.kind));
  if (kinds.has("setup")) {
    if (!acted && page === 0) return { key: "tutorial.passtally.goal", part: ".pt-board", intro: true };
    return { key: "tutorial.passtally.setup", part: null, intro: false };
  }
  if (!kinds.has("place") && !kinds.has("marker")) return { key: "tutorial.generic.1", part: null, intro: false };
  const done = own(game).length;
  if (done === 0) return { key: "tutorial.passtally.place", part: ".pt-piles", intro: false };
  if (done === 1) return { key: "tutorial.passtally.marker", part: ownSlots(game), intro: false };
  return scoring(game, notes);
}
