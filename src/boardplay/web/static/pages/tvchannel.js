// `#/tv/<game>`: the channel's game as a spectator sees it (the game page) under a line saying
// what it is, and once that game is over, a few seconds later (READ_MS: its end is read first),
// the next best, or a line saying nobody plays it now until someone does (tv.js: the lobby's
// section of the channels).
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { t, gameTitle } from "../text.js";
import { gamePage } from "./game.js";
import { playersOf, POLL_MS } from "./tv.js";

const READ_MS = 5000;
const AGAIN_MS = 2000; // the game shown has ended but is still the channel's: ask again soon

// The channel of `game`, followed from one game to the next.
export async function tvPage(main, game, connection) {
  const title = gameTitle(game, game);
  const head = h("div", { class: "panel tv-head", id: "tv-head" },
    h("h2", { id: "tv-title" }, t("tv.channel", { title })), h("p", { class: "muted", id: "tv-line" }));
  const screen = h("div", { id: "tv-screen" });
  clear(main).append(head, screen);
  let shown = null; // the game on the screen
  let leaveGame = () => {};
  let timer = null;
  let left = false;

  async function tune() {
    clearTimeout(timer);
    if (left) return;
    let channel = null;
    try { channel = (await api("/api/tv")).channels.find((c) => c.game === game) || null; } catch { /* asked again below */ }
    if (left) return;
    const line = head.querySelector("#tv-line");
    if (!channel) {
      leaveGame();
      leaveGame = () => {};
      shown = null;
      line.textContent = t("tv.nobody", { title });
      clear(screen);
      timer = setTimeout(tune, POLL_MS);
      return;
    }
    line.textContent = t("tv.showing", { title, players: playersOf(channel), rating: channel.rating });
    if (channel.id === shown) { timer = setTimeout(tune, AGAIN_MS); return; }
    leaveGame();
    shown = channel.id;
    head.dataset.game = channel.id;
    leaveGame = (await gamePage(screen, channel.id, connection, { onEnd: () => { timer = setTimeout(tune, READ_MS); } })) || (() => {});
  }

  await tune();
  return () => { left = true; clearTimeout(timer); leaveGame(); };
}
