// A finished game's result in the reader's own words: "You won on time", "You lost", "You
// resigned" to a player; the players' names ("Kenji ran out of time: Maple wins") to a spectator,
// a hot-seat screen and the lists; and the rating change of a rated game ("You won on time ·
// +12"). Put together from the structured result (`winners`, `ended`, `resigned`, `left`, the
// engine's `end` code), never from the engine's English sentence, which speaks in seat colours.
import { t, seatName, endWords, language } from "./text.js";

// A seat as a result names it: its player's name, else the seat's own ("Red", "AI (easy)").
function seatLabel(seats, colours, seat) {
  const s = seats?.[seat];
  return seatName(s?.name ?? colours?.[seat] ?? `#${seat + 1}`);
}

// Who each seat's label names in the words of an ending ("Final score: Player 1 0, Player 2 0,
// Player 3 2. Player 3 wins by 2 points." → the players' names), for text.js's say: a seat the
// game only numbers ("Player 3") is its player's name; a seat the game names by its colour keeps
// the colour beside the name ("kenji77 (Black)"), since the board shows colours. A seat whose
// name is its label (a hot-seat game's), and an AI's seat (no person: "Blue moves"), are left
// as they are.
export function seatPeople(seats = [], labels = []) {
  const people = {};
  labels.forEach((label, seat) => {
    const name = seats[seat]?.name;
    if (!label || !name || name === label || ["ai", "agent"].includes(seats[seat]?.kind)) return;
    people[label] = /^Player \d+$/.test(label) ? seatName(name) : t("ending.seatOf", { name: seatName(name), colour: seatName(label) });
  });
  return people;
}

// "+12", "−8" (a real minus sign), "±0": a rating change as the result shows it.
export function ratingChange(change) {
  if (change === null || change === undefined || Number.isNaN(Number(change))) return "";
  const n = Math.round(Number(change));
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10";
}

// Why a rated result moved a rating less than a whole game, or not at all, as a page says it
// beside "±0" (docs/web.md, "Rated games worth their rating"): `weight` is the share of a game
// the result counted for (below 1: repeated between the same players within 24 hours),
// `unrated` "early" for a rated game that ended too early to rate anybody. `{text, title}`, the
// text short in a list (`short`), or null when the result counted in full.
export function ratingNote(weight, unrated, short = false) {
  if (unrated === "early") return { text: t(short ? "result.ratingUnrated" : "result.ratingEarly"), title: t("result.ratingEarly") };
  if (typeof weight !== "number" || weight >= 1) return null;
  const share = new Intl.NumberFormat(language(), { style: "percent", maximumSignificantDigits: 3 }).format(weight);
  const long = t("result.ratingRepeated", { share });
  return { text: short ? t("result.ratingCounted", { share }) : long, title: long };
}

// The note a game page shows under a settled rated game's result (GET /api/games/{id}/rating's
// `answer`): for the player of `mine` (their seats; one), their seat's; for anybody else, the
// one of the seat that counted least.
export function gameRatingNote(answer, mine = []) {
  const seats = mine.length === 1 ? answer.seats.filter((s) => s.seat === mine[0]) : answer.seats;
  const weights = seats.map((s) => s.weight).filter((w) => typeof w === "number");
  return ratingNote(weights.length ? Math.min(...weights) : null, answer.unrated);
}

// The words of `result` for a reader holding `mine` (their seats: one seat reads "you"; none, or
// every seat of a hot-seat screen, reads names). `seats` are the game's seats ({name}), `colours`
// the game's seat names.
export function resultSaid(result, { seats = [], mine = [], colours = [] } = {}) {
  if (!result) return "";
  if (!Array.isArray(result.winners)) return result.text ?? result.result ?? "";
  const name = (seat) => seatLabel(seats, colours, seat);
  const names = (list) => list.map(name).join(t("result.and"));
  const winners = result.winners;
  const out = (result.resigned || []).slice(-1)[0];
  const reason = endWords(result.end);
  const me = mine.length === 1 && seats.length > 1 ? mine[0] : null;
  const ended = result.ended;
  // Who left an abandoned game (a list's summary may not say: of two, the one who did not win).
  const left = result.left ?? (seats.length === 2 && winners.length === 1 ? 1 - winners[0] : 0);
  if (ended === "agreement") return t("result.agreed");
  if (ended === "aborted") return t("result.aborted", { name: name(left) });
  if (me !== null) {
    const won = winners.includes(me);
    if (ended === "time" && won) return t("you.wonOnTime");
    if (ended === "time" && out === me) return t("you.lostOnTime");
    if (ended === "resignation" && won) return t("you.wonResigned", { name: name(out) });
    if (ended === "resignation" && out === me) return t("you.resigned");
    if (ended === "abandoned" && won) return t("you.wonLeft", { name: name(left) });
    if (ended === "abandoned" && left === me) return t("you.lostLeft");
    if (!ended && won && winners.length > 1) return t("you.wonShared", { names: names(winners.filter((w) => w !== me)) });
    if (!ended && won) return reason ? t("you.wonBecause", { reason }) : t("you.won");
    if (!ended && winners.length && seats.length === 2) return reason ? t("you.lostBecause", { reason }) : t("you.lost");
    if (winners.length && !won) return t("you.lostTo", { winner: names(winners) });
  }
  const who = names(winners);
  if (ended === "abandoned") {
    const gone = name(left);
    return who ? t("result.leftWins", { name: gone, winner: who }) : t("result.leftDraw", { name: gone });
  }
  if (ended === "time") return who ? t("result.timeWins", { name: name(out), winner: who }) : t("result.time", { name: name(out) });
  if (ended === "resignation") return who ? t("result.resignsWins", { name: name(out), winner: who }) : t("result.resigns", { name: name(out) });
  if (who) return reason ? t("result.winsBecause", { name: who, reason }) : t("result.wins", { name: who });
  return reason ? t("result.drawBecause", { reason }) : t("result.draw");
}

// A game view's result for the reader of this page, with their rating change if it was rated
// and is settled (`changes`: the change per seat, from GET /api/games/{id}/rating).
export function gameResult(game, changes = null) {
  const said = resultSaid(game.result, { seats: game.seats, mine: game.your_seats || [], colours: game.hints?.seat_names });
  const mine = game.your_seats || [];
  const change = mine.length === 1 ? changes?.[mine[0]] : undefined;
  return change === undefined || change === null ? said : `${said} · ${ratingChange(change)}`;
}
