// The account's language: the one its e-mails and push notifications are written in (the server
// cannot see which language a page shows; web/notify/words.py). The header's language menu stores a
// change on the signed-in player's account (PUT /api/account/language); an account that never
// chose one takes the page's when it is first seen signed in; and a browser that never chose a
// language itself (a new phone) shows the account's.
import { api } from "./api.js";
import { account, onAccount } from "./session.js";
import { language, setLanguage } from "./text.js";
import { chosenLanguage } from "./store.js";

export function keepLanguage(lang) {
  if (account()) api("/api/account/language", { method: "PUT", body: { language: lang } }).catch(() => null);
}

// Follows sign-ins from now on; `redraw()` draws the page again when its language changes.
export function followAccountLanguage(redraw) {
  onAccount(async (who) => {
    if (!who || who.language === undefined) return; // a guest, or a server that keeps none
    if (!who.language) keepLanguage(language());
    else if (who.language !== language() && !chosenLanguage()) {
      await setLanguage(who.language);
      redraw();
    }
  });
}
