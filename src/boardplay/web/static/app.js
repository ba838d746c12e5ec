// boardplay web front end: lobby, game page (live over WebSocket), replays and rules.
// Plain ES modules; the server is authoritative, this page only shows and asks.
import { h, clear } from "./dom.js";
import { markdownToHtml } from "./markdown.js";

const main = document.getElementById("main");
const connection = document.getElementById("connection");
const toast = document.getElementById("toast");
const BOARD_GAMES = new Set(["potlatch", "proteus", "passtally", "montana"]);

// ----- local memory: seat tokens and invitation links of this browser -------------------------
const store = {
  get(key, fallback) {
    try { return JSON.parse(localStorage.getItem(`boardplay.${key}`)) ?? fallback; } catch { return fallback; }
  },
  set(key, value) { localStorage.setItem(`boardplay.${key}`, JSON.stringify(value)); },
};
const tokenFor = (id) => store.get("tokens", {})[id] || null;
function rememberToken(id, token) { const t = store.get("tokens", {}); t[id] = token; store.set("tokens", t); }
function rememberInvites(id, invites) { const all = store.get("invites", {}); all[id] = invites; store.set("invites", all); }

function showError(message) {
  toast.textContent = message;
  toast.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { toast.hidden = true; }, 6000);
}

async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const message = data?.error?.message || `request failed (${response.status})`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

let catalogue = null;
async function getCatalogue() {
  if (!catalogue) catalogue = (await api("/api/catalogue")).games;
  return catalogue;
}

const renderers = {};
async function renderer(name) {
  if (!(name in renderers)) {
    renderers[name] = null;
    if (BOARD_GAMES.has(name)) {
      try { renderers[name] = await import(`./boards/${name}.js`); } catch (e) { console.warn(e); }
    }
  }
  return renderers[name];
}

// ----- routing -----------------------------------------------------------------------------
let leave = () => {};
async function route() {
  leave();
  leave = () => {};
  connection.textContent = "";
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "game" && parts[1]) await gamePage(parts[1]);
    else if (parts[0] === "join" && parts[1]) await joinPage(parts[1], parts[2]);
    else if (parts[0] === "replay") await replayPage(parts[1]);
    else if (parts[0] === "rules" && parts[1]) await rulesPage(parts[1]);
    else await lobbyPage();
  } catch (e) {
    clear(main).append(h("div", { class: "panel" }, h("h2", {}, "Something went wrong"), h("p", {}, e.message), h("a", { href: "#/" }, "Back to the lobby")));
  }
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// ----- lobby -------------------------------------------------------------------------------
const SEAT_CHOICES = [["me", "Me"], ["hotseat", "Hot-seat (this screen)"], ["ai", "AI"], ["invite", "Invited player (link)"], ["open", "Open seat (lobby)"]];

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.kind === "bool") {
    input = h("select", { id, name: option.name }, h("option", { value: "false" }, "false"), h("option", { value: "true" }, "true"));
    input.value = String(option.default);
  } else if (option.choices) {
    input = h("select", { id, name: option.name }, option.choices.map((c) => h("option", { value: String(c) }, String(c))));
    input.value = String(option.default);
  } else {
    input = h("input", { id, name: option.name, value: option.default ?? "none", size: 8, title: option.allowed });
  }
  return h("label", { title: option.doc }, `${option.name} `, input);
}

async function lobbyPage() {
  const games = await getCatalogue();
  clear(main);
  const form = h("form", { class: "panel", id: "new-game" });
  const gameSelect = h("select", { id: "game-select", name: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const optionsBox = h("div", { id: "options" });
  const seatsBox = h("div", { id: "seats" });
  const rulesLink = h("a", { id: "rules-link", href: "#" }, "Rules");
  const reproducible = h("input", { type: "checkbox", id: "reproducible" });
  form.append(
    h("h2", {}, "New game"),
    h("label", {}, "Game ", gameSelect), " ", rulesLink,
    optionsBox, h("h3", {}, "Seats"), seatsBox,
    h("p", {}, h("label", { title: "chance follows a seed shown to every player; each invited player must agree" }, reproducible, " Reproducible (the seed is shown to everyone)")),
    h("button", { type: "submit", class: "primary", id: "create" }, "Create game"),
  );
  const chosen = () => games.find((g) => g.name === gameSelect.value);
  const readOptions = () => {
    const out = {};
    for (const el of optionsBox.querySelectorAll("select, input")) out[el.name] = el.value;
    return out;
  };
  const drawSeats = async () => {
    const game = chosen();
    let seatNames = game.seat_names.slice(0, game.num_players);
    try {
      seatNames = (await api("/api/games/preview", { method: "POST", body: { game: game.name, options: readOptions() } })).seat_names;
    } catch (e) { showError(e.message); }
    clear(seatsBox);
    seatNames.forEach((name, seat) => {
      const kind = h("select", { name: `seat-${seat}`, class: "seat-kind" }, SEAT_CHOICES.map(([v, l]) => h("option", { value: v }, l)));
      kind.value = seat === 0 ? "me" : "ai";
      const level = h("select", { name: `level-${seat}`, class: "seat-level" }, game.ai_levels.map((l) => h("option", { value: l }, l)));
      const sync = () => { level.hidden = kind.value !== "ai"; };
      kind.addEventListener("change", sync);
      sync();
      const colour = game.hints.seat_colours[seat];
      seatsBox.append(h("div", { class: "seat-row" }, h("span", { class: "swatch", style: `background:${colour}` }), h("span", {}, name), kind, level));
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

  const mine = h("div", { class: "panel", id: "my-games" }, h("h2", {}, "My games"));
  const open = h("div", { class: "panel", id: "open-games" }, h("h2", {}, "Open games"));
  const recent = h("div", { class: "panel", id: "recent-games" }, h("h2", {}, "Recent games (watch)"));
  const rules = h("div", { class: "panel" }, h("h2", {}, "Rules"), games.map((g) => [h("a", { href: `#/rules/${g.name}` }, g.title), " "]));
  main.append(h("div", { class: "columns" }, h("div", {}, form, mine), h("div", {}, open, recent, rules)));

  const ids = Object.keys(store.get("tokens", {}));
  const listing = (games, action) => games.length
    ? h("table", { class: "list" }, games.map((g) => h("tr", { "data-game": g.id },
      h("td", {}, g.title), h("td", {}, g.seats.map((s) => s.name).join(" vs ")),
      h("td", { class: "muted" }, g.result || (g.status === "active" ? `${g.current_name ?? ""} to move` : g.status)),
      h("td", {}, action(g)))))
    : h("p", { class: "muted" }, "None.");
  const [myGames, openGames, recentGames] = await Promise.all([
    ids.length ? api(`/api/games?ids=${ids.join(",")}`) : { games: [] },
    api("/api/games?open=1"),
    api("/api/games"),
  ]);
  mine.append(listing(myGames.games, (g) => h("a", { href: `#/game/${g.id}` }, g.status === "active" ? "Play" : "View")));
  open.append(listing(openGames.games, (g) => h("button", { class: "join", onclick: async () => {
    if (g.reproducible && !confirm("This game is reproducible: its creator chose the seed its luck follows. Join anyway?")) return;
    try {
      const joined = await api(`/api/games/${g.id}/join`, { method: "POST", body: { accept_reproducible: !!g.reproducible } });
      rememberToken(g.id, joined.token);
      location.hash = `#/game/${g.id}`;
    } catch (e) { showError(e.message); }
  } }, "Join")));
  recent.append(listing(recentGames.games, (g) => [h("a", { href: `#/game/${g.id}` }, "Watch"), " ", h("a", { href: `#/replay/${g.id}` }, "Replay")]));
}

// ----- joining by invitation --------------------------------------------------------------
async function joinPage(id, code) {
  if (tokenFor(id)) { location.hash = `#/game/${id}`; return; }
  const game = await api(`/api/games/${id}`);
  clear(main);
  const name = h("input", { id: "player-name", value: store.get("name", ""), placeholder: "your name" });
  const agree = h("input", { type: "checkbox", id: "accept-reproducible" });
  main.append(h("div", { class: "panel" },
    h("h2", {}, `You are invited to ${game.title}`),
    h("p", {}, game.seats.map((s) => `${s.name}${s.claimed ? "" : " (free)"}`).join(" · ")),
    game.reproducible ? h("p", { class: "reproducible" }, h("label", {}, agree, ` This game is reproducible: its luck follows seed ${game.seed}, chosen by its creator. I agree.`)) : "",
    h("label", {}, "Name ", name),
    h("button", { class: "primary", id: "accept", onclick: async () => {
      try {
        store.set("name", name.value);
        const joined = await api(`/api/games/${id}/join`, { method: "POST", body: { invite: code, name: name.value, accept_reproducible: agree.checked } });
        rememberToken(id, joined.token);
        location.hash = `#/game/${id}`;
      } catch (e) { showError(e.message); }
    } }, "Take the seat")));
}

// ----- game page ---------------------------------------------------------------------------
// Turns made of several decisions: "step 2" once the mover has already acted this turn (the
// run of the mover's own actions since anyone else, or chance, last acted).
function stepLabel(game) {
  let done = 0;
  for (let i = game.moves.length - 1; i >= 0 && game.moves[i].player === game.current_player; i--) done++;
  return done ? ` — step ${done + 1} of this turn` : "";
}

function seatList(game, highlight) {
  const colours = game.hints?.seat_colours || [];
  return h("ul", { class: "seats" }, game.seats.map((seat) => {
    const score = game.scores ? ` — ${game.scores[seat.seat]}` : "";
    const you = game.your_seats?.includes(seat.seat) ? " (you)" : "";
    const kind = seat.kind === "ai" ? ` [AI ${seat.spec}]` : seat.kind === "hotseat" ? " [hot-seat]" : !seat.claimed ? " [waiting]" : "";
    const cls = [seat.seat === highlight ? "current" : "", game.thinking === seat.seat ? "thinking" : ""].join(" ");
    return h("li", { class: cls, "data-seat": seat.seat }, h("span", { class: "swatch", style: `background:${colours[seat.seat] || "#999"}` }), `${seat.name}${you}${kind}${score}`);
  }));
}

function moveList(moves, seats, upto) {
  const list = h("ol", { class: "moves", start: 0 });
  moves.forEach((m, i) => {
    const who = m.player < 0 ? "chance" : seats[m.player]?.name || `seat ${m.player}`;
    list.append(h("li", { class: `${m.player < 0 ? "chance" : ""} ${i === upto - 1 ? "last" : ""}`, "data-ply": i, value: i + 1 }, `${m.move} `, h("span", { class: "muted" }, who)));
  });
  return list;
}

// Draws the board (or the text picture when no renderer exists) with clickable legal moves;
// returns the moves that were not drawn so the caller can list them.
async function drawBoard(box, gameName, position, textPicture, ctx) {
  clear(box);
  const mod = await renderer(gameName);
  ctx.mapped = new Set();
  let svg = null;
  if (mod && position) {
    try { svg = mod.draw(position, ctx); } catch (e) { console.error(e); svg = null; }
  }
  if (svg) box.append(svg);
  else box.append(h("pre", { class: "text" }, textPicture || JSON.stringify(position, null, 1)));
  return ctx.legal.filter((l) => !ctx.mapped.has(l.move));
}

function chooser(box, event, moves, play) {
  box.querySelector(".chooser")?.remove();
  const rect = box.getBoundingClientRect();
  const menu = h("div", { class: "chooser", style: `left:${event.clientX - rect.left}px;top:${event.clientY - rect.top}px` },
    moves.map((m) => h("button", { "data-move": m, onclick: (e) => { e.stopPropagation(); menu.remove(); play(m); } }, m)),
    h("button", { onclick: (e) => { e.stopPropagation(); menu.remove(); } }, "cancel"));
  box.append(menu);
}

async function gamePage(id) {
  let token = tokenFor(id);
  let game = await api(`/api/games/${id}`, { token });
  let socket = null;
  let closed = false;
  let retry = 0;
  let busy = false;
  clear(main);
  const title = h("h2", { id: "game-title" });
  const status = h("div", { class: "status", id: "status" });
  const board = h("div", { class: "board-wrap", id: "board" });
  const legalBox = h("div", { class: "legal-list", id: "legal-list" });
  const seatsBox = h("div", { id: "seats" });
  const movesBox = h("div", { id: "moves" });
  const inviteBox = h("div", { id: "invites" });
  const undo = h("button", { id: "undo", onclick: () => send("undo") }, "Undo step");
  const tools = h("p", {}, undo, " ",
    h("a", { href: `/api/games/${id}/record`, download: "" , id: "download" }, "Download record"), " · ",
    h("a", { href: `#/replay/${id}` }, "Replay"), " · ",
    h("a", { href: `#/rules/${game.game}`, id: "rules" }, "Rules"));
  const textBox = h("details", {}, h("summary", {}, "Text picture"), h("pre", { class: "text", id: "text" }));
  main.append(h("div", { class: "columns" },
    h("div", {}, h("div", { class: "panel" }, title, status, board, legalBox)),
    h("div", {}, h("div", { class: "panel" }, seatsBox, tools, inviteBox), h("div", { class: "panel" }, h("h3", {}, "Moves"), movesBox), h("div", { class: "panel" }, textBox))));

  async function send(kind, move) {
    if (busy) return;
    busy = true;
    try {
      const path = kind === "undo" ? `/api/games/${id}/undo` : `/api/games/${id}/actions`;
      const body = kind === "undo" ? { ply: game.ply } : { action: move, ply: game.ply };
      const answer = await api(path, { method: "POST", body, token });
      show(answer.game);
    } catch (e) {
      showError(e.message);
    } finally { busy = false; }
  }

  let selected = null;
  board.addEventListener("click", (event) => {
    const picked = event.target.closest("[data-select]");
    if (picked) {
      const key = picked.getAttribute("data-select");
      selected = selected === key ? null : key;
      drawing = drawing.then(drawInteractive);
      return;
    }
    const el = event.target.closest("[data-moves]");
    if (!el) return;
    const moves = JSON.parse(el.getAttribute("data-moves"));
    if (moves.length === 1) send("act", moves[0]);
    else chooser(board, event, moves, (m) => send("act", m));
  });

  let rendered = false;
  // The board with the current selection (a piece or tile picked before its destination), and
  // the legal moves the board does not show as a list of buttons.
  async function drawInteractive() {
    const interactive = !!game.your_turn;
    const ctx = { legal: interactive ? game.legal : [], interactive, hints: game.hints, options: game.options, selected, currentPlayer: game.current_player, lastMove: game.moves[game.moves.length - 1] };
    const undrawn = await drawBoard(board, game.game, game.position, game.text, ctx);
    board.dataset.selected = selected || "";
    clear(legalBox);
    if (interactive && undrawn.length) {
      legalBox.append(h("div", { class: "muted" }, "Moves:"), ...undrawn.map((l) => h("button", { "data-move": l.move, onclick: () => send("act", l.move) }, l.move)));
    }
  }

  // Updates arrive from the WebSocket and from HTTP answers; drawing them one at a time keeps
  // a slower, older drawing from landing on top of a newer one.
  let drawing = Promise.resolve();
  function show(next) {
    drawing = drawing.then(() => render(next)).catch((e) => console.error(e));
    return drawing;
  }

  async function render(next) {
    const [epoch, version] = next.version || ["", 0];
    const [shownEpoch, shownVersion] = game.version || ["", -1];
    if (rendered && epoch === shownEpoch && version < shownVersion) return; // an older copy
    rendered = true;
    game = next;
    title.textContent = `${game.title} `;
    title.append(h("span", { class: "muted" }, game.game_string || ""));
    if (game.reproducible) title.append(" ", h("span", { class: "reproducible", id: "reproducible", title: "chance follows this seed, known to everyone" }, `reproducible (seed ${game.seed})`));
    let line;
    if (game.broken) line = game.broken;
    else if (game.terminal) line = `Game over: ${game.result?.text || ""}`;
    else if (game.thinking !== null && game.thinking !== undefined) line = `${game.seats[game.thinking].name} is thinking…`;
    else if (game.your_turn) line = `Your move (${game.current_name})${stepLabel(game)}`;
    else line = `${game.current_name} to move`;
    status.textContent = line;
    status.className = `status ${game.thinking !== null && game.thinking !== undefined ? "thinking" : ""}`;
    if (game.ai_error) status.append(h("div", { class: "muted" }, game.ai_error));
    clear(seatsBox).append(seatList(game, game.terminal ? null : game.current_player));
    clear(movesBox).append(moveList(game.moves, game.seats, game.moves.length));
    movesBox.querySelector(".moves").scrollTop = 1e9;
    undo.hidden = !game.can_undo;
    document.getElementById("text").textContent = game.text || "";
    selected = null;
    await drawInteractive();
    board.dataset.ply = game.ply;
    // Set last: tests and scripts wait on these, so the board must be ready when they change.
    status.dataset.ply = game.ply;
    status.dataset.terminal = game.terminal ? "1" : "0";
    status.dataset.yourTurn = game.your_turn ? "1" : "0";
    const invites = store.get("invites", {})[id] || {};
    clear(inviteBox);
    for (const [seat, code] of Object.entries(invites)) {
      const s = game.seats[Number(seat)];
      if (s && !s.claimed) {
        const url = `${location.origin}/#/join/${id}/${code}`;
        inviteBox.append(h("p", {}, `Invitation link for seat ${Number(seat) + 1}: `, h("span", { class: "invite", "data-seat": seat }, url)));
      }
    }
  }

  function connect() {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws`);
    socket.onopen = () => {
      retry = 0;
      connection.textContent = "live";
      socket.send(JSON.stringify({ type: "hello", token }));
    };
    // The socket sends the whole game once ("state"), then only what changed ("update": the
    // fields that differ, the fields gone, and the moves to keep and to add).
    let live = null;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        live = message.game;
        show(live);
      } else if (message.type === "update" && live) {
        const next = { ...live };
        for (const key of message.removed || []) delete next[key];
        Object.assign(next, message.game);
        next.moves = live.moves.slice(0, message.moves.keep).concat(message.moves.add);
        live = next;
        show(live);
      } else if (message.type === "error") showError(message.error.message);
    };
    socket.onclose = () => {
      if (closed) return;
      connection.textContent = "reconnecting…";
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }
  leave = () => { closed = true; socket?.close(); };
  await show(game);
  connect();
}

// ----- replays -----------------------------------------------------------------------------
async function replayPage(id) {
  clear(main);
  if (!id) {
    const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
    main.append(h("div", { class: "panel" }, h("h2", {}, "Open a game record"), h("p", {}, "Choose a boardplay record file (JSON) to step through it."), file));
    file.addEventListener("change", async () => {
      const text = await file.files[0].text();
      let data;
      try { data = JSON.parse(text); } catch { showError("that file is not JSON"); return; }
      try { showReplay(await api("/api/replay", { method: "POST", body: data }), null); } catch (e) { showError(e.message); }
    });
    return;
  }
  showReplay(await api(`/api/games/${id}/replay`), id);
}

async function showReplay(replay, id) {
  clear(main);
  const frames = replay.frames;
  let index = frames.length - 1;
  const board = h("div", { class: "board-wrap", id: "replay-board" });
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: index, id: "scrub" });
  const label = h("span", { id: "replay-ply" });
  const info = h("div", { class: "status", id: "replay-status" });
  const movesBox = h("div", {});
  const seats = replay.players.length ? replay.players.map((p, i) => ({ seat: i, name: p.name })) : (replay.hints.seat_names || []).map((name, i) => ({ seat: i, name }));
  const allMoves = frames.slice(1).map((f) => ({ move: f.move, player: f.player }));
  const go = async (n) => {
    index = Math.max(0, Math.min(frames.length - 1, n));
    slider.value = index;
    const frame = frames[index];
    label.textContent = `${index} / ${frames.length - 1}`;
    info.textContent = frame.result ? `Result: ${frame.result}` : index ? `after ${frame.move}` : "start";
    await drawBoard(board, replay.game, frame.position, frame.text, { legal: [], interactive: false, hints: replay.hints });
    board.dataset.ply = index;
    clear(movesBox).append(moveList(allMoves, seats, index));
    for (const li of movesBox.querySelectorAll("li")) li.addEventListener("click", () => go(Number(li.dataset.ply) + 1));
  };
  const blob = new Blob([JSON.stringify(replay.record, null, 1)], { type: "application/json" });
  main.append(h("div", { class: "columns" },
    h("div", {}, h("div", { class: "panel" }, h("h2", {}, `Replay: ${replay.title}`), info, board,
      h("div", { class: "replay-controls" },
        h("button", { id: "first", onclick: () => go(0) }, "⏮"), h("button", { id: "prev", onclick: () => go(index - 1) }, "◀"),
        slider, h("button", { id: "next", onclick: () => go(index + 1) }, "▶"), h("button", { id: "last", onclick: () => go(frames.length - 1) }, "⏭"), label))),
    h("div", {}, h("div", { class: "panel" }, seatList({ seats: seats.map((s) => ({ ...s, claimed: true })), hints: replay.hints }, null),
      h("p", {}, h("a", { href: URL.createObjectURL(blob), download: `boardplay-${replay.game}${id ? `-${id}` : ""}.json` }, "Download record"), " · ", h("a", { href: `#/rules/${replay.game}` }, "Rules"))),
    h("div", { class: "panel" }, h("h3", {}, "Moves"), movesBox))));
  slider.addEventListener("input", () => go(Number(slider.value)));
  await go(index);
}

// ----- rules -------------------------------------------------------------------------------
async function rulesPage(name) {
  const rules = await api(`/api/rules/${name}`);
  clear(main);
  const body = h("div", { class: "panel rules", id: "rules-text" });
  body.innerHTML = markdownToHtml(rules.markdown); // safe: the converter escapes all input first
  main.append(h("p", {}, h("a", { href: "#/" }, "← Lobby")), body);
}
