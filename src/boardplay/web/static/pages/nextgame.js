// A tournament's next game, announced (the lobby's socket: "started" with its tournament) while
// this page shows a game that is over: the page stays on the finished game so its player reads
// how it ended (the result, the ending explained, whom they played) for at least READ_MS after
// the end was drawn, and shows a notice counting down for at least NOTICE_MS ("Next game in
// 3…", with Go now and Stay here), then takes them there. The server holds the new game's clock
// until its players are at the board (table/clocks.py), so the wait costs nobody any time. A
// page showing a game still in play, or another page, goes at once (lobbylive.js).
import { h, clear } from "../dom.js";
import { t } from "../text.js";

export const READ_MS = 5000;
export const NOTICE_MS = 3000;
export const END_MS = 1500;
// How long a player's page whose game is still in play here waits for its end to be drawn (the
// next game may be told a moment before the game's own socket says it ended) before it goes.

// `go(id)` takes the player to game `id`; `seated()` says whether this page is a player's.
export function nextGameNotice(go, seated) {
  const box = h("div", { class: "next-game", id: "next-game", role: "status", hidden: true });
  let endedAt = null; // when this page first drew the game over (ms, performance.now)
  let pending = null; // the game announced
  let timer = null;

  // The game is over on the page now (called at every drawing; only the first counts).
  function ended() {
    if (endedAt !== null) return;
    endedAt = performance.now();
    if (pending !== null) count(pending);
  }

  function leave() {
    stop();
    go(pending);
  }

  function draw(seconds) {
    clear(box).hidden = false;
    box.dataset.game = pending;
    if (seconds === null) { // stayed: the game waits for them behind a button
      box.append(h("span", { id: "next-game-words" }, t("nextGame.ready")), " ",
        h("button", { type: "button", class: "primary", id: "next-game-go", onclick: leave }, t("nextGame.goTo")));
    } else {
      box.dataset.seconds = String(seconds);
      box.append(h("strong", { id: "next-game-words" }, t("nextGame.in", { n: seconds })), " ",
        h("button", { type: "button", class: "primary", id: "next-game-go", onclick: leave }, t("nextGame.go")), " ",
        h("button", { type: "button", id: "next-game-stay", onclick: stay }, t("nextGame.stay")),
        h("p", { class: "muted" }, t("nextGame.clockWaits")));
    }
  }

  function stay() {
    stop();
    draw(null);
  }

  // The countdown to leaving for game `id`, from the end drawn here.
  function count(id) {
    stop();
    pending = id;
    delete box.dataset.seconds;
    const leaveAt = Math.max(endedAt + READ_MS, performance.now() + NOTICE_MS);
    const step = () => {
      const left = leaveAt - performance.now();
      if (left <= 0) { leave(); return; }
      const seconds = Math.ceil(left / 1000);
      if (box.dataset.seconds !== String(seconds)) draw(seconds);
      timer = setTimeout(step, left - (seconds - 1) * 1000); // to the next whole second
    };
    step();
  }

  // The next game `id` was announced: true if this page holds the player here for now (a game
  // over on screen, or a player's game whose end is surely on its way), false to go at once.
  function offer(id) {
    if (pending === id) return true; // told again (a reconnected socket): the countdown goes on
    if (endedAt !== null) { count(id); return true; }
    if (!seated()) return false;
    stop();
    pending = id;
    timer = setTimeout(() => { if (endedAt === null) leave(); }, END_MS);
    return true;
  }

  function stop() { clearTimeout(timer); timer = null; }

  return { box, ended, offer, stop };
}
