// Montana: the whole table, played by clicking it. The decision panel (what is asked, and the
// choices of the selected target), the landscape map, the player boards, the worker board, the
// recruitment wheel and the City, drawn as HTML with SVG pieces so every word stays legible on
// a phone (the parts stack) and on a desktop (side by side). Every target comes from a legal
// move's struct, never from its notation: `work` spaces, `build` hexes and the cattle are
// selected first (the panel then shows the choices with what each gains and pays); the wheel,
// its push segments, the store cells, the canteen and the panel's buttons play at once. Moving
// the pointer over (or focusing) a target writes its move in words under the panel first. The
// last turn is ringed everywhere it touched. The printed values come from the server hint
// `table`, the hexes from `landscape`, the rest from the position JSON (rules spec §12.2).
import { h, s } from "../dom.js";
import { t, words, seatName } from "../text.js";
import { targets, legalMoves, groupBy } from "./common.js";
import { legend, pieceName } from "./montana-pieces.js";
import { mapSvg, hexWords } from "./montana-map.js";
import { workerBoard, wheel, city, AREA_NAMES } from "./montana-works.js";
import { playerBoards, panel } from "./montana-players.js";
import { frame, hexPath, hexAt } from "./miniframe.js";
import { montanaTurn, montanaStep } from "./montana-tutorial.js";


// "c+c+g" → "2 small copper, 1 grain".
function costWords(cost) {
  const counts = {};
  for (const g of cost ? cost.split("+") : []) counts[g] = (counts[g] || 0) + 1;
  return Object.entries(counts).map(([g, n]) => `${n} ${pieceName(g)}`).join(", ");
}

// "M2" → "the Mine, space 2 (3 silver → 2 small copper)".
function spaceWords(table, name) {
  if (!name) return "";
  if (name[0] === "B") {
    const b = table.bank.find((x) => x.space === name);
    return t("montana.bankSpace", { n: name.slice(1), workers: b?.workers ?? "?", silver: b?.silver ?? "?" });
  }
  const a = table.areas.find((x) => x.spaces.some((sp) => sp.space === name));
  const sp = a?.spaces.find((x) => x.space === name);
  return t("montana.prodSpace", { area: AREA_NAMES[a?.area]?.() ?? "", n: name.slice(1), cost: sp?.cost ?? "?", yield: sp?.yield ?? "?", good: pieceName(a?.good || "") });
}

export function draw(position, ctx) {
  const table = ctx.hints?.table;
  const hexes = ctx.hints?.landscape;
  if (!table || !hexes || !position.landscape) return null; // before the board is dealt: text picture
  const marks = targets(ctx);
  const legal = legalMoves(ctx);
  const env = {
    position, table, hexes, marks, legal,
    interactive: !!ctx.interactive,
    sel: ctx.selected || null,
    colours: ctx.hints?.seat_colours || [],
    names: (ctx.hints?.seat_names || []).map(seatName), // in this language
    lastTurn: ctx.lastTurn || [],
    // The end of the game (ctx.ending, games/montana/ending.py): the settlements of the players
    // who placed every settlement, ringed on the map, and the deciding tie-break on their boards.
    ending: ctx.ending || null,
    byKey: (kind, keyOf) => groupBy(legal.filter((m) => m.struct.kind === kind), keyOf),
    costWords,
    spaceWords: (name) => spaceWords(table, name),
    hexWords: (hex) => (hex ? hexWords(hex, costWords) : ""),
    // A target that plays at once; pointing at it or focusing it says what it does first.
    offer(el, moves) {
      marks.target(el, moves);
      const say = () => { const p = el.closest(".montana-table")?.querySelector("#mt-preview"); if (p) p.textContent = t("montana.preview", { words: moves.map(words).join(" / ") }); };
      el.addEventListener("pointerenter", say);
      el.addEventListener("focus", say);
      return el;
    },
  };
  const root = h("div", { class: "montana-table", "data-stage": position.stage?.name || "" },
    panel(env),
    h("div", { class: "mt-top" }, mapSvg(env), h("div", { class: "mt-side" }, playerBoards(env), wheel(env))),
    workerBoard(env),
    city(env),
    legend());
  bringAsked(root, position, env.interactive);
  return { svg: root, drawn: marks.drawn };
}

// The part of the table a decision is made in, brought into view once when the decision comes
// if it is not in view below the sticky panel: the City, which lies below the map and the worker
// board, once the player has gone there (or is to bid in its auction); the wheel after a spin.
const ASKED = { PLACE: ".mt-city .mt-store", PUSH: "[data-wheel]" };
let brought = null;
function bringAsked(root, position, interactive) {
  const stage = position.stage || {};
  const part = interactive ? ASKED[stage.name] : null;
  const key = part ? `${position.turn?.number}:${stage.name}:${stage.decider}` : null;
  if (!key || key === brought) return;
  brought = key;
  requestAnimationFrame(() => {
    const el = root.querySelector(part);
    if (!el?.isConnected) return;
    const box = el.getBoundingClientRect();
    const top = root.querySelector("#mt-panel")?.getBoundingClientRect().bottom ?? 0;
    if (box.top >= Math.max(top, 0) && box.bottom <= innerHeight) return;
    el.scrollIntoView({ block: box.height < innerHeight - top ? "end" : "start" });
  });
}

// ----- what the lobby and the walk-through read from the board module ---------------------------
// The lobby card: the game's typical length and its place among the cards (easiest to learn
// first); the card's words are in EN below, under about.montana.*.
export const about = { minutes: [45, 90], order: 4 };

// The first-game walk-through (pages/tutorial.js): the stage-driven walk of montana-tutorial.js.
export const tutorial = { byStage: true, turn: montanaTurn, step: montanaStep };

// Montana: a patch of the landscape with settlements, and a worker and coins at the side.
export function miniature() {
  const kinds = ["#9bc36b", "#c9b27a", "#9bc36b", "#7fb0d8", "#9bc36b", "#c9b27a", "#9bc36b"];
  const cells = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
  const out = [];
  cells.forEach(([q, r], i) => {
    const [x, y] = hexAt(q, r, 12, 50, 40);
    out.push(s("path", { d: hexPath(x, y, 11.5), fill: kinds[i], stroke: "#5b5141", "stroke-width": 0.9 }));
  });
  const house = (q, r, colour) => {
    const [x, y] = hexAt(q, r, 12, 50, 40);
    return s("path", { d: `M${x - 4},${y + 4}V${y - 1}L${x},${y - 5}L${x + 4},${y - 1}V${y + 4}Z`, fill: colour, stroke: "#111", "stroke-width": 0.8 });
  };
  out.push(house(0, 0, "#2f6fd6"), house(1, -1, "#e0b020"), house(-1, 1, "#2f6fd6"), house(0, 1, "#d33c3c"));
  out.push(s("circle", { cx: 96, cy: 26, r: 5, fill: "#3a9a4a", stroke: "#111", "stroke-width": 0.8 }),
    s("rect", { x: 91, y: 31, width: 10, height: 9, rx: 3, fill: "#3a9a4a", stroke: "#111", "stroke-width": 0.8 }));
  for (let i = 0; i < 3; i++) out.push(s("circle", { cx: 91 + i * 5, cy: 55, r: 4, fill: "#c8ccd2", stroke: "#6b7078", "stroke-width": 0.8 }));
  return frame(...out);
}

// ----- the game's words ------------------------------------------------------------------------
// Its words in English, by key: its title (title.montana), its board (montana.*), its lobby card
// (about.montana.*), its options and their tooltips (option.montana.*, tip.montana.*) and its
// walk-through (tutorial.montana.*). boards/load.js adds them to the page's words when it loads
// this module; `make i18n` extracts them into the `web` catalogue, each key its msgctxt.
export const EN = {
  "title.montana": "Montana",
  "montana.label": "Montana board",
  "montana.legend": "What the pictures mean",
  "montana.piece.c": "small copper",
  "montana.piece.C": "large copper",
  "montana.piece.s": "small stone",
  "montana.piece.S": "large stone",
  "montana.piece.g": "grain",
  "montana.piece.p": "pumpkin",
  "montana.piece.Cu": "copper worker",
  "montana.piece.St": "stone worker",
  "montana.piece.Gr": "grain worker",
  "montana.piece.Pu": "pumpkin worker",
  "montana.piece.W": "wild worker (any colour you choose)",
  "montana.piece.any": "workers of any colour",
  "montana.piece.silver": "silver",
  "montana.piece.cattle": "cattle",
  "montana.piece.canteen": "canteen (an extra turn)",
  "montana.piece.settlement": "settlement",
  "montana.piece.double": "double settlement hex (a free second tile)",
  "montana.piece.start": "start tile: build next to it or to your own settlements",
  "montana.piece.contractor": "contractor (General Store)",
  "montana.map": "Landscape",
  "montana.mapPan": "The landscape is wider than the screen: swipe it sideways to see all of it.",
  "montana.hex.mountain": "mountain",
  "montana.hex.lake": "lake",
  "montana.hex.cost": "costs {cost}",
  "montana.hex.double": "double settlement",
  "montana.hex.cattle": "cattle",
  "montana.selectHex": "build here? {where}",
  "montana.workerBoard": "Worker board",
  "montana.area.bank": "Bank",
  "montana.area.mine": "Mine",
  "montana.area.quarry": "Quarry",
  "montana.area.grainField": "Grain field",
  "montana.area.farm": "Farm",
  "montana.anyWorkers": "{n} workers of any colour",
  "montana.needs": "1, or any 2",
  "montana.rightPart": "right part: the same workers again for one more good",
  "montana.selectSpace": "send workers to {space}",
  "montana.bankSpace": "the Bank, space {n} ({workers} workers → {silver} silver)",
  "montana.prodSpace": "the {area}, space {n} ({cost} silver → {yield} {good})",
  "montana.wheel": "Recruitment wheel",
  "montana.wheelRecruit": "Click the wheel to recruit: it spins and you take the 2 workers where it stops.",
  "montana.wheelNote": "Recruiting spins the wheel; grain pushes the arrow on, 1 a segment.",
  "montana.grainCost": "{n} grain",
  "montana.city": "City: General Store",
  "montana.cityNote": "Each row's reward goes to the contractor standing in it, who pays the column's pumpkins. A later contractor may only stand to the right of one already in the row, and pushes it out.",
  "montana.goCity": "Go to the City: take 1 pumpkin, then place your contractor",
  "montana.rewardHead": "Reward",
  "montana.reward.cattle": "{n} cattle",
  "montana.reward.silver": "{n} silver",
  "montana.reward.upgrades": "upgrades, small to large: up to {n}",
  "montana.reward.picks": "{n} picks of copper, stone or grain",
  "montana.contractorOf": "{name}'s contractor",
  "montana.home": "At home:",
  "montana.selectCattle": "trade a cattle",
  "montana.deciding": "to decide",
  "montana.won": "winner",
  "montana.tilesLeft": "settlement tiles left",
  "montana.left": "{n} left",
  "montana.cap": "{n}/{cap} workers",
  "montana.prompt.overWin": "The game is over: {winners} won ({reason}).",
  "montana.prompt.overDraw": "The game is over: nobody won ({reason}).",
  "montana.prompt.overTie": "The game is over: {winners} won ({reason}); {tiebreak}.",
  "montana.decided.cattle": "more than one player placed every settlement, and the tie went to the most cattle and unused canteens",
  "montana.decided.money": "more than one player placed every settlement and tied on cattle and canteens, so silver, workers and goods decided",
  "montana.decided.shared": "they tied on cattle and canteens and on silver, workers and goods, so they share the win",
  "montana.prompt.chance": "The wheel or the dealer decides…",
  "montana.prompt.main": "{name}: choose one action: a worker space, the wheel (recruit), the City, or a ringed hex to build on. Clicking your cattle trades one first.",
  "montana.prompt.push": "{name}: the wheel stopped on segment {spin}. Keep it, or pay grain to push the arrow on (the ringed segments).",
  "montana.prompt.wild": "{name}: choose a colour for each wild worker.",
  "montana.prompt.overflow": "{name}: at most 8 workers: choose {n} to give back.",
  "montana.prompt.right": "{name}: also fill the right part of {space} for one more good, or leave it empty.",
  "montana.prompt.place": "{name}: place your contractor in a ringed store cell (you must hold the column's pumpkins), or pass.",
  "montana.prompt.reward": "{name}: take the reward of row {row}.",
  "montana.prompt.buildNext": "{name}: built {built} of {max} this turn. Build on another ringed hex, or stop (1 silver for each build not made).",
  "montana.prompt.end": "{name}: end the turn, or use a canteen for an extra turn; cattle can still be traded.",
  "montana.prompt.other": "{name} decides.",
  "montana.prompt.waiting": "Waiting for {name} to decide.",
  "montana.sendWorkers": "Which workers go to {space}?",
  "montana.buildHere": "Build here: {where}",
  "montana.tradeHead": "Trade 1 cattle for a good, {silver} silver or a worker:",
  "montana.preview": "This would: {words}",
  "about.montana.line": "Recruit workers, produce goods, bid in the City and build your settlements across the landscape.",
  "option.montana.players": "Players",
  "option.montana.recruit_grain": "Paying grain on the wheel",
  "option.montana.recruit_grain.replace": "replaces the workers of the spin (Japanese overview)",
  "option.montana.recruit_grain.additional": "adds 2 more workers (published rules)",
  "option.montana.build_adjacent_any": "Build next to anyone's settlement, not only your own",
  "option.montana.canteen_after_final": "The last player may still use canteens after the final turn",
  "option.montana.board_seed": "Landscape number (random: a new landscape)",
  "option.montana.start_player": "Who starts (random, or a seat number from 0)",
  "option.montana.max_turns": "Turn limit (then the game is scored)",
  "option.montana.tiebreak_money": "The second tie-break counts money as",
  "option.montana.tiebreak_money.silver": "silver value",
  "option.montana.tiebreak_money.coins": "fewest coins",
  "option.montana.data": "Component values",
  "tutorial.montana.setup": "Before the first turn everyone spins the recruitment wheel twice and takes the workers it shows. A white symbol is a worker of any colour you like: choose its colour in the panel above the table.",
  "tutorial.montana.board": "This is your board: your silver, the settlement tiles you still have to place, your cattle and canteens, your workers (at most 8) and your goods. The first player to place all their settlement tiles on the landscape ends the game.",
  "tutorial.montana.workers": "Your workers go to the worker board. A space of the Mine, Quarry, Grain field or Farm takes 1 worker of its colour or any 2: you pay the silver on its left and take the goods shown there, and its small right part gives 1 more good for the same workers again. The Bank pays silver for workers. A space stays taken until every space of its area is full.",
  "tutorial.montana.build": "Settlements are built on the landscape: on a free hex next to the start tile or to one of your settlements, paying exactly the goods printed on it. One build action places up to 3, and each one you do not build pays 1 silver. Some hexes also give a cattle or a canteen.",
  "tutorial.montana.choose": "Each turn is one action: click the wheel to recruit 2 workers, a worker space to send workers there, the City for a pumpkin and a bid for a reward, or a ringed hex to build. The glowing places are what you can do now.",
  "tutorial.montana.push": "The arrow shows the 2 workers you get. Keep them, or pay grain to push the arrow on to a ringed segment, 1 grain a segment.",
  "tutorial.montana.wild": "A white symbol is a worker of any colour: choose its colour in the panel.",
  "tutorial.montana.overflow": "You may hold at most 8 workers: choose in the panel which to give back.",
  "tutorial.montana.right": "The small right part of the same space gives 1 more good for 1 more worker of its colour (or any 2). Choose the workers in the panel, or leave it empty.",
  "tutorial.montana.place": "Put your contractor in a store cell: the column says how many pumpkins it costs, the row's reward is written on the right. The other players may then take the same row further right and push you out.",
  "tutorial.montana.reward": "The row your contractor stands in pays its reward now: choose it in the panel.",
  "tutorial.montana.buildNext": "Built! Build again on a ringed hex (up to 3 this turn), or stop and take 1 silver for each build not made.",
  "tutorial.montana.end": "How a turn ends: you may still trade a cattle (click the cattle on your board) for a good, 3 silver or a worker, or use a canteen for an extra turn. Then click the button in the panel that ends your turn. A worker area whose spaces are all full is cleared at the end of a turn.",
  "tip.montana.players": "Number of players.",
  "tip.montana.recruit_grain": "Grain paid on the wheel either replaces the workers of the spin (the Japanese overview) or adds 2 more (the published rules).",
  "tip.montana.build_adjacent_any": "Settlements may be built next to any player's settlement, not only next to your own or the start tile.",
  "tip.montana.canteen_after_final": "The last player of the final round may still use canteens.",
  "tip.montana.board_seed": "The number of the landscape to lay out (0 to 4095 give different landscapes); random: a new one every game.",
  "tip.montana.start_player": "Who starts: random, or a seat number counted from 0.",
  "tip.montana.max_turns": "A guard of the engine: after this many turns the game ends and is scored as if it had been triggered.",
  "tip.montana.tiebreak_money": "The second tie-break counts money either as its silver value or as the fewest coins.",
  "tip.montana.data": "The component values: default is the data shipped with the game (with reconstructed values).",
  "theme.montana.last_settlement": "The last settlement",
  "theme.montana.cattle_trade": "Cattle trade",
  "theme.montana.canteen": "Canteen",
  "theme.montana.city": "The City",
};
