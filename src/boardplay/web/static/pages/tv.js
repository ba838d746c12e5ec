// TV (lichess's): for each game, the best game of it being played now (by its players' ratings,
// lobby/tv.py). The lobby's section lists each game's channel with its players and a link to
// watch, asked again every POLL_MS while the lobby is shown; a channel's own page, `#/tv/<game>`,
// is tvchannel.js (loaded with the game page when first opened: later/play.js).
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { t, gameTitle, seatName } from "../text.js";
import { follow } from "./tournaments.js";

export const POLL_MS = 10000;

// "cyd (1900) – dee (1800)": a channel's players.
export const playersOf = (channel) => channel.players.map((p) => `${seatName(p.name)} (${p.rating})`).join(" – ");

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
