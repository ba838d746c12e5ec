// The lobby (a card per game whose button starts a game against the computer at once, a new
// game's form with the rule variants behind "more options", finding an opponent, my games, open
// games to join, recent games to watch) and the page an invitation link opens. A signed-in
// player sees the online part first (finding an opponent, their games); a guest the cards. On
// a phone the lists are rows of two lines, so no link is cut off.
import { h, clear } from "../dom.js";
import { api, getCatalogue, getClocks, showError, errorLine } from "../api.js";
import { tokenFor, myGameIds, rememberToken, rememberInvites, playerName, rememberName, tutorialSeen } from "../store.js";
import { t, term, gameTitle, seatName, clockWords } from "../text.js";
import { resultSaid, ratingChange, ratingNote } from "../results.js";
import { seatSwatch } from "../boards/common.js";
import { inCardOrder } from "../about.js";
import { plainMiniature } from "../boards/miniframe.js";
import { account, loadSession } from "../session.js";
import { seekPanel } from "./seeks.js";
import { seatPlayer } from "./player.js";
import { clockPicker } from "./clock.js";
import { tournamentSection } from "./tournaments.js";
import { tvSection } from "./tv.js";

const SEAT_CHOICES = ["me", "hotseat", "ai", "invite", "open"];
const DEFAULT_LEVEL = "medium";

// A text of the catalogue in words when strings.js has one (an option, a level), else the server's.
const words = (key, fallback) => { const said = t(key); return said === key ? fallback : said; };

// What a number box takes, in words, from the option's bounds (the engine's `allowed` is English).
function allowedWords(option) {
  const { minimum: min, maximum: max } = option;
  const parts = [min !== null && max !== null ? t("allowed.range", { min, max })
    : min !== null ? t("allowed.atLeast", { min }) : t("allowed.number")];
  parts.push(...(option.specials || []).map((word) => term("choice", word)));
  if (option.nullable) parts.push(t("allowed.empty"));
  return parts.join(t("allowed.or"));
}

// One rule option as a form field described in words: a checkbox for yes/no, a menu of named
// choices, else a box for a number (empty keeps the default). Its tooltip explains it in words
// from the catalogue (a game we have no words for: the engine's own explanation).
export function optionInput(game, option) {
  const id = `opt-${option.name}`;
  const label = words(`option.${game}.${option.name}`, option.doc);
  const tip = words(`tip.${game}.${option.name}`, option.doc);
  const attrs = { id, name: option.name, "data-option": option.name, "data-default": String(option.default) };
  if (option.kind === "bool") {
    const box = h("input", { type: "checkbox", ...attrs });
    box.checked = option.default === true;
    return h("label", { class: "option check", title: tip }, box, ` ${label}`);
  }
  let input;
  if (option.choices) {
    input = h("select", attrs, option.choices.map((c) => h("option", { value: String(c) }, words(`option.${game}.${option.name}.${c}`, term("choice", c)))));
    input.value = String(option.default);
  } else {
    // A word the box takes besides numbers ("random") is shown in this language and read back
    // as the engine's word (readOptions).
    const specials = option.specials || [];
    const value = specials.includes(option.default) ? term("choice", option.default) : option.default ?? "";
    attrs["data-specials"] = JSON.stringify(Object.fromEntries(specials.map((word) => [term("choice", word), word])));
    input = h("input", { ...attrs, value, inputmode: option.kind === "int" ? "numeric" : null, size: 8, placeholder: allowedWords(option), title: allowedWords(option) });
  }
  return h("label", { class: "option", for: id, title: tip }, h("span", {}, label), input);
}

// The options that differ from their defaults (an emptied box keeps the default).
export function readOptions(box) {
  const out = {};
  for (const el of box.querySelectorAll("[data-option]")) {
    const typed = el.type === "checkbox" ? String(el.checked) : el.value.trim();
    const value = el.dataset.specials ? JSON.parse(el.dataset.specials)[typed] ?? typed : typed;
    if (value !== "" && value !== el.dataset.default) out[el.name] = value;
  }
  return out;
}

// A finished rated game's change to the reader's rating (their own games only: "My games"), and
// why it moved less than a whole game or not at all.
const moved = (g) => {
  const change = g.rating_change;
  const note = ratingNote(g.rating_weight, g.rating_unrated, true);
  return [change === null || change === undefined ? ""
    : [" · ", h("span", { class: `rating-change ${change > 0 ? "up" : change < 0 ? "down" : ""}`, title: t("result.ratingTitle") }, ratingChange(change))],
  note ? [" ", h("span", { class: "rating-note small", title: note.title }, `(${note.text})`)] : ""];
};

// A list of games, a row each: what, who, how it stands (the result in the reader's words: "You
// won" in their own games) and what to do. On a phone a row is two lines (see style.css).
function listing(games, action) {
  if (!games.length) return h("p", { class: "muted" }, t("lobby.none"));
  return h("table", { class: "list games" }, games.map((g) => h("tr", { "data-game": g.id },
    h("td", { class: "what" }, h("span", { class: "game-name" }, gameTitle(g.game, g.title)), g.rated ? h("span", { class: "tag" }, t("lobby.rated")) : "", g.clock ? h("span", { class: "tag clock-tag" }, g.control ? clockWords(g.control) : g.clock) : ""),
    h("td", { class: "who" }, g.seats.flatMap((s, i) => [i ? " – " : "", seatPlayer(s)])),
    h("td", { class: "state muted" }, g.result ? [resultSaid({ text: g.result, winners: g.winners, end: g.end, ended: g.ended, resigned: g.resigned, left: g.left }, { seats: g.seats, mine: g.your_seats || [] }), moved(g)]
      : g.status === "active" ? t("lobby.toMove", { name: seatName(g.current_name ?? "") }) : term("status", g.status)),
    h("td", { class: "act" }, action(g)))));
}

function players(game) {
  return game.min_players === game.max_players ? t("lobby.players", { n: game.min_players })
    : t("lobby.playersRange", { min: game.min_players, max: game.max_players });
}

// A card per game: its picture, one line, players and length, a button that starts a game
// against the computer at once (`play`), and one that sets it up in the form (`choose`).
function card(game, choose, play, mod) {
  const minutes = mod?.about?.minutes;
  const title = gameTitle(game.name, game.title);
  const start = h("button", { type: "button", class: "play-now primary", title: t("lobby.playNowTitle"), onclick: () => play(game, start) }, t("lobby.choose", { title }));
  const pick = h("button", { type: "button", class: "choose", "aria-pressed": "false", "aria-label": t("lobby.setUpLabel", { title }), onclick: () => choose(game.name) }, t("lobby.setUp"));
  return h("article", { class: "card", "data-game": game.name },
    mod?.miniature ? mod.miniature() : plainMiniature(),
    h("h3", {}, title),
    h("p", { class: "line" }, words(`about.${game.name}.line`, "")),
    h("p", { class: "meta muted" }, [players(game), minutes ? t("lobby.minutes", { min: minutes[0], max: minutes[1] }) : ""].filter(Boolean).join(" · ")),
    h("p", { class: "card-actions" }, start, " ", pick, " ", h("a", { href: `#/rules/${game.name}`, "aria-label": t("lobby.rulesOf", { title }) }, t("lobby.rules"))));
}

// "Play Proteus" on a card: a game against the computer (the standard rules, the level a new
// player meets first, no clock) started at once, so the first click is a board.
async function playNow(game, button) {
  button.disabled = true;
  try {
    const others = Array.from({ length: Math.max(1, game.num_players - 1) }, () => ({ kind: "ai", spec: game.ai_levels.includes(DEFAULT_LEVEL) ? DEFAULT_LEVEL : game.ai_levels[0] }));
    const me = playerName() ? { kind: "me", name: playerName() } : { kind: "me" };
    const created = await api("/api/games", { method: "POST", body: { game: game.name, options: {}, seats: [me, ...others] } });
    rememberToken(created.id, created.token);
    location.hash = `#/game/${created.id}`;
  } catch (e) { showError(e.message); } finally { button.disabled = false; }
}

// An AI seat's level: a menu of the levels, and a sentence saying what the chosen one plays like.
function levelPicker(game, seat, name) {
  const level = h("select", { name: `level-${seat}`, class: "seat-level", "aria-label": `${name}: ${t("lobby.levelNote")}` },
    game.ai_levels.map((l) => h("option", { value: l, title: words(`level.${l}.says`, "") }, words(`level.${l}`, term("level", l)))));
  if (game.ai_levels.includes(DEFAULT_LEVEL)) level.value = DEFAULT_LEVEL;
  const note = h("p", { class: "level-note muted", "data-seat": seat });
  const say = () => { note.textContent = words(`level.${level.value}.says`, ""); };
  level.addEventListener("change", say);
  say();
  return { level, note };
}

export async function lobbyPage(main) {
  const catalogue = await getCatalogue();
  const order = await inCardOrder(catalogue.map((g) => g.name));
  const games = order.names.map((name) => catalogue.find((g) => g.name === name));
  clear(main);
  const form = h("form", { class: "panel", id: "new-game" });
  const gameSelect = h("select", { id: "game-select", name: "game" }, games.map((g) => h("option", { value: g.name }, gameTitle(g.name, g.title))));
  const heading = h("h2", { id: "new-game-title" });
  const learn = h("p", { class: "muted", id: "learn-note" });
  const countBox = h("div", { id: "player-count" });
  const optionsBox = h("div", { id: "options" });
  const seatsBox = h("div", { id: "seats" });
  const rulesLink = h("a", { id: "rules-link", href: "#" }, t("lobby.rules"));
  const reproducible = h("input", { type: "checkbox", id: "reproducible" });
  const privateBox = h("input", { type: "checkbox", id: "private" });
  const timing = clockPicker(await getClocks());
  await loadSession();
  const me = account();
  // Rated: for signed-in players only, every other seat another signed-in player's.
  const ratedBox = h("input", { type: "checkbox", id: "rated" });
  const ratedLine = me ? h("p", {}, h("label", { title: t("lobby.ratedTitle") }, ratedBox, t("lobby.ratedLabel")))
    : h("p", { class: "muted", id: "sign-in-note" }, h("a", { href: "#/signin" }, t("lobby.signInLink")), t("lobby.signInWhy"));
  // The name the creator plays under (remembered in this browser, as a guest's on joining).
  const myName = h("input", { id: "my-name", value: me ? me.name : playerName(), placeholder: t("join.placeholder"), maxlength: 40, disabled: !!me });
  const createError = errorLine("create-error"); // said beside the button, not at the screen's foot
  const more = h("details", { id: "more-options" }, h("summary", {}, t("lobby.moreOptions")),
    h("p", { class: "muted" }, t("lobby.moreOptionsNote")), optionsBox,
    h("p", {}, h("label", { title: t("lobby.reproducibleTitle") }, reproducible, t("lobby.reproducible"))));
  form.append(
    heading, learn,
    h("label", {}, `${t("lobby.game")} `, gameSelect), " ", rulesLink,
    countBox, h("h3", {}, t("lobby.seats")), h("p", {}, h("label", {}, `${t("join.name")} `, myName)), seatsBox,
    timing.element,
    h("p", {}, h("label", {}, privateBox, t("lobby.private"))),
    ratedLine,
    more,
    createError.element,
    h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create")),
  );
  const cards = h("section", { class: "cards", id: "game-cards", "aria-label": t("lobby.cards") });
  const choose = (name) => {
    gameSelect.value = name;
    gameSelect.dispatchEvent(new Event("change")); // drawOptions, and the seek panel's copy
    form.scrollIntoView({ block: "nearest" });
  };
  cards.append(...games.map((g) => card(g, choose, playNow, order.mods[g.name])));

  const chosen = () => games.find((g) => g.name === gameSelect.value);
  const options = () => readOptions(form);
  // Only the latest drawing may fill the seats: a slower preview answered for an earlier choice
  // would otherwise redraw them over the choices made since (the seat kinds and AI levels).
  let drawing = 0;
  const drawSeats = async () => {
    const mine = ++drawing;
    const game = chosen();
    let seatNames = game.seat_names.slice(0, game.num_players);
    try {
      seatNames = (await api("/api/games/preview", { method: "POST", body: { game: game.name, options: options() } })).seat_names;
    } catch (e) { showError(e.message); }
    if (mine !== drawing) return;
    // Redrawing the same game's seats (an option changed, or a preview answered late) keeps
    // what was already chosen for each seat that is still there.
    const kept = seatsBox.dataset.game === game.name
      ? [...seatsBox.querySelectorAll(".seat-row")].map((row) => [row.querySelector(".seat-kind").value, row.querySelector(".seat-level").value])
      : [];
    clear(seatsBox);
    seatNames.map(seatName).forEach((name, seat) => {
      const kind = h("select", { name: `seat-${seat}`, class: "seat-kind", "aria-label": name }, SEAT_CHOICES.map((v) => h("option", { value: v }, t(`seat.${v}`))));
      kind.value = kept[seat]?.[0] ?? (seat === 0 ? "me" : ratedBox.checked ? "open" : "ai");
      const { level, note } = levelPicker(game, seat, name);
      if (kept[seat]) { level.value = kept[seat][1]; level.dispatchEvent(new Event("change")); }
      const sync = () => { level.hidden = note.hidden = kind.value !== "ai"; };
      kind.addEventListener("change", sync);
      sync();
      seatsBox.append(h("div", { class: "seat-row" }, seatSwatch(game.hints, seat), h("span", {}, name), kind, level), note);
    });
    seatsBox.dataset.game = game.name;
  };
  const drawOptions = () => {
    const game = chosen();
    heading.textContent = t("lobby.newGameOf", { title: gameTitle(game.name, game.title) });
    learn.textContent = tutorialSeen(game.name) ? "" : t("lobby.learn", { title: gameTitle(game.name, game.title) });
    // The number of players is the one option everyone needs: it stays in view.
    const count = game.options.filter((o) => o.name === "players");
    clear(countBox).append(...count.map((o) => optionInput(game.name, o)));
    clear(optionsBox).append(...game.options.filter((o) => o.name !== "players").map((o) => optionInput(game.name, o)));
    rulesLink.href = `#/rules/${game.name}`;
    for (const c of cards.querySelectorAll(".card")) {
      const on = c.dataset.game === game.name;
      c.classList.toggle("chosen", on);
      c.querySelector(".choose").setAttribute("aria-pressed", String(on));
    }
    drawSeats();
  };
  gameSelect.addEventListener("change", drawOptions);
  // A rated game seats people only: the other seats become open seats (or stay invitations).
  ratedBox.addEventListener("change", () => {
    timing.requireClock(ratedBox.checked); // a rated game needs a clock: nobody can stall it
    if (!ratedBox.checked) return;
    privateBox.checked = reproducible.checked = false;
    for (const kind of seatsBox.querySelectorAll(".seat-kind")) {
      if (kind.value === "ai" || kind.value === "hotseat") { kind.value = "open"; kind.dispatchEvent(new Event("change")); }
    }
  });
  countBox.addEventListener("change", drawSeats);
  optionsBox.addEventListener("change", drawSeats);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
      const kind = row.querySelector(".seat-kind").value;
      if (kind === "ai") return { kind, spec: row.querySelector(".seat-level").value };
      return kind === "me" && myName.value.trim() ? { kind, name: myName.value.trim() } : { kind };
    });
    rememberName(myName.value.trim());
    createError.clear();
    try {
      const body = { game: gameSelect.value, options: options(), seats, reproducible: reproducible.checked, private: privateBox.checked, rated: ratedBox.checked, clock: timing.value() };
      const created = await api("/api/games", { method: "POST", body });
      rememberToken(created.id, created.token);
      rememberInvites(created.id, created.invites);
      location.hash = `#/game/${created.id}`;
    } catch (e) { createError.show(e.message); }
  });
  drawOptions();

  // The rating pool of the chosen game and player count (a seek's rating range is in it).
  const pool = () => {
    const game = chosen();
    const count = game.options.find((o) => o.name === "players");
    return count ? `${game.name}-${options().players ?? count.default}p` : game.name;
  };
  // Finding an opponent plays what the form chooses; its own menus of game and clock and its
  // Rated box are the form's, mirrored, so it can be used without scrolling to the form.
  const finding = seekPanel(me, { game: () => gameSelect.value, options, rated: () => ratedBox.checked, clock: timing.value, pool,
    controls: { game: gameSelect, clock: timing.select, rated: ratedBox, count: countBox } }, games);
  const mine = h("div", { class: "panel", id: "my-games" }, h("h2", {}, t("lobby.mine")));
  const open = h("div", { class: "panel", id: "open-games" }, h("h2", {}, t("lobby.open")));
  const recent = h("div", { class: "panel", id: "recent-games" }, h("h2", {}, t("lobby.recent")));
  const intro = h("p", { class: "intro" }, t("lobby.intro"));
  const events = tournamentSection(); // upcoming and running tournaments, filled as they come
  const tv = tvSection(); // each game's best game being played now, to watch
  if (me) {
    // A signed-in player comes to play people: finding an opponent and their games come first
    // (on a phone, at the top of the first screen), then the games to start otherwise.
    main.append(intro, h("div", { class: "columns online" }, h("div", {}, finding.element), h("div", {}, mine, tv.element, events)), cards,
      h("div", { class: "columns" }, h("div", {}, form), h("div", {}, open, recent)));
  } else {
    // A guest may come to watch: TV stands right under the cards.
    main.append(intro, cards, tv.element, h("div", { class: "columns" }, h("div", {}, form, mine), h("div", {}, finding.element, events, open, recent)));
  }

  const ids = myGameIds();
  const [myGames, openGames, recentGames, accountGames] = await Promise.all([
    ids.length ? api(`/api/games?ids=${ids.join(",")}`) : { games: [] },
    api("/api/games?open=1"),
    api("/api/games"),
    me ? api("/api/account/games").catch(() => ({ games: [] })) : { games: [] },
  ]);
  // Signed in: the account's games (your turn first) and then any this browser holds besides.
  const known = new Set(accountGames.games.map((g) => g.id));
  const all = [...accountGames.games, ...myGames.games.filter((g) => !known.has(g.id))];
  mine.append(listing(all, (g) => h("a", { href: `#/game/${g.id}`, class: g.your_turn ? "your-turn" : null }, g.your_turn ? t("lobby.yourTurn") : g.status === "active" ? t("lobby.play") : t("lobby.view"))));
  open.append(listing(openGames.games, (g) => h("button", { class: "join", onclick: async () => {
    if (g.reproducible && !confirm(t("lobby.joinReproducible"))) return;
    try {
      const joined = await api(`/api/games/${g.id}/join`, { method: "POST", body: { accept_reproducible: !!g.reproducible } });
      rememberToken(g.id, joined.token);
      location.hash = `#/game/${g.id}`;
    } catch (e) { showError(e.message); }
  } }, t("lobby.join"))));
  recent.append(listing(recentGames.games, (g) => [h("a", { href: `#/game/${g.id}` }, t("lobby.watch")), " ", h("a", { href: `#/replay/${g.id}` }, t("lobby.replay"))]));
  return () => { finding.stop(); tv.stop(); };
}

export async function joinPage(main, id, code) {
  if (tokenFor(id)) { location.hash = `#/game/${id}`; return; }
  const game = await api(`/api/games/${id}`);
  // Which side the link offers (the code is checked by the server; a wrong one says so here).
  const offered = await api(`/api/games/${id}/invitation`, { method: "POST", body: { invite: code } }).catch((e) => { showError(e.message); return null; });
  clear(main);
  const name = h("input", { id: "player-name", value: playerName(), placeholder: t("join.placeholder") });
  const side = offered && (game.hints?.seat_names?.[offered.seat] || game.seats[offered.seat]?.name);
  const agree = h("input", { type: "checkbox", id: "accept-reproducible" });
  main.append(h("div", { class: "panel" },
    h("h2", {}, t("join.title", { title: gameTitle(game.game, game.title) })),
    offered ? h("p", { id: "your-seat", class: "your-seat" }, t("join.yourSeat", { side: seatName(side), n: offered.seat + 1 })) : "",
    h("p", {}, game.seats.map((s) => `${seatName(s.name)}${s.claimed ? "" : t("join.free")}`).join(" · ")),
    game.reproducible ? h("p", { class: "reproducible" }, h("label", {}, agree, t("join.reproducible", { seed: game.seed }))) : "",
    h("label", {}, `${t("join.name")} `, name),
    h("button", { class: "primary", id: "accept", onclick: async () => {
      try {
        rememberName(name.value);
        const joined = await api(`/api/games/${id}/join`, { method: "POST", body: { invite: code, name: name.value, accept_reproducible: agree.checked } });
        rememberToken(id, joined.token);
        location.hash = `#/game/${id}`;
      } catch (e) { showError(e.message); }
    } }, t("join.accept"))));
}
