// This device's notifications and the installable app: the service worker (/sw.js) that shows
// every notification (registration.showNotification: Chrome on Android refuses `new
// Notification()`), this device's push subscription (Web Push, so "your turn", challenges and
// finished games reach a player with no page of the site open; web/notify/ on the server), and the
// browser's offer to install the site as an app.
import { api } from "./api.js";

export const ICON = "/static/icons/icon-192.png";
const BADGE = "/static/icons/badge-96.png";
const WAIT = 10000; // ms to wait for the service worker to be ready before giving up
const SUBSCRIBE_WAIT = 20000; // ms to wait for the browser's push service

let registering = null;
let installOffer = null; // the browser's `beforeinstallprompt` event, kept until used
const installListeners = new Set();

export const canNotify = () => "serviceWorker" in navigator && "Notification" in window;
export const canPush = () => canNotify() && "PushManager" in window;

// The game this page shows (#/game/<id>), or null.
const shownGame = () => {
  const match = /^#\/game\/([^/?]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
};

// Registers the service worker once the page has loaded, so the first paint never waits for it,
// and answers its question "which game do you show?" (it drops a push about that game).
export function startNotices() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data?.type === "showing") event.ports[0]?.postMessage({ game: shownGame() });
  });
  navigator.serviceWorker.startMessages();
  const register = () => {
    registering = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault(); // offered on the account page instead, when the player asks
  installOffer = event;
  for (const listener of installListeners) listener(true);
});
window.addEventListener("appinstalled", () => {
  installOffer = null;
  for (const listener of installListeners) listener(false);
});

// Whether the browser offers to install the site now; `listener(offered)` hears of changes.
export function onInstallOffer(listener) {
  installListeners.add(listener);
  return () => installListeners.delete(listener);
}
export const installOffered = () => installOffer !== null;
export const installed = () => window.matchMedia?.("(display-mode: standalone)").matches || navigator.standalone === true;

export async function install() {
  const offer = installOffer;
  if (!offer) return false;
  installOffer = null;
  await offer.prompt();
  const choice = await offer.userChoice;
  return choice?.outcome === "accepted";
}

// The service worker's registration (null if the browser has none, or it is not ready in time).
export async function registration() {
  if (!("serviceWorker" in navigator)) return null;
  if (registering) await registering;
  const ready = navigator.serviceWorker.ready;
  const late = new Promise((resolve) => { setTimeout(() => resolve(null), WAIT); });
  return Promise.race([ready, late]);
}

// A notification raised by the page itself (a game waiting while the tab is hidden), through the
// service worker, which also handles its click. False if it could not be shown.
export async function showNotice(title, { body = "", tag, url = "/" } = {}) {
  if (!canNotify() || Notification.permission !== "granted") return false;
  const reg = await registration();
  if (!reg) return false;
  await reg.showNotification(title, { body, tag, icon: ICON, badge: BADGE, data: { url } });
  return true;
}

const keyBytes = (key) => {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
};
const sameKey = (buffer, key) => {
  if (!buffer) return false;
  const a = new Uint8Array(buffer);
  const b = keyBytes(key);
  return a.length === b.length && a.every((x, i) => x === b[i]);
};

// Where this device stands: `permission` (default, granted, denied or "unsupported"), the
// server's answer (`available`, `key`, `device`, `endpoint`) and whether this browser's own
// subscription is the one the server keeps (`on`).
export async function pushStatus() {
  if (!canNotify()) return { permission: "unsupported", on: false, server: null };
  const server = await api("/api/push").catch(() => null);
  let subscription = null;
  if (canPush() && server?.available) {
    const reg = await registration();
    subscription = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  }
  const on = Boolean(server?.device && subscription && subscription.endpoint === server.endpoint);
  return { permission: Notification.permission, on, server, subscription };
}

// Turns pushes on for this device: the browser's permission (asked now: the player pressed the
// button), a subscription with the server's key (an old one made for another key is replaced),
// given to the server. Throws with `code` "denied", "no_worker" or "no_push_service".
export async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw Object.assign(new Error("denied"), { code: "denied" });
  const status = await pushStatus();
  if (!status.server?.available || !canPush()) return status; // the page's own notices only
  const reg = await registration();
  if (!reg) throw Object.assign(new Error("no_worker"), { code: "no_worker" });
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options?.applicationServerKey, status.server.key)) {
    await subscription.unsubscribe().catch(() => false);
    subscription = null;
  }
  if (!subscription) {
    // The browser asks its push service (Google's, Mozilla's, Apple's…) for an address; one it
    // cannot reach may never answer, so the page stops waiting after a while.
    const late = new Promise((_, fail) => { setTimeout(() => fail(new Error("no answer within 20 s")), SUBSCRIBE_WAIT); });
    try {
      subscription = await Promise.race([late, reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(status.server.key) })]);
    } catch (e) {
      throw Object.assign(new Error(e.message), { code: "no_push_service" });
    }
  }
  await api("/api/push", { method: "PUT", body: subscription.toJSON() });
  return pushStatus();
}

// No more pushes to this device: the server forgets it, then the browser.
export async function turnOff() {
  await api("/api/push", { method: "DELETE" }).catch(() => null);
  const reg = await registration();
  const subscription = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
  if (subscription) await subscription.unsubscribe().catch(() => false);
  return pushStatus();
}
