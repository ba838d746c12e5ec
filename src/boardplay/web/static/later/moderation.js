// The moderators' page, loaded when first opened (later/routes.js; reporting a player and a
// player's notices of a decision are not here). It imports app.js for the reason later/play.js
// gives.
import "../app.js";

export { moderationPage } from "../moderation/page.js";
