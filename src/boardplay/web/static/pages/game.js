// The game page: its views (gameview.js and the panels beside the board), the DOM events turned
// into calls of its controller (gameplay.js: the game, the page's own state and what a move or a
// socket message does), and `render`, which draws the controller's state with the views.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { GameClient } from "../live.js";
import { tokenFor, invitesFor, tutorialSeen, rememberToken, forgetToken } from "../store.js";
import { account, loadSession } from "../session.js";
import { t, seatName } from "../text.js";
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
import { reportForm } from "../moderation/report.js";
import * as views from "./gameview.js";
import { gameRatingNote } from "../results.js";
import { GamePlay } from "./gameplay.js";
import { tournamentOfGame } from "./tournaments.js";
import { nextGameNotice } from "./nextgame.js";
import { seatPeople } from "../results.js";
import { goToGame, holdNextGame } from "../lobbylive.js";
import { analyseButton, mayAnalyse } from "../analysis/door.js";

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

// A token this browser kept may have ended since: the account signed out everywhere or changed
// its password, which ends every seat token it had. The view then shows none of the account's
// seats as this page's, though a seat of the game is the account's.
function tokenEnded(view) {
  const me = account();
  return !!me && !(view.your_seats || []).length &&
    (view.seats || []).some((seat) => seat.player && seat.name === me.name);
}

// `learn`: start the walk-through; `onEnd()`: called once, when the page first shows the game
// over (TV moves on to the next game from there).
export async function gamePage(main, id, connection, { learn = false, onEnd = null } = {}) {
  await loadSession();
  const open = async () => {
    const made = new GameClient(id, await accountToken(id), (state, message) => {
      if (state === "error") showError(message);
      else connection.textContent = t(`conn.${state}`);
      if (state === "queued") showError(t("conn.queued")); // said where the player looks too
    });
    return [made, await made.start()];
  };
  let [client, first] = await open();
  if (tokenFor(id) && tokenEnded(first)) { // ask the account for a new one
    client.close();
    forgetToken(id);
    [client, first] = await open();
  }
  clear(main);
  const control = new GamePlay(client, {
    ask: (question) => confirm(question),
    error: showError,
    moved: (game) => { if ((game.your_seats || []).length) refreshTurns(); }, // the header's "your turn" count
  });
  const { look } = control;

  const undo = h("button", { id: "undo", onclick: () => control.undo() }, t("game.undo"));
  const rules = rulesDrawer(first.game, first.title, () => control.redraw());
  const table = tableControls(client, id);
  const clocks = clockStrip(client);
  const signals = turnSignals();
  const teach = h("button", { type: "button", id: "tutorial-start", onclick: () => guide.start(control.game) }, t("tutorial.start"));
  const hintButton = h("button", { id: "hint-button", hidden: true, onclick: () => askHint() }, t("hint.ask"));
  // The analysis board, where fair play lets this viewer study the game now (hidden till then).
  const analyse = analyseButton({ from_game: id });
  analyse.hidden = true;
  const tools = h("p", { class: "tools" }, undo, " ", hintButton, " ", rules.button, " ", teach, " ", analyse, " ",
    h("a", { href: `/api/games/${id}/record`, download: "", id: "download" }, t("game.download")), " · ",
    h("a", { href: `#/replay/${id}` }, t("game.replay")));
  const toggles = h("div", { class: "toggles" }, signals.toggle);
  const parts = views.layout(main, { notice: table.notice, controls: table.controls, tools, toggle: toggles, card: null, clocks: clocks.box, claim: clocks.claimBox });
  const { board, reviewBox } = parts;
  parts.title.after(tournamentOfGame(id)); // a tournament's game links back to its standings
  // A tournament's next game announced while this game is over here: a few seconds to read how
  // it ended, then on to it (pages/nextgame.js).
  const nextGame = nextGameNotice((gameId) => goToGame(gameId), () => (control.game?.your_seats || []).length > 0);
  parts.status.after(nextGame.box);
  const letGo = holdNextGame((gameId) => nextGame.offer(gameId));
  // A decision with one legal move is taken for the player after a short beat (pages/forced.js),
  // once the page has decided whether the walk-through runs (it asks for every click): till then
  // the status line says a forced move may be pending.
  let settled = false;
  parts.status.dataset.forced = "pending";
  const forced = forcedMoves({ status: parts.status, board, home: main, send: (moveId, ply) => control.playForced(moveId, ply) });
  control.forced = forced;
  toggles.append(forced.toggle, notationToggle());
  // A long last turn shows two lines where the table needs the room (Montana); a click shows all.
  parts.lastLine.addEventListener("click", () => parts.lastLine.classList.toggle("open"));
  // The table chat, beside the seats (on a phone, behind its tab): pages/chat.js.
  const chat = chatPanel(id, client);
  parts.seatsBox.parentElement.after(chat.panel, chat.tab);
  // "Report a player": the game's other players who have accounts, for a signed-in visitor.
  const others = [...new Set((first.seats || []).filter((s) => s.player && s.name !== account()?.name).map((s) => s.name))];
  if (account() && others.length) parts.seatsBox.parentElement.append(reportForm(others, id));
  // Offered to a player of a game still running, unless the walk-through is on already.
  const offerTutorial = () => { const game = control.game; teach.hidden = !(game.your_seats || []).length || game.terminal || guide.running; };
  const guide = tutorial(board, first.game, (await boardModule(first.hints?.renderer))?.tutorial, () => offerTutorial());
  parts.lastLine.after(parts.lookBar, guide.card);

  async function askHint() {
    hintButton.disabled = true;
    try { await control.hint((ply) => requestHint(id, tokenFor(id), ply)); } catch (e) { showError(e.message); } finally { hintButton.disabled = false; }
  }

  const move = (moveId) => control.play(moveId);
  board.addEventListener("click", (event) => {
    // A board's own control (e.g. rotate a tile): merge its view change and draw again.
    const own = event.target.closest("[data-view]");
    if (own) return control.changeView(JSON.parse(own.getAttribute("data-view")));
    const picked = event.target.closest("[data-select]");
    if (picked) return control.select(picked.getAttribute("data-select"));
    const el = event.target.closest("[data-moves]");
    if (!el) return;
    const ids = JSON.parse(el.getAttribute("data-moves"));
    if (ids.length === 1) move(ids[0]);
    else chooser(board, event, ids, control.game.legal, move);
  });
  // Boards may handle keys of their own (e.g. R rotates a tile); Escape drops a selection.
  const onKey = async (event) => {
    if (event.target.matches?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    control.key(event.key, await boardModule(control.game.hints?.renderer));
  };
  document.addEventListener("keydown", onKey);
  board.addEventListener("keydown", (event) => {
    if (event.key === "Escape") control.unselect();
    if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("[data-moves], [data-select]")) {
      event.preventDefault();
      event.target.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: event.target.getBoundingClientRect().x, clientY: event.target.getBoundingClientRect().y }));
    }
  });

  // A rated game's rating changes, asked for once it is over: the server settles them a moment
  // after the end (on whichever process sees it first) and says so on the socket ("rated"); the
  // page also asks again until they are, should that word be lost.
  const ratings = { changes: null, note: null, asked: false };
  async function askRatings() {
    for (let wait = 300; wait < 20000 && !control.left; wait *= 2) {
      let answer;
      try { answer = await api(`/api/games/${id}/rating`); } catch { return; }
      if (!answer.rated) return;
      if (answer.settled) {
        ratings.changes = Object.fromEntries(answer.seats.map((s) => [s.seat, s.change]));
        ratings.note = gameRatingNote(answer, control.game.your_seats || []);
        control.redraw();
        return;
      }
      await new Promise((done) => { setTimeout(done, wait); });
    }
  }

  control.renderLive = () => views.drawLive(parts, control.game, look, move);
  let ended = null; // whether the game was over at the last drawing (null: not drawn yet)
  control.render = async () => {
    const game = control.game;
    if (game.terminal && game.rated && !ratings.asked) { ratings.asked = true; askRatings(); }
    // The game has just ended (a resignation pressed far down a phone's page, a flag, the last
    // move): its result, at the top of the board, is brought into view.
    if (ended === false && game.terminal && parts.status.getBoundingClientRect().top < 0) parts.title.scrollIntoView({ block: "start" });
    if (game.terminal && ended !== true) onEnd?.();
    ended = !!game.terminal;
    if (ended) nextGame.ended();
    views.showHeader(parts, game, ratings.changes, ratings.note);
    views.showSeatsAndMoves(parts, game, look, (...at) => control.lookBack(...at), client.presence, ratings.changes);
    undo.hidden = !game.can_undo;
    table.update(game);
    clocks.update(game);
    signals.update(game);
    offerTutorial();
    hintButton.hidden = !(game.your_turn && game.hints_allowed) || look.at !== null;
    analyse.hidden = !mayAnalyse(game);
    if (game.terminal && !reviewBox.firstChild) addReview(game);
    // The board is drawn first and the look-back bar shown after it, so the bar never stands over
    // a board that still takes live moves (the past position may need a fetch).
    if (look.at !== null) await views.drawPast(parts, game, look, await control.pastFrame(id));
    else await control.renderLive();
    views.showLookBar(parts, game, look, () => control.lookBack(game.moves.length));
    views.markReady(parts, game);
    views.showInvites(parts.inviteBox, game, invitesFor(id));
    guide.update(game);
    if (settled) forced.check(game, { live: look.at === null, guided: guide.guiding });
  };

  function addReview(game) {
    const mine = game.your_seats?.[0] ?? 0;
    const named = (st) => { const colour = game.hints?.seat_names?.[st.seat]; return colour && colour !== st.name ? `${seatName(colour)} · ${seatName(st.name)}` : seatName(st.name); };
    // A flagged move jumps the board there; on a phone the board is above the review: show it
    // (from the status line when it is the end, whose words stand over the board).
    const jump = (n, mark) => {
      control.lookBack(n, mark, true);
      if (board.getBoundingClientRect().top < 0) (n >= game.moves.length ? parts.status : board).scrollIntoView({ block: "start" });
    };
    reviewBox.append(reviewPanel({ id, seats: game.seats.map((st) => ({ seat: st.seat, name: named(st) })), seat: mine, token: tokenFor(id), jump,
      ending: endingOf(game.moves), names: game.hints?.seat_names, people: seatPeople(game.seats, game.hints?.seat_names) }));
  }

  client.onPresence = () => { views.showSeats(parts, control.game, client.presence, ratings.changes); clocks.presence(); };
  client.onRated = () => { if (!ratings.changes) askRatings(); };  // settled: no need to wait for the next look
  await control.follow();
  // A first game of this game (or one opened to learn) starts with the walk-through.
  const game = control.game;
  const mine = game.moves.some((m) => (game.your_seats || []).includes(m.player));
  if ((learn || !tutorialSeen(game.game)) && (game.your_seats || []).length && !game.terminal && !mine) {
    guide.start(game);
  }
  settled = true;
  control.queue(() => forced.check(control.game, { live: look.at === null, guided: guide.guiding }));
  return () => {
    letGo();
    nextGame.stop();
    control.leave();
    document.removeEventListener("keydown", onKey);
    chat.stop();
    clocks.stop();
    rules.remove();
    signals.stop();
    guide.stop();
    forced.stop();
  };
}
