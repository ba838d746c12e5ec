// The pages around a game's board, loaded when one is first opened (later/routes.js): a game's
// table, a replay, a game's rules, a TV channel (a game's table under its channel's line), the
// analysis board (a study, its start form, a position link), and the puzzles (a board to solve
// on: they share the board's parts, which a group of their own would split into one more file
// for both).
//
// Every group imports app.js, whose code the group then shares: esbuild (--splitting) puts code
// used by several entries into a chunk of its own for each set of entries using it, so without
// this the lobby's code would be cut into as many files as there are such sets, each one more
// request on the first load. With it, everything app.js loads is used by every entry alike and
// stays in one file, the one the page names (web/frontpage.py).
import "../app.js";

export { gamePage } from "../pages/game.js";
export { replayPage } from "../pages/replay.js";
export { rulesPage } from "../pages/rules.js";
export { tvPage } from "../pages/tvchannel.js";
export { analysisPage } from "../analysis/page.js";
export { startPage } from "../analysis/start.js";
export { openPositionLink, openGameStudy } from "../analysis/door.js";
export { puzzlesPage } from "../pages/puzzles.js";
