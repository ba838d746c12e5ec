// A short walk through a first turn on the real board: a card above the board says what to do
// and why, the places to click glow, and the card moves on when the player has done it. It runs
// on a player's first game of each game (or when asked), can be skipped at any time, and is not
// shown again in this browser once finished or skipped.
import { h, clear } from "../dom.js";
import { t } from "../text.js";
import { rememberTutorial } from "../store.js";

// What a game's walk is, from its board module's `tutorial`: `{ steps: n }`, one text per move of
// the first turn (Potlatch's turn is two actions, Proteus's and a Passtally setup turn one; a
// step whose piece is picked up first, as in Proteus, also has a text for once it is in hand:
// "<key>.selected"), or `{ byStage: true, turn, step }` for a turn with no fixed number of moves,
// whose walk follows the stage of the decision (Montana: boards/montana-tutorial.js). A stage
// step is `{ key, args, part, intro, id, teach }`: the text's key and its parameters, the part of
// the board it talks about (a selector, or a list of them), whether "Next" leads on (it then marks
// `id`, or the key, as read in the walk's notes), and which of the places to click glow (all of
// them without `teach`, see teaches() below); the spec may have `observe(before, next,
// notes)`, told of every new position the walk sees, to note what happened between two turns
// (Proteus: a rule replaced by another), and `end`, the key of its last card's text.

// The step texts of a game (the generic one for a game without its own).
function steps(name, spec) {
  const count = spec?.steps || 0;
  if (!count) return ["tutorial.generic.1"];
  return Array.from({ length: count }, (_, i) => `tutorial.${name}.${i + 1}`);
}

// The board's places the player should click now: the pieces to pick up first where the board
// asks for a selection, else the targets. On Montana's table every target is a choice of its own
// (the wheel and the City play at once beside the spaces and hexes that are selected first).
function targets(board, all = false) {
  if (all) return [...board.querySelectorAll("[data-select], [data-moves]")];
  const select = board.querySelectorAll("[data-select]");
  if (select.length && !board.dataset.selected) return [...select];
  return [...board.querySelectorAll("[data-moves]")];
}

// Whether a place to click is one a step teaches (`teach`: the ids of the moves it is about and the
// selections that lead to them; without it, every place glows).
function teaches(el, teach) {
  if (!teach) return true;
  const ids = el.getAttribute("data-moves");
  if (ids !== null) return JSON.parse(ids).some((id) => teach.moves.includes(id));
  return teach.select.includes(el.getAttribute("data-select"));
}

// A step's text, or its ".selected" text while the board holds a picked-up piece.
function stepText(board, key) {
  const held = `${key}.selected`;
  return board.dataset.selected && t(held) !== held ? t(held) : t(key);
}

// `changed` is called when the walk-through starts or ends (the page shows its button then).
export function tutorial(board, name, spec, changed = () => {}) {
  const said = (key) => stepText(board, key);
  const card = h("section", { class: "tutorial", id: "tutorial", "aria-live": "polite", hidden: true });
  const texts = steps(name, spec);
  let running = false;
  let made = 0; // the player's own moves since the walk-through began
  let turnDone = false; // the player has moved and the turn has passed on: the walk is over
  let mover = null; // the seat the player walked through the turn with
  let seenPly = null;
  let game = null;
  // The stage-driven walk (Montana): the turn walked through, whether the player has made a
  // move in it, the page of its introduction, and the texts shown so far (numbering the steps).
  const byStage = Boolean(spec?.byStage);
  let walked = null;
  let acted = false;
  let page = 0;
  let shown = [];
  let broughtKey = null; // the introduction page whose part was last brought into view
  let notes = { read: new Set() }; // what the spec noted during the walk, and the pages read

  // Glow the places to click; a stage-driven step also points at the part of the table it talks
  // about, and an introduction page that leads on ("Next") only points.
  const mark = (step = null) => {
    for (const el of board.querySelectorAll(".tutor-target")) el.classList.remove("tutor-target");
    for (const el of board.querySelectorAll(".tutor-part")) el.classList.remove("tutor-part");
    if (!running || !game?.your_turn || turnDone) return;
    for (const part of [].concat(step?.part || [])) board.querySelector(part)?.classList.add("tutor-part");
    if (step?.intro) return;
    for (const el of targets(board, byStage)) if (teaches(el, step?.teach)) el.classList.add("tutor-target");
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

  // The card's content is written afresh on every redraw of the board, but put in place only when
  // it differs: a button replaced between the press and the release of a click loses the click.
  function draw() {
    if (!running) { clear(card); return; }
    const box = h("div", {});
    const after = byStage ? drawStage(box) : drawSteps(box);
    if (box.innerHTML !== card.innerHTML) card.replaceChildren(...box.childNodes);
    after?.();
  }

  function drawSteps(box) {
    const finished = turnDone;
    const step = Math.min(made, texts.length - 1);
    const total = texts.length;
    card.dataset.step = finished ? "end" : String(step + 1);
    box.append(h("h3", {}, finished ? t("tutorial.done") : t("tutorial.title", { n: step + 1, of: total })));
    if (finished) box.append(h("p", {}, t("tutorial.end")), h("button", { type: "button", class: "primary", id: "tutorial-finish", onclick: end }, t("tutorial.done")));
    else if (!game.your_turn) box.append(h("p", {}, t("tutorial.wait")));
    else box.append(h("p", { id: "tutorial-text" }, said(texts[step])));
    if (!finished) box.append(h("button", { type: "button", id: "tutorial-skip", onclick: end }, t("tutorial.skip")));
    card.hidden = false;
    mark();
  }

  // The stage-driven card: the step's text (numbered in the order the texts were first shown),
  // "Next" on an introduction page, "Skip" until the turn is over, then "Finish".
  function drawStage(box) {
    const step = turnDone || !game.your_turn ? null : spec.step(game, walked, acted, page, notes);
    if (step && !shown.includes(step.key)) shown.push(step.key);
    const n = step ? shown.indexOf(step.key) + 1 : shown.length;
    card.dataset.step = turnDone ? "end" : String(n);
    card.dataset.key = step?.key || "";
    box.append(h("h3", {}, turnDone ? t("tutorial.done") : t("tutorial.step", { n: Math.max(n, 1) })));
    if (turnDone) box.append(h("p", { id: "tutorial-text" }, t(spec.end || "tutorial.end")), h("button", { type: "button", class: "primary", id: "tutorial-finish", onclick: end }, t("tutorial.done")));
    else if (!step) box.append(h("p", {}, t("tutorial.wait")));
    else box.append(h("p", { id: "tutorial-text" }, t(step.key, step.args)));
    const next = () => { page += 1; notes.read.add(step.id || step.key); draw(); };
    if (step?.intro) box.append(h("button", { type: "button", class: "primary", id: "tutorial-next", onclick: next }, t("tutorial.next")));
    if (!turnDone) box.append(h("button", { type: "button", id: "tutorial-skip", onclick: end }, t("tutorial.skip")));
    // An introduction page stays in view at the foot of the screen (pinned), and the part it
    // talks about is brought into view when the page first shows (on a phone the parts stack far
    // below the card's place above the table).
    card.classList.toggle("tutor-pinned", !!step?.intro);
    card.hidden = false;
    mark(step);
    return () => bringStep(step);
  }

  // Once the card is in place: bring what a new step talks about into view.
  function bringStep(step) {
    if (step?.intro && step.part && step.key !== broughtKey) {
      broughtKey = step.key;
      bring(board.querySelector([].concat(step.part)[0]));
    } else if (step && !step.intro && step.key !== broughtKey) {
      // A new step's card, above the table, is brought back into view if the page was scrolled
      // past it (on a phone the board and its parts run far below it).
      broughtKey = step.key;
      if (card.getBoundingClientRect().top < 0) card.scrollIntoView({ block: "start" });
    }
  }

  // Scroll `el` to the middle of the screen if any of it is hidden (above, or under the card).
  function bring(el) {
    if (!el) return;
    const box = el.getBoundingClientRect();
    const free = innerHeight - card.getBoundingClientRect().height;
    if (box.top < 0 || box.bottom > free) el.scrollIntoView({ block: box.height > free ? "start" : "center" });
  }

  function update(next) {
    if (byStage) { updateStage(next); return; }
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

  // Montana: the walk begins with the player's first turn and is over once that turn is.
  function updateStage(next) {
    const before = walked;
    const turn = spec.turn(next, walked);
    walked = turn.walked;
    if (before !== null && running && seenPly !== null && next.ply > seenPly) {
      acted = acted || next.moves.slice(seenPly).some((m) => (next.your_seats || []).includes(m.player));
    }
    if (running && game && next.ply > game.ply) spec.observe?.(game, next, notes);
    if (turn.over) turnDone = true;
    seenPly = next.ply;
    game = next;
    if (running && (next.terminal || next.broken)) { end(); return; }
    draw();
  }

  function start(current) {
    running = true;
    made = 0;
    turnDone = false;
    mover = null;
    walked = null;
    acted = false;
    page = 0;
    shown = [];
    broughtKey = null;
    notes = { read: new Set() };
    seenPly = current.ply;
    game = current;
    if (byStage) walked = spec.turn(current, null).walked;
    draw();
    changed();
  }

  // `guiding`: the walk still asks for the player's clicks (its turn is not over; once it is, the
  // card only waits for "Finish").
  return { card, update, start, get running() { return running; }, get guiding() { return running && !turnDone; }, stop: () => watcher.disconnect() };
}
