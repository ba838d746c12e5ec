// Hints on the game page: asking the server for the best move in the player's position, saying
// it in words with its win estimate, and marking it on the drawn board (the board target that
// plays it, or its button in the list of other moves).
import { h, clear } from "../dom.js";
import { api } from "../api.js";
import { t } from "../text.js";

// The server's hint for the position at `ply` (the answer says the move, its words and struct).
export function requestHint(id, token, ply) {
  return api(`/api/games/${id}/hint`, { method: "POST", body: { ply }, token });
}

// The hint in words, into `box` (emptied and hidden when there is none).
export function showHint(box, hint) {
  clear(box);
  box.hidden = !hint;
  if (!hint) return;
  box.append(h("strong", {}, t("hint.title")), " ",
    t("hint.text", { words: hint.words || hint.move, chance: `${Math.round(hint.win_probability * 100)}%` }),
    h("div", { class: "muted" }, t("hint.effort", { iterations: hint.iterations })));
}

// Marks the hinted move's targets on the board and in the list of moves the board did not draw.
export function markHint(board, legalBox, hint) {
  if (!hint) return;
  for (const el of board.querySelectorAll("[data-moves]")) {
    if (JSON.parse(el.getAttribute("data-moves")).includes(hint.action)) el.classList.add("hinted");
  }
  for (const el of legalBox.querySelectorAll("[data-move]")) {
    if (Number(el.getAttribute("data-move")) === hint.action) el.classList.add("hinted");
  }
}
