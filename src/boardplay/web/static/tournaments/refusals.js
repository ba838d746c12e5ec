// The server's refusals on the tournament pages in the reader's language: each ApiError code the
// tournament routes answer with (tournaments/service.py, talk.py, api/tournament_pages.py; the
// chat's length rules, chat/service.py) mapped to a key of tournaments/strings.js. A code not
// listed here is said as the server wrote it (its English message).
import { t } from "../text.js";

const KNOWN = {
  tournament_full: "tournament.refused.full",
  tournament_over: "tournament.refused.over",
  bots_not_allowed: "tournament.refused.botsNotAllowed",
  not_entered: "tournament.refused.notEntered",
  too_many_tournaments: "tournament.refused.tooMany",
  rated_with_bots: "tournament.refused.ratedWithBots",
  rated_clock_too_short: "tournament.refused.ratedClock",
  bad_start: "tournament.refused.badStart",
  bad_length: "tournament.refused.badLength",
  chat_rate: "tournament.refused.chatRate",
  chat_too_long: "tournament.refused.chatTooLong",
  chat_empty: "tournament.refused.chatEmpty",
  chat_author_full: "tournament.refused.chatFull",
  account_too_new: "tournament.refused.tooNew",
  sign_in_required: "tournament.refused.signIn",
};

// Why a request of a tournament page failed, in words (an Error from api.js, `code` set).
export const refusal = (e) => (KNOWN[e?.code] ? t(KNOWN[e.code]) : e?.message || String(e));
