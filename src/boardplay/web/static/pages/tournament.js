// One tournament's page (#/tournament/{id}): its settings and where it stands, the signed-in
// person's Join / Pause / Withdraw, a notice with a link when their game is ready, the standings
// (rank, name with BOT for bots, points; Buchholz, Sonneborn–Berger and byes in a Swiss or pods;
// the results sheet in an arena) and the rounds with their games to watch.
//
// The standings come a page at a time (GET /api/tournaments/{id}/standings, tournaments/paging.py):
// first the page the signed-in player is on, with page buttons and "Jump to me", so a player finds
// themselves in a field of a thousand.
//
// Live by polling: every POLL ms while it is shown the page asks for its standings page with the
// revision it shows (`since`): the server answers "unchanged" from one number, or only the lines
// of the page that changed, written over the page's own by rank. The rest of the view (settings,
// rounds; GET /api/tournament-pages/{id}?standings=false) is asked for again only when the
// revision moved. The lobby socket's push reaches only the players of a new game (it still takes
// a paired player to their game at once, lobbylive.js), and standings change at most once per
// game ended, so a poll of a few seconds is as fresh for far less machinery than a tournament
// topic on the broker.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t, gameTitle, clockWords } from "../text.js";
import { account, loadSession } from "../session.js";
import { playerLink, botTag } from "./player.js";
import { kindWords, stateWords, lengthWords } from "./tournaments.js";
import { tournamentChat } from "./tournamentchat.js";
import { refusal } from "../tournaments/refusals.js";

const POLL = 3000;

// A number of points as the sheet writes it: 1½, ½, 2.
const points = (value) => {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
};

// One table's result in the reader's words: "1–0", "½–½" for two; places for more.
function resultOf(table) {
  if (!table.places) return t("tournament.playing");
  if (table.places.length === 2) {
    const [a, b] = table.places;
    return a === b ? "½–½" : a < b ? "1–0" : "0–1";
  }
  return table.places.map((p) => `${p}`).join("–");
}

function settingsLine(tournament) {
  return [
    gameTitle(tournament.game, tournament.game), kindWords(tournament.kind), clockWords(tournament.clock),
    t(tournament.rated ? "tournament.rated" : "tournament.casual"), lengthWords(tournament),
    t(tournament.bots ? "tournament.botsWelcome" : "tournament.peopleOnly"),
  ].join(" · ");
}

const statusMark = (line) => (line.status === "paused" || line.status === "withdrawn"
  ? [" ", h("span", { class: "tag muted-tag" }, t(`tournament.entrant.${line.status}`))] : "");

// A column's heading: its word, and on a phone a short form of it (the title says it in full).
const SHORT = new Set(["points", "buchholz", "byes", "games"]);
const columnHead = (key) => (SHORT.has(key)
  ? [h("span", { class: "long" }, t(`tournament.col.${key}`)), h("span", { class: "short" }, t(`tournament.col.${key}Short`))]
  : t(`tournament.col.${key}`));

function standingsTable(tournament, standings, me) {
  if (!standings.length) return h("p", { class: "muted", id: "no-standings" }, t("tournament.nobodyYet"));
  const arena = tournament.kind === "arena";
  const head = arena
    ? ["rank", "player", "points", "games", "sheet"]
    : ["rank", "player", "points", "buchholz", "sb", "byes", "games"];
  const cell = (line, key) => {
    if (key === "rank") return line.rank;
    if (key === "player") return [playerLink(line.name), botTag(line.bot), statusMark(line), arena && line.fire ? h("span", { class: "tag fire-tag", title: t("tournament.fireTitle") }, t("tournament.onFire")) : ""];
    if (key === "points") return arena ? line.points : points(line.points);
    if (key === "buchholz") return points(line.buchholz);
    if (key === "sb") return String(line.sonneborn_berger);
    if (key === "sheet") return h("span", { class: "sheet", translate: "no" }, line.sheet);
    return line[key];
  };
  return h("table", { class: "list standings", id: "standings", "aria-labelledby": "standings-title" },
    h("thead", {}, h("tr", {}, head.map((key) => h("th", { scope: "col", class: `col-${key}`, title: t(`tournament.col.${key}Title`) }, columnHead(key))))),
    h("tbody", {}, standings.map((line) => h("tr", { class: line.name === me ? "me" : null, "data-player": line.name, "data-rank": line.rank },
      head.map((key) => h(key === "player" ? "th" : "td", { class: `col-${key}`, ...(key === "player" ? { scope: "row" } : {}) }, cell(line, key)))))));
}

function roundsList(view, bots) {
  const { rounds, tournament } = view;
  if (!rounds.length) return h("p", { class: "muted" }, t(tournament.kind === "arena" ? "tournament.noGames" : "tournament.noRounds"));
  const named = (name) => [name, botTag(bots.has(name))];
  return h("ol", { class: "rounds", reversed: true }, [...rounds].reverse().map((round) => h("li", { class: "round", "data-round": round.round },
    h("h3", {}, t(tournament.kind === "arena" ? "tournament.wave" : "tournament.round", { n: round.round })),
    h("ul", { class: "round-games" },
      round.tables.map((table) => h("li", { "data-game": table.game },
        table.players.map((name, i) => [i ? " – " : "", ...named(name)]), " ",
        h("span", { class: "result" }, resultOf(table)), " ",
        h("a", { href: `#/game/${table.game}`, class: "watch" }, t(table.places ? "tournament.view" : "tournament.watch")))),
      round.byes.map((name) => h("li", { class: "bye" }, t("tournament.bye", { name }), botTag(bots.has(name))))))));
}

// A page's lines after an answer to `since`: the changed lines written over the page's own by
// rank, cut to the page's length (the server's `changed`, tournaments/paging.py).
function applied(lines, answer) {
  const start = (answer.page - 1) * answer.size;
  const shown = lines.slice(0, Math.max(0, Math.min(answer.size, answer.total - start)));
  for (const line of answer.changed) shown[line.rank - 1 - start] = line;
  return shown;
}

// The page buttons under the standings: first, previous, "Page 3 of 20", next, last, and
// "Jump to me" while the signed-in player's line is on another page.
function pager(board, goTo) {
  const button = (id, label, page, disabled) => h("button", { type: "button", id, disabled, onclick: () => goTo(page) }, label);
  const here = board.page;
  const parts = board.pages > 1 ? [
    button("standings-first", t("tournament.pageFirst"), 1, here === 1),
    button("standings-prev", t("tournament.pagePrev"), here - 1, here === 1),
    h("span", { id: "standings-page", "aria-live": "polite" }, t("tournament.pageOf", { page: here, pages: board.pages })),
    button("standings-next", t("tournament.pageNext"), here + 1, here === board.pages),
    button("standings-last", t("tournament.pageLast"), board.pages, here === board.pages),
  ] : [];
  if (board.me && board.me.page !== here) parts.push(button("standings-me", t("tournament.jumpToMe", { rank: board.me.rank }), "me", false));
  return parts.length ? h("nav", { class: "pager", id: "standings-pager", "aria-label": t("tournament.pagesLabel") }, parts) : "";
}

// The signed-in person's game still being played (the last round holding them), if any.
function myGame(view, me) {
  if (!me) return null;
  for (const round of [...view.rounds].reverse()) {
    const table = round.tables.find((x) => x.players.includes(me) && !x.places);
    if (table) return table.game;
  }
  return null;
}

export async function tournamentPage(main, id) {
  await loadSession();
  const viewPath = `/api/tournament-pages/${encodeURIComponent(id)}?standings=false`;
  const standingsPath = `/api/tournaments/${encodeURIComponent(id)}/standings`;
  let [view, board] = await Promise.all([api(viewPath), api(`${standingsPath}?page=me`)]);
  const title = h("h2", { id: "tournament-title" });
  const settings = h("p", { class: "muted", id: "tournament-settings" });
  const state = h("p", { id: "tournament-state", "aria-live": "polite" });
  const ready = h("p", { class: "game-ready", id: "game-ready", role: "status", hidden: true });
  const mine = h("div", { id: "tournament-me" });
  const standingsBox = h("div", { id: "standings-box" });
  const roundsBox = h("div", { id: "rounds-box" });
  const updated = h("p", { class: "muted small", id: "standings-live" });
  const tieBreaks = h("p", { class: "muted small", id: "tie-breaks" });
  const chat = tournamentChat(id);
  const roundsTitle = h("h2", { id: "rounds-title" });
  let busy = false;
  let asked = 0; // the latest standings request: an older answer arriving late is dropped

  const act = async (what) => {
    busy = true;
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/${what}`, { method: "POST", body: {} });
      [view, board] = await Promise.all([api(viewPath), api(`${standingsPath}?page=${board.page}`)]);
      draw();
      chat.refresh(); // joining may let them write
    } catch (e) { showError(refusal(e)); } finally { busy = false; }
  };

  // Another page of the standings (a number, or "me": the signed-in player's).
  const goTo = async (page) => {
    const mark = ++asked;
    try {
      const next = await api(`${standingsPath}?page=${page}`);
      if (mark !== asked) return;
      board = next;
      drawStandings();
      if (page === "me") standingsBox.querySelector("tr.me")?.scrollIntoView({ block: "center" });
    } catch (e) { showError(e.message); }
  };

  function drawMine(me) {
    clear(mine);
    const over = ["finished", "cancelled"].includes(view.tournament.status);
    if (over) return;
    if (!me) {
      mine.append(h("p", {}, h("a", { href: "#/signin", id: "tournament-sign-in" }, t("tournament.signInLink")), t("tournament.signInToJoin")));
      return;
    }
    const status = board.me?.line.status;
    const button = (what, cls = "") => h("button", { type: "button", id: `tournament-${what}`, class: cls, onclick: () => act(what) }, t(`tournament.${what}`));
    if (status === "active") {
      mine.append(h("p", { id: "my-status" }, t("tournament.youAreIn")), h("p", {}, button("pause"), " ", button("withdraw")),
        h("p", { class: "muted" }, t("tournament.pauseNote")));
    } else {
      const said = status ? t(`tournament.youAre.${status}`) : t("tournament.youAreOut");
      mine.append(h("p", { id: "my-status" }, said), h("p", {}, button("join", "primary")));
    }
  }

  function drawStandings() {
    const me = account()?.name;
    clear(standingsBox).append(standingsTable(view.tournament, board.standings, me), pager(board, goTo));
    drawMine(me);
  }

  function draw() {
    const me = account()?.name;
    const { tournament } = view;
    title.textContent = tournament.name || t("tournament.untitled", { game: gameTitle(tournament.game, tournament.game) });
    settings.textContent = settingsLine(tournament);
    roundsTitle.textContent = t(tournament.kind === "arena" ? "tournament.gamesTitle" : "tournament.roundsTitle");
    state.textContent = stateWords(tournament);
    state.dataset.status = tournament.status;
    // A finished tournament names its winner (the first of its final standings).
    if (view.winner) state.append(" · ", h("strong", { class: "winner", id: "tournament-winner" }, `★ ${t("tournament.winner", { name: view.winner })}`));
    const game = myGame(view, me);
    ready.hidden = !game;
    clear(ready);
    if (game) ready.append(h("strong", {}, t("tournament.gameReady")), " ", h("a", { href: `#/game/${game}`, id: "my-game", class: "button primary" }, t("tournament.playNow")));
    const bots = new Set(view.bots || []);
    drawStandings();
    clear(roundsBox).append(roundsList(view, bots));
    updated.textContent = ["finished", "cancelled"].includes(tournament.status) ? "" : t("tournament.liveNote");
    tieBreaks.textContent = t(tournament.kind === "arena" ? "tournament.arenaNote" : "tournament.tieBreakNote");
  }

  clear(main).append(
    h("p", {}, h("a", { href: "#/tournaments" }, t("tournament.back"))),
    h("div", { class: "panel", id: "tournament-head" }, title, settings, state, ready, mine),
    h("div", { class: "columns" },
      h("div", {}, h("section", { class: "panel", "aria-labelledby": "standings-title" }, h("h2", { id: "standings-title" }, t("tournament.standings")), standingsBox, tieBreaks, updated)),
      h("div", {}, h("section", { class: "panel", "aria-labelledby": "rounds-title" }, roundsTitle, roundsBox), chat.element)));
  draw();
  chat.refresh();

  // The poll: the page's standings since the revision shown; the view again while its revision
  // is not the standings' (they moved, or the two first reads, made side by side, straddled a
  // change: a view from before a tournament's end beside standings from after it).
  const poll = async () => {
    if (busy || document.hidden) return;
    chat.refresh();
    const mark = ++asked;
    try {
      const answer = await api(`${standingsPath}?page=${board.page}&since=${board.revision}`);
      if (mark !== asked || busy) return;
      if (!answer.unchanged) board = answer.standings ? answer : { ...answer, standings: applied(board.standings, answer) };
      if (view.revision !== board.revision) view = await api(viewPath);
      else if (answer.unchanged) return;
      if (mark === asked && !busy) draw();
    } catch { /* the next poll asks again */ }
  };
  const timer = setInterval(poll, POLL);
  return () => clearInterval(timer);
}
