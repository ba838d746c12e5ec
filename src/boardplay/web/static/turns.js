// "Your turn": the games where the signed-in player must decide now, least time left first
// (GET /api/account/turns). Kept fresh every 20 seconds, when the tab comes back into view and
// after the player moves, for the header's badge, the turns page and, where the player allowed
// it, a browser notification for each game newly waiting while the tab is in the background.
import { api } from "./api.js";
import { t, gameTitle, seatName } from "./text.js";
import { account, onAccount } from "./session.js";

const EVERY = 20000;
let state = { games: [], now: 0, at: 0 };
let seen = null; // ids already waiting at the last look (null: none taken yet)
let timer = null;
const listeners = new Set();

export const turns = () => state;
export function onTurns(listener) {
  listeners.add(listener);
  listener(state);
  return () => listeners.delete(listener);
}

// The opponents of a game in the list, by name.
export const opponents = (g) => g.seats.filter((s) => !(g.your_seats || []).includes(s.seat)).map((s) => seatName(s.name)).join(", ");

export async function refreshTurns() {
  if (!account()) { state = { games: [], now: 0, at: 0 }; seen = null; } else {
    try {
      const answer = await api("/api/account/turns");
      state = { games: answer.games, now: answer.now, at: Date.now() };
    } catch { return; } // offline for a moment: the next look tries again
    const fresh = seen === null ? [] : state.games.filter((g) => !seen.has(g.id));
    seen = new Set(state.games.map((g) => g.id));
    notify(fresh);
  }
  drawBadge();
  for (const listener of listeners) listener(state);
}

function notify(games) {
  if (!games.length || !document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  for (const g of games) {
    const note = new Notification(t("turns.notifyTitle"), { body: t("turns.notifyBody", { game: gameTitle(g.game, g.title), names: opponents(g) }), tag: `boardplay-${g.id}` });
    note.onclick = () => { window.focus(); location.hash = `#/game/${g.id}`; note.close(); };
  }
}

// The header's link to the list, with the number of games waiting (drawn again in a new language).
export function drawBadge() {
  const link = document.getElementById("turns-link");
  const count = document.getElementById("turns-count");
  if (!link || !count) return;
  link.hidden = !account();
  const n = state.games.length;
  count.textContent = n ? String(n) : "";
  count.hidden = !n;
  link.title = t("turns.badge", { n });
}

// Follows the account from the page's first session on (onAccount calls at once once it is known).
export function startTurns() {
  onAccount(() => refreshTurns());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshTurns(); });
  clearInterval(timer);
  timer = setInterval(refreshTurns, EVERY);
}
