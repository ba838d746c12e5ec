// The service worker of boardplay (served at /sw.js, so it controls every page of the site; never
// bundled: its URL must stay the same while its content changes). It shows notifications and
// nothing else: no fetch is intercepted and nothing is cached, so the site behaves exactly as
// without it.
//
// - `push`: a push from the server (web/notify/): "your turn", "game over", "challenge received",
//   written in the account's language. It is dropped if a visible page of the site already shows
//   it: the game it is about (asked of the page), or, for a challenge, any page (every page shows
//   challenges under its header). The server itself sends nothing about a game whose page is open
//   on any device.
// - Every notification, the pages' own included (turns.js), goes through
//   `registration.showNotification`, the one way Chrome on Android allows.
// - `notificationclick`: the "Turn off" button forgets this device's subscription on the server
//   (proven by its own secret, no cookie needed) and unsubscribes; anywhere else on the
//   notification opens its page, in a window of the site already open if there is one.
// - `pushsubscriptionchange`: the browser replaced the subscription; the server is told.
const ICON = "/static/icons/icon-192.png";
const BADGE = "/static/icons/badge-96.png";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// The game a page shows, from its address (#/game/<id>), or null.
function gameOf(url) {
  const match = /#\/game\/([^/?#]+)/.exec(url || "");
  return match ? decodeURIComponent(match[1]) : null;
}

async function visiblePages() {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return pages.filter((page) => page.visibilityState === "visible");
}

// The game a page shows, asked of the page itself (notify.js answers): a worker sees a page's
// address as it was opened, and a move inside the page (#/account to #/game/…) does not change
// it. A page that does not answer within a second is judged by that address.
function showing(page) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const late = setTimeout(() => resolve(gameOf(page.url)), 1000);
    channel.port1.onmessage = (event) => { clearTimeout(late); resolve(event.data?.game ?? null); };
    page.postMessage({ type: "showing" }, [channel.port2]);
  });
}

// Whether a visible page already tells the player what `message` says.
async function shownAlready(message) {
  const visible = await visiblePages();
  if (message.kind === "challenge") return visible.length > 0;
  if (!message.game) return false;
  const shown = await Promise.all(visible.map(showing));
  return shown.includes(message.game);
}

async function onPush(data) {
  let message;
  try { message = data ? data.json() : null; } catch { message = null; }
  if (!message || !message.title) return;
  if (await shownAlready(message)) return;
  await self.registration.showNotification(message.title, {
    body: message.body || "",
    tag: message.tag,
    lang: message.lang,
    icon: ICON,
    badge: BADGE,
    data: { url: message.url || "/", kind: message.kind, game: message.game, offDone: message.offDone },
    actions: message.off ? [{ action: "off", title: message.off }] : [],
  });
}

self.addEventListener("push", (event) => event.waitUntil(onPush(event.data)));

// This device wants no more pushes: the server forgets its subscription, then the browser does.
async function turnOff(note) {
  const subscription = await self.registration.pushManager.getSubscription();
  if (subscription) {
    const { endpoint, keys } = subscription.toJSON();
    await fetch("/api/push/off", {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ endpoint, auth: keys.auth }),
    }).catch(() => null);
    await subscription.unsubscribe().catch(() => false);
  }
  if (note) await self.registration.showNotification("boardplay", { body: note, tag: "boardplay-off", icon: ICON, badge: BADGE });
}

async function openPage(url) {
  const target = new URL(url || "/", self.location.origin).href;
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const page = pages.find((p) => p.url === target) || pages[0];
  if (page) {
    await page.focus().catch(() => null); // allowed only inside a click on the notification
    if (page.url === target) return;
    const moved = "navigate" in page ? await page.navigate(target).catch(() => null) : null;
    if (moved) return; // a page this worker does not control yet cannot be moved: open one
  }
  await self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  const data = event.notification.data || {};
  event.notification.close();
  event.waitUntil(event.action === "off" ? turnOff(data.offDone) : openPage(data.url));
});

self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const old = event.oldSubscription?.toJSON();
    const fresh = event.newSubscription || await self.registration.pushManager.subscribe(event.oldSubscription.options);
    if (!old || !fresh) return;
    await fetch("/api/push/renew", {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ old: { endpoint: old.endpoint, auth: old.keys.auth }, new: fresh.toJSON() }),
    }).catch(() => null);
  })());
});
