// The viewer's language and the words of the front end: t("key", {name}) fills {name} from the
// chosen language's catalogue over the English tables (the site's, strings.js, and each game's,
// the `EN` of its board module); say(parts) puts a move's words (sent as phrases) in that language.
import { EN as SITE_WORDS } from "./strings.js";
import { EN as TOURNAMENT_WORDS } from "./tournaments/strings.js";
import { EN as NOTIFICATION_WORDS } from "./notifications/strings.js";
import { EN as RELATION_WORDS } from "./relations/strings.js";
import { EN as MODERATION_WORDS } from "./moderation/strings.js";
import { EN as ANALYSIS_WORDS } from "./analysis/strings.js";
import { EN as PUZZLE_WORDS } from "./puzzles/strings.js";

const EN = { ...SITE_WORDS, ...TOURNAMENT_WORDS, ...NOTIFICATION_WORDS, ...RELATION_WORDS, ...MODERATION_WORDS, ...ANALYSIS_WORDS, ...PUZZLE_WORDS };

// A game's words are in its board module (its `EN` table, in the same shape), so a new game is
// its folder, its board module and its docs: boards/load.js adds them here when it loads the
// module, and app.js loads every offered game's module before it draws the first page.
export function addWords(table) {
  Object.assign(EN, table || {});
}

let messages = {};
let current = "en";

const fill = (template, params) => template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));

export function t(key, params = {}) {
  return fill(messages[key] || EN[key] || key, params);
}

// A word the server sends as a name ("Red", "medium") in this language, where the table has it
// under `${kind}.${value}`; otherwise the value itself (a player's own name, a number).
export function term(kind, value) {
  const key = `${kind}.${value}`;
  return key in EN ? t(key) : String(value);
}

// A game's title as its publisher's language or ours has it (a game we have no name for: its own).
export const gameTitle = (name, title) => (`title.${name}` in EN ? t(`title.${name}`) : title);

// A seat's name as the server gives it ("Red", "Black", a numbered "Player 2" where the game has
// no colours, "AI (easy)" for an AI seat nobody renamed) in this language; a player's own name
// as it is.
export function seatName(name) {
  const numbered = /^Player (\d+)$/.exec(String(name));
  if (numbered) return t("name.player", { n: numbered[1] });
  const ai = /^AI \((\w+)\)$/.exec(String(name));
  if (ai) return t("name.ai", { level: term("level", ai[1]) });
  return term("name", name);
}

// A move's words, sent by the server as phrases ({t: English template, p: params}); a template
// missing from the catalogue shows in English. Without phrases, the English `fallback`.
// A seat the phrases name by its label ("Player 3", "Black") is named as `people` says, where it
// says (results.js, seatPeople: the players' names), else by the label in this language.
export function say(parts, fallback = "", people = {}) {
  if (!Array.isArray(parts)) return fallback;
  const one = (value) => {
    if (value === null || typeof value !== "object") return String(value);
    if ("seat" in value) return people[value.seat] ?? seatName(value.seat);
    const params = Object.fromEntries(Object.entries(value.p || {}).map(([k, v]) => [k, one(v)]));
    return fill(messages[value.t] || value.t, params);
  };
  return parts.map(one).join("");
}

// Why a game ended (the engine's end code, State.end_code) in this language; "" if unknown.
export const endWords = (code) => (code && `end.${code}` in EN ? t(`end.${code}`) : "");

// A result in words: the engine's own sentence in English; in another language, or with
// `people` naming the players behind the seat names (results.js, seatPeople), it is put
// together from the structured result (`winners` or `winner_names`, the `end` code, and for a
// result the players made, `ended` and `resigned`), never from the English sentence.
export function resultWords(result, names = [], people = {}) {
  if (!result) return "";
  const text = result.text ?? result.result ?? "";
  if ((current === "en" && !Object.keys(people).length) || !Array.isArray(result.winners)) return text;
  const named = (label) => people[label] ?? seatName(label);
  const nameOf = (seat) => named(names[seat] ?? `#${seat + 1}`);
  const who = (result.winner_names || result.winners.map((w) => names[w] ?? `#${w + 1}`)).map(named).join(t("result.and"));
  if (result.ended === "agreement") return t("result.agreed");
  if (result.ended === "aborted") return t("result.aborted", { name: nameOf(result.left ?? 0) });
  if (result.ended === "abandoned") {
    const gone = nameOf(result.left ?? 0);
    return who ? t("result.leftWins", { name: gone, winner: who }) : t("result.leftDraw", { name: gone });
  }
  if (result.ended === "time") {
    const late = nameOf((result.resigned || []).slice(-1)[0]);
    return who ? t("result.timeWins", { name: late, winner: who }) : t("result.time", { name: late });
  }
  if (result.ended === "resignation") {
    const quitter = nameOf((result.resigned || []).slice(-1)[0]);
    return who ? t("result.resignsWins", { name: quitter, winner: who }) : t("result.resigns", { name: quitter });
  }
  const reason = endWords(result.end);
  if (who) return reason ? t("result.winsBecause", { name: who, reason }) : t("result.wins", { name: who });
  return reason ? t("result.drawBecause", { reason }) : t("result.draw");
}

// A time control in words: "5+3" (minutes + seconds a turn), "3 days per move", "untimed".
export function clockWords(control) {
  if (!control) return t("clock.untimed");
  if (control.days) return t(control.days === 1 ? "clock.perMoveOne" : "clock.perMove", { n: control.days });
  return t("clock.realtime", { base: control.base / 60, increment: control.increment });
}

// A move in words: its phrases in this language, and how the game ended if it did; `people`
// names the players behind the seat names (results.js, seatPeople).
export function words(m, people = {}) {
  if (!Array.isArray(m?.say)) return m?.words || "";
  const ends = m.struct?.ends;
  return say(m.say, "", people) + (ends ? t("game.ends", { result: resultWords(ends, [], people) }) : "");
}

// One phrase of the moves' words on its own (a Proteus rule name), in this language.
export const phrase = (english) => messages[english] || english;

export const language = () => current;

// The language chosen in this browser (store.js: early.js asks for its catalogue too).
export { preferredLanguage, rememberLanguage } from "./store.js";

// Loads the catalogue of `lang` (English needs none) and marks the page's language; a failed
// load leaves the page in English rather than half-translated.
export async function setLanguage(lang) {
  let next = {};
  if (lang !== "en") {
    try {
      const path = `/api/i18n/${encodeURIComponent(lang)}`;
      const response = await (globalThis.boardplayEarly?.take(path) || fetch(path)); // early.js's
      if (response.ok) next = (await response.json()).messages || {};
      else lang = "en";
    } catch { lang = "en"; }
  }
  messages = next;
  current = lang;
  document.documentElement.lang = lang;
  return lang;
}
