// The game page: a view over a GameClient. It draws the board with the legal moves as targets,
// the last turn highlighted, the moves in words (click one to look back), the seats and the
// status; it acts only through the client.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { GameClient } from "../live.js";
import { tokenFor, invitesFor, tutorialSeen } from "../store.js";
import { t, words, seatName, gameTitle, resultWords } from "../text.js";
import { seatList, moveList, lastTurn, lastTurnMoves, drawBoard, chooser, boardModule } from "./parts.js";
import { rulesDrawer } from "./rulesdrawer.js";
import { tableControls } from "./table.js";
import { turnSignals } from "./signals.js";
import { tutorial } from "./tutorial.js";
import { requestHint, showHint, markHint } from "./hint.js";
import { reviewPanel } from "./review.js";

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

function statusLine(game) {
  if (game.broken) return game.broken;
  if (game.terminal) return t("game.over", { result: resultWords(game.result, game.hints?.seat_names) });
  if (game.thinking !== null && game.thinking !== undefined) return t("game.thinking", { name: seatName(game.seats[game.thinking].name) });
  if (game.your_turn) return t("game.yourMove", { name: seatName(game.current_name) }) + stepLabel(game);
  return t("game.toMove", { name: seatName(game.current_name) });
}

export async function gamePage(main, id, connection, { learn = false } = {}) {
  const client = new GameClient(id, tokenFor(id), (state, message) => {
    if (state === "error") showError(message);
    else connection.textContent = t(`conn.${state}`);
  });
  const first = await client.start();
  clear(main);
  const title = h("h2", { id: "game-title" });
  const status = h("div", { class: "status", id: "status", "aria-live": "polite" });
  const lastLine = h("div", { class: "last-move muted", id: "last-move", "aria-live": "polite" });
  const lookBar = h("div", { class: "look-back", id: "look-back", hidden: true });
  const board = h("div", { class: "board-wrap", id: "board" });
  const legalBox = h("div", { class: "legal-list", id: "legal-list" });
  const seatsBox = h("div", { id: "seats" });
  const movesBox = h("div", { id: "moves" });
  const inviteBox = h("div", { id: "invites" });
  const undo = h("button", { id: "undo", onclick: () => client.undo().catch((e) => showError(e.message)) }, t("game.undo"));
  const rules = rulesDrawer(first.game, first.title, () => queue(showAll));
  const table = tableControls(client, id);
  const signals = turnSignals();
  const teach = h("button", { type: "button", id: "tutorial-start", onclick: () => guide.start(game) }, t("tutorial.start"));
  // Offered to a player of a game still running, unless the walk-through is on already.
  const offerTutorial = () => { teach.hidden = !(game.your_seats || []).length || game.terminal || guide.running; };
  const guide = tutorial(board, first.game, () => offerTutorial());
  const hintButton = h("button", { id: "hint-button", hidden: true, onclick: () => askHint() }, t("hint.ask"));
  const hintBox = h("div", { class: "hint", id: "hint", "aria-live": "polite", hidden: true });
  const reviewBox = h("div", { id: "review-box" });
  const tools = h("p", { class: "tools" }, undo, " ", hintButton, " ", rules.button, " ", teach, " ",
    h("a", { href: `/api/games/${id}/record`, download: "", id: "download" }, t("game.download")), " · ",
    h("a", { href: `#/replay/${id}` }, t("game.replay")));
  const textBox = h("details", {}, h("summary", {}, t("game.textPicture")), h("pre", { class: "text", id: "text" }));
  main.append(h("div", { class: "columns" },
    h("div", {}, h("div", { class: "panel" }, title, status, table.notice, lastLine, lookBar, guide.card, hintBox, board, legalBox)),
    h("div", {}, reviewBox, h("div", { class: "panel" }, seatsBox, table.controls, tools, signals.toggle, inviteBox),
      h("div", { class: "panel" }, h("h3", {}, t("game.moves")), movesBox), h("div", { class: "panel" }, textBox))));

  let game = first;
  let selected = null;
  let view = {}; // a board's own view state (e.g. a tile's orientation), kept across drawings
  let lookAt = null; // a number of moves to look back at, or null for the live game
  let lookMark = null; // a move to mark there instead of the last turn (a review's better move)
  let frames = null; // the replay frames, fetched when the player first looks back
  let hint = null; // the hint for the current ply, once asked for

  async function askHint() {
    hintButton.disabled = true;
    try {
      const answer = await requestHint(id, tokenFor(id), game.ply);
      if (answer.ply === game.ply) { hint = answer; queue(showAll); }
    } catch (e) { showError(e.message); } finally { hintButton.disabled = false; }
  }

  // A move that ends the game against the mover (a Potlatch dead end) is played only once the
  // player has confirmed it.
  const play = (moveId) => {
    const move = game.legal.find((l) => l.id === moveId);
    const ends = move?.struct?.ends;
    if (ends && !(ends.winners || []).includes(game.current_player) && !confirm(t("game.losingMove", { words: words(move) }))) return;
    client.act(moveId).catch((e) => showError(e.message));
  };
  board.addEventListener("click", (event) => {
    // A board's own control (e.g. rotate a tile): merge its view change and draw again.
    const control = event.target.closest("[data-view]");
    if (control) {
      view = { ...view, ...JSON.parse(control.getAttribute("data-view")) };
      queue(drawLive);
      return;
    }
    const picked = event.target.closest("[data-select]");
    if (picked) {
      const key = picked.getAttribute("data-select");
      selected = selected === key ? null : key;
      queue(drawLive);
      return;
    }
    const el = event.target.closest("[data-moves]");
    if (!el) return;
    const ids = JSON.parse(el.getAttribute("data-moves"));
    if (ids.length === 1) play(ids[0]);
    else chooser(board, event, ids, game.legal, play);
  });
  // Boards may handle keys of their own (e.g. R rotates a tile); Escape drops a selection.
  const onKey = async (event) => {
    if (event.target.matches?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const mod = await boardModule(game.hints?.renderer);
    const next = selected && mod?.onKey?.(event.key, view);
    if (next) { view = next; queue(drawLive); }
  };
  document.addEventListener("keydown", onKey);
  board.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected) { selected = null; queue(drawLive); }
    if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("[data-moves], [data-select]")) {
      event.preventDefault();
      event.target.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: event.target.getBoundingClientRect().x, clientY: event.target.getBoundingClientRect().y }));
    }
  });

  // Drawings are queued one at a time so a slower, older drawing never lands on a newer one;
  // once the page is left (e.g. for the rematch) none still queued runs, so nothing of this game
  // is written into the next page (its status text, the tab's title).
  let drawing = Promise.resolve();
  let left = false;
  const queue = (fn) => { drawing = drawing.then(() => (left ? undefined : fn())).catch((e) => console.error(e)); return drawing; };

  async function drawLive() {
    const interactive = !!game.your_turn && lookAt === null;
    const ctx = {
      legal: interactive ? game.legal : [], interactive, hints: game.hints, options: game.options,
      selected, view, narrow: board.clientWidth < 560, coarse: matchMedia("(pointer: coarse)").matches, currentPlayer: game.current_player,
      // While a hint is shown, the board marks the hinted move where it marks the last turn.
      lastTurn: hint?.struct ? [hint.struct] : lastTurn(game.moves),
    };
    const undrawn = await drawBoard(board, game.hints?.renderer, game.position, game.text, ctx);
    board.dataset.selected = selected || "";
    clear(legalBox);
    if (interactive && undrawn.length) {
      legalBox.append(h("div", { class: "muted" }, t("game.otherMoves")),
        ...undrawn.map((l) => h("button", { "data-move": l.id, onclick: () => play(l.id) }, words(l) || l.move)));
    }
    if (interactive) markHint(board, legalBox, hint);
  }

  async function drawPast(n) {
    if (!frames || frames.length <= n) frames = (await api(`/api/games/${id}/replay`)).frames;
    const frame = frames[n];
    const ctx = { legal: [], interactive: false, hints: game.hints, options: game.options, narrow: board.clientWidth < 560, lastTurn: lookMark ? [lookMark] : lastTurn(game.moves, n) };
    await drawBoard(board, game.hints?.renderer, frame.position, frame.text, ctx);
    clear(legalBox);
  }

  function lookBack(n, mark = null) {
    lookAt = n >= game.moves.length ? null : n;
    lookMark = lookAt === null ? null : mark;
    queue(showAll);
  }

  async function showAll() {
    title.textContent = `${gameTitle(game.game, game.title)} `;
    title.append(h("span", { class: "muted", translate: "no" }, game.game_string || "")); // notation
    if (game.private) title.append(" ", h("span", { class: "private", id: "private", title: t("table.privateTitle") }, t("table.private")));
    if (game.reproducible) title.append(" ", h("span", { class: "reproducible", id: "reproducible", title: t("game.reproducibleTitle") }, t("game.reproducible", { seed: game.seed })));
    const line = statusLine(game);
    if (status.firstChild?.nodeValue !== line || status.childNodes.length !== 1) status.textContent = line;
    status.className = `status ${game.thinking !== null && game.thinking !== undefined ? "thinking" : ""}`;
    if (game.ai_error) status.append(h("div", { class: "muted" }, game.ai_error));
    // The whole last turn in words (two or three steps, and the chance outcomes between them).
    // Both lines are live regions: set only when they change, so a screen reader announces each
    // new turn once (the opponent's moves, the AI thinking, whose move it is) and not every redraw.
    const turn = lastTurnMoves(game.moves).map(words).filter(Boolean);
    const said = turn.length ? t("game.lastMove", { words: turn.join(" ") }) : "";
    if (lastLine.textContent !== said) lastLine.textContent = said;
    clear(seatsBox).append(seatList(game, game.terminal ? null : game.current_player, game.terminal ? game.result?.winners || [] : []));
    moveList(movesBox, game.moves, game.seats, lookAt ?? game.moves.length, lookBack);
    undo.hidden = !game.can_undo;
    table.update(game);
    signals.update(game);
    offerTutorial();
    hintButton.hidden = !(game.your_turn && game.hints_allowed) || lookAt !== null;
    showHint(hintBox, lookAt === null ? hint : null);
    if (game.terminal && !reviewBox.firstChild) {
      const mine = game.your_seats?.[0] ?? 0;
      const named = (st) => { const colour = game.hints?.seat_names?.[st.seat]; return colour && colour !== st.name ? `${seatName(colour)} · ${seatName(st.name)}` : seatName(st.name); };
      // A flagged move jumps the board there; on a phone the board is above the review: show it.
      const jump = (n, mark) => { lookBack(n, mark); if (board.getBoundingClientRect().top < 0) board.scrollIntoView({ block: "start" }); };
      reviewBox.append(reviewPanel({ id, seats: game.seats.map((st) => ({ seat: st.seat, name: named(st) })), seat: mine, token: tokenFor(id), jump }));
    }
    document.getElementById("text").textContent = game.text || "";
    // The board is drawn first and the look-back bar shown after it, so the bar never stands over
    // a board that still takes live moves (the past position may need a fetch).
    if (lookAt !== null) await drawPast(lookAt);
    else await drawLive();
    clear(lookBar);
    lookBar.hidden = lookAt === null;
    if (lookAt !== null) {
      lookBar.append(t("game.lookBack", { n: lookAt, total: game.moves.length }), lookMark ? h("span", { class: "muted" }, ` — ${t("review.marked")}`) : "", " ",
        h("button", { id: "back-to-now", onclick: () => lookBack(game.moves.length) }, t("game.backToNow")));
    }
    board.dataset.ply = game.ply;
    // Set last: tests and scripts wait on these, so the board must be ready when they change.
    status.dataset.ply = game.ply;
    status.dataset.terminal = game.terminal ? "1" : "0";
    status.dataset.yourTurn = game.your_turn ? "1" : "0";
    drawInvites();
    guide.update(game);
  }

  function drawInvites() {
    clear(inviteBox);
    for (const [seat, code] of Object.entries(invitesFor(id))) {
      const s = game.seats[Number(seat)];
      if (!s || s.claimed) continue;
      const url = `${location.origin}/#/join/${id}/${code}`;
      const copy = h("button", { class: "copy", "aria-label": t("game.copyLabel", { n: Number(seat) + 1 }), onclick: async () => {
        try { await navigator.clipboard.writeText(url); copy.textContent = t("game.copied"); } catch (e) { showError(e.message); }
      } }, t("game.copy"));
      inviteBox.append(h("p", {}, t("game.invite", { n: Number(seat) + 1 }), h("span", { class: "invite", "data-seat": seat, translate: "no" }, url), " ", copy));
    }
  }

  client.subscribe((next) => {
    // A new move, or an end without one (a resignation, an agreed draw), drops any selection.
    const moved = !game || next.ply !== game.ply || next.terminal !== game.terminal;
    game = next;
    if (moved) { selected = null; lookAt = null; hint = null; view = { orient: view.orient }; }
    queue(showAll);
  });
  await drawing;
  // A first game of this game (or one opened to learn) starts with the walk-through.
  const mine = game.moves.some((m) => (game.your_seats || []).includes(m.player));
  if ((learn || !tutorialSeen(game.game)) && (game.your_seats || []).length && !game.terminal && !mine) {
    guide.start(game);
  }
  return () => {
    left = true;
    document.removeEventListener("keydown", onKey);
    client.close();
    rules.remove();
    signals.stop();
    guide.stop();
  };
}
