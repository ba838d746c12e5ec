// Signing in, the account's page and the "your turn" page (both show the push notifications'
// panel), loaded when one is first opened (later/routes.js). It imports app.js for the reason
// later/play.js gives.
import "../app.js";

export { signInPage, accountPage } from "../pages/account.js";
export { turnsPage } from "../pages/turns.js";
