// Which routes (`#/<route>/…`) show a page the lobby does not: their code is not in the script
// every visit loads but in one of the groups of later/ (docs/web.md, "Page weight"), loaded by
// app.js when such a page is first opened. early.js reads this too: a visit that starts on one of
// these pages asks for its group at once, beside the main script, instead of after it has run.
export const LATER = {
  game: "play",
  replay: "play",
  rules: "play",
  tv: "play",
  signin: "account",
  account: "account",
  turns: "account",
  tournament: "tournament",
  following: "following",
  moderation: "moderation",
  analysis: "play",
  puzzles: "play",
};
