// Race to ten, the toy fifth game (tests/core/fifth): a track of cells from 1 to the target, the
// cells counted so far filled; a legal move is made by clicking the cell it brings the count to.
// The module carries its own words (EN), which the page adds when it loads the module.
import { s } from "../dom.js";
import { svgRoot, targets, legalMoves, text, ENDING } from "./common.js";
import { t, seatName } from "../text.js";
import { frame } from "./miniframe.js";

const CELL = 30;

export const EN = {
  "title.race": "Race to ten",
  "about.race.line": "Add one or two to a shared count; whoever reaches ten wins.",
  "tutorial.race.1": "Click a glowing cell to add one or two to the count. Leave your opponent a multiple of three and you win.",
  "race.label": "Race to ten; {name} to move",
};

export function draw(position, ctx) {
  const target = ctx.options?.target ?? 10;
  const marks = targets(ctx);
  const byCell = new Map(legalMoves(ctx).map((m) => [m.struct.to, m]));
  const cells = [];
  for (let n = 1; n <= target; n++) {
    const rect = s("rect", { x: (n - 1) * CELL, y: 0, width: CELL - 2, height: CELL - 2, rx: 4,
      fill: n <= position.count ? "#d9c9a8" : "#f7f1e3", stroke: ctx.ending?.cell === n ? ENDING : "#8a7a62" });
    const move = byCell.get(n);
    cells.push(move ? marks.target(rect, [move], `+${n - position.count}`) : rect, text((n - 0.5) * CELL - 1, CELL / 2 - 1, String(n), { "font-size": 11 }));
  }
  const label = t("race.label", { name: seatName(ctx.names?.[position.to_move] || "") });
  return { svg: svgRoot(-4, -4, target * CELL + 8, CELL + 8, label, ...cells), drawn: marks.drawn };
}

// The lobby card: a short game, shown after the four.
export const about = { minutes: [1, 2], order: 5 };

// The first-game walk-through: one text for the first move.
export const tutorial = { steps: 1 };

export function miniature() {
  return frame(...Array.from({ length: 10 }, (_, i) => s("rect", { x: 10 + i * 10, y: 35, width: 9, height: 9, fill: i < 4 ? "#d9c9a8" : "#f7f1e3", stroke: "#8a7a62" })));
}
