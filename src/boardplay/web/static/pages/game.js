// The game page's controller: it holds the GameClient and the page's own state (`look`: the
// selection, the look back, the hint), turns clicks and keys into moves through the client, and
// redraws with the views of gameview.js whenever either changes.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { GameClient } from "../live.js";
import { tokenFor, invitesFor, tutorialSeen, rememberToken } from "../store.js";
import { account, loadSession } from "../session.js";
import { t, words, seatName } from "../text.js";
import { chooser, notationToggle, endingOf } from "./parts.js";
import { boardModule } from "../boards/load.js";
import { rulesDrawer } from "./rulesdrawer.js";
import { tableControls } from "./table.js";
import { clockStrip } from "./clock.js";
import { refreshTurns } from "../turns.js";
import { turnSignals } from "./signals.js";
import { tutorial } from "./tutorial.js";
import { requestHint } from "./hint.js";
import { forcedMoves } from "./forced.js";
import { reviewPanel } from "./review.js";
import { chatPanel } from "./chat.js";
import * as views from "./gameview.js";

// A signed-in player opening one of their games in a browser that holds no token for it gets
// one from the account (their seats follow them to every device).
async function accountToken(id) {
  if (tokenFor(id) || !account()) return tokenFor(id);
  try {
    const given = await api(`/api/account/games/${id}/token`, { method: "POST", body: {} });
    rememberToken(id, given.token);
  } catch { /* not this account's game: watched as anyone may */ }
  return tokenFor(id);
}

export async function gamePage(main, id, connection, { learn = false } = {}) {
  await loadSession();
  const client = new GameClient(id, await accountToken(id), (state, message) => {
    if (state === "error") showError(message);
    else connection.textContent = t(`conn.${state}`);
    if (state === "queued") showError(t("conn.queued")); // said where the player looks too
  });
  const first = await client.start();
  clear(main);
  let game = first;
  // What this page shows besides the game: a selected piece, a board's own view state (e.g. a
  // tile's orientation), an earlier position looked back at (with a move marked there, such as
  // a review's better move), the replay frames once fetched, and the hint for the current ply.
  const look = { selected: null, view: {}, at: null, mark: null, before: false, frames: null, hint: null };

  const undo = h("button", { id: "undo", onclick: () => client.undo().catch((e) => showError(e.message)) }, t("game.undo"));
  const rules = rulesDrawer(first.game, first.title, () => queue(showAll));
  const table = tableControls(client, id);
  const clocks = clockStrip(client);
  const signals = turnSignals();
  const teach = h("button", { type: "button", id: "tutorial-start", onclick: () => guide.start(game) }, t("tutorial.start"));
  const hintButton = h("button", { id: "hint-button", hidden: true, onclick: () => askHint() }, t("hint.ask"));
  const tools = h("p", { class: "tools" }, undo, " ", hintButton, " ", rules.button, " ", teach, " ",
    h("a", { href: `/api/games/${id}/record`, download: "", id: "download" }, t("game.download")), " · ",
    h("a", { href: `#/replay/${id}` }, t("game.replay")));
  const toggles = h("div", { class: "toggles" }, signals.toggle);
  const parts = views.layout(main, { notice: table.notice, controls: table.controls, tools, toggle: toggles, card: null, clocks: clocks.box, claim: clocks.claimBox });
  const { board, legalBox, reviewBox } = parts;
  // A decision with one legal move is taken for the player after a short beat (pages/forced.js),
  // once the page has decided whether the walk-through runs (it asks for every click): till then
  // the status line says a forced move may be pending.
  let settled = false;
  parts.status.dataset.forced = "pending";
  const forced = forcedMoves({ status: parts.status, board, home: main, send: async (moveId, ply) => {
    if (game.ply !== ply) return false;
    try { await client.act(moveId); } catch (e) { showError(e.message); return false; }
    return game.ply !== ply;
  } });
  toggles.append(forced.toggle, notationToggle());
  // A long last turn shows two lines where the table needs the room (Montana); a click shows all.
  parts.lastLine.addEventListener("click", () => parts.lastLine.classList.toggle("open"));
  // The table chat, beside the seats (on a phone, behind its tab): pages/chat.js.
  const chat = chatPanel(id, client);
  parts.seatsBox.parentElement.after(chat.panel, chat.tab);
  // Offered to a player of a game still running, unless the walk-through is on already.
  const offerTutorial = () => { teach.hidden = !(game.your_seats || []).length || game.terminal || guide.running; };
  const guide = tutorial(board, first.game, (await boardModule(first.hints?.renderer))?.tutorial, () => offerTutorial());
  parts.lastLine.after(parts.lookBar, guide.card);

  async function askHint() {
    hintButton.disabled = true;
    try {
      const answer = await requestHint(id, tokenFor(id), game.ply);
      if (answer.ply === game.ply) { look.hint = answer; queue(showAll); }
    } catch (e) { showError(e.message); } finally { hintButton.disabled = false; }
  }

  // A move that ends the game against the mover (a Potlatch dead end) is played only once the
  // player has confirmed it.
  const play = (moveId) => {
    const move = game.legal.find((l) => l.id === moveId);
    const ends = move?.struct?.ends;
    if (ends && !(ends.winners || []).includes(game.current_player) && !confirm(t("game.losingMove", { words: words(move) }))) return;
    forced.played();
    client.act(moveId).catch((e) => showError(e.message));
  };
  board.addEventListener("click", (event) => {
    // A board's own control (e.g. rotate a tile): merge its view change and draw again.
    const control = event.target.closest("[data-view]");
    if (control) {
      look.view = { ...look.view, ...JSON.parse(control.getAttribute("data-view")) };
      queue(drawLive);
      return;
    }
    const picked = event.target.closest("[data-select]");
    if (picked) {
      const key = picked.getAttribute("data-select");
      look.selected = look.selected === key ? null : key;
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
    const next = look.selected && mod?.onKey?.(event.key, look.view);
    if (next) { look.view = next; queue(drawLive); }
  };
  document.addEventListener("keydown", onKey);
  board.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && look.selected) { look.selected = null; queue(drawLive); }
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
  const drawLive = () => views.drawLive(parts, game, look, play);

  // Look at the position after `n` moves; `before` when it was asked for as the position a
  // move was played in (a review's "Move n+1"), which the bar then says.
  function lookBack(n, mark = null, before = false) {
    look.at = n >= game.moves.length ? null : n;
    look.mark = look.at === null ? null : mark;
    look.before = look.at !== null && before;
    queue(showAll);
  }

  async function showAll() {
    views.showHeader(parts, game);
    views.showSeatsAndMoves(parts, game, look, lookBack, client.presence);
    undo.hidden = !game.can_undo;
    table.update(game);
    clocks.update(game);
    signals.update(game);
    offerTutorial();
    hintButton.hidden = !(game.your_turn && game.hints_allowed) || look.at !== null;
    if (game.terminal && !reviewBox.firstChild) addReview();
    // The board is drawn first and the look-back bar shown after it, so the bar never stands over
    // a board that still takes live moves (the past position may need a fetch).
    if (look.at !== null) {
      if (!look.frames || look.frames.length <= look.at) look.frames = (await api(`/api/games/${id}/replay`)).frames;
      await views.drawPast(parts, game, look, look.frames[look.at]);
    } else await drawLive();
    views.showLookBar(parts, game, look, () => lookBack(game.moves.length));
    views.markReady(parts, game);
    views.showInvites(parts.inviteBox, game, invitesFor(id));
    guide.update(game);
    if (settled) forced.check(game, { live: look.at === null, guided: guide.guiding });
  }

  function addReview() {
    const mine = game.your_seats?.[0] ?? 0;
    const named = (st) => { const colour = game.hints?.seat_names?.[st.seat]; return colour && colour !== st.name ? `${seatName(colour)} · ${seatName(st.name)}` : seatName(st.name); };
    // A flagged move jumps the board there; on a phone the board is above the review: show it
    // (from the status line when it is the end, whose words stand over the board).
    const jump = (n, mark) => {
      lookBack(n, mark, true);
      if (board.getBoundingClientRect().top < 0) (n >= game.moves.length ? parts.status : board).scrollIntoView({ block: "start" });
    };
    reviewBox.append(reviewPanel({ id, seats: game.seats.map((st) => ({ seat: st.seat, name: named(st) })), seat: mine, token: tokenFor(id), jump,
      ending: endingOf(game.moves), names: game.hints?.seat_names }));
  }

  client.onPresence = () => { views.showSeats(parts, game, client.presence); clocks.presence(); };
  client.subscribe((next) => {
    // A new move, or an end without one (a resignation, an agreed draw), drops any selection.
    const moved = !game || next.ply !== game.ply || next.terminal !== game.terminal;
    game = next;
    if (moved) Object.assign(look, { selected: null, at: null, hint: null, view: { orient: look.view.orient } });
    if (moved && (next.your_seats || []).length) refreshTurns(); // the header's "your turn" count
    queue(showAll);
  });
  await drawing;
  // A first game of this game (or one opened to learn) starts with the walk-through.
  const mine = game.moves.some((m) => (game.your_seats || []).includes(m.player));
  if ((learn || !tutorialSeen(game.game)) && (game.your_seats || []).length && !game.terminal && !mine) {
    guide.start(game);
  }
  settled = true;
  queue(() => forced.check(game, { live: look.at === null, guided: guide.guiding }));
  return () => {
    left = true;
    document.removeEventListener("keydown", onKey);
    client.close();
    chat.stop();
    clocks.stop();
    rules.remove();
    signals.stop();
    guide.stop();
    forced.stop();
  };
}
