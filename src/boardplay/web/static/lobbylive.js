// The lobby's live connection (/api/lobby/ws), open on every page from the first paint, for
// guests and signed-in players alike: the open seeks as they change, a signed-in player's
// challenges as they are made and answered, and the news that a seek or challenge of theirs has
// started a game (then the page goes to that game, in a background tab too, and after a reload
// that hid the news: the socket tells it again on connecting), and that a player one follows
// started one (a note). A seek lasts while its owner has a page of the site open. The connection
// follows sign-in and sign-out (the cookie says whose it is) and comes back by itself after a
// network drop.
import { h, clear } from "./dom.js";
import { api, reconnectDelay, showError, showNote } from "./api.js";
import { rememberToken } from "./store.js";
import { t, gameTitle, clockWords } from "./text.js";
import { account, onAccount } from "./session.js";
import { botTag } from "./pages/player.js";

const state = { seeks: [], challenges: new Map(), live: false };
const listeners = new Set();
const dismissed = new Set(); // answers to this player's challenges they have read (the bar's ×)
let socket = null;
let retry = 0;
let timer = null;
let signedAs; // whose connection is open: a name, null for a guest, undefined before the first

export const seeks = () => state.seeks;
export const challenges = () => [...state.challenges.values()];
// Whether the connection is open now (the lobby says when the list may be out of date).
export const lobbyLive = () => state.live;
export function onLobby(listener) {
  listeners.add(listener);
  listener();
  return () => listeners.delete(listener);
}
const changed = () => { for (const listener of listeners) listener(); drawBar(); };

// The games this tab was taken to lately (kept through a reload of the tab, not shared with
// other tabs): a "started" the socket tells again on connecting is news only if missing here.
const TAKEN = "boardplay.takenTo";
const takenTo = () => { try { return JSON.parse(sessionStorage.getItem(TAKEN)) || []; } catch { return []; } };
function rememberTaken(id) {
  try { sessionStorage.setItem(TAKEN, JSON.stringify([...takenTo().filter((x) => x !== id), id].slice(-20))); } catch { /* not kept */ }
}

// A game a seek, table or challenge started: the seat's token for this browser, then the game.
export async function goToGame(id, token = null) {
  rememberTaken(id);
  if (!token) {
    try { token = (await api(`/api/account/games/${id}/token`, { method: "POST", body: {} })).token; } catch (e) { showError(e.message); }
  }
  if (token) rememberToken(id, token);
  location.hash = `#/game/${id}`;
}

// The page that may keep the player a moment before a tournament's next game (the game page,
// while it shows a game that is over: pages/nextgame.js); null: none.
let holder = null;
export function holdNextGame(hold) {
  holder = hold;
  return () => { if (holder === hold) holder = null; };
}

function receive(message) {
  if (message.type === "followed") {
    // A player this one follows started a game: said in the calm toast, and the Following
    // page, if shown, reads the list again (pages/following.js).
    showNote(t("relations.started", { names: message.players.join(", ") }));
    window.dispatchEvent(new CustomEvent("boardplay:followed", { detail: message }));
    return;
  }
  if (message.type === "seeks") state.seeks = message.seeks;
  else if (message.type === "challenge") state.challenges.set(message.challenge.id, message.challenge);
  else if (message.type === "started") {
    // Sent again on connecting ("again": a game of the last minute still played), for a page
    // that was reloading when it started; a tab that went there already stays where it is.
    if (message.again && takenTo().includes(message.game)) return;
    // A tournament's next game, while the player reads how their last one ended: the page
    // takes them there a few seconds later, with a notice.
    if (message.tournament && holder?.(message.game)) return;
    goToGame(message.game);
    return;
  }
  else return;
  changed();
}

// The challenges this player sent that are still open: the socket sends only those received
// when it connects, so after a reload the sender's own come from the API.
async function fetchSent(mine) {
  if (!account()) return;
  try {
    const answer = await api("/api/challenges");
    if (socket !== mine) return;
    for (const c of answer.outgoing) if (c.status === "open" && !state.challenges.has(c.id)) state.challenges.set(c.id, c);
    changed();
  } catch { /* the next connection asks again */ }
}

// (Re)open the connection: at the start, after signing in or out, after a drop.
function connect() {
  clearTimeout(timer);
  timer = null;
  const old = socket;
  socket = null;
  old?.close();
  state.challenges.clear();
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/lobby/ws`;
  const mine = new WebSocket(url);
  socket = mine;
  mine.onopen = () => { retry = 0; state.live = true; fetchSent(mine); changed(); };
  mine.onmessage = (event) => { try { receive(JSON.parse(event.data)); } catch { /* not ours */ } };
  mine.onclose = () => {
    if (socket !== mine) return; // replaced on purpose
    state.live = false;
    changed();
    retry += 1;
    timer = setTimeout(() => { if (socket === mine) connect(); }, reconnectDelay(retry));
  };
}

// Back at once when the network or the tab comes back, rather than at the next back-off.
function reconnectNow() {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  retry = 0;
  connect();
}

// Opens the connection at once (the cookie already says whose it is) and follows the account.
export function startLobby() {
  connect();
  onAccount((who) => {
    const name = who?.name ?? null;
    if (signedAs !== undefined && name !== signedAs) connect();
    signedAs = name;
    drawBar(); // the challenges received were waiting for the name
  });
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });
}

export async function answerChallenge(challenge, answer) {
  const done = await api(`/api/challenges/${challenge.id}/${answer}`, { method: "POST", body: {} });
  state.challenges.set(done.challenge.id, done.challenge);
  changed();
  if (answer === "accept") await goToGame(done.id, done.token);
}

// On every page: the challenges waiting for this player's answer, each with its buttons, and the
// answers to those they sent: a decline is said (until they close it), so a challenge never just
// vanishes from its sender's page.
export function drawBar() {
  const bar = document.getElementById("challenge-bar");
  if (!bar) return;
  const me = account()?.name;
  const waiting = challenges().filter((c) => c.status === "open" && c.to === me);
  const answered = challenges().filter((c) => c.status === "declined" && c.from === me && !dismissed.has(c.id));
  clear(bar).hidden = !waiting.length && !answered.length;
  for (const c of waiting) {
    bar.append(h("p", { class: "challenge", "data-challenge": c.id },
      t(c.rated ? "challenge.incomingRated" : "challenge.incoming", { name: c.from, game: gameTitle(c.game, c.game) }), botTag(c.from_bot), ` (${clockWords(c.clock)}) `,
      h("button", { class: "primary accept-challenge", onclick: () => answerChallenge(c, "accept").catch((e) => showError(e.message)) }, t("challenge.accept")), " ",
      h("button", { class: "decline-challenge", onclick: () => answerChallenge(c, "decline").catch((e) => showError(e.message)) }, t("challenge.decline"))));
  }
  for (const c of answered) {
    bar.append(h("p", { class: "challenge declined", "data-challenge": c.id },
      t("challenge.declined", { name: c.to, game: gameTitle(c.game, c.game) }), " ",
      h("button", { class: "dismiss", "aria-label": t("toast.close"), title: t("toast.close"), onclick: () => { dismissed.add(c.id); drawBar(); } }, "×")));
  }
}
