// This browser's memory: the seat tokens and invitation links of the games created or joined
// here, the player's name and preferences (localStorage; a broken entry reads as the fallback).
const read = (key, fallback) => {
  try { return JSON.parse(localStorage.getItem(`boardplay.${key}`)) ?? fallback; } catch { return fallback; }
};
const write = (key, value) => localStorage.setItem(`boardplay.${key}`, JSON.stringify(value));

export const tokenFor = (id) => read("tokens", {})[id] || null;
export const myGameIds = () => Object.keys(read("tokens", {}));
export const invitesFor = (id) => read("invites", {})[id] || {};
export const playerName = () => read("name", "");
export const rememberName = (name) => write("name", name);

export function rememberToken(id, token) {
  const all = read("tokens", {});
  all[id] = token;
  write("tokens", all);
}

// Forget a seat token that no longer holds its seat (the page asks the account for a new one).
export function forgetToken(id) {
  const all = read("tokens", {});
  delete all[id];
  write("tokens", all);
}

export function rememberInvites(id, invites) {
  const all = read("invites", {});
  all[id] = invites;
  write("invites", all);
}

// Whether this browser has walked through (or skipped) a game's tutorial; the "your turn"
// sound, off until the player turns it on.
export const tutorialSeen = (game) => !!read("tutorials", {})[game];
export function rememberTutorial(game) {
  const all = read("tutorials", {});
  all[game] = true;
  write("tutorials", all);
}
export const turnSound = () => read("sound", false) === true;
export const rememberTurnSound = (on) => write("sound", !!on);
// Whether a decision with only one legal move waits for the player's click (pages/forced.js);
// off until the player turns it on: such moves are taken for them.
export const confirmForced = () => read("confirmForced", false) === true;
export const rememberConfirmForced = (on) => write("confirmForced", !!on);
// Whether the pages show the engine's notation (the game's option string, each move's
// notation beside its words) for players who use the command line or study games; off: words only.
export const showNotation = () => read("notation", false) === true;
export const rememberShowNotation = (on) => write("notation", !!on);

// Chat authors this browser muted (their messages are hidden, with a way to unmute): a seat of
// one game as "gameId/seat:n", a signed-in spectator everywhere as "@name".
export const mutedAuthors = () => read("muted", []);
export function rememberMuted(key, muted) {
  const all = mutedAuthors().filter((k) => k !== key);
  if (muted) all.push(key);
  write("muted", all.slice(-500));
}

// The page's language: the stored choice, else the first of the browser's languages we speak,
// else English (kept as the bare code, as the language menu of index.html names it).
const LANGUAGES = ["en", "ja"];
const LANGUAGE_KEY = "boardplay.lang";
export function preferredLanguage() {
  let stored = null;
  try { stored = localStorage.getItem(LANGUAGE_KEY); } catch { stored = null; }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}
// The language chosen in this browser's menu, or null if none was (the browser's own then rules).
export function chosenLanguage() {
  try { return LANGUAGES.includes(localStorage.getItem(LANGUAGE_KEY)) ? localStorage.getItem(LANGUAGE_KEY) : null; } catch { return null; }
}
export function rememberLanguage(lang) {
  try { localStorage.setItem(LANGUAGE_KEY, lang); } catch { /* private mode: not remembered */ }
}
