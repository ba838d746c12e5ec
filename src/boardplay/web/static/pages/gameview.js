// The game page's views: each draws one part of the page from the game view and the page's own
// state (`look`: what the player selected, looks back at, was hinted), and changes nothing but
// the DOM it is given. The controller (gameplay.js) owns that state and the client; the page
// (game.js) calls these from the `render` and `renderLive` it gives the controller.
import { h, clear } from "../dom.js";
import { showError } from "../api.js";
import { t, words, say, seatName, gameTitle } from "../text.js";
import { gameResult, seatPeople } from "../results.js";
import { seatList, moveList, lastTurn, lastTurnMoves, endingOf, drawBoard } from "./parts.js";
import { showHint, markHint } from "./hint.js";
import { playMotion } from "../boards/motion.js";

// "step 2" once the mover has already acted this turn. Setup placements (Passtally) and other
// decisions without a turn of their own carry `struct.kind === "setup"` and do not count.
function stepLabel(game) {
  let done = 0;
  for (let i = game.moves.length - 1; i >= 0 && game.moves[i].player === game.current_player; i--) {
    if (game.moves[i].struct?.kind === "setup") break;
    done++;
  }
  return done ? t("game.step", { n: done + 1 }) : "";
}

// The status line: whose move it is, or the result in the reader's words ("You won on time ·
// +12"; `changes`: the rating change per seat once a rated game is settled).
export function statusLine(game, changes = null) {
  if (game.broken) return game.broken;
  if (game.terminal) return t("game.over", { result: gameResult(game, changes) });
  if (game.thinking !== null && game.thinking !== undefined) return t("game.thinking", { name: seatName(game.seats[game.thinking].name) });
  if (game.your_turn) return t("game.yourMove", { name: seatName(game.current_name) }) + stepLabel(game);
  return t("game.toMove", { name: seatName(game.current_name) });
}

// The page's fixed parts, empty; `extra` holds what the controller made (buttons, panels).
export function layout(main, extra) {
  const parts = {
    title: h("h2", { id: "game-title" }),
    status: h("div", { class: "status", id: "status", "aria-live": "polite" }),
    lastLine: h("div", { class: "last-move muted", id: "last-move", "aria-live": "polite" }),
    lookBar: h("div", { class: "look-back", id: "look-back", hidden: true }),
    board: h("div", { class: "board-wrap", id: "board" }),
    legalBox: h("div", { class: "legal-list", id: "legal-list" }),
    seatsBox: h("div", { id: "seats" }),
    movesBox: h("div", { id: "moves" }),
    inviteBox: h("div", { id: "invites" }),
    hintBox: h("div", { class: "hint", id: "hint", "aria-live": "polite", hidden: true }),
    reviewBox: h("div", { id: "review-box" }),
    text: h("pre", { class: "text", id: "text" }),
  };
  const { title, status, lastLine, lookBar, board, legalBox, seatsBox, movesBox, inviteBox, hintBox, reviewBox } = parts;
  const textBox = h("details", {}, h("summary", {}, t("game.textPicture")), parts.text);
  main.append(h("div", { class: "columns" },
    h("div", {}, h("div", { class: "panel" }, title, status, extra.clocks, extra.claim, extra.notice, lastLine, lookBar, extra.card, hintBox, board, legalBox)),
    h("div", {}, reviewBox, h("div", { class: "panel" }, seatsBox, extra.controls, extra.tools, extra.toggle, inviteBox),
      h("div", { class: "panel" }, h("h3", {}, t("game.moves")), movesBox), h("div", { class: "panel" }, textBox))));
  return parts;
}

// The title (with the notation, private and reproducible marks), the status and the last turn;
// `note` ({text, title} from results.js's gameRatingNote) says why a settled rated result
// moved a rating less than a whole game, or not at all.
export function showHeader(parts, game, changes = null, note = null) {
  const { title, status, lastLine } = parts;
  title.textContent = `${gameTitle(game.game, game.title)} `;
  title.append(h("span", { class: "muted notation", translate: "no" }, game.game_string || "")); // for experts
  if (game.private) title.append(" ", h("span", { class: "private", id: "private", title: t("table.privateTitle") }, t("table.private")));
  if (game.reproducible) title.append(" ", h("span", { class: "reproducible", id: "reproducible", title: t("game.reproducibleTitle") }, t("game.reproducible", { seed: game.seed })));
  const line = statusLine(game, changes);
  // Where and why the rules ended the game (not a resignation, a flag or an agreement), on a
  // line of its own under the result.
  const people = seatPeople(game.seats, game.hints?.seat_names);
  const why = game.terminal && !game.result?.ended ? say(endingOf(game.moves)?.say, "", people) : "";
  const rated = game.terminal && note ? note.text : "";
  const shown = [line, why, rated, game.ai_error || ""].join("\n");
  if (status.dataset.said !== shown) {
    status.textContent = line;
    if (why) status.append(h("div", { class: "ending-words", id: "ending-words" }, why));
    if (rated) status.append(h("div", { class: "rating-note muted small", id: "rating-note" }, rated));
    if (game.ai_error) status.append(h("div", { class: "muted" }, game.ai_error));
    status.dataset.said = shown;
  }
  status.className = `status ${game.thinking !== null && game.thinking !== undefined ? "thinking" : ""}`;
  // The whole last turn in words (two or three steps, and the chance outcomes between them).
  // Both lines are live regions: set only when they change, so a screen reader announces each
  // new turn once (the opponent's moves, the AI thinking, whose move it is) and not every redraw.
  const turn = lastTurnMoves(game.moves).map((m) => words(m, people)).filter(Boolean);
  const said = turn.length ? t("game.lastMove", { words: turn.join(" ") }) : "";
  if (lastLine.textContent !== said) lastLine.textContent = said;
}

// The seats, with who has the game open now and how many watch (and, once a rated game is
// settled, each player's rating change).
export function showSeats(parts, game, presence, changes = null) {
  clear(parts.seatsBox).append(seatList(game, game.terminal ? null : game.current_player, game.terminal ? game.result?.winners || [] : [], presence, changes));
  if (presence?.spectators) parts.seatsBox.append(h("p", { class: "muted watching", id: "watching" }, t("presence.watching", { n: presence.spectators })));
}

// The seats and the list of moves (a click on a move looks back to it).
export function showSeatsAndMoves(parts, game, look, lookBack, presence, changes = null) {
  showSeats(parts, game, presence, changes);
  moveList(parts.movesBox, game.moves, game.seats, look.at ?? game.moves.length, lookBack, seatPeople(game.seats, game.hints?.seat_names));
  showHint(parts.hintBox, look.at === null ? look.hint : null);
  parts.text.textContent = game.text || "";
}

// The live board, its legal moves as targets when it is the viewer's turn, and the moves it
// does not draw as buttons under it.
export async function drawLive(parts, game, look, play) {
  const { board, legalBox } = parts;
  const interactive = !!game.your_turn && look.at === null;
  const ctx = {
    legal: interactive ? game.legal : [], interactive, hints: game.hints, options: game.options,
    selected: look.selected, view: look.view, narrow: board.clientWidth < 560, coarse: matchMedia("(pointer: coarse)").matches, currentPlayer: game.current_player,
    // While a hint is shown, the board marks the hinted move where it marks the last turn.
    lastTurn: look.hint?.struct ? [look.hint.struct] : lastTurn(game.moves),
    ending: game.terminal && !game.result?.ended ? endingOf(game.moves)?.mark || null : null,
  };
  const shown = board.dataset.ply; // the position drawn before (markReady); none at first
  const undrawn = await drawBoard(board, game.hints?.renderer, game.position, game.text, ctx);
  // A new position has just arrived (not the page's first drawing, a redraw for a selection or an
  // undo): the board plays what its last turn moved (boards/motion.js).
  if (shown !== undefined && game.ply > Number(shown) && !look.hint) playMotion(board);
  board.dataset.selected = look.selected || "";
  clear(legalBox);
  if (interactive && undrawn.length) {
    legalBox.append(h("div", { class: "muted" }, t("game.otherMoves")),
      ...undrawn.map((l) => h("button", { "data-move": l.id, onclick: () => play(l.id) }, words(l) || l.move)));
  }
  if (interactive) markHint(board, legalBox, look.hint);
}

// An earlier position (a replay frame), with the move it was looked back for marked.
export async function drawPast(parts, game, look, frame) {
  const { board } = parts;
  const ctx = { legal: [], interactive: false, hints: game.hints, options: game.options, narrow: board.clientWidth < 560, lastTurn: look.mark ? [look.mark] : lastTurn(game.moves, look.at) };
  await drawBoard(board, game.hints?.renderer, frame.position, frame.text, ctx);
  clear(parts.legalBox);
}

// The bar over a board that shows an earlier position, with the way back to the live game.
export function showLookBar(parts, game, look, backToNow) {
  const { lookBar } = parts;
  clear(lookBar);
  lookBar.hidden = look.at === null;
  if (look.at !== null) {
    // A review names a move by its number and shows the position it was played in.
    const said = look.before ? t("game.lookBefore", { n: look.at + 1, total: game.moves.length }) : t("game.lookBack", { n: look.at, total: game.moves.length });
    lookBar.append(said, look.mark ? h("span", { class: "muted" }, ` — ${t("review.marked")}`) : "", " ",
      h("button", { id: "back-to-now", onclick: backToNow }, t("game.backToNow")));
  }
}

// The marks tests and scripts wait on: set last, once the board is ready.
export function markReady(parts, game) {
  parts.board.dataset.ply = game.ply;
  const { status } = parts;
  status.dataset.ply = game.ply;
  status.dataset.terminal = game.terminal ? "1" : "0";
  status.dataset.yourTurn = game.your_turn ? "1" : "0";
}

// The invitation links of seats nobody has taken yet, each with a Copy button.
export function showInvites(inviteBox, game, invites) {
  clear(inviteBox);
  for (const [seat, code] of Object.entries(invites)) {
    const s = game.seats[Number(seat)];
    if (!s || s.claimed) continue;
    const url = `${location.origin}/#/join/${game.id}/${code}`;
    const copy = h("button", { class: "copy", "aria-label": t("game.copyLabel", { n: Number(seat) + 1 }), onclick: async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = t("game.copied"); } catch (e) { showError(e.message); }
    } }, t("game.copy"));
    inviteBox.append(h("p", {}, t("game.invite", { n: Number(seat) + 1 }), h("span", { class: "invite", "data-seat": seat, translate: "no" }, url), " ", copy));
  }
}
