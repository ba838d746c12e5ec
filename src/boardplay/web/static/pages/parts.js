// Pieces shared by the game and replay pages: the seat list, the move list in words, the board
// drawing (a board module's pure draw, or the text picture) and the chooser shown when one
// board target stands for several moves.
import { h, clear } from "../dom.js";
import { t, words, seatName, term } from "../text.js";
import { seatSwatch } from "../boards/common.js";
import { boardModule } from "../boards/load.js";
import { showNotation, rememberShowNotation } from "../store.js";
import { ratingChange } from "../results.js";
import { botTag } from "./player.js";

// The seats with their colours, scores and who is to move; `winners` get a mark in words. A
// seat reads "Blue · AI (easy)": the game's name for the seat (what moves and results say)
// and who sits there, so the two never disagree. `changes`: a settled rated game's rating change
// per seat ("+12"), shown beside each player.
export function seatList(game, highlight, winners = [], presence = null, changes = null) {
  const seatNames = game.hints?.seat_names || [];
  // Dots only where several people share the table (not against the AI, not one screen).
  const people = game.seats.filter((seat) => seat.kind !== "ai" && seat.kind !== "hotseat").length;
  return h("ul", { class: "seats" }, game.seats.map((seat) => {
    const score = game.scores ? ` — ${game.scores[seat.seat]}` : "";
    const you = game.your_seats?.includes(seat.seat) ? t("seatlist.you") : "";
    const ai = seat.kind === "ai" && !String(seat.name).includes(seat.spec) ? t("seatlist.ai", { spec: term("level", seat.spec) }) : "";
    const kind = seat.kind === "hotseat" ? t("seatlist.hotseat") : seat.kind !== "ai" && !seat.claimed ? t("seatlist.waiting") : ai;
    const colourName = seatNames[seat.seat];
    const colour = colourName && colourName !== seat.name ? `${seatName(colourName)} · ` : "";
    // A signed-in player's name leads to their profile.
    const name = seat.player ? [h("a", { href: `#/player/${encodeURIComponent(seat.name)}`, class: "player-link" }, seat.name), botTag(seat.bot)] : seatName(seat.name);
    const won = winners.includes(seat.seat);
    const cls = [seat.seat === highlight ? "current" : "", game.thinking === seat.seat ? "thinking" : "", won ? "winner" : ""].join(" ");
    // A dot for a person's seat: filled while their page is open, hollow while it is not.
    const here = presence && people > 1 && seat.kind !== "ai" && seat.claimed ? presence.seats.includes(seat.seat) : null;
    const dot = here === null ? "" : h("span", { class: `presence ${here ? "on" : "off"}`, role: "img", "aria-label": t(here ? "presence.here" : "presence.away"), title: t(here ? "presence.here" : "presence.away") });
    const change = changes?.[seat.seat];
    const moved = change === undefined || change === null ? ""
      : h("span", { class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`, title: t("result.ratingTitle") }, ratingChange(change));
    return h("li", { class: cls, "data-seat": seat.seat, "data-here": here === null ? null : String(here) },
      seatSwatch(game.hints, seat.seat),
      colour, name, dot, `${you}${kind}${score}`,
      won ? h("span", { class: "badge" }, `★ ${t("game.winner")}`) : "", moved ? " " : "", moved);
  }));
}

// The moves in words, numbered from 1, the move shown (`current`, a count of moves) marked and
// scrolled into view; clicking a move calls pick(number of moves to show). `people`: the players
// behind the seat names the words use (results.js, seatPeople).
export function moveList(box, moves, seats, current, pick, people = {}) {
  const list = h("ol", { class: "moves" });
  moves.forEach((m, i) => {
    const who = m.player < 0 ? t("game.chance") : seatName(seats[m.player]?.name || `#${m.player}`);
    const item = h("li", { class: `${m.player < 0 ? "chance" : ""} ${i === current - 1 ? "current" : ""}`, "data-ply": i },
      h("span", { class: "number" }, `${i + 1}.`), " ",
      h("span", { class: "words" }, words(m, people) || m.move), " ",
      m.words ? h("span", { class: "muted notation", translate: "no" }, m.move) : "", " ",
      m.words ? "" : h("span", { class: "muted" }, who));
    if (pick) {
      item.tabIndex = 0;
      item.classList.add("pickable");
      item.addEventListener("click", () => pick(i + 1));
      item.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(i + 1); } });
    }
    list.append(item);
  });
  clear(box).append(list);
  const shown = list.querySelector("li.current");
  if (shown) list.scrollTop = Math.max(0, shown.offsetTop - list.clientHeight / 2);
  else list.scrollTop = list.scrollHeight;
}

// The moves of the last turn up to move `upto`: every step of the player who moved last (and
// the chance outcomes in between), so a two- or three-action turn shows whole.
export function lastTurnMoves(moves, upto = moves.length) {
  const out = [];
  let mover = null;
  for (let i = upto - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.player >= 0) {
      if (mover === null) mover = m.player;
      else if (m.player !== mover) break;
    }
    out.unshift(m);
  }
  // A reveal that closed the turn before belongs to that turn, not to this one.
  while (out.length && out[0].player < 0 && out.some((m) => m.player >= 0)) out.shift();
  return out;
}

// The setting that shows the engine's notation beside the words (store.js showNotation): its
// checkbox sets the page's `show-notation` class, which the stylesheet reads.
export function notationToggle() {
  const box = h("input", { type: "checkbox", id: "show-notation", checked: showNotation() });
  box.addEventListener("change", () => {
    rememberShowNotation(box.checked);
    document.body.classList.toggle("show-notation", box.checked);
  });
  return h("label", { class: "notation-toggle", title: t("notation.settingTitle") }, box, t("notation.setting"));
}

// Their structs, which the boards highlight.
export const lastTurn = (moves, upto = moves.length) => lastTurnMoves(moves, upto).map((m) => m.struct).filter(Boolean);

// How the game ended by its rules, if the position after `upto` moves is its end: the last move's
// `struct.ends`, with `mark` (what the board draws: the stuck pawn, the goal's line, the lines
// that scored) and `say` (where and why, in phrases) where the game explains its endings.
export const endingOf = (moves, upto = moves.length) => moves[upto - 1]?.struct?.ends || null;

// Draws the board into `box` (the text picture when no board module exists or it fails) and
// returns the legal moves the board did not draw, for the page to offer otherwise.
export async function drawBoard(box, renderer, position, textPicture, ctx) {
  clear(box);
  const mod = await boardModule(renderer);
  let drawn = null;
  if (mod && position) {
    try { drawn = mod.draw(position, ctx); } catch (e) { console.error(e); drawn = null; }
  }
  if (drawn?.svg) box.append(drawn.svg);
  else box.append(h("pre", { class: "text" }, textPicture || JSON.stringify(position, null, 1)));
  const done = drawn?.drawn || new Set();
  return ctx.legal.filter((l) => !done.has(l.id));
}

// A small menu at the click for a target that stands for several moves, each in words.
export function chooser(box, event, ids, legal, play) {
  box.querySelector(".chooser")?.remove();
  const rect = box.getBoundingClientRect();
  const left = Math.min(event.clientX - rect.left, rect.width - 220);
  const menu = h("div", { class: "chooser", style: `left:${Math.max(0, left)}px;top:${event.clientY - rect.top}px` },
    ids.map((id) => {
      const l = legal.find((x) => x.id === id);
      return h("button", { "data-move": id, onclick: (e) => { e.stopPropagation(); menu.remove(); play(id); } }, words(l) || l?.move || String(id));
    }),
    h("button", { onclick: (e) => { e.stopPropagation(); menu.remove(); } }, t("game.cancel")));
  box.append(menu);
  menu.querySelector("button")?.focus();
}
