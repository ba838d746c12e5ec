// The replay page: step through a finished or running game, or an uploaded record, with the
// moves in words, the move shown highlighted on the board, and the record to download.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t, words, say, gameTitle, resultWords, seatName } from "../text.js";
import { seatList, moveList, lastTurn, endingOf, drawBoard } from "./parts.js";
import { reviewPanel } from "./review.js";
import { tokenFor } from "../store.js";
import { seatPeople } from "../results.js";
import { analyseButton } from "../analysis/door.js";

export async function replayPage(main, id) {
  clear(main);
  if (!id) {
    const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
    main.append(h("div", { class: "panel" }, h("h2", {}, t("replay.open")), h("p", {}, t("replay.choose")), file));
    file.addEventListener("change", async () => {
      const text = await file.files[0].text();
      let data;
      try { data = JSON.parse(text); } catch { showError(t("error.notJson")); return; }
      try { await showReplay(main, await api("/api/replay", { method: "POST", body: data }), null); } catch (e) { showError(e.message); }
      file.value = "";
    });
    return;
  }
  await showReplay(main, await api(`/api/games/${id}/replay`), id);
}

async function showReplay(main, replay, id) {
  clear(main);
  const frames = replay.frames;
  let index = frames.length - 1;
  const board = h("div", { class: "board-wrap", id: "replay-board" });
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: index, id: "scrub", "aria-label": t("replay.title", { title: gameTitle(replay.game, replay.title) }) });
  const label = h("span", { id: "replay-ply" });
  const info = h("div", { class: "status", id: "replay-status", "aria-live": "polite" });
  const movesBox = h("div", {});
  const seats = replay.players.length ? replay.players.map((p, i) => ({ seat: i, name: p.name, kind: p.kind })) : (replay.hints.seat_names || []).map((name, i) => ({ seat: i, name }));
  const people = seatPeople(seats, replay.hints?.seat_names); // the players behind the seat names
  const allMoves = frames.slice(1).map((f) => ({ move: f.move, player: f.player, struct: f.struct, words: f.words, say: f.say }));
  // `mark`: a move to mark on the board instead of the last turn (a review's better move).
  const go = async (n, mark = null) => {
    index = Math.max(0, Math.min(frames.length - 1, n));
    slider.value = index;
    const frame = frames[index];
    label.textContent = `${index} / ${frames.length - 1}`;
    // A review names a move by its number and jumps to the position it was played in.
    info.textContent = mark ? `${t("game.lookBefore", { n: index + 1, total: frames.length - 1 })} — ${t("review.marked")}`
      : frame.result ? t("replay.result", { result: resultWords(frame.result === replay.record?.result?.text ? replay.record.result : frame.struct?.ends ?? { text: frame.result }, replay.hints?.seat_names) })
      : index ? t("replay.after", { n: index, words: words(frame, people) || frame.move }) : t("replay.start");
    // Where and why the rules ended the game, on a line of its own (game page alike).
    const why = !mark && frame.result ? say(endingOf(allMoves, index)?.say, "", people) : "";
    if (why) info.append(h("div", { class: "ending-words" }, why));
    await drawBoard(board, replay.hints?.renderer, frame.position, frame.text,
      { legal: [], interactive: false, hints: replay.hints, options: replay.options, narrow: board.clientWidth < 560, lastTurn: mark ? [mark] : lastTurn(allMoves, index),
        ending: mark ? null : endingOf(allMoves, index)?.mark || null });
    board.dataset.ply = index;
    moveList(movesBox, allMoves, seats, index, (k) => go(k), people);
  };
  const blob = new Blob([JSON.stringify(replay.record, null, 1)], { type: "application/json" });
  const button = (key, name, symbol, to) => h("button", { id: name, "aria-label": t(key), title: t(key), onclick: () => go(to()) }, symbol);
  const winners = replay.record?.result?.winners || [];
  // A finished game of this server can be reviewed (an uploaded record has no game to cache by).
  const review = id && replay.record?.result?.terminal
    ? reviewPanel({ id, seats: seats.map((st) => ({ seat: st.seat, name: seatName(st.name) })), token: tokenFor(id), ending: endingOf(allMoves), names: replay.hints?.seat_names, people, jump: (n, mark) => {
      go(n, mark);
      if (board.getBoundingClientRect().top < 0) board.scrollIntoView({ block: "start" }); // a phone: the board is above
    } }) : "";
  // The analysis board: a finished game of this server from its moves (fair play's door asks
  // again), an uploaded record as it was rebuilt from its verified moves.
  const finished = id && replay.record?.result?.terminal;
  const analyse = !id ? analyseButton({ record: replay.record }) : finished ? analyseButton({ from_game: id }) : "";
  main.append(h("div", { class: "columns" },
    h("div", {}, h("div", { class: "panel" }, h("h2", {}, t("replay.title", { title: gameTitle(replay.game, replay.title) })), info, board,
      h("div", { class: "replay-controls" },
        button("replay.first", "first", "|◀", () => 0), button("replay.prev", "prev", "◀", () => index - 1),
        slider, button("replay.next", "next", "▶", () => index + 1), button("replay.last", "last", "▶|", () => frames.length - 1), label))),
    h("div", {}, review, h("div", { class: "panel" }, seatList({ seats: seats.map((s) => ({ ...s, claimed: true })), hints: replay.hints }, null, winners),
      h("p", {}, h("a", { href: URL.createObjectURL(blob), download: `boardplay-${replay.game}${id ? `-${id}` : ""}.json` }, t("game.download")), " · ", h("a", { href: `#/rules/${replay.game}` }, t("game.rules"))), analyse ? h("p", {}, analyse) : ""),
    h("div", { class: "panel" }, h("h3", {}, t("game.moves")), movesBox))));
  slider.addEventListener("input", () => go(Number(slider.value)));
  await go(index);
}
