// A tournament's page (its standings, pairings and chat), loaded when first opened
// (later/routes.js; the lobby's list of tournaments is not here). It imports app.js for the
// reason later/play.js gives.
import "../app.js";

export { tournamentPage } from "../pages/tournament.js";
