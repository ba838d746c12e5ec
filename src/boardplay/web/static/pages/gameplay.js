// The game page's controller, apart from its views as boardgame.io keeps its client apart from
// the board: the game as the server last sent it (through the GameClient, the page's transport),
// what the page shows besides the game (`look`), and what a move, a click on the board, a key, a
// hint or a socket message does to them. It builds no DOM: the page (game.js) gives it `render`
// (draw everything) and `renderLive` (draw the live board), and it calls them, one drawing at a
// time, whenever the game or the look changed.
import { api } from "../api.js";
import { t, words } from "../text.js";

// The question asked before a move that ends the game other than in its mover's favour, worded
// by how it ends for them (a loss, or a draw: nobody wins); null for a move that does not end the
// game or that wins it (alone or shared).
export function endingQuestion(move, seat) {
  const ends = move?.struct?.ends;
  if (!ends) return null;
  const winners = ends.winners || [];
  if (winners.includes(seat)) return null;
  return t(winners.length ? "game.losingMove" : "game.drawingMove", { words: words(move) });
}

export class GamePlay {
  // `ask(question)` confirms a move that ends the game against its mover (endingQuestion); `error(message)` shows a failure;
  // `moved(game)` follows each new move or end.
  constructor(client, { ask, error, moved }) {
    this.client = client;
    this.game = client.game;
    // A selected piece, a board's own view state (e.g. a tile's orientation), an earlier position
    // looked back at (with a move marked there, such as a review's better move), the replay
    // frames once fetched, and the hint for the current ply.
    this.look = { selected: null, view: {}, at: null, mark: null, before: false, frames: null, hint: null };
    this.ask = ask;
    this.error = error;
    this.moved = moved;
    this.render = async () => {};
    this.renderLive = async () => {};
    this.forced = null; // pages/forced.js, told when the player moves
    // Drawings are queued one at a time so a slower, older drawing never lands on a newer one;
    // once the page is left (e.g. for the rematch) none still queued runs, so nothing of this
    // game is written into the next page (its status text, the tab's title).
    this.drawing = Promise.resolve();
    this.left = false;
  }

  queue(fn) {
    this.drawing = this.drawing.then(() => (this.left ? undefined : fn())).catch((e) => console.error(e));
    return this.drawing;
  }

  redraw() { return this.queue(() => this.render()); }

  redrawLive() { return this.queue(() => this.renderLive()); }

  // Follows the client's views: a new move, or an end without one (a resignation, an agreed
  // draw), drops any selection and look back.
  follow() {
    this.client.subscribe((next) => {
      const game = this.game;
      const moved = !game || next.ply !== game.ply || next.terminal !== game.terminal;
      this.game = next;
      if (moved) Object.assign(this.look, { selected: null, at: null, hint: null, view: { orient: this.look.view.orient } });
      if (moved) this.moved(next);
      this.redraw();
    });
    return this.drawing;
  }

  // A move that ends the game against the mover (a Potlatch dead end, a pass that ends it
  // drawn) is played only once the player has confirmed it.
  play(moveId) {
    const game = this.game;
    const question = endingQuestion(game.legal.find((l) => l.id === moveId), game.current_player);
    if (question && !this.ask(question)) return;
    this.forced?.played();
    this.client.act(moveId).catch((e) => this.error(e.message));
  }

  // A move taken for the player (the only legal one, pages/forced.js) if the game is still at
  // `ply`; true once it moved on.
  async playForced(moveId, ply) {
    if (this.game.ply !== ply) return false;
    try { await this.client.act(moveId); } catch (e) { this.error(e.message); return false; }
    return this.game.ply !== ply;
  }

  undo() { this.client.undo().catch((e) => this.error(e.message)); }

  // A board's own control (e.g. rotate a tile) changed its view state.
  changeView(change) {
    this.look.view = { ...this.look.view, ...change };
    this.redrawLive();
  }

  // A piece or tile picked on the board (again: put down).
  select(key) {
    this.look.selected = this.look.selected === key ? null : key;
    this.redrawLive();
  }

  unselect() {
    if (!this.look.selected) return;
    this.look.selected = null;
    this.redrawLive();
  }

  // A key the board module handles while something is selected (e.g. R rotates a tile).
  key(key, mod) {
    const next = this.look.selected && mod?.onKey?.(key, this.look.view);
    if (next) { this.look.view = next; this.redrawLive(); }
  }

  // Look at the position after `n` moves; `before` when it was asked for as the position a
  // move was played in (a review's "Move n+1"), which the bar then says.
  lookBack(n, mark = null, before = false) {
    const look = this.look;
    look.at = n >= this.game.moves.length ? null : n;
    look.mark = look.at === null ? null : mark;
    look.before = look.at !== null && before;
    this.redraw();
  }

  // The position looked back at, from the replay's frames (fetched once, again when longer).
  async pastFrame(id) {
    const look = this.look;
    if (!look.frames || look.frames.length <= look.at) look.frames = (await api(`/api/games/${id}/replay`)).frames;
    return look.frames[look.at];
  }

  // Asks `request(ply)` for a hint at the current ply; kept only if the game is still there.
  async hint(request) {
    const answer = await request(this.game.ply);
    if (answer.ply === this.game.ply) { this.look.hint = answer; this.redraw(); }
  }

  leave() {
    this.left = true;
    this.client.close();
  }
}
