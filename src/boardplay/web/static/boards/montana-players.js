// Montana's player boards and the decision panel. A player board shows silver, settlement tiles
// left, cattle, canteens, workers (of the cap of 8) and goods, each an icon with its count; the
// player to decide is framed and marked in words. The decision panel says whose decision it is
// and what the stage asks, then offers the choices of the selected target (a worker space, a
// hex, the cattle) or of the stage (wild colours, workers to return, the right part, rewards),
// each as pieces and a sentence in words, and the moves that have no place on the map (going to
// the City, stop building, pass, end the turn).
import { h } from "../dom.js";
import { t, words, endWords } from "../text.js";
import { icon, goodIcon, workerIcon, counted, seatIcon, gainsRow, piecesRow, GOODS, WORKERS } from "./montana-pieces.js";
import { ENDING } from "./common.js";

// The deciding tie-break at the end of the game (ctx.ending.tiebreak, games/montana/ending.py):
// on each compared player's board, the pieces it counts, outlined, and their total in a framed
// badge ("cattle + canteen = 1"); the words under the status say what was compared.
const COUNTED = "outline: 2px dashed " + ENDING + "; outline-offset: 1px; border-radius: 4px;";
function tiebreakBadge(by, value) {
  const pieces = by === "cattle"
    ? [icon("mt-cattle", t("montana.piece.cattle")), icon("mt-canteen", t("montana.piece.canteen"))]
    : [icon("mt-silver", t("montana.piece.silver")), workerIcon("Cu", 20), goodIcon("c", 20)];
  const row = [];
  pieces.forEach((p, i) => row.push(...(i ? [h("span", {}, "+"), p] : [p])));
  return h("span", { class: "mt-stat ending-tiebreak", "data-by": by, style: `border: 3px solid ${ENDING}; border-radius: 6px; padding: 1px 6px; font-weight: bold;` },
    ...row, h("span", {}, `= ${value}`));
}

export function playerBoards(env) {
  const { position, colours, names, table } = env;
  const decider = position.stage?.decider ?? null;
  const trades = env.legal.filter((m) => m.struct.kind === "trade");
  const canteen = env.legal.find((m) => m.struct.kind === "canteen");
  // Steps that touch no place on the table (a trade, a canteen, ending the turn, stopping, passing)
  // ring the player's own board, so every last turn shows somewhere.
  const AT_HOME = ["trade", "canteen", "end", "stop", "pass"];
  const lastTrades = new Set(env.lastTurn.filter((st) => AT_HOME.includes(st.kind)).map((st) => st.seat));
  const tiebreak = env.ending?.tiebreak || null;
  return h("div", { class: "mt-players" }, (position.players || []).map((p) => {
    const deciding = p.seat === decider && !position.result;
    const compared = tiebreak?.values.find((v) => v.seat === p.seat) || null;
    const outline = (by) => (compared && tiebreak.by === by ? COUNTED : null);
    const workers = WORKERS.reduce((n, w) => n + (p.workers?.[w] || 0), 0);
    const cattle = h("span", { class: `mt-stat ${trades.length && deciding ? "mt-target" : ""} ${env.sel === "cattle" && deciding ? "mt-chosen" : ""}`, "data-cattle": p.seat, style: outline("cattle") },
      counted(icon("mt-cattle", t("montana.piece.cattle")), p.cattle));
    if (deciding && trades.length) env.marks.selectable(cattle, "cattle", trades, t("montana.selectCattle"));
    const canteens = h("span", { class: `mt-stat ${canteen && deciding ? "mt-target" : ""}`, "data-canteens": p.seat, style: outline("cattle") },
      counted(icon("mt-canteen", t("montana.piece.canteen")), p.canteens));
    if (deciding && canteen) env.offer(canteens, [canteen]);
    return h("section", { class: `mt-player ${deciding ? "mt-deciding" : ""} ${lastTrades.has(p.seat) ? "mt-last last-move" : ""}`, "data-player": p.seat, style: `--seat:${colours[p.seat]}` },
      h("h4", {}, seatIcon(p.seat, colours[p.seat], 20), h("span", {}, names[p.seat] || p.colour),
        deciding ? h("span", { class: "mt-badge" }, t("montana.deciding")) : null,
        position.result?.winners?.includes(p.seat) ? h("span", { class: "mt-badge mt-won" }, t("montana.won")) : null),
      compared ? h("div", { class: "mt-stats" }, tiebreakBadge(tiebreak.by, compared.value)) : null,
      h("div", { class: "mt-stats" },
        outlined(counted(icon("mt-silver", t("montana.piece.silver")), p.silver, false, "mt-stat"), outline("money")),
        h("span", { class: "mt-stat", title: t("montana.tilesLeft") }, icon("mt-house", t("montana.tilesLeft"), 20, { fill: colours[p.seat] }), h("span", {}, t("montana.left", { n: p.settlements_left }))),
        cattle, canteens),
      h("div", { class: "mt-stats", style: outline("money") }, WORKERS.map((w) => counted(workerIcon(w, 20), p.workers?.[w] || 0, false, "mt-stat")),
        h("span", { class: "mt-cap" }, t("montana.cap", { n: workers, cap: table.worker_cap }))),
      h("div", { class: "mt-stats", style: outline("money") }, GOODS.map((g) => counted(goodIcon(g, 20), p.goods?.[g] || 0, false, `mt-stat ${p.goods?.[g] ? "" : "mt-none"}`))));
  }));
}

function outlined(el, style) {
  if (style) el.setAttribute("style", style);
  return el;
}

// One choice of the decision panel: its pieces, what it gains and pays, and its words.
function choice(env, move, pieces) {
  const colour = env.colours[move.struct.seat] || "#888";
  const el = h("div", { class: "mt-choice" }, pieces, gainsRow(move.struct.gains, colour), h("span", { class: "mt-words" }, words(move)));
  env.offer(el, [move]);
  return el;
}

// What the decider is asked at this stage, in words.
function prompt(env) {
  const { position, names, table } = env;
  const stage = position.stage || {};
  const name = names[stage.decider] || "";
  if (position.result) {
    const winners = (position.result.winners || []).map((seat) => names[seat]).join(", ");
    // The position names how the game ended (§12.2); the engine's end codes name the words.
    const reason = endWords({ trigger: "final_round", max_turns: "turn_limit" }[position.result.reason]);
    // Which tie-break chose, when more than one player placed every settlement (§8).
    const tie = { cattle: "montana.decided.cattle", money: "montana.decided.money", shared: "montana.decided.shared" }[position.result.decided_by];
    if (winners && tie) return t("montana.prompt.overTie", { winners, reason, tiebreak: t(tie) });
    return winners ? t("montana.prompt.overWin", { winners, reason }) : t("montana.prompt.overDraw", { reason });
  }
  if (stage.decider === null || stage.decider === undefined) return t("montana.prompt.chance");
  const mine = env.interactive;
  const row = (position.contractors || [])[stage.decider] || "";
  const params = {
    name, n: stage.excess, spin: stage.spin, space: env.spaceWords(stage.production_space || ""), row: row[0] || "",
    built: stage.builds_paid, max: table.max_builds,
  };
  const ask = {
    MAIN: () => t("montana.prompt.main", params), PUSH: () => t("montana.prompt.push", params),
    WILD: () => t("montana.prompt.wild", params), SETUP_WILD: () => t("montana.prompt.wild", params),
    OVERFLOW: () => t("montana.prompt.overflow", params), RIGHT: () => t("montana.prompt.right", params),
    PLACE: () => t("montana.prompt.place", params), REWARD: () => t("montana.prompt.reward", params),
    BUILD_NEXT: () => t("montana.prompt.buildNext", params), END: () => t("montana.prompt.end", params),
  }[stage.name];
  if (!mine) return t("montana.prompt.waiting", params);
  return ask ? ask() : t("montana.prompt.other", params);
}

export function panel(env) {
  const { legal, sel } = env;
  const box = h("div", { class: "mt-panel", id: "mt-panel", "aria-live": "polite" });
  const decider = env.position.stage?.decider;
  const head = h("div", { class: "mt-prompt", id: "mt-prompt" });
  if (decider !== null && decider !== undefined && !env.position.result) head.append(seatIcon(decider, env.colours[decider], 18));
  head.append(h("span", {}, prompt(env)));
  box.append(head);
  const options = h("div", { class: "mt-options", id: "mt-options" });
  const kinds = (...k) => legal.filter((m) => k.includes(m.struct.kind));
  if (sel?.startsWith("space:")) {
    const space = sel.slice(6);
    options.append(h("div", { class: "mt-option-head" }, t("montana.sendWorkers", { space: env.spaceWords(space) })),
      ...kinds("work").filter((m) => m.struct.space === space).map((m) => choice(env, m, piecesRow(m.struct.workers, 22))));
  } else if (sel?.startsWith("hex:")) {
    const key = sel.slice(4);
    const hex = env.hexes.find((x) => `${x.hex[0]},${x.hex[1]}` === key);
    options.append(h("div", { class: "mt-option-head" }, t("montana.buildHere", { where: env.hexWords(hex) })),
      ...kinds("build").filter((m) => `${m.struct.hex[0]},${m.struct.hex[1]}` === key).map((m) => choice(env, m, null)));
  } else if (sel === "cattle") {
    options.append(h("div", { class: "mt-option-head" }, t("montana.tradeHead", { silver: env.table.trade_silver })),
      ...kinds("trade").map((m) => choice(env, m, null)));
  }
  // The stage's own choices, when nothing on the board stands for them.
  for (const m of kinds("wild", "return", "right")) options.append(choice(env, m, piecesRow(m.struct.workers, 22)));
  for (const m of kinds("reward")) {
    const pieces = m.struct.goods ? piecesRow(m.struct.goods, 22)
      : h("span", { class: "mt-pieces" }, ...Object.entries(m.struct.upgrades || {}).filter(([, n]) => n).map(([g, n]) => h("span", {}, counted(goodIcon(g, 18), n), icon("mt-arrow", null, 12), goodIcon(g.toUpperCase(), 20))));
    options.append(choice(env, m, pieces));
  }
  const buttons = h("div", { class: "mt-buttons" });
  // Going to the City is one of the main actions; its button stands here, in view beside the
  // other choices, while the City's rows are lower down on the page.
  for (const m of kinds("city")) {
    const go = h("div", { class: "mt-button mt-go-city", "data-kind": "city" }, goodIcon("p", 18), t("montana.goCity"));
    env.offer(go, [m]);
    buttons.append(go);
  }
  for (const m of kinds("stop", "pass", "end")) {
    const b = h("div", { class: "mt-button", "data-kind": m.struct.kind }, h("span", {}, words(m)), gainsRow(m.struct.gains, env.colours[m.struct.seat]));
    env.offer(b, [m]);
    buttons.append(b);
  }
  if (options.childElementCount) box.append(options);
  if (buttons.childElementCount) box.append(buttons);
  box.append(h("div", { class: "mt-preview muted", id: "mt-preview" }));
  box.append(h("div", { class: "mt-notices", "data-notices": "" })); // the page's notes (a forced move)
  return box;
}
