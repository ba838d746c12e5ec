// A game's board module, loaded once by name (the game's name, which the server's `renderer`
// hint also gives); null when there is none. A board module exports everything the pages need
// of its game: `draw` (the table), `miniature` and `about` (the lobby's card), `tutorial` (the
// first-game walk-through), `EN` (the game's words in English, added to the page's words here
// when the module loads) and, optionally, `onKey`. No page names a game: a new game is its board
// module.
import { addWords } from "../text.js";

const BOARDS = {};

export async function boardModule(name) {
  if (!name) return null;
  if (!(name in BOARDS)) {
    try { BOARDS[name] = await import(`./${name}.js`); } catch (e) { console.warn(e); BOARDS[name] = null; }
    addWords(BOARDS[name]?.EN);
  }
  return BOARDS[name];
}

// The board modules of several games at once, by name.
export async function boardModules(names) {
  const mods = await Promise.all(names.map((name) => boardModule(name)));
  return Object.fromEntries(names.map((name, i) => [name, mods[i]]));
}
