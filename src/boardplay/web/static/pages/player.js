// A player's profile (#/player/<name>: Follow and Block for a signed-in visitor, rating per game
// with its history drawn, results per game, recent games) and the leaderboards
// (#/ratings/<pool>). A rating whose deviation is still large is provisional and shown with a
// question mark, as lichess does.
import { h, s, clear } from "../dom.js";
import { api } from "../api.js";
import { t, gameTitle, seatName, language } from "../text.js";
import { resultSaid, ratingChange, ratingNote } from "../results.js";
import { inCardOrder } from "../about.js";
import { relationButtons } from "../relations/relations.js";
import { account } from "../session.js";
import { reportForm } from "../moderation/report.js";

// "passtally-3p" → "Passtally, 3 players"; a game without a player count is just its title.
export function poolName(pool) {
  const match = /^(.*)-(\d)p$/.exec(pool);
  return match ? t("ratings.poolPlayers", { title: gameTitle(match[1], match[1]), n: match[2] }) : gameTitle(pool, pool);
}

const shown = (r) => `${r.rating}${r.provisional ? "?" : ""}`;
export const playerLink = (name) => h("a", { href: `#/player/${encodeURIComponent(name)}`, class: "player-link" }, name);
// BOT beside the name of a bot account (a program), wherever a player is named.
export const botTag = (bot) => (bot ? h("span", { class: "tag bot-tag", title: t("bot.title") }, t("bot.tag")) : "");
// A seat's player as the lists name them: a link to the profile, BOT for a bot, else the seat's name.
export const seatPlayer = (seat) => (seat.player ? [playerLink(seat.name), botTag(seat.bot)] : seatName(seat.name));

// The rating after each game as a line, with the band of one deviation either side.
// The first and last ratings are written at the line's ends (the band: one deviation either side).
function chart(points) {
  const width = 320, height = 120, pad = 6, side = 40;
  const lows = points.map((p) => p.rating - p.deviation), highs = points.map((p) => p.rating + p.deviation);
  const min = Math.min(...lows), max = Math.max(...highs);
  const x = (i) => side + (points.length === 1 ? (width - 2 * side) / 2 : (i * (width - 2 * side)) / (points.length - 1));
  const y = (v) => height - pad - ((v - min) / Math.max(1, max - min)) * (height - 2 * pad);
  const band = [...points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`), ...points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()].join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": t("profile.chart", { from: points[0].rating, to: points.at(-1).rating, n: points.length }) },
    s("polygon", { points: band, class: "band" }),
    s("polyline", { points: line, class: "line" }),
    points.map((p, i) => s("circle", { cx: x(i), cy: y(p.rating), r: 3 }, s("title", {}, `${Math.round(p.rating)}`))),
    s("text", { x: side - 4, y: y(points[0].rating) + 4, "text-anchor": "end", class: "end" }, Math.round(points[0].rating)),
    s("text", { x: width - side + 4, y: y(points.at(-1).rating) + 4, class: "end" }, Math.round(points.at(-1).rating)));
}

export async function playerPage(main, name) {
  const [profile, buttons] = await Promise.all([api(`/api/players/${encodeURIComponent(name)}`), relationButtons(name)]);
  clear(main);
  const ratings = profile.ratings.length ? h("table", { class: "list", id: "profile-ratings" },
    h("tr", {}, h("th", {}, t("ratings.game")), h("th", {}, t("ratings.rating")), h("th", {}, t("ratings.games"))),
    profile.ratings.map((r) => h("tr", { "data-pool": r.pool },
      h("td", {}, h("a", { href: `#/ratings/${r.pool}` }, poolName(r.pool))),
      h("td", { class: "rating", title: t("ratings.deviation", { d: r.deviation }) }, shown(r)),
      h("td", {}, r.games))))
    : h("p", { class: "muted" }, t("profile.unrated"));
  // Each rating's history under the table, one chart per game (from its second game on).
  const charts = h("div", { class: "charts", id: "profile-history" }, profile.ratings.map((r) => {
    const points = profile.history[r.pool] || [];
    return h("figure", { "data-pool": r.pool }, h("figcaption", {}, poolName(r.pool)),
      points.length > 1 ? chart(points) : h("p", { class: "muted small" }, t("profile.oneGame")));
  }));
  const provisional = profile.ratings.some((r) => r.provisional) ? h("p", { class: "muted small" }, t("profile.provisional")) : "";
  const results = Object.entries(profile.results);
  const record = results.length ? h("table", { class: "list", id: "profile-results" },
    h("tr", {}, h("th", {}, t("ratings.game")), h("th", {}, t("profile.played")), h("th", {}, t("profile.won")), h("th", {}, t("profile.drawn")), h("th", {}, t("profile.lost"))),
    results.map(([game, c]) => h("tr", {}, h("td", {}, gameTitle(game, game)), h("td", {}, c.played), h("td", {}, c.won), h("td", {}, c.drawn), h("td", {}, c.lost))))
    : h("p", { class: "muted" }, t("profile.noResults"));
  // Recent games: when, who, the result in names and what it did to this player's rating.
  const when = (iso) => { try { return new Date(iso).toLocaleDateString(language()); } catch { return ""; } };
  const moved = (g) => {
    const change = g.rating_change === null || g.rating_change === undefined ? ""
      : h("span", { class: `rating-change ${g.rating_change > 0 ? "up" : g.rating_change < 0 ? "down" : ""}`, title: t("result.ratingTitle") }, ratingChange(g.rating_change));
    // Why it moved less than a whole game, or not at all (a repeated game, one ended early).
    const note = ratingNote(g.rating_weight, g.rating_unrated, true);
    return note ? [change, change ? " " : "", h("span", { class: "rating-note muted small", title: note.title }, `(${note.text})`)] : change;
  };
  const recent = profile.recent.length ? h("table", { class: "list", id: "profile-recent" }, profile.recent.map((g) => h("tr", { "data-game": g.id },
    h("td", { class: "what" }, gameTitle(g.game, g.title), g.rated ? h("span", { class: "tag" }, t("lobby.rated")) : "", " ", h("span", { class: "muted small when" }, when(g.updated))),
    h("td", { class: "who" }, g.seats.flatMap((seat, i) => [i ? " – " : "", seatPlayer(seat)])),
    h("td", { class: "state muted" }, g.result ? resultSaid({ text: g.result, winners: g.winners, end: g.end, ended: g.ended, resigned: g.resigned, left: g.left }, { seats: g.seats }) : t("profile.running"), moved(g) ? " " : "", moved(g)),
    h("td", { class: "act" }, h("a", { href: `#/game/${g.id}` }, t("lobby.watch")), " ", h("a", { href: `#/replay/${g.id}` }, t("lobby.replay"))))))
    : h("p", { class: "muted" }, t("lobby.none"));
  main.append(h("div", { class: "panel", id: "profile" },
    h("h2", {}, profile.name, botTag(profile.bot)), buttons,
    h("h3", {}, t("profile.ratings")), ratings, provisional,
    profile.ratings.length ? [h("h3", {}, t("profile.history")), charts] : "",
    h("h3", {}, t("profile.results")), record,
    h("h3", {}, t("profile.recent")), recent,
    account() && account().name !== profile.name ? reportForm([profile.name]) : ""));
}

export async function ratingsPage(main, pool) {
  // The lists in the lobby's card order (a pool is "game" or "game-Np").
  const game = (p) => p.replace(/-\d+p$/, "");
  const listed = (await api("/api/ratings")).pools.sort((a, b) => a.localeCompare(b));
  const order = (await inCardOrder(listed.map(game))).names;
  const pools = listed.sort((a, b) => order.indexOf(game(a)) - order.indexOf(game(b)) || a.localeCompare(b));
  pool = pools.includes(pool) ? pool : pools[0];
  const [board, bots] = await Promise.all([api(`/api/ratings/${pool}`), api(`/api/ratings/${pool}?bots=true`)]);
  clear(main);
  const tabs = h("nav", { class: "pools", "aria-label": t("ratings.pools") }, pools.map((p) =>
    h("a", { href: `#/ratings/${p}`, "aria-current": p === pool ? "page" : null }, poolName(p))));
  // People and bots are ranked apart (a program that plays all day would top the people's list).
  const table = (players, id) => h("table", { class: "list", id },
    h("tr", {}, h("th", {}, "#"), h("th", {}, t("ratings.player")), h("th", {}, t("ratings.rating")), h("th", {}, t("ratings.games"))),
    players.map((p, i) => h("tr", {}, h("td", {}, i + 1), h("td", {}, playerLink(p.name), botTag(p.bot)), h("td", { class: "rating" }, shown(p)), h("td", {}, p.games))));
  const rows = board.players.length ? table(board.players, "leaderboard") : h("p", { class: "muted" }, t("ratings.empty"));
  const botRows = bots.players.length ? [h("h3", {}, t("ratings.bots")), h("p", { class: "muted" }, t("ratings.botsNote")), table(bots.players, "bot-leaderboard")] : "";
  main.append(h("div", { class: "panel" }, h("h2", {}, t("ratings.title", { pool: poolName(pool) })), tabs,
    h("p", { class: "muted" }, t("ratings.note")), rows, botRows));
}
