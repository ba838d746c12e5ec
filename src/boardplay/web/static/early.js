// The first answers a page waits for, asked before the bundle has arrived. The server writes
// this script, bundled on its own, into the page itself as a classic script, run before any module
// (web/frontpage.py): on a slow connection the bundle takes seconds to arrive, and these round
// trips then run beside its download instead of one after another once it has run. api.js,
// session.js and text.js take each answer once through `boardplayEarly.take` and ask the server
// themselves for anything not asked here.
//
// A visit that starts on a page of a group (later/routes.js: a game's table, the account...) asks
// as early for the group's files, which app.js would otherwise ask for only once it has arrived
// and run: the page names them (`data-later` on this script, web/frontpage.py).
import { preferredLanguage, tokenFor } from "./store.js";
import { LATER } from "./later/routes.js";

const asked = new Map();
const key = (path, token) => `${path} ${token || ""}`;
function ask(path, token = null) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  asked.set(key(path, token), fetch(path, { headers }));
}

// Every page needs the session and its language's words (text.js); the lobby the catalogue; a
// game page the game's view, as the seat this browser holds sees it (pages/lobby.js, live.js).
ask("/api/account/me");
const lang = preferredLanguage();
if (lang !== "en") ask(`/api/i18n/${encodeURIComponent(lang)}`);
try {
  const [page, id] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (!page) ask("/api/catalogue");
  if (page === "game" && id) ask(`/api/games/${id}`, tokenFor(id));
  const files = JSON.parse(document.currentScript?.dataset.later || "{}");
  for (const href of (Object.hasOwn(LATER, page) && files[LATER[page]]) || []) {
    document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
  }
} catch { /* an address that does not decode: the router tells the visitor */ }

globalThis.boardplayEarly = {
  // The answer asked for early, as fetch gives it, or undefined: once only.
  take(path, token = null) {
    const answer = asked.get(key(path, token));
    asked.delete(key(path, token));
    return answer;
  },
};
