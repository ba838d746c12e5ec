// Where the visitor was before this page of the site (the hash route before the current one):
// signing in or up returns there, so a spectator who signs up is back at the game they watched.
let now = location.hash;
let before = null;
window.addEventListener("hashchange", () => { before = now; now = location.hash; });

export const previousRoute = () => before;
