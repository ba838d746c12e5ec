// TV (lichess's): for each game, the best game of it being played now (by its players' ratings,
// lobby/tv.py). The lobby's section lists each game's channel with its players and a link to
// watch, asked again every POLL_MS while the lobby is shown; `#/tv/<game>` shows the channel's
// game as a spectator sees it (the game page) under a line saying what it is, and once that
// game is over, a few seconds later (READ_MS: its end is read first), the next best, or a line
// saying nobody plays it now until someone does.
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { t, gameTitle, seatName } from "../text.js";
import { gamePage } from "./game.js";
import { follow } from "./tournaments.js";

const POLL_MS = 10000;
const READ_MS = 5000;
const AGAIN_MS = 2000; // the game shown has ended but is still the channel's: ask again soon

// "cyd (1900) – dee (1800)": a channel's players.
const playersOf = (channel) => channel.players.map((p) => `${seatName(p.name)} (${p.rating})`).join(" – ");

function channelList(channels) {
  if (!channels.length) return h("p", { class: "muted", id: "tv-none" }, t("tv.none"));
  return h("ul", { class: "tv-list" }, channels.map((channel) => h("li", { "data-channel": channel.game, "data-game": channel.id },
    h("strong", {}, gameTitle(channel.game, channel.game)), " ",
    h("span", { class: "tv-players" }, playersOf(channel)), " ",
    h("a", { href: `#/tv/${encodeURIComponent(channel.game)}`, class: "tv-watch", "aria-label": t("tv.watchLabel", { title: gameTitle(channel.game, channel.game) }) }, t("tv.watch")))));
}

// The lobby's section; `stop()` ends its polling.
export function tvSection() {
  const list = h("div", { id: "tv-channels" });
  const box = h("section", { class: "panel", id: "lobby-tv", "aria-labelledby": "lobby-tv-title" },
    h("h2", { id: "lobby-tv-title" }, t("tv.title")), h("p", { class: "muted" }, t("tv.about")), list);
  let stop = () => {};
  let left = false;
  api("/api/tv").then((first) => {
    if (left) return;
    clear(list).append(channelList(first.channels));
    stop = follow("/api/tv", first, POLL_MS, (next) => clear(list).append(channelList(next.channels)));
  }).catch(() => { box.hidden = true; });
  return { element: box, stop: () => { left = true; stop(); } };
}

// `#/tv/<game>`: the channel of `game`, followed from one game to the next.
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
