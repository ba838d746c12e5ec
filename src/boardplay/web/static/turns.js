// "Your turn": the games where the signed-in player must decide now, least time left first
// (GET /api/account/turns). Kept fresh every 20 seconds, when the tab comes back into view and
// after the player moves, for the header's badge, the turns page and, where the player allowed
// it, a notification for each game newly waiting while the tab is in the background.
import { api } from "./api.js";
import { t, gameTitle, seatName } from "./text.js";
import { account, onAccount } from "./session.js";
import { showNotice } from "./notify.js";

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

// A notice through the service worker (notify.js), the one way Chrome on Android shows one; the
// same tag as the server's push of that game, so the two never show twice.
function notify(games) {
  if (!games.length || !document.hidden) return;
  for (const g of games) {
    const body = t("turns.notifyBody", { game: gameTitle(g.game, g.title), names: opponents(g) });
    showNotice(t("turns.notifyTitle"), { body, tag: `boardplay-turn-${g.id}`, url: `/#/game/${g.id}` }).catch(() => false);
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
