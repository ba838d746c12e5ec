// Talking to the server over HTTP: one function that sends JSON, reads JSON and turns an error
// answer into an Error carrying the server's message; and where such messages are shown: a
// failure in the red toast at the foot of the screen (role=alert), or on a line of its own beside
// the form that caused it (`errorLine`); news that something worked in a calm toast of its own
// (`showNote`, role=status), never in the red one.
import { h } from "./dom.js";
import { t } from "./text.js";
import { csrf } from "./session.js";

// A message as a sentence: the server's start in lower case ("that username and password do not
// match"), which reads as a fragment on its own line.
export const sentence = (text) => {
  const said = String(text ?? "");
  return said.charAt(0).toUpperCase() + said.slice(1);
};

const timers = {};
function toast(id, message) {
  const box = document.getElementById(id);
  if (!box) return;
  box.textContent = sentence(message);
  box.hidden = false;
  clearTimeout(timers[id]);
  timers[id] = setTimeout(() => { box.hidden = true; }, 6000);
  // One toast at a time: a note hides an error shown before it, and the other way round.
  const other = document.getElementById(id === "toast" ? "note" : "toast");
  if (other) other.hidden = true;
}

export const showError = (message) => toast("toast", message);
export const showNote = (message) => toast("note", message);

// A line for the errors of one form or control, placed beside it: `show(message)`, `clear()`.
export function errorLine(id) {
  const element = h("p", { class: "form-error", id, role: "alert", hidden: true });
  return {
    element,
    show(message) { element.textContent = sentence(message); element.hidden = false; },
    clear() { element.textContent = ""; element.hidden = true; },
  };
}

// How long a page's socket waits before its next try to reconnect (`retry`: the tries so far,
// from 1): doubling from half a second to at most 4 s, so a player is back within seconds of the
// server, each wait drawn between half and all of that, so the pages a restart cut off do not
// all knock at the same instant.
export const reconnectDelay = (retry) => 250 * 2 ** Math.min(retry, 4) * (0.5 + Math.random() / 2);

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  // A change made while signed in carries the session's CSRF token (the cookie goes by itself).
  if (method !== "GET" && csrf()) headers["X-CSRF-Token"] = csrf();
  // A first answer the page asked for before the bundle arrived (early.js), else asked now.
  const early = method === "GET" ? globalThis.boardplayEarly?.take(path, token) : undefined;
  const response = await (early || fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  return answerOf(response);
}

// An answer's JSON, or an Error carrying the server's message (and its code and status).
async function answerOf(response) {
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error(data?.error?.message || t("error.request", { status: response.status }));
    error.status = response.status;
    error.code = data?.error?.code; // the page words the refusals it knows in its own language
    error.retryAfter = Number(response.headers?.get("Retry-After")) || null; // a 429's wait, in seconds
    throw error;
  }
  return data;
}

// A poll's GET that the server answers 304, with no body, while `tag` (the ETag of the answer
// the page holds) still holds: null then, else { data, tag }. A page polling a list that stays
// the same for minutes (the tournaments) then costs the server and the network next to nothing.
export async function apiIfChanged(path, tag) {
  const response = await fetch(path, { headers: tag ? { "If-None-Match": tag } : {} });
  if (response.status === 304) return null;
  return { data: await answerOf(response), tag: response.headers.get("ETag") };
}

let catalogue = null;
export async function getCatalogue() {
  if (!catalogue) catalogue = await api("/api/catalogue");
  return catalogue.games;
}

// The time controls this server offers (presets, correspondence days, the abandonment wait).
export async function getClocks() {
  await getCatalogue();
  return catalogue.clocks;
}
