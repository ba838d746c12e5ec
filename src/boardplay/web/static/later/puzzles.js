// The puzzles' pages (#/puzzles, #/puzzles/daily, #/puzzles/streak, #/puzzles/<id>), loaded
// when one is first opened (later/routes.js). It imports app.js for the reason later/play.js
// gives: the code both use stays in the one file every visit loads.
import "../app.js";

export { puzzlesPage } from "../pages/puzzles.js";
