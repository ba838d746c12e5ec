// The page of the players one follows and blocks, loaded when first opened (later/routes.js;
// a profile's Follow and Block buttons are not here). It imports app.js for the reason
// later/play.js gives.
import "../app.js";

export { followingPage } from "../pages/following.js";
