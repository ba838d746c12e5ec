// The page of the players one follows (#/following), each with where they are now — on the
// site, playing (with a link to watch the game) or in a tournament — and of the players one
// blocks (api/relations.py). Signed-in players only; a guest is sent to sign in.
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { t } from "../text.js";
import { account, loadSession } from "../session.js";
import { path, button } from "../relations/relations.js";
import { playerLink, botTag } from "./player.js";

// Where a followed player is now, in words: playing (with the game to watch), in a tournament,
// on the site, or away; a dot as the table's presence shows it.
function whereabouts(f) {
  const on = f.online || f.playing || f.tournament;
  const words = f.playing ? t("relations.playing")
    : f.tournament ? t("relations.tournament", { name: f.tournament.name })
      : f.online ? t("relations.online") : t("relations.offline");
  const label = f.tournament && !f.playing
    ? h("a", { href: `#/tournament/${encodeURIComponent(f.tournament.id)}` }, words) : words;
  return [h("span", { class: `presence ${on ? "on" : "off"}`, "aria-hidden": "true" }), label];
}

// The page: drawn, and drawn again when a player followed starts a game (lobbylive.js hears it);
// returns what stops that when the page is left.
export async function followingPage(main) {
  await drawFollowing(main);
  const again = () => drawFollowing(main).catch(() => {});
  window.addEventListener("boardplay:followed", again);
  return () => window.removeEventListener("boardplay:followed", again);
}

async function drawFollowing(main) {
  await loadSession();
  if (!account()) { location.hash = "#/signin"; return; }
  const [{ following }, { blocked }] = await Promise.all([api("/api/relations/following"), api("/api/relations/blocked")]);
  clear(main);
  const again = () => drawFollowing(main);
  const list = following.length ? h("table", { class: "list following", id: "following-list" },
    h("tr", {}, h("th", {}, t("relations.player")), h("th", {}, t("relations.now")), h("th", {}, "")),
    following.map((f) => h("tr", { "data-name": f.name, "data-now": f.playing ? "playing" : f.tournament ? "tournament" : f.online ? "online" : "away" },
      h("td", { class: "what" }, playerLink(f.name), botTag(f.bot)),
      h("td", { class: "who" }, whereabouts(f)),
      h("td", { class: "act" },
        f.playing ? [h("a", { href: `#/game/${encodeURIComponent(f.playing)}`, class: "watch" }, t("relations.watch")), " "] : "",
        button({ class: "quiet unfollow", "data-name": f.name }, t("relations.unfollow"), async () => { await api(path("follow", f.name), { method: "DELETE" }); again(); })))))
    : h("p", { class: "muted", id: "following-list" }, t("relations.followingNone"));
  const blocks = blocked.length ? h("ul", { id: "blocked-list" }, blocked.map((b) => h("li", {},
    playerLink(b.name), botTag(b.bot), " ",
    button({ class: "quiet unblock", "data-name": b.name }, t("relations.unblock"), async () => { await api(path("block", b.name), { method: "DELETE" }); again(); }))))
    : h("p", { class: "muted", id: "blocked-list" }, t("relations.blockedNone"));
  main.append(h("div", { class: "panel", id: "following-page" },
    h("h2", {}, t("relations.followingTitle")), list,
    h("h3", {}, t("relations.blockedTitle")), h("p", { class: "muted small" }, t("relations.blockedNote")), blocks));
}
