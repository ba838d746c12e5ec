// The lobby (a new game's form, my games, open games to join, recent games to watch) and the
// page an invitation link opens.
import { h, clear } from "../dom.js";
import { api, getCatalogue, showError } from "../api.js";
import { tokenFor, myGameIds, rememberToken, rememberInvites, playerName, rememberName } from "../store.js";
import { t, term, gameTitle, seatName, resultWords, language } from "../text.js";
import { seatSwatch } from "../boards/common.js";

const SEAT_CHOICES = ["me", "hotseat", "ai", "invite", "open"];

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.kind === "bool") {
    input = h("select", { id, name: option.name }, h("option", { value: "false" }, t("bool.false")), h("option", { value: "true" }, t("bool.true")));
    input.value = String(option.default);
  } else if (option.choices) {
    input = h("select", { id, name: option.name }, option.choices.map((c) => h("option", { value: String(c) }, term("choice", c))));
    input.value = String(option.default);
  } else {
    input = h("input", { id, name: option.name, value: option.default ?? "none", size: 8, title: option.allowed, translate: "no" });
  }
  // The engine's own explanation of an option is English: shown as a tooltip in English only.
  return h("label", { title: language() === "en" ? option.doc : undefined }, `${term("option", option.name)} `, input);
}

function listing(games, action) {
  if (!games.length) return h("p", { class: "muted" }, t("lobby.none"));
  return h("table", { class: "list" }, games.map((g) => h("tr", { "data-game": g.id },
    h("td", {}, gameTitle(g.game, g.title)), h("td", {}, g.seats.map((s) => seatName(s.name)).join(" – ")),
    h("td", { class: "muted" }, g.result ? resultWords({ text: g.result, winners: g.winners }, g.seats.map((s) => s.name))
      : g.status === "active" ? t("lobby.toMove", { name: seatName(g.current_name ?? "") }) : term("status", g.status)),
    h("td", {}, action(g)))));
}

export async function lobbyPage(main) {
  const games = await getCatalogue();
  clear(main);
  const form = h("form", { class: "panel", id: "new-game" });
  const gameSelect = h("select", { id: "game-select", name: "game" }, games.map((g) => h("option", { value: g.name }, gameTitle(g.name, g.title))));
  const optionsBox = h("div", { id: "options" });
  const seatsBox = h("div", { id: "seats" });
  const rulesLink = h("a", { id: "rules-link", href: "#" }, t("lobby.rules"));
  const reproducible = h("input", { type: "checkbox", id: "reproducible" });
  form.append(
    h("h2", {}, t("lobby.newGame")),
    h("label", {}, `${t("lobby.game")} `, gameSelect), " ", rulesLink,
    optionsBox, h("h3", {}, t("lobby.seats")), seatsBox,
    h("p", {}, h("label", { title: t("lobby.reproducibleTitle") }, reproducible, t("lobby.reproducible"))),
    h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create")),
  );
  const chosen = () => games.find((g) => g.name === gameSelect.value);
  const readOptions = () => Object.fromEntries([...optionsBox.querySelectorAll("select, input")].map((el) => [el.name, el.value]));
  const drawSeats = async () => {
    const game = chosen();
    let seatNames = game.seat_names.slice(0, game.num_players);
    try {
      seatNames = (await api("/api/games/preview", { method: "POST", body: { game: game.name, options: readOptions() } })).seat_names;
    } catch (e) { showError(e.message); }
    clear(seatsBox);
    seatNames.map(seatName).forEach((name, seat) => {
      const kind = h("select", { name: `seat-${seat}`, class: "seat-kind", "aria-label": name }, SEAT_CHOICES.map((v) => h("option", { value: v }, t(`seat.${v}`))));
      kind.value = seat === 0 ? "me" : "ai";
      const level = h("select", { name: `level-${seat}`, class: "seat-level", "aria-label": `${name}: ${t("seat.ai")}` }, game.ai_levels.map((l) => h("option", { value: l }, term("level", l))));
      const sync = () => { level.hidden = kind.value !== "ai"; };
      kind.addEventListener("change", sync);
      sync();
      seatsBox.append(h("div", { class: "seat-row" }, seatSwatch(game.hints, seat), h("span", {}, name), kind, level));
    });
    seatsBox.dataset.game = game.name;
  };
  const drawOptions = () => {
    const game = chosen();
    clear(optionsBox).append(...game.options.map(optionInput));
    rulesLink.href = `#/rules/${game.name}`;
    drawSeats();
  };
  gameSelect.addEventListener("change", drawOptions);
  optionsBox.addEventListener("change", drawSeats);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
      const kind = row.querySelector(".seat-kind").value;
      return kind === "ai" ? { kind, spec: row.querySelector(".seat-level").value } : { kind };
    });
    try {
      const created = await api("/api/games", { method: "POST", body: { game: gameSelect.value, options: readOptions(), seats, reproducible: reproducible.checked } });
      rememberToken(created.id, created.token);
      rememberInvites(created.id, created.invites);
      location.hash = `#/game/${created.id}`;
    } catch (e) { showError(e.message); }
  });
  drawOptions();

  const mine = h("div", { class: "panel", id: "my-games" }, h("h2", {}, t("lobby.mine")));
  const open = h("div", { class: "panel", id: "open-games" }, h("h2", {}, t("lobby.open")));
  const recent = h("div", { class: "panel", id: "recent-games" }, h("h2", {}, t("lobby.recent")));
  const rules = h("div", { class: "panel" }, h("h2", {}, t("lobby.rules")), games.map((g) => [h("a", { href: `#/rules/${g.name}` }, gameTitle(g.name, g.title)), " "]));
  main.append(h("div", { class: "columns" }, h("div", {}, form, mine), h("div", {}, open, recent, rules)));

  const ids = myGameIds();
  const [myGames, openGames, recentGames] = await Promise.all([
    ids.length ? api(`/api/games?ids=${ids.join(",")}`) : { games: [] },
    api("/api/games?open=1"),
    api("/api/games"),
  ]);
  mine.append(listing(myGames.games, (g) => h("a", { href: `#/game/${g.id}` }, g.status === "active" ? t("lobby.play") : t("lobby.view"))));
  open.append(listing(openGames.games, (g) => h("button", { class: "join", onclick: async () => {
    if (g.reproducible && !confirm(t("lobby.joinReproducible"))) return;
    try {
      const joined = await api(`/api/games/${g.id}/join`, { method: "POST", body: { accept_reproducible: !!g.reproducible } });
      rememberToken(g.id, joined.token);
      location.hash = `#/game/${g.id}`;
    } catch (e) { showError(e.message); }
  } }, t("lobby.join"))));
  recent.append(listing(recentGames.games, (g) => [h("a", { href: `#/game/${g.id}` }, t("lobby.watch")), " ", h("a", { href: `#/replay/${g.id}` }, t("lobby.replay"))]));
}

export async function joinPage(main, id, code) {
  if (tokenFor(id)) { location.hash = `#/game/${id}`; return; }
  const game = await api(`/api/games/${id}`);
  clear(main);
  const name = h("input", { id: "player-name", value: playerName(), placeholder: t("join.placeholder") });
  const agree = h("input", { type: "checkbox", id: "accept-reproducible" });
  main.append(h("div", { class: "panel" },
    h("h2", {}, t("join.title", { title: gameTitle(game.game, game.title) })),
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
