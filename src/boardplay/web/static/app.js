// boardplay web front end: the router. Each page lives in pages/, talks to the server through
// api.js (HTTP) or live.js (a game's live connection), and draws boards from boards/. The pages
// the lobby does not show come in groups (later/), each loaded when one of its pages is first
// opened (later/routes.js says which).
import { h, clear } from "./dom.js";
import { t, setLanguage, preferredLanguage, rememberLanguage, language } from "./text.js";
import { lobbyPage, joinPage } from "./pages/lobby.js";
import { playerPage, ratingsPage } from "./pages/player.js";
import { loadSession, accountLink, onAccount } from "./session.js";
import { startLobby, drawBar } from "./lobbylive.js";
import { tournamentsPage } from "./pages/tournaments.js";
import { showNotices, redrawNotices } from "./moderation/notices.js";
import { showNotation } from "./store.js";
import { startTurns, drawBadge } from "./turns.js";
import { boardModules } from "./boards/load.js";
import { startNotices } from "./notify.js";
import { followAccountLanguage, keepLanguage } from "./accountlang.js";
import "./route.js"; // remembers the route before this one from the first page on
import { LATER } from "./later/routes.js";

const main = document.getElementById("main");
const connection = document.getElementById("connection");

// A group of pages by its name in later/routes.js, loaded once (the browser keeps the module):
// each import names its file for esbuild to make it a file of its own.
const GROUPS = {
  play: () => import("./later/play.js"),
  account: () => import("./later/account.js"),
  tournament: () => import("./later/tournament.js"),
  following: () => import("./later/following.js"),
  moderation: () => import("./later/moderation.js"),
};
const later = (route) => GROUPS[LATER[route]]();

let leave = () => {};
// Pages are shown one at a time, in the order asked for: a page still loading (waiting for the
// server) finishes and is then left, so it never draws itself over a newer page; of several
// navigations made meanwhile only the last is shown.
let routing = Promise.resolve();
let asked = 0;
function route() {
  const mine = ++asked;
  routing = routing.then(() => (mine === asked ? show() : undefined));
  return routing;
}

// Every page starts at its top (a game opened from far down the lobby shows its title and board,
// not the middle of its page), the browser's own scroll memory included.
if ("scrollRestoration" in history) history.scrollRestoration = "manual";

async function show() {
  leave();
  leave = () => {};
  connection.textContent = "";
  window.scrollTo(0, 0);
  document.getElementById("note").hidden = true; // news of the page left behind (a posted seek)
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "game" && parts[1]) leave = (await (await later("game")).gamePage(main, parts[1], connection, { learn: parts[2] === "learn" })) || leave;
    else if (parts[0] === "join" && parts[1]) await joinPage(main, parts[1], parts[2]);
    else if (parts[0] === "replay") await (await later("replay")).replayPage(main, parts[1]);
    else if (parts[0] === "rules" && parts[1]) await (await later("rules")).rulesPage(main, parts[1]);
    else if (parts[0] === "signin") await (await later("signin")).signInPage(main);
    else if (parts[0] === "account") await (await later("account")).accountPage(main);
    else if (parts[0] === "player" && parts[1]) await playerPage(main, parts[1]);
    else if (parts[0] === "following") leave = (await (await later("following")).followingPage(main)) || leave;
    else if (parts[0] === "ratings") await ratingsPage(main, parts[1]);
    else if (parts[0] === "turns") leave = (await (await later("turns")).turnsPage(main)) || leave;
    else if (parts[0] === "tournaments") leave = (await tournamentsPage(main)) || leave;
    else if (parts[0] === "tournament" && parts[1]) leave = (await (await later("tournament")).tournamentPage(main, parts[1])) || leave;
    else if (parts[0] === "tv" && parts[1]) leave = (await (await later("tv")).tvPage(main, parts[1], connection)) || leave;
    else if (parts[0] === "moderation") await (await later("moderation")).moderationPage(main);
    else if (parts[0] === "analysis" && parts[1] === "game") await (await later("analysis")).openGameStudy(main, parts[2]);
    else if (parts[0] === "analysis" && parts[1] === "new") await (await later("analysis")).openPositionLink(parts[2], parts[3]);
    else if (parts[0] === "analysis" && parts[1]) leave = (await (await later("analysis")).analysisPage(main, parts[1], parts[2])) || leave;
    else if (parts[0] === "analysis") await (await later("analysis")).startPage(main);
    else if (parts[0] === "puzzles") {
      const which = !parts[1] ? "next" : parts[1] === "daily" || parts[1] === "streak" ? parts[1] : "one";
      await (await later("puzzles")).puzzlesPage(main, which, parts[1]);
    }
    else leave = (await lobbyPage(main)) || leave;
  } catch (e) {
    clear(main).append(h("div", { class: "panel" }, h("h2", {}, t("error.title")), h("p", {}, e.message), h("a", { href: "#/" }, t("error.back"))));
  }
}
// The page's fixed words (header, navigation) in the current language.
function translateShell() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  document.getElementById("language").value = language();
  accountLink(document.getElementById("account-link"));
  drawBar(); // the challenges under the header
  drawBadge(); // the "your turn" link's title
  redrawNotices(); // what moderators decided, in the new language
}

// The language switcher on every page: remembered, and the page drawn again in the new language.
document.getElementById("language").addEventListener("change", async (event) => {
  rememberLanguage(event.target.value);
  keepLanguage(event.target.value); // the account's mails and pushes follow
  await setLanguage(event.target.value);
  translateShell();
  route();
});

// A link followed while the page is still starting (its language, session and board modules on
// their way) is drawn once, by the start-up's own route below: routing it at once as well drew
// the page twice, the second time over whatever the person had opened meanwhile (a chat, a menu).
let started = false;
window.addEventListener("hashchange", () => { if (started) route(); });
window.addEventListener("DOMContentLoaded", async () => {
  document.body.classList.toggle("show-notation", showNotation()); // the engine's notation, if asked for
  // The lobby's connection opens now, before anything is drawn (the cookie says whose it is), and
  // follows sign-in and sign-out; the "your turn" badge follows the account as well.
  startLobby();
  startTurns();
  startNotices(); // the service worker, once the page has loaded
  // Every game's words are in its board module, and a page may name a game before it draws its
  // board (a title, a challenge, a rating list): so the modules of the games this server offers
  // (the page lists them, web/frontpage.py) are loaded first. The bundle holds every board module.
  const offered = (document.body.dataset.games || "").split(" ").filter(Boolean);
  await Promise.all([setLanguage(preferredLanguage()), loadSession(), boardModules(offered)]);
  translateShell();
  onAccount(() => showNotices()); // a moderator's decision about this player, and their link
  started = true;
  route();
  followAccountLanguage(() => { translateShell(); route(); });
});
// A link to the page already shown (the lobby, "Open a record") reloads it: no hashchange fires.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[href^='#']");
  if (link && link.getAttribute("href") === location.hash && !event.defaultPrevented) { event.preventDefault(); route(); }
});
