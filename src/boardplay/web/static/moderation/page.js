// The moderators' page (#/moderation): the reports waiting (players reported, with the games
// between the two; chat lines, with the lines around them; the fair-play check's, with the
// player's fair-play evidence), a decision on each, any player's fair-play evidence by name,
// and the audit log. The server refuses every part of it to anyone who is not a moderator.
import { h, clear } from "../dom.js";
import { api, errorLine } from "../api.js";
import { t, language, gameTitle } from "../text.js";

const ACTIONS = ["dismiss", "warn", "chat_ban", "mark", "unmark", "close"];
const GROUNDS = ["engine", "boosting"];
const when = (seconds) => new Date(seconds * 1000).toLocaleString(language());
const day = (iso) => new Date(iso).toLocaleDateString(language());
const titleOf = (g) => gameTitle(g.game, g.game || t("mod.game"));
// A game as evidence: its title (a link to it), the day of its last move, who sat at it.
const gameWords = (g) => [
  h("a", { href: `#/game/${g.id}` }, titleOf(g)),
  " · ", day(g.updated), " · ", h("span", { translate: "no" }, g.players.join(", "))];
const gameLink = (id, g) => (g ? gameWords(g) : h("a", { href: `#/game/${id}`, translate: "no" }, id));
const playerLink = (name) => (name ? h("a", { href: `#/player/${encodeURIComponent(name)}` }, name) : "—");

function decisionForm(reportId, refresh) {
  const error = errorLine(`decide-error-${reportId}`);
  const action = h("select", { class: "decide-action" }, ACTIONS.map((a) => h("option", { value: a }, t(`mod.action.${a}`))));
  const days = h("input", { type: "number", class: "decide-days", min: 1, max: 365, value: 3 });
  const daysLabel = h("label", { hidden: true }, t("mod.days"), " ", days);
  const grounds = h("select", { class: "decide-grounds" }, GROUNDS.map((g) => h("option", { value: g }, t(`mod.grounds.${g}`))));
  const groundsLabel = h("label", { hidden: true }, t("mod.grounds"), " ", grounds);
  const why = h("input", { type: "text", class: "decide-why", maxlength: 500, required: true });
  const send = h("button", { type: "submit" }, t("mod.decide"));
  action.addEventListener("change", () => {
    daysLabel.hidden = action.value !== "chat_ban";
    groundsLabel.hidden = action.value !== "mark";
  });
  const form = h("form", { class: "decide" }, h("label", {}, t("mod.action"), " ", action), daysLabel, groundsLabel, h("label", {}, t("mod.why"), " ", why), send, error.element);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.clear();
    send.disabled = true;
    const body = { action: action.value, reason: why.value, report: reportId };
    if (action.value === "chat_ban") body.days = Number(days.value);
    if (action.value === "mark") body.grounds = grounds.value;
    try { await api("/api/moderation/actions", { method: "POST", body }); await refresh(); } catch (e) { error.show(e.message); send.disabled = false; }
  });
  return form;
}

const percent = (x) => (x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`);

// Where the player's rating band stands: the norm its flag is measured from, when there is one
// (a pool without a measured margin does not use its bands).
function norm(p) {
  if (p.rule === null || p.rule.margin === null) return "—";
  if (p.rating === null) return t("mod.fp.provisional");
  if (p.norm === null) return t("mod.fp.noband", { rating: p.rating });
  const [low, high] = p.norm.band;
  return t("mod.fp.band", { rating: p.rating, low, high, agreement: percent(p.norm.agreement), accounts: p.norm.accounts });
}

// One player's fair-play evidence per rating pool (GET /api/moderation/fairplay/{name}): the
// agreement with the expert and its lower bound, the mean loss, the flag, the standout games.
function fairPlay(found) {
  if (!found.pools.length) return h("p", { class: "muted small" }, t("mod.fp.none"));
  return h("div", { class: "mod-fairplay" }, found.pools.map((p) => [
    // One field a line (label, value), so that a phone reads it without scrolling sideways.
    h("table", { class: "list mod-fp", "data-pool": p.pool }, [
      ["mod.fp.pool", h("span", { translate: "no" }, p.pool)],
      ["mod.fp.games", String(p.games)],
      ["mod.fp.judged", String(p.judged)],
      ["mod.fp.agreement", t("mod.fp.bound", { agreement: percent(p.agreement), bound: percent(p.lower_bound) })],
      ["mod.fp.loss", percent(p.mean_loss)],
      ["mod.fp.norm", norm(p)],
      ["mod.fp.flag", p.rule === null ? t("mod.fp.uncalibrated")
        : t(p.flagged ? "mod.fp.flagged" : "mod.fp.clear", { threshold: percent(p.threshold), moves: p.rule.min_moves })],
    ].map(([key, value]) => h("tr", { class: key === "mod.fp.flag" && p.flagged ? "mod-flagged" : "" }, h("th", {}, t(key)), h("td", {}, value)))),
    h("h5", {}, t("mod.fp.standout")),
    h("ul", { class: "mod-games" }, p.standout.map((g) => h("li", {}, gameLink(g.game_id), " ",
      t("mod.fp.game", { agreed: g.agreed, judged: g.judged, loss: percent(g.mean_loss) })))),
  ]));
}

let shownEvidence = 0;
async function fairPlayOf(name, into) {
  shownEvidence += 1;
  const error = errorLine(`fairplay-error-${shownEvidence}`);
  try { clear(into).append(fairPlay(await api(`/api/moderation/fairplay/${encodeURIComponent(name)}`))); }
  catch (e) { clear(into).append(error.element); error.show(e.message); }
}

function fairPlayLookup() {
  const name = h("input", { type: "text", class: "fairplay-name", maxlength: 64, required: true });
  const shown = h("div", { id: "fairplay-shown" });
  const form = h("form", { class: "fairplay-lookup" }, h("label", {}, t("mod.fp.player"), " ", name), h("button", { type: "submit" }, t("mod.fp.show")));
  form.addEventListener("submit", (event) => { event.preventDefault(); fairPlayOf(name.value.trim(), shown); });
  return [h("h3", {}, t("mod.fp.title")), form, shown];
}

function playerReport(r, refresh) {
  let games;
  if (r.system) {
    games = h("div", { class: "mod-fairplay-of" });
    if (r.reported) fairPlayOf(r.reported, games);
  } else {
    games = r.games.length ? h("ul", { class: "mod-games" }, r.games.map((g) => h("li", {}, gameWords(g)))) : h("p", { class: "muted small" }, t("mod.noGames"));
  }
  const reporter = r.system ? t("mod.system") : r.reporter ?? "—";
  return h("li", { class: "mod-report", "data-report": r.id, "data-system": r.system ? "yes" : "no" },
    h("p", {}, t("mod.reportedBy", { reported: r.reported ?? "—", reporter, reason: t(`report.reason.${r.reason}`) }), " ", h("span", { class: "muted small" }, when(r.created))),
    r.text ? h("blockquote", {}, r.text) : "",
    r.game_id ? h("p", { class: "small" }, t("mod.fromGame"), " ", gameLink(r.game_id, r.game)) : "",
    h("p", { class: "small" }, playerLink(r.reported)),
    h("h4", {}, t(r.system ? "mod.fp.title" : "mod.games")), games,
    decisionForm(r.id, refresh));
}

function chatReport(r, refresh) {
  return h("li", { class: "mod-report", "data-report": r.id },
    h("p", {}, t("mod.lineBy", { author: r.author, game: r.game ? titleOf(r.game) : r.game_id, reporter: r.reporter }), " ", h("span", { class: "muted small" }, when(r.created))),
    h("ol", { class: "mod-context" }, r.context.map((m) => h("li", { class: m.id === r.message_id ? "reported" : "" }, h("b", {}, m.name), ": ", m.text))),
    h("p", { class: "small" }, gameLink(r.game_id, r.game)),
    decisionForm(r.id, refresh));
}

export async function moderationPage(main) {
  let queue, log;
  try {
    [queue, log] = await Promise.all([api("/api/moderation/queue"), api("/api/moderation/log")]);
  } catch (e) {
    if (e.status === 401 || e.status === 403) { clear(main).append(h("div", { class: "panel" }, h("h2", {}, t("mod.title")), h("p", {}, t("mod.forbidden")))); return; }
    throw e;
  }
  const refresh = () => moderationPage(main);
  const waiting = queue.players.length + queue.chat.length;
  const entries = log.entries.length ? h("table", { class: "list", id: "mod-log" },
    h("tr", {}, ["mod.when", "mod.who", "mod.what", "mod.about", "mod.whyHead"].map((k) => h("th", {}, t(k)))),
    log.entries.map((e) => h("tr", { "data-action": e.action },
      h("td", { class: "small" }, when(e.created)), h("td", {}, e.moderator),
      h("td", {}, t(`mod.action.${e.action}`), e.days ? ` (${e.days})` : "", e.grounds ? ` (${t(`mod.grounds.${e.grounds}`)})` : ""), h("td", {}, e.account ?? "—"), h("td", {}, e.reason))))
    : h("p", { class: "muted" }, t("mod.logEmpty"));
  clear(main).append(h("div", { class: "panel", id: "moderation" },
    h("h2", {}, t("mod.title")),
    h("h3", {}, t("mod.queue")),
    waiting ? "" : h("p", { class: "muted" }, t("mod.none")),
    queue.players.length ? [h("h4", {}, t("mod.players")), h("ul", { class: "mod-queue", id: "mod-players" }, queue.players.map((r) => playerReport(r, refresh)))] : "",
    queue.chat.length ? [h("h4", {}, t("mod.chat")), h("ul", { class: "mod-queue", id: "mod-chat" }, queue.chat.map((r) => chatReport(r, refresh)))] : "",
    fairPlayLookup(),
    h("h3", {}, t("mod.log")), entries));
}
