// Montana's walk-through: what to say and which part of the real table to point at. A Montana
// turn is one main action followed by a varying number of decisions (the right part of a space,
// the push of the wheel, the auction, more builds, the end of the turn), so the walk follows the
// stage the position is in (rules spec §10.3) rather than counting moves as the other games do.
// The first decision of the player's first turn is explained over a few pages, each pointing at
// one part of the table: the player's own board, the worker board, the landscape, and then the
// action to choose.

// `part` is a selector inside the board (a function of the player's seat where it depends on
// it); null points at nothing but the glowing targets.
const own = (seat) => `.mt-player[data-player='${seat}']`;

export const INTRO = [
  { key: "tutorial.montana.board", part: own },
  { key: "tutorial.montana.workers", part: () => ".mt-workers" },
  { key: "tutorial.montana.build", part: () => ".mt-map" },
  { key: "tutorial.montana.choose", part: () => null },
];

const STAGES = {
  SETUP_WILD: { key: "tutorial.montana.setup", part: () => "[data-wheel]" },
  PUSH: { key: "tutorial.montana.push", part: () => "[data-wheel]" },
  WILD: { key: "tutorial.montana.wild", part: () => "#mt-options" },
  OVERFLOW: { key: "tutorial.montana.overflow", part: () => "#mt-options" },
  RIGHT: { key: "tutorial.montana.right", part: () => ".mt-right-open" },
  PLACE: { key: "tutorial.montana.place", part: () => ".mt-city" },
  REWARD: { key: "tutorial.montana.reward", part: () => "#mt-options" },
  BUILD_NEXT: { key: "tutorial.montana.buildNext", part: () => ".mt-map" },
  END: { key: "tutorial.montana.end", part: own },
};

// The turn being walked through: the number of the player's first turn (rules spec §12.2
// `turn`), once it has begun, and whether it is over.
export function montanaTurn(game, walked) {
  const turn = game.position?.turn || {};
  const mine = game.your_seats || [];
  if (walked === null) {
    const begun = turn.active !== null && turn.active !== undefined && mine.includes(turn.active) && game.your_turn;
    return { walked: begun ? turn.number : null, over: false };
  }
  return { walked, over: turn.number !== walked || !!game.terminal };
}

// The step for this view: the intro's `page` while the first main action is still to choose
// (`acted`: the player has made a move in this turn, e.g. traded a cattle), else the stage's
// own step; `intro` says whether "Next" leads on to another page.
export function montanaStep(game, walked, acted, page) {
  const stage = game.position?.stage?.name;
  const seat = game.position?.stage?.decider;
  if (walked !== null && stage === "MAIN" && !acted) {
    const at = Math.min(page, INTRO.length - 1);
    return { key: INTRO[at].key, part: INTRO[at].part(seat), intro: at < INTRO.length - 1 };
  }
  if (stage === "MAIN") return { key: INTRO[INTRO.length - 1].key, part: null, intro: false };
  const step = STAGES[stage];
  if (!step) return { key: "tutorial.generic.1", part: null, intro: false };
  return { key: step.key, part: step.part(seat), intro: false };
}
