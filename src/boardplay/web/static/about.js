// The order of the lobby's cards (and of the rating lists): the games' own `about.order` from
// their board modules, easiest to learn first; games without one come last, in the order given.
import { boardModules } from "./boards/load.js";

// `names` in card order, with each one's board module (null where there is none).
export async function inCardOrder(names) {
  const mods = await boardModules([...new Set(names)]);
  const rank = (name) => mods[name]?.about?.order ?? Infinity;
  const sorted = names.map((name, i) => [name, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]);
  return { names: sorted.map(([name]) => name), mods };
}
