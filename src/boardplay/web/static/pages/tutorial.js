// A short walk through a first turn on the real board: a card above the board says what to do
// and why, the places to click glow, and the card moves on when the player has done it. It runs
// on a player's first game of each game (or when asked), can be skipped at any time, and is not
// shown again in this browser once finished or skipped.
import { h, clear } from "../dom.js";
import { t } from "../text.js";
import { rememberTutorial } from "../store.js";

// Steps per game: one text per move of the first turn (Potlatch's turn is two actions, Proteus's
// and a Passtally setup turn one). A step whose piece is picked up first (Proteus) also has a
// text for once it is in hand: "<key>.selected".
const STEPS = { potlatch: 2, proteus: 1, passtally: 1, montana: 2 };

// The step texts of a game (the generic one for a game without its own).
function steps(name) {
  const count = STEPS[name] || 0;
  if (!count) return ["tutorial.generic.1"];
  return Array.from({ length: count }, (_, i) => `tutorial.${name}.${i + 1}`);
}

// The board's places the player should click now: the pieces to pick up first where the board
// asks for a selection, else the targets.
function targets(board) {
  const select = board.querySelectorAll("[data-select]");
  if (select.length && !board.dataset.selected) return [...select];
  return [...board.querySelectorAll("[data-moves]")];
}

// A step's text, or its ".selected" text while the board holds a picked-up piece.
function stepText(board, key) {
  const held = `${key}.selected`;
  return board.dataset.selected && t(held) !== held ? t(held) : t(key);
}

// `changed` is called when the walk-through starts or ends (the page shows its button then).
export function tutorial(board, name, changed = () => {}) {
  const said = (key) => stepText(board, key);
  const card = h("section", { class: "tutorial", id: "tutorial", "aria-live": "polite", hidden: true });
  const texts = steps(name);
  let running = false;
  let made = 0; // the player's own moves since the walk-through began
  let turnDone = false; // the player has moved and the turn has passed on: the walk is over
  let mover = null; // the seat the player walked through the turn with
  let seenPly = null;
  let game = null;

  const mark = () => {
    for (const el of board.querySelectorAll(".tutor-target")) el.classList.remove("tutor-target");
    if (!running || !game?.your_turn) return;
    for (const el of targets(board)) el.classList.add("tutor-target");
  };
  // The board is redrawn on every click (a selection, a live update): mark it again each time.
  const watcher = new MutationObserver(() => { if (running) draw(); });
  watcher.observe(board, { childList: true });

  function end() {
    running = false;
    card.hidden = true;
    rememberTutorial(name);
    mark();
    changed();
  }

  function draw() {
    clear(card);
    if (!running) return;
    const finished = turnDone;
    const step = Math.min(made, texts.length - 1);
    const total = texts.length;
    card.dataset.step = finished ? "end" : String(step + 1);
    card.append(h("h3", {}, finished ? t("tutorial.done") : t("tutorial.title", { n: step + 1, of: total })));
    if (finished) card.append(h("p", {}, t("tutorial.end")), h("button", { type: "button", class: "primary", id: "tutorial-finish", onclick: end }, t("tutorial.done")));
    else if (!game.your_turn) card.append(h("p", {}, t("tutorial.wait")));
    else card.append(h("p", { id: "tutorial-text" }, said(texts[step])));
    if (!finished) card.append(h("button", { type: "button", id: "tutorial-skip", onclick: end }, t("tutorial.skip")));
    card.hidden = false;
    mark();
  }

  function update(next) {
    if (running && seenPly !== null && next.ply > seenPly) {
      // Count the moves made by the player's own seats since the last view.
      for (const move of next.moves.slice(seenPly)) {
        if (!(next.your_seats || []).includes(move.player)) continue;
        made += 1;
        if (mover === null) mover = move.player;
      }
    }
    seenPly = next.ply;
    game = next;
    if (made > 0 && next.current_player !== mover) turnDone = true;
    if (running && (next.terminal || next.broken)) { end(); return; }
    draw();
  }

  function start(current) {
    running = true;
    made = 0;
    turnDone = false;
    mover = null;
    seenPly = current.ply;
    game = current;
    draw();
    changed();
  }

  return { card, update, start, get running() { return running; }, stop: () => watcher.disconnect() };
}
