// This browser's memory: the seat tokens and invitation links of the games created or joined
// here, and the player's name (localStorage; a broken entry reads as the fallback).
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

export function rememberInvites(id, invites) {
  const all = read("invites", {});
  all[id] = invites;
  write("invites", all);
}
