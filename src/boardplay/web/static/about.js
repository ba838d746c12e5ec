// What the lobby says about each game beyond its name: its typical length and the order the
// cards come in (easiest to learn first). The words are in strings.js under about.<game>.* and
// the pictures in boards/miniatures.js; a game without an entry still gets a card.
export const ABOUT = {
  potlatch: { minutes: [10, 15] },
  proteus: { minutes: [10, 20] },
  passtally: { minutes: [30, 45] },
  montana: { minutes: [45, 90] },
};

export const CARD_ORDER = ["potlatch", "proteus", "passtally", "montana"];

// The catalogue's games in card order (unknown games last, in the catalogue's order).
export function inCardOrder(games) {
  const rank = (g) => { const i = CARD_ORDER.indexOf(g.name); return i < 0 ? CARD_ORDER.length : i; };
  return [...games].sort((a, b) => rank(a) - rank(b));
}
