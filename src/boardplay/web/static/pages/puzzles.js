// Puzzles (issue 64): #/puzzles (the next puzzle near your puzzle rating), #/puzzles/daily,
// #/puzzles/streak and #/puzzles/<id> (a puzzle to share). The board is the game's own
// (boards/<game>.js); the solver clicks moves, the server judges each (puzzles/ on the server)
// and answers with the opponent's reply once the turn is solved. The solution and the themes
// arrive only when the attempt is over; this page never knows them before.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t, term, words, gameTitle, seatName, language } from "../text.js";
import { seatSwatch } from "../boards/common.js";
import { boardModule } from "../boards/load.js";
import { drawBoard, chooser } from "./parts.js";
import { positionLink } from "../analysis/door.js";

const GAME_KEY = "boardplay.puzzleGame";
const chosenGame = () => { try { return localStorage.getItem(GAME_KEY); } catch { return null; } };
const rememberGame = (game) => { try { localStorage.setItem(GAME_KEY, game); } catch { /* private mode */ } };

const ratingText = (r) => (r ? `${r.rating}${r.provisional ? "?" : ""}` : "—");
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
const moveWords = (m) => words(m) || m.move;
// Several moves in one sentence: each one's own full stop dropped, the sentence adds its own.
const listWords = (moves) => moves.map((m) => moveWords(m).replace(/[.。]\s*$/, "")).join(language() === "ja" ? "。" : "; ");

// The page: `kind` is "next", "daily", "streak" or "one" (with `id`).
export async function puzzlesPage(main, kind, id) {
  clear(main);
  let overview = await api("/api/puzzles");
  if (!overview.games.length) {
    main.append(h("div", { class: "panel" }, h("h2", {}, t("puzzles.title")), h("p", {}, t("puzzles.none"))));
    return;
  }
  const games = overview.games.map((g) => g.game);
  let game = games.includes(chosenGame()) ? chosenGame() : games[0];
  let attempt = null;
  let start = null;
  let streakId = null;
  let look = { selected: null, view: {} };

  const heading = h("h2", { id: "puzzle-title" });
  const prompt = h("p", { id: "puzzle-prompt", class: "puzzle-prompt" });
  const board = h("div", { class: "board-wrap", id: "puzzle-board" });
  const feedback = h("div", { id: "puzzle-feedback", class: "puzzle-feedback", "aria-live": "polite" });
  const otherMoves = h("div", { class: "legal-list", id: "puzzle-legal" });
  const actions = h("div", { class: "puzzle-actions" });
  const side = h("div", {});
  const picker = h("div", { class: "puzzle-picker", role: "group", "aria-label": t("puzzles.chooseGame") });

  main.append(h("div", { class: "columns puzzles-page" },
    h("div", {}, h("div", { class: "panel" }, heading, picker, prompt, board, otherMoves, feedback, actions)),
    side));

  // ----- the side: your puzzle ratings, the daily puzzle, the modes ---------------------------
  function drawSide() {
    clear(side);
    const rows = overview.games.map((g) => h("tr", { "data-game": g.game },
      h("th", { scope: "row" }, gameTitle(g.game, g.game)),
      h("td", { class: "puzzle-rating", "data-rating": g.rating?.rating ?? "" }, ratingText(g.rating)),
      h("td", {}, String(g.best_streak))));
    const you = overview.signed_in
      ? h("p", { class: "muted" }, t("puzzles.ratingWhy"))
      : h("p", { class: "muted" }, t("puzzles.guest"), " ", h("a", { href: "#/signin" }, t("account.signIn")));
    const daily = overview.daily;
    side.append(
      h("div", { class: "panel", id: "puzzle-ratings" }, h("h3", {}, t("puzzles.yourRatings")),
        h("table", { class: "puzzle-table" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("puzzles.game")), h("th", { scope: "col" }, t("puzzles.rating")), h("th", { scope: "col" }, t("puzzles.bestStreak")))), h("tbody", {}, rows)),
        you),
      h("div", { class: "panel" }, h("h3", {}, t("puzzles.more")),
        h("ul", { class: "puzzle-modes" },
          h("li", {}, h("a", { href: "#/puzzles" }, t("puzzles.modeNext")), " — ", t("puzzles.modeNextWhy")),
          daily ? h("li", {}, h("a", { href: "#/puzzles/daily", id: "daily-link" }, t("puzzles.modeDaily")), " — ", t("puzzles.modeDailyWhy", { game: gameTitle(daily.game, daily.game) })) : "",
          h("li", {}, h("a", { href: "#/puzzles/streak" }, t("puzzles.modeStreak")), " — ", t("puzzles.modeStreakWhy")))),
      h("div", { class: "panel" }, h("h3", {}, t("puzzles.howTitle")), h("p", {}, t("puzzles.how"))));
  }

  function drawPicker(show) {
    clear(picker);
    picker.hidden = !show || games.length < 2;
    for (const g of games) {
      // Before a streak starts, a game is only chosen; otherwise the chosen game's next puzzle.
      const choose = () => { game = g; rememberGame(g); if (kind === "streak") drawPicker(true); else begin(); };
      picker.append(h("button", { "aria-pressed": String(g === game), "data-game": g, onclick: choose }, gameTitle(g, g)));
    }
  }

  // ----- one attempt ------------------------------------------------------------------------
  async function show(next) {
    // The puzzle's own position, kept from the attempt's first view for the analysis board.
    if (!next.played.length) start = next.position;
    attempt = next;
    look = { selected: null, view: {} };
    await draw();
  }

  async function draw() {
    const a = attempt;
    const mover = a.puzzle.to_move;
    const names = a.hints?.seat_names || [];
    const title = gameTitle(a.puzzle.game, a.puzzle.game);
    heading.textContent = kind === "daily" ? t("puzzles.dailyTitle", { title }) : kind === "streak" ? t("puzzles.streakTitle", { title }) : t("puzzles.puzzleTitle", { title });
    clear(prompt).append(seatSwatch(a.hints, mover), " ",
      t(a.puzzle.kind === "save" ? "puzzles.findSave" : "puzzles.findWin", { seat: seatName(names[mover] || "") }),
      a.rated ? "" : h("span", { class: "muted" }, " ", t(a.mode === "streak" ? "puzzles.streakUnrated" : "puzzles.practice")));
    const over = a.status !== "playing";
    const interactive = !over && a.current_player === mover;
    // Over: the board shows the answer (failed) or the reply (solved), its moves ringed.
    const shown = a.status === "failed" ? a.answer_position : a.position;
    const ringed = a.status === "failed" ? a.solution : a.played.slice(-Math.max(1, a.played.filter((p) => p.by === "reply").length || a.played.length));
    const ctx = {
      legal: interactive ? a.legal : [], interactive, hints: a.hints, options: a.puzzle.options,
      selected: look.selected, view: look.view, narrow: board.clientWidth < 560, coarse: matchMedia("(pointer: coarse)").matches,
      currentPlayer: a.current_player, lastTurn: over || a.played.length ? ringed.map((m) => m.struct).filter(Boolean) : [],
    };
    const undrawn = await drawBoard(board, a.hints?.renderer, shown, a.text, ctx);
    // The marks tests wait on, set once the board is drawn.
    board.dataset.status = a.status;
    board.dataset.attempt = a.id;
    board.dataset.puzzle = a.puzzle.id;
    board.dataset.selected = look.selected || "";
    board.dataset.moves = String(a.played.length);
    clear(otherMoves);
    if (interactive && undrawn.length) {
      otherMoves.append(h("div", { class: "muted" }, t("game.otherMoves")),
        ...undrawn.map((l) => h("button", { "data-move": l.id, onclick: () => play(l.id) }, moveWords(l))));
    }
    drawFeedback();
  }

  function drawFeedback() {
    const a = attempt;
    clear(feedback);
    clear(actions);
    feedback.dataset.status = a.status;
    const mine = a.played.filter((p) => p.by === "you");
    const replies = a.played.filter((p) => p.by === "reply");
    if (a.status === "playing") {
      feedback.append(h("p", {}, mine.length ? t("puzzles.goOn", { moves: listWords(mine) }) : t("puzzles.yourMove")));
      return;
    }
    if (a.status === "solved") {
      feedback.append(h("p", { class: "puzzle-verdict good" }, "✓ ", t("puzzles.best")));
      if (replies.length) feedback.append(h("p", {}, t("puzzles.reply", { moves: listWords(replies) })));
    } else {
      feedback.append(h("p", { class: "puzzle-verdict bad" }, "✗ ", t("puzzles.wrong")),
        h("p", { id: "puzzle-answer" }, a.answers > 1
          ? t("puzzles.answerOfMany", { answer: listWords(a.solution), count: a.answers })
          : t("puzzles.answer", { answer: listWords(a.solution) })),
        h("p", { class: "muted" }, t("puzzles.yours", { moves: listWords(mine) })));
    }
    const themes = (a.themes || []).map((th) => term(`theme.${a.puzzle.game}`, th));
    feedback.append(h("p", { id: "puzzle-themes" }, t("puzzles.themes"), " ", themes.length ? themes.join(" · ") : t("puzzles.noThemes")));
    if (a.rating) {
      const change = a.rating.change;
      feedback.append(h("p", { id: "puzzle-change", class: change >= 0 ? "good" : "bad", "data-change": change },
        t("puzzles.ratingMoved", { before: ratingText(a.rating.before), after: ratingText(a.rating.after), change: signed(change) })));
    } else if (a.mode !== "streak") {
      feedback.append(h("p", { class: "muted" }, t(overview.signed_in ? "puzzles.notRatedAgain" : "puzzles.notRatedGuest")));
    }
    if (a.puzzle_rating) feedback.append(h("p", { class: "muted" }, t("puzzles.puzzleRating", { rating: ratingText(a.puzzle_rating) })));
    if (a.streak) {
      feedback.append(h("p", { id: "streak-count", "data-solved": a.streak.solved },
        t(a.streak.alive ? "puzzles.streakGoing" : "puzzles.streakOver", { n: a.streak.solved, best: a.streak.best })));
    }
    // What next.
    const button = (key, id, onclick) => h("button", { id, onclick }, t(key));
    if (kind === "streak") {
      if (a.streak?.alive) actions.append(button("puzzles.nextInStreak", "puzzle-next", () => streakNext()));
      else actions.append(button("puzzles.newStreak", "puzzle-next", () => newStreak()));
    } else {
      actions.append(button("puzzles.next", "puzzle-next", () => { if (location.hash === "#/puzzles") begin(); else location.hash = "#/puzzles"; }));
      actions.append(button("puzzles.again", "puzzle-again", () => again()));
    }
    actions.append(h("a", { href: `#/puzzles/${a.puzzle.id}`, class: "puzzle-link" }, t("puzzles.link")));
    if (start) actions.append(" ", h("a", { href: positionLink(a.puzzle.game, a.puzzle.options, start), id: "puzzle-analyse" }, t("puzzles.analyse")));
    actions.querySelector("button")?.focus({ preventScroll: true });
  }

  async function play(moveId) {
    try {
      const next = await api(`/api/puzzles/attempts/${attempt.id}/moves`, { method: "POST", body: { move: moveId } });
      const ended = next.status !== "playing";
      await show(next);
      if (ended) await refreshSide();
    } catch (e) { showError(e.message); }
  }

  async function refreshSide() {
    try { overview = await api("/api/puzzles"); drawSide(); } catch { /* the side stays as it was */ }
  }

  async function again() {
    try { await show(await api(`/api/puzzles/${attempt.puzzle.id}/attempts`, { method: "POST" })); } catch (e) { showError(e.message); }
  }

  async function newStreak() {
    drawPicker(false);
    const started = await api("/api/puzzles/streaks", { method: "POST", body: { game } });
    streakId = started.streak.id;
    await show(started);
  }

  async function streakNext() {
    try { await show(await api(`/api/puzzles/streaks/${streakId}/next`, { method: "POST" })); } catch (e) { showError(e.message); }
  }

  async function begin() {
    try {
      if (kind === "streak") return await newStreak();
      drawPicker(kind === "next");
      if (kind === "daily") return await show(await api(`/api/puzzles/${overview.daily.id}/attempts`, { method: "POST" }));
      if (kind === "one") return await show(await api(`/api/puzzles/${encodeURIComponent(id)}/attempts`, { method: "POST" }));
      await show(await api("/api/puzzles/next", { method: "POST", body: { game } }));
    } catch (e) {
      clear(feedback).append(h("p", {}, e.code === "puzzles_done" ? t("puzzles.allDone") : e.message));
      clear(board);
    }
  }

  // Clicks on the board: a board's own control, a selection, or a move (several: which one).
  board.addEventListener("click", (event) => {
    if (!attempt || attempt.status !== "playing") return;
    const own = event.target.closest("[data-view]");
    if (own) { look.view = { ...look.view, ...JSON.parse(own.getAttribute("data-view")) }; return draw(); }
    const picked = event.target.closest("[data-select]");
    if (picked) { const key = picked.getAttribute("data-select"); look.selected = look.selected === key ? null : key; return draw(); }
    const el = event.target.closest("[data-moves]");
    if (!el) return;
    const ids = JSON.parse(el.getAttribute("data-moves"));
    if (ids.length === 1) play(ids[0]);
    else chooser(board, event, ids, attempt.legal, play);
  });
  board.addEventListener("keydown", async (event) => {
    if (event.key === "Escape" && look.selected) { look.selected = null; draw(); }
    if ((event.key === "Enter" || event.key === " ") && event.target.matches?.("[data-moves], [data-select], [data-view]")) {
      event.preventDefault();
      const box = event.target.getBoundingClientRect();
      event.target.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: box.x, clientY: box.y }));
    }
    const mod = await boardModule(attempt?.hints?.renderer);
    const next = look.selected && mod?.onKey?.(event.key, look.view);
    if (next) { look.view = next; draw(); }
  });

  drawSide();
  if (kind === "streak") {
    // A streak starts when asked: the game first, then the button.
    drawPicker(true);
    heading.textContent = t("puzzles.modeStreak");
    prompt.textContent = t("puzzles.modeStreakWhy");
    actions.append(h("button", { id: "streak-start", onclick: () => begin() }, t("puzzles.startStreak")));
    return;
  }
  await begin();
}
