// Finding an opponent, in the lobby: the open seeks (live, from lobbylive.js), posting one for
// the game and options chosen in the new-game form, Quick game (the closest fitting seek, else
// one posted), and challenges to a player by name, sent and received.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t, gameTitle, clockWords } from "../text.js";
import { onLobby, seeks, challenges, goToGame, answerChallenge } from "../lobbylive.js";
import { playerLink } from "./player.js";

const RANGE = 300;
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
    clear(list).append(open.length ? h("table", { class: "list" }, open.map((s) => h("tr", { "data-seek": s.id },
      h("td", { class: "nowrap" }, gameTitle(s.game, s.game), unusual(catalogue, s)),
      h("td", { class: "nowrap" }, playerLink(s.player), " ", h("span", { class: "rating" }, s.rating)),
      h("td", { class: "muted" }, terms(s)),
      h("td", {}, !me ? "" : s.player === me.name
        ? h("button", { class: "cancel-seek", onclick: () => api(`/api/seeks/${s.id}`, { method: "DELETE" }).catch((e) => showError(e.message)) }, t("seek.cancel"))
        : h("button", { class: "primary accept-seek", onclick: async () => {
          try { const started = await api(`/api/seeks/${s.id}/accept`, { method: "POST", body: {} }); await goToGame(started.id, started.token); } catch (e) { showError(e.message); }
        } }, t("seek.accept")))))) : h("p", { class: "muted" }, t("seek.none")));
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
  const seekBody = async () => {
    const body = what();
    if (body.rated && ranged.checked) {
      const profile = await api(`/api/players/${encodeURIComponent(me.name)}`);
      const pool = profile.ratings.find((r) => r.pool === chosen.pool())?.rating ?? 1500;
      Object.assign(body, { rating_min: Math.max(0, pool - RANGE), rating_max: pool + RANGE });
    }
    return body;
  };
  const post = h("button", { id: "post-seek", onclick: async () => {
    try { await api("/api/seeks", { method: "POST", body: await seekBody() }); } catch (e) { showError(e.message); }
  } }, t("seek.post"));
  const quick = h("button", { class: "primary", id: "quick-game", onclick: async () => {
    try {
      const answer = await api("/api/seeks/quick", { method: "POST", body: await seekBody() });
      if (answer.started) await goToGame(answer.started.id, answer.started.token);
      else showError(t("seek.posted"));
    } catch (e) { showError(e.message); }
  } }, t("seek.quick"));
  const who = h("input", { id: "challenge-name", maxlength: 20, placeholder: t("challenge.placeholder"), "aria-label": t("challenge.name") });
  const send = h("form", { id: "challenge-form" }, h("label", {}, `${t("challenge.name")} `, who), " ",
    h("button", { type: "submit" }, t("challenge.send")));
  send.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("/api/challenges", { method: "POST", body: { to: who.value.trim(), ...what() } });
      who.value = "";
      showError(t("challenge.sent"));
    } catch (e) { showError(e.message); }
  });
  panel.append(
    h("p", { class: "muted" }, t("seek.note")),
    h("p", {}, quick, " ", post, " ", h("label", { title: t("seek.rangeTitle", { n: RANGE }) }, ranged, t("seek.rangeLabel", { n: RANGE }))),
    list, h("h3", {}, t("challenge.title")), send, incoming);
  return { element: panel, stop };
}
