// A game's board module by name (the game's name, which the server's `renderer` hint also
// gives); null when there is none. A board module exports everything the pages need of its game:
// `draw` (the table), `miniature` and `about` (the lobby's card), `tutorial` (the first-game
// walk-through), `EN` (the game's words in English, added to the page's words here when the
// module is first asked for) and, optionally, `onKey`. No page names a game: a new game is its
// board module and its line here.
//
// The games' modules are imported here, not each loaded by name when asked for: every page needs
// every offered game's module before it draws (their words, the lobby's cards), so they belong in
// the one script every visit loads, where esbuild (--splitting) would give a module loaded by name
// a file of its own, one more request each on every first load (docs/web.md, "Page weight"). A
// game not listed is still looked for by name beside this file, which only the unbundled sources
// have (a test's toy game); the bundle's test checks every registered game is listed.
import { addWords } from "../text.js";
import * as montana from "./montana.js";
import * as passtally from "./passtally.js";
import * as potlatch from "./potlatch.js";
import * as proteus from "./proteus.js";

const BOARDS = { montana, passtally, potlatch, proteus };
for (const mod of Object.values(BOARDS)) addWords(mod.EN);

export async function boardModule(name) {
  if (!name) return null;
  if (!Object.hasOwn(BOARDS, name)) {
    // A URL esbuild does not follow: it would otherwise take in every file of boards/ by itself.
    const unlisted = new URL(`./${name}.js`, import.meta.url).href;
    try { BOARDS[name] = await import(unlisted); } catch (e) { console.warn(e); BOARDS[name] = null; }
    addWords(BOARDS[name]?.EN);
  }
  return BOARDS[name];
}

// The board modules of several games at once, by name.
export async function boardModules(names) {
  const mods = await Promise.all(names.map((name) => boardModule(name)));
  return Object.fromEntries(names.map((name, i) => [name, mods[i]]));
}
