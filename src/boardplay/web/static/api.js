// Talking to the server over HTTP: one function that sends JSON, reads JSON and turns an error
// answer into an Error carrying the server's message; and the toast that shows such messages.
import { t } from "./text.js";
import { csrf } from "./session.js";

const toast = () => document.getElementById("toast");

export function showError(message) {
  const box = toast();
  box.textContent = message;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  // A change made while signed in carries the session's CSRF token (the cookie goes by itself).
  if (method !== "GET" && csrf()) headers["X-CSRF-Token"] = csrf();
  // A first answer the page asked for before the bundle arrived (early.js), else asked now.
  const early = method === "GET" ? globalThis.boardplayEarly?.take(path, token) : undefined;
  const response = await (early || fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error(data?.error?.message || t("error.request", { status: response.status }));
    error.status = response.status;
    throw error;
  }
  return data;
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
