// Finding an opponent, in the lobby: the open seeks (live, from lobbylive.js), posting one for
// the game and options chosen in the new-game form, Quick game (the closest fitting seek, else
// one posted), and challenges to a player by name, sent and received. A game for three or four
// is a table: it is opened instead of a seek, listed with who sits at it, others take its seats
// and it starts when every seat is taken (as Board Game Arena's tables). The panel's game,
// player count, clock and Rated box are the form's own, mirrored here, so a phone need not scroll
// to the form; what failed is said under the button or form that asked, what worked in the calm
// note.
import { h, clear } from "../dom.js";
import { api, showError, showNote, errorLine } from "../api.js";
import { t, gameTitle, clockWords } from "../text.js";
import { onLobby, seeks, challenges, goToGame, answerChallenge, lobbyLive } from "../lobbylive.js";
import { playerLink } from "./player.js";

const RANGE = 300;
// The refusals of a challenge a player meets by mistyping, in the page's language (the others
// as the server says them).
const REFUSED = { no_such_player: "challenge.noSuchPlayer", challenge_self: "challenge.self" };
// "rated (1420–1720) · 5+3", "casual · untimed": what a seek or challenge plays for, and how long.
const terms = (item) => {
  const clock = ` · ${clockWords(item.clock)}`;
  if (!item.rated) return t("seek.casual") + clock;
  const range = item.rating_min !== null && item.rating_min !== undefined ? t("seek.range", { min: item.rating_min, max: item.rating_max }) : "";
  return `${t("lobby.rated")}${range}${clock}`;
};

// The options of a seek that differ from the game's defaults (the rest go without saying).
function unusual(catalogue, item) {
  const game = catalogue.find((g) => g.name === item.game);
  const defaults = Object.fromEntries((game?.options || []).map((o) => [o.name, o.default]));
  const differ = Object.entries(item.options || {}).filter(([k, v]) => k !== "players" && v !== defaults[k]);
  return differ.length ? h("span", { class: "muted" }, ` (${differ.map(([k, v]) => `${k}=${v}`).join(", ")})`) : "";
}

// A copy of one of the form's controls (a menu or a box) that stays the same as it both ways:
// changing either changes the other (and the form hears its own "change").
function mirror(source, attrs) {
  const copy = source.cloneNode(true);
  copy.removeAttribute("name");
  for (const [key, value] of Object.entries(attrs)) copy.setAttribute(key, value);
  const field = source.type === "checkbox" ? "checked" : "value";
  const sync = () => {
    copy[field] = source[field];
    if (copy.options) [...copy.options].forEach((o, i) => { o.disabled = source.options[i]?.disabled ?? false; });
  };
  copy.addEventListener("change", () => { source[field] = copy[field]; source.dispatchEvent(new Event("change", { bubbles: true })); sync(); });
  source.addEventListener("change", sync);
  sync();
  return copy;
}

// The form's player count (redrawn with each game), mirrored: hidden for games of two only.
function countMirror(controls, changed) {
  const copy = h("select", { id: "seek-players" });
  const label = h("label", {}, `${t("lobby.playerCount")} `, copy);
  const source = () => controls.count.querySelector("[data-option=players]");
  const sync = () => {
    const from = source();
    label.hidden = !from;
    if (from) {
      clear(copy).append(...[...from.options].map((o) => h("option", { value: o.value }, o.textContent)));
      copy.value = from.value;
    }
    changed();
  };
  copy.addEventListener("change", () => {
    const from = source();
    if (from) { from.value = copy.value; from.dispatchEvent(new Event("change", { bubbles: true })); }
  });
  controls.count.addEventListener("change", sync);
  controls.game.addEventListener("change", sync); // after the form redrew its count for the game
  return { label, sync, seats: () => Number(source()?.value ?? 2) };
}

// A table's seats in words: who sits besides its owner is in the "who" column; here what is free.
const freeSeats = (s) => {
  const free = s.players - 1 - (s.seated || []).length;
  return free === 1 ? t("seek.freeOne") : t("seek.freeMany", { n: free });
};

export function seekPanel(me, chosen, catalogue) {
  const panel = h("div", { class: "panel", id: "seeks-panel" }, h("h2", {}, t("seek.title")));
  const list = h("div", { id: "seek-list" });
  const incoming = h("div", { id: "my-challenges" });
  const stop = onLobby(() => {
    draw();
    drawChallenges();
  });
  function draw() {
    const open = seeks();
    clear(list).append(open.length ? h("table", { class: "list seeks" }, open.map((s) => {
      const seated = s.seated || [];
      const table = s.players > 2;
      const mine = me && (s.player === me.name || seated.some((p) => p.player === me.name));
      return h("tr", { "data-seek": s.id, "data-table": table ? String(s.players) : null, class: mine ? "mine" : null },
        h("td", { class: "what nowrap" }, gameTitle(s.game, s.game), unusual(catalogue, s), table ? h("span", { class: "tag seats-tag" }, t("lobby.players", { n: s.players })) : ""),
        h("td", { class: "who" }, [{ player: s.player, rating: s.rating }, ...seated].flatMap((p, i) => [i ? ", " : "", h("span", { class: "nowrap" }, playerLink(p.player), " ", h("span", { class: "rating" }, p.rating))])),
        h("td", { class: "state muted" }, terms(s), table ? ` · ${freeSeats(s)}` : ""),
        h("td", { class: "act" }, action(s, table, seated)));
    })) : h("p", { class: "muted", id: "no-seeks" }, t(lobbyLive() ? "seek.none" : "seek.connecting")));
  }
  // What this player can do with a seek: cancel their own, leave a table they sit at, else play it
  // (two players) or take a seat (a table; the last one starts the game for everyone).
  function action(s, table, seated) {
    if (!me) return "";
    if (s.player === me.name) {
      return h("button", { class: "cancel-seek", onclick: () => api(`/api/seeks/${s.id}`, { method: "DELETE" }).catch((e) => showError(e.message)) }, t("seek.cancel"));
    }
    if (seated.some((p) => p.player === me.name)) {
      return h("button", { class: "leave-table", onclick: () => api(`/api/seeks/${s.id}/sit`, { method: "DELETE" }).catch((e) => showError(e.message)) }, t("seek.leave"));
    }
    if (table) {
      return h("button", { class: "primary sit-table", onclick: async () => {
        try {
          const answer = await api(`/api/seeks/${s.id}/sit`, { method: "POST", body: {} });
          if (answer.started) await goToGame(answer.started.id, answer.started.token);
          else showNote(t("seek.seated", { name: s.player }));
        } catch (e) { showError(e.message); }
      } }, t("seek.sit"));
    }
    return h("button", { class: "primary accept-seek", onclick: async () => {
      try { const started = await api(`/api/seeks/${s.id}/accept`, { method: "POST", body: {} }); await goToGame(started.id, started.token); } catch (e) { showError(e.message); }
    } }, t("seek.accept"));
  }
  // The challenges this player sent and are waiting on (those received are in the bar under
  // the header, on every page: lobbylive.js).
  function drawChallenges() {
    const mine = challenges().filter((c) => c.status === "open" && c.from === me?.name);
    clear(incoming).append(...mine.map((c) => h("p", { class: "challenge", "data-challenge": c.id },
      t("challenge.to", { name: c.to, game: gameTitle(c.game, c.game), terms: terms(c) }), " ",
      h("button", { class: "cancel-challenge", onclick: () => answerChallenge(c, "cancel").catch((e) => showError(e.message)) }, t("challenge.cancel")))));
  }
  if (!me) {
    panel.append(h("p", { class: "muted" }, h("a", { href: "#/signin" }, t("lobby.signInLink")), t("seek.signIn")), list);
    return { element: panel, stop };
  }
  // What to play comes from the new-game form: its game, options and Rated box.
  const what = () => ({ game: chosen.game(), options: chosen.options(), rated: chosen.rated(), clock: chosen.clock() });
  const ranged = h("input", { type: "checkbox", id: "seek-ranged" });
  // What Quick game and a seek play: the form's game, clock and Rated box, mirrored here.
  const controls = chosen.controls;
  // A game of three or four opens a table: the post button and the note say so.
  const note = h("p", { class: "muted small seek-note" });
  const post = h("button", { id: "post-seek" });
  const retitle = () => {
    const table = count ? count.seats() > 2 : false;
    post.textContent = t(table ? "seek.postTable" : "seek.post");
    // A game that can be played by 3 or 4 says how to open a table for them.
    const more = !table && count && !count.label.hidden ? t("seek.tableHint") : "";
    note.textContent = t(table ? "seek.tableNote" : "seek.note") + more;
  };
  const count = controls?.count ? countMirror(controls, retitle) : null;
  const choice = controls ? h("p", { class: "seek-choice" },
    h("label", {}, `${t("lobby.game")} `, mirror(controls.game, { id: "seek-game" })), " ",
    count ? [count.label, " "] : "",
    h("label", {}, `${t("clock.label")} `, mirror(controls.clock, { id: "seek-clock" })), " ",
    h("label", { title: t("lobby.ratedTitle") }, mirror(controls.rated, { id: "seek-rated" }), ` ${t("seek.ratedLabel")}`)) : "";
  if (count) count.sync();
  retitle();
  const seekError = errorLine("seek-error");
  const challengeError = errorLine("challenge-error");
  const seekBody = async () => {
    const body = what();
    if (body.rated && ranged.checked) {
      const profile = await api(`/api/players/${encodeURIComponent(me.name)}`);
      const pool = profile.ratings.find((r) => r.pool === chosen.pool())?.rating ?? 1500;
      Object.assign(body, { rating_min: Math.max(0, pool - RANGE), rating_max: pool + RANGE });
    }
    return body;
  };
  // What a seek or table posted (or sat at, by Quick game) means for the player, calmly.
  const waiting = (seek) => {
    if (seek.player !== me.name) showNote(t("seek.seated", { name: seek.player }));
    else showNote(seek.players > 2 ? t("seek.tableOpen", { n: seek.players }) : t("seek.posted"));
  };
  post.addEventListener("click", async () => {
    seekError.clear();
    try {
      waiting((await api("/api/seeks", { method: "POST", body: await seekBody() })).seek);
    } catch (e) { seekError.show(e.message); }
  });
  const quick = h("button", { class: "primary", id: "quick-game", onclick: async () => {
    seekError.clear();
    try {
      const answer = await api("/api/seeks/quick", { method: "POST", body: await seekBody() });
      if (answer.started) await goToGame(answer.started.id, answer.started.token);
      else waiting(answer.seek);
    } catch (e) { seekError.show(e.message); }
  } }, t("seek.quick"));
  const who = h("input", { id: "challenge-name", maxlength: 20, placeholder: t("challenge.placeholder"), "aria-label": t("challenge.name") });
  const send = h("form", { id: "challenge-form" }, h("label", {}, `${t("challenge.name")} `, who), " ",
    h("button", { type: "submit" }, t("challenge.send")));
  send.addEventListener("submit", async (event) => {
    event.preventDefault();
    challengeError.clear();
    try {
      await api("/api/challenges", { method: "POST", body: { to: who.value.trim(), ...what() } });
      who.value = "";
      showNote(t("challenge.sent"));
    } catch (e) { challengeError.show(REFUSED[e.code] ? t(REFUSED[e.code], { name: who.value.trim() }) : e.message); }
  });
  panel.append(
    choice,
    h("p", { class: "seek-buttons" }, quick, " ", post, " ", h("label", { title: t("seek.rangeTitle", { n: RANGE }) }, ranged, t("seek.rangeLabel", { n: RANGE }))),
    seekError.element,
    list,
    note,
    h("h3", {}, t("challenge.title")), send, challengeError.element, incoming);
  return { element: panel, stop };
}
