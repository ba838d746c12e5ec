// Forced moves (issue 29): when the rules leave the player to move exactly one legal move ("ends
// the turn", a pass in an auction they cannot afford), the page says so and, after a short beat,
// plays it for them. The setting "Confirm forced moves" (remembered in this browser) keeps
// asking instead. Only a decision of this page's own seat, on the live board: never a
// spectator's page, another seat's turn, a past position looked at, the walk-through (which asks
// for each click) or a move that ends the game against its mover (that one asks first); and never
// twice for the same position (an undo back to it leaves the choice to the player).
//
// The note stands where the board asks its questions when the board has such a place (an element
// marked `data-notices`, e.g. Montana's decision panel, which stays in view), else at the foot of
// the screen. Once the move is made it stays until the game moves on again (in the board) or a
// few seconds (at the foot), so it never moves the board under the pointer by going away.
import { h } from "../dom.js";
import { t, words } from "../text.js";
import { confirmForced, rememberConfirmForced } from "../store.js";

// How long the note shows before the move is sent: long enough to read what will happen.
export const BEAT_MS = 1200;
// How long the note at the foot of the screen stays once the move is made.
const SHOWN_MS = 6000;

// `status`: the page's status line, whose data-forced says "pending" while a forced move waits
// (tests and scripts wait for it to clear); `board`: where the board is drawn; `home`: where the
// note stands when the board has no place for it; `send(id, ply)` plays a move if the game is
// still at `ply` and answers whether it was made.
export function forcedMoves({ status, board, home, send }) {
  const box = h("input", { type: "checkbox", id: "confirm-forced" });
  box.checked = confirmForced();
  const toggle = h("label", { class: "forced-toggle", title: t("forced.settingTitle") }, box, t("forced.setting"));
  const note = h("div", { class: "forced-note", id: "forced-note", role: "status", hidden: true });
  home.append(note);
  const done = new Set(); // the positions (ply and move) a forced move was taken or offered in
  let timer = null;
  let hide = null;
  let waiting = null; // the ply a forced move waits at, and its key in `done`
  let waitingKey = null;
  let waitingSaid = ""; // the words of the move waiting
  let toldKey = null; // the position whose forced move the note last said was taken
  let after = null; // the ply the game reached after the move the note says was taken
  let last = null; // the arguments of the last check, for the setting turned off

  const inBoard = () => note.parentElement !== home;
  function conceal() {
    clearTimeout(hide);
    note.hidden = true;
    delete note.dataset.state;
  }
  function show(text, state) {
    clearTimeout(hide);
    note.textContent = text;
    note.dataset.state = state;
    note.hidden = false;
    after = null;
    if (state === "taken" && !inBoard()) hide = setTimeout(conceal, SHOWN_MS);
  }
  // Says the forced move at `key` was taken, once: the game's new position may arrive (on the
  // socket) before the answer to the move's own request, and either may come first.
  function told(key, said) {
    if (toldKey === key) return;
    toldKey = key;
    show(t("forced.taken", { words: said }), "taken");
  }
  function cancel() {
    clearTimeout(timer);
    timer = null;
    waiting = null;
    waitingKey = null;
    delete status.dataset.forced;
    if (note.dataset.state === "pending") conceal();
  }
  // Into the board's place for notes (drawn anew with the board), else at the foot of the page.
  function place() {
    const slot = board.querySelector("[data-notices]");
    const where = slot || home;
    if (note.parentElement !== where) where.append(note);
    note.classList.toggle("in-board", !!slot);
  }

  // Called after every drawing of the live page (`live`: no past position shown, `guided`: the
  // walk-through runs).
  function check(game, { live, guided }) {
    last = [game, { live, guided }];
    place();
    if (waiting !== null && game.ply !== waiting) {
      // The move was made: ours when the beat had run out (its request is on its way), else a click.
      if (timer === null) told(waitingKey, waitingSaid);
      cancel();
    }
    if (waiting === null) delete status.dataset.forced;
    if (note.dataset.state === "taken") {
      if (after === null) after = game.ply;
      else if (game.ply !== after) conceal(); // the game moved on since: the note has said its part
    }
    const legal = game.legal || [];
    const mine = !!game.your_turn && (game.your_seats || []).includes(game.current_player);
    const only = legal.length === 1 ? legal[0] : null;
    if (!mine || !only || !live || guided || game.terminal || game.broken || box.checked || only.struct?.ends) return;
    const key = `${game.ply}:${only.move}`;
    if (done.has(key) || waiting !== null) return;
    done.add(key);
    const ply = game.ply;
    waiting = ply;
    waitingKey = key;
    status.dataset.forced = "pending";
    const said = words(only) || only.move;
    waitingSaid = said;
    note.dataset.ply = String(ply);
    show(t("forced.pending", { words: said }), "pending");
    timer = setTimeout(async () => {
      timer = null;
      if (waiting !== ply) return;
      const sent = await send(only.id, ply);
      // Said once made, unless a newer forced move already speaks (or the move failed).
      if (sent && (waiting === null || waiting === ply) && note.dataset.ply === String(ply)) told(key, said);
      else if (!sent && waiting === ply) cancel();
    }, BEAT_MS);
  }

  // Turning the setting on stops a forced move still waiting; turning it off takes one now.
  box.addEventListener("change", () => {
    rememberConfirmForced(box.checked);
    if (box.checked) {
      done.delete(waitingKey); // not taken: turned off again, it is taken then
      cancel();
    } else if (last) check(...last);
  });

  // The player made a move themselves: the note of an earlier forced move has said its part.
  function played() {
    if (note.dataset.state === "taken") conceal();
  }

  function stop() {
    cancel();
    clearTimeout(hide);
  }

  return { toggle, note, check, played, stop };
}
