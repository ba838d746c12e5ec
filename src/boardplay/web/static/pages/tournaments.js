// The tournaments page (#/tournaments): the upcoming and running events, a row each (name, game,
// format, clock, rated or casual, start, players), under them the last ones finished with their
// winners, and a form to create one when signed in. The lobby shows the same list, shorter
// (`tournamentSection`). The server's reads are api/tournament_pages.py (GET /api/tournament-pages:
// a page of events, each with its player count, and `next`, the following page's cursor: "More"
// appends that page). The page asks for the first page again every POLL ms while it is shown, with
// its ETag (a 304 while nothing changed), so a tournament starting, ending or gaining players
// shows without a reload; the server's refusals are worded in the page's language
// (tournaments/refusals.js).
import { h, clear } from "../dom.js";
import { api, apiIfChanged, getCatalogue, getClocks, errorLine, showError } from "../api.js";
import { t, gameTitle, clockWords } from "../text.js";
import { account, loadSession } from "../session.js";
import { refusal } from "../tournaments/refusals.js";

const POLL = 5000;

// A tournament's format in words: Swiss, arena, or pods (one table's worth is a round-robin).
export const kindWords = (kind) => t(`tournament.kind.${kind}`);

// When it starts, in the reader's language and time zone ("Thu 18:30").
export function whenWords(seconds) {
  const date = new Date(seconds * 1000);
  const soon = Math.abs(date - Date.now()) < 20 * 3600 * 1000;
  return date.toLocaleString(document.documentElement.lang || undefined,
    soon ? { hour: "2-digit", minute: "2-digit" } : { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

// Where the event stands: starting at a time, running (its round), finished or cancelled.
export function stateWords(tournament) {
  if (tournament.status === "created") {
    const minutes = Math.ceil((tournament.starts * 1000 - Date.now()) / 60000);
    const soon = minutes <= 1 ? t("tournament.startsSoon") : minutes < 120 ? t("tournament.inMinutes", { n: minutes }) : "";
    return `${t("tournament.startsAt", { when: whenWords(tournament.starts) })}${soon ? ` (${soon})` : ""}`;
  }
  if (tournament.status === "started") {
    if (tournament.kind === "arena") return t("tournament.arenaRunning", { when: whenWords(tournament.starts + 60 * tournament.minutes) });
    return t("tournament.roundOf", { round: tournament.round, rounds: tournament.rounds });
  }
  return t(`tournament.status.${tournament.status}`);
}

// Its length: an arena's minutes, a Swiss's or pods' rounds.
export const lengthWords = (tournament) => (tournament.kind === "arena"
  ? t("tournament.minutes", { n: tournament.minutes }) : t(tournament.rounds === 1 ? "tournament.oneRound" : "tournament.rounds", { n: tournament.rounds }));

const titleOf = (tournament) => tournament.name || t("tournament.untitled", { game: gameTitle(tournament.game, tournament.game) });

const settingsWords = (tournament) => [
  gameTitle(tournament.game, tournament.game), kindWords(tournament.kind), clockWords(tournament.clock),
  t(tournament.rated ? "tournament.rated" : "tournament.casual"), lengthWords(tournament),
].join(" · ");

const playersWords = (tournament) => h("span", { class: "players" }, t("tournament.players", { n: tournament.players }));

function row(tournament) {
  return h("li", { class: "tournament-row", "data-tournament": tournament.id },
    h("div", {}, h("a", { href: `#/tournament/${tournament.id}`, class: "tournament-link" }, titleOf(tournament)),
      tournament.status === "started" ? [" ", h("span", { class: "tag live-tag" }, t("tournament.live"))] : ""),
    h("div", { class: "muted" }, settingsWords(tournament)),
    h("div", {}, stateWords(tournament), " · ", playersWords(tournament)));
}

// A finished event: when it ended and who won.
function finishedRow(tournament) {
  return h("li", { class: "tournament-row", "data-tournament": tournament.id },
    h("div", {}, h("a", { href: `#/tournament/${tournament.id}`, class: "tournament-link" }, titleOf(tournament))),
    h("div", { class: "muted" }, settingsWords(tournament)),
    h("div", {}, tournament.finished ? t("tournament.endedAt", { when: whenWords(tournament.finished) }) : t("tournament.status.finished"), " · ",
      h("strong", { class: "winner" }, tournament.winner ? t("tournament.winner", { name: tournament.winner }) : t("tournament.noWinner")),
      " · ", playersWords(tournament)));
}

// The events as a list (an empty list says so).
function listOf(tournaments) {
  if (!tournaments.length) return h("p", { class: "muted", id: "no-tournaments" }, t("tournament.none"));
  return h("ul", { class: "tournament-list" }, tournaments.map(row));
}

function finishedList(tournaments) {
  if (!tournaments.length) return h("p", { class: "muted", id: "no-finished" }, t("tournament.noneFinished"));
  return h("ul", { class: "tournament-list" }, tournaments.map(finishedRow));
}

// The lobby's section: the next few events, and a link to the page of them all.
export function tournamentSection() {
  const box = h("section", { class: "panel", id: "lobby-tournaments", "aria-labelledby": "lobby-tournaments-title" },
    h("h2", { id: "lobby-tournaments-title" }, t("tournament.lobbyTitle")));
  api("/api/tournament-pages").then(({ tournaments }) => {
    box.append(listOf(tournaments.slice(0, 5)), h("p", {}, h("a", { href: "#/tournaments", id: "all-tournaments" }, t("tournament.all"))));
  }).catch(() => { box.hidden = true; });
  return box;
}

// Games of two for the Swiss and the arena, of three or four for pods: the table sizes a game
// allows (its "players" option's range, else its fixed count).
function sizesOf(game) {
  const count = game.options.find((o) => o.name === "players");
  if (!count) return [game.num_players];
  if (count.choices) return count.choices.map(Number).filter((n) => n >= 2 && n <= 4);
  const low = count.minimum ?? game.num_players;
  const high = count.maximum ?? game.num_players;
  return [2, 3, 4].filter((n) => n >= low && n <= high);
}

// A datetime-local value ("2026-11-26T18:30") for a moment, in the reader's time zone.
function localValue(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

async function createForm() {
  const [catalogue, clocks] = await Promise.all([getCatalogue(), getClocks()]);
  const error = errorLine("tournament-error");
  const name = h("input", { id: "tournament-name", maxlength: 80, placeholder: t("tournament.namePlaceholder") });
  const kind = h("select", { id: "tournament-kind" }, ["swiss", "arena", "pods"].map((k) => h("option", { value: k }, kindWords(k))));
  const game = h("select", { id: "tournament-game" });
  const kindNote = h("p", { class: "muted", id: "tournament-kind-note" });
  const presets = (clocks?.presets || []);
  const clock = h("select", { id: "tournament-clock" }, presets.map((p) => h("option", { value: `${p.base}:${p.increment}` }, clockWords(p))));
  const preferred = presets.find((p) => p.base === 300 && p.increment === 3) || presets[0];
  if (preferred) clock.value = `${preferred.base}:${preferred.increment}`;
  const rounds = h("input", { type: "number", id: "tournament-rounds", min: 1, max: 20, value: 3 });
  const minutes = h("input", { type: "number", id: "tournament-minutes", min: 1, max: 1440, value: 30 });
  const roundsLine = h("label", { class: "option" }, h("span", {}, t("tournament.roundsLabel")), rounds);
  const minutesLine = h("label", { class: "option", hidden: true }, h("span", {}, t("tournament.minutesLabel")), minutes);
  const starts = h("input", { type: "datetime-local", id: "tournament-starts", value: localValue(Date.now() + 10 * 60 * 1000) });
  const rated = h("input", { type: "checkbox", id: "tournament-rated" });
  const bots = h("input", { type: "checkbox", id: "tournament-bots" });
  const fits = (g) => (kind.value === "pods" ? sizesOf(g).some((n) => n >= 3) : sizesOf(g).includes(2));
  const drawGames = () => {
    const before = game.value;
    clear(game).append(...catalogue.filter(fits).map((g) => h("option", { value: g.name }, gameTitle(g.name, g.title))));
    if ([...game.options].some((o) => o.value === before)) game.value = before;
    roundsLine.hidden = kind.value === "arena";
    minutesLine.hidden = kind.value !== "arena";
    kindNote.textContent = t(`tournament.kindNote.${kind.value}`);
  };
  kind.addEventListener("change", drawGames);
  rated.addEventListener("change", () => { if (rated.checked) bots.checked = false; });
  bots.addEventListener("change", () => { if (bots.checked) rated.checked = false; });
  drawGames();
  const form = h("form", { class: "panel", id: "tournament-form", "aria-labelledby": "tournament-form-title" },
    h("h2", { id: "tournament-form-title" }, t("tournament.createTitle")),
    h("label", { class: "option" }, h("span", {}, t("tournament.name")), name),
    h("label", { class: "option" }, h("span", {}, t("tournament.format")), kind), kindNote,
    h("label", { class: "option" }, h("span", {}, t("tournament.game")), game),
    h("label", { class: "option" }, h("span", {}, t("tournament.clock")), clock),
    roundsLine, minutesLine,
    h("label", { class: "option" }, h("span", {}, t("tournament.starts")), starts),
    h("p", {}, h("label", { title: t("tournament.ratedTitle") }, rated, t("tournament.ratedLabel"))),
    h("p", {}, h("label", { title: t("tournament.botsTitle") }, bots, t("tournament.botsLabel"))),
    error.element,
    h("button", { type: "submit", class: "primary", id: "tournament-create" }, t("tournament.create")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.clear();
    const chosen = catalogue.find((g) => g.name === game.value);
    if (!chosen) { error.show(t("tournament.noGame")); return; }
    const when = starts.value ? new Date(starts.value).getTime() : Date.now();
    const [base, increment] = clock.value.split(":").map(Number);
    const sizes = kind.value === "pods" ? sizesOf(chosen).filter((n) => n >= 3) : [2];
    const body = {
      name: name.value.trim(), kind: kind.value, game: chosen.name, sizes,
      options: chosen.options.some((o) => o.name === "players") ? { players: sizes[0] } : {},
      clock: { base, increment }, rated: rated.checked, bots: bots.checked,
      starts: Math.max(Date.now(), when) / 1000,
      ...(kind.value === "arena" ? { minutes: Number(minutes.value) } : { rounds: Number(rounds.value) }),
    };
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.hash = `#/tournament/${made.tournament.id}`;
    } catch (e) { error.show(refusal(e)); }
  });
  return form;
}

export async function tournamentsPage(main) {
  await loadSession();
  let listed = await api("/api/tournament-pages");
  const me = account();
  const form = me ? await createForm()
    : h("div", { class: "panel", id: "tournament-sign-in" }, h("h2", {}, t("tournament.createTitle")),
      h("p", {}, h("a", { href: "#/signin" }, t("tournament.signInLink")), t("tournament.signInWhy")));
  const upcoming = h("div", { id: "tournaments-upcoming" });
  const finished = h("div", { id: "tournaments-finished-list" });
  let later = []; // the pages after the first, as "More" brought them
  let cursor = listed.next; // the page "More" asks for next
  const more = h("button", { type: "button", id: "tournaments-more", hidden: true }, t("tournament.more"));
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const page = await api(`/api/tournament-pages?cursor=${encodeURIComponent(cursor)}`);
      later = [...later, ...page.tournaments];
      cursor = page.next;
      draw();
    } catch (e) { showError(e.message); } finally { more.disabled = false; }
  });
  const draw = () => {
    // The first page as polled, then those "More" brought that it does not hold now.
    const shown = new Set(listed.tournaments.map((x) => x.id));
    const all = [...listed.tournaments, ...later.filter((x) => !shown.has(x.id))];
    clear(upcoming).append(listOf(all), more);
    more.hidden = !(later.length ? cursor : listed.next);
    if (!later.length) cursor = listed.next;
    clear(finished).append(finishedList(listed.finished || []));
  };
  clear(main).append(
    h("h2", { id: "tournaments-title" }, t("tournament.pageTitle")),
    h("p", { class: "intro" }, t("tournament.intro")),
    h("div", { class: "columns" },
      h("div", {},
        h("section", { class: "panel", id: "tournaments", "aria-labelledby": "tournaments-list-title" },
          h("h2", { id: "tournaments-list-title" }, t("tournament.listTitle")), upcoming),
        h("section", { class: "panel", id: "tournaments-finished", "aria-labelledby": "tournaments-finished-title" },
          h("h2", { id: "tournaments-finished-title" }, t("tournament.finishedTitle")), finished)),
      h("div", {}, form)));
  draw();

  // Live by polling the first page only, with its ETag: redrawn only when it changed.
  return follow("/api/tournament-pages", listed, POLL, (next) => { listed = next; draw(); });
}

// A page kept live by polling (this list, the TV channels): `path` is asked again every `every`
// ms while the page is shown, with the ETag of the last answer (a 304 costs nothing), and
// `changed` given the answer only when it differs from the last one (`first` to begin with).
// `busy()`: not now (the person's own action is on its way); `each()`: done at every look.
// Returns what stops it.
export function follow(path, first, every, changed, { busy = () => false, each = () => {} } = {}) {
  let seen = JSON.stringify(first);
  let tag = null;
  const timer = setInterval(async () => {
    if (busy() || document.hidden) return;
    each();
    try {
      const got = await apiIfChanged(path, tag);
      if (!got) return;
      tag = got.tag;
      const text = JSON.stringify(got.data);
      if (text === seen || busy()) return;
      seen = text;
      changed(got.data);
    } catch { /* the next poll asks again */ }
  }, every);
  return () => clearInterval(timer);
}

// On a tournament game's page: a line naming its tournament, linking to its standings (empty
// for a game of no tournament).
export function tournamentOfGame(gameId) {
  const line = h("p", { class: "tournament-of-game", id: "tournament-of-game", hidden: true });
  api(`/api/tournament-pages?game=${encodeURIComponent(gameId)}`).then(({ tournaments }) => {
    const [found] = tournaments;
    if (!found) return;
    line.append(t("tournament.ofGame"), " ", h("a", { href: `#/tournament/${found.id}`, id: "tournament-of-game-link" }, titleOf(found)),
      " · ", stateWords(found));
    line.hidden = false;
  }).catch(() => { /* no line */ });
  return line;
}
