// The games waiting for the signed-in player's move, least time left first, each with its time
// left counting down; and the switch for this device's notifications (pages/pushpanel.js: the
// browser's permission is asked only when the player presses it).
import { h, clear } from "../dom.js";
import { t, gameTitle, clockWords } from "../text.js";
import { account, loadSession } from "../session.js";
import { onTurns, refreshTurns, opponents } from "../turns.js";
import { formatClock } from "./clock.js";
import { pushPanel } from "./pushpanel.js";

export async function turnsPage(main) {
  await loadSession();
  clear(main);
  const panel = h("div", { class: "panel", id: "turns" }, h("h2", {}, t("turns.title")));
  main.append(panel);
  if (!account()) {
    panel.append(h("p", {}, h("a", { href: "#/signin" }, t("lobby.signInLink")), t("turns.signIn")));
    return () => {};
  }
  const list = h("div", { id: "turns-list" });
  const notices = h("section", { id: "push-section", class: "push-section" });
  panel.append(h("p", { class: "muted" }, t("turns.note")), list, notices);
  pushPanel(notices);
  let state = null;
  const left = (g) => (g.deadline === null ? null : g.deadline - (state.now + (Date.now() - state.at) / 1000));
  const draw = () => {
    clear(list).append(state.games.length ? h("table", { class: "list" }, state.games.map((g) => h("tr", { "data-game": g.id },
      h("td", {}, h("a", { href: `#/game/${g.id}` }, gameTitle(g.game, g.title))),
      h("td", {}, t("turns.against", { names: opponents(g) })),
      h("td", { class: "muted nowrap" }, clockWords(g.control)),
      h("td", { class: "nowrap time-left", "data-deadline": g.deadline ?? "" }, g.deadline === null ? "" : t("turns.left", { time: formatClock(left(g)) })),
      h("td", {}, h("a", { class: "button primary", href: `#/game/${g.id}` }, t("turns.play"))))))
      : h("p", { class: "muted", id: "turns-none" }, t("turns.none")));
  };
  const stop = onTurns((next) => { if (next.at) { state = next; draw(); } });
  const tick = setInterval(() => {
    if (!state) return;
    for (const cell of list.querySelectorAll(".time-left[data-deadline]")) {
      const g = state.games.find((x) => x.id === cell.closest("tr").dataset.game);
      if (g && g.deadline !== null) cell.textContent = t("turns.left", { time: formatClock(left(g)) });
    }
  }, 1000);
  await refreshTurns();
  return () => { stop(); clearInterval(tick); };
}
