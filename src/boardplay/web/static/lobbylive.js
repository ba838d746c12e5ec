// The lobby's live connection (/api/lobby/ws), open on every page: the open seeks as they
// change, a signed-in player's challenges as they are made and answered, and the news that a
// seek or challenge of theirs has started a game (then the page goes to that game). A seek
// lasts while its owner has a page of the site open; the connection comes back by itself.
import { h, clear } from "./dom.js";
import { api, showError } from "./api.js";
import { rememberToken } from "./store.js";
import { t, gameTitle, clockWords } from "./text.js";
import { account } from "./session.js";

const state = { seeks: [], challenges: new Map() };
const listeners = new Set();
let socket = null;
let retry = 0;
let closing = false;

export const seeks = () => state.seeks;
export const challenges = () => [...state.challenges.values()];
export function onLobby(listener) {
  listeners.add(listener);
  listener();
  return () => listeners.delete(listener);
}
const changed = () => { for (const listener of listeners) listener(); drawBar(); };

// A game a seek or challenge started: the seat's token for this browser, then the game.
export async function goToGame(id, token = null) {
  if (!token) {
    try { token = (await api(`/api/account/games/${id}/token`, { method: "POST", body: {} })).token; } catch (e) { showError(e.message); }
  }
  if (token) rememberToken(id, token);
  location.hash = `#/game/${id}`;
}

function receive(message) {
  if (message.type === "seeks") state.seeks = message.seeks;
  else if (message.type === "challenge") state.challenges.set(message.challenge.id, message.challenge);
  else if (message.type === "started") { goToGame(message.game); return; }
  else return;
  changed();
}

// (Re)open the connection, e.g. after signing in or out (the cookie says whose it is).
export function connectLobby() {
  closing = true;
  socket?.close();
  closing = false;
  state.challenges.clear();
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/lobby/ws`;
  const mine = new WebSocket(url);
  socket = mine;
  mine.onopen = () => { retry = 0; };
  mine.onmessage = (event) => { try { receive(JSON.parse(event.data)); } catch { /* not ours */ } };
  mine.onclose = () => {
    if (closing || socket !== mine) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(() => { if (socket === mine) connectLobby(); }, 250 * 2 ** retry);
  };
}

export async function answerChallenge(challenge, answer) {
  const done = await api(`/api/challenges/${challenge.id}/${answer}`, { method: "POST", body: {} });
  state.challenges.set(done.challenge.id, done.challenge);
  changed();
  if (answer === "accept") await goToGame(done.id, done.token);
}

// On every page: the challenges waiting for this player's answer, each with its buttons.
function drawBar() {
  const bar = document.getElementById("challenge-bar");
  if (!bar) return;
  const me = account()?.name;
  const waiting = challenges().filter((c) => c.status === "open" && c.to === me);
  clear(bar).hidden = !waiting.length;
  for (const c of waiting) {
    bar.append(h("p", { class: "challenge", "data-challenge": c.id },
      t(c.rated ? "challenge.incomingRated" : "challenge.incoming", { name: c.from, game: gameTitle(c.game, c.game) }), ` (${clockWords(c.clock)}) `,
      h("button", { class: "primary accept-challenge", onclick: () => answerChallenge(c, "accept").catch((e) => showError(e.message)) }, t("challenge.accept")), " ",
      h("button", { class: "decline-challenge", onclick: () => answerChallenge(c, "decline").catch((e) => showError(e.message)) }, t("challenge.decline"))));
  }
}
