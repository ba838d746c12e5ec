// What players settle between themselves, beside the board: resign (after a confirmation), offer,
// accept or decline a draw (only where the rules have a drawn result; elsewhere the page says
// so), and play again once the game is over (a rematch with the seats swapped that the other
// players find on this page). Every request goes through the GameClient; the server decides.
import { h, clear } from "../dom.js";
import { showError } from "../api.js";
import { t } from "../text.js";
import { tokenFor, rememberToken, rememberInvites } from "../store.js";

export function tableControls(client, id) {
  const controls = h("div", { class: "table-controls", id: "table-controls" });
  const notice = h("div", { class: "table-notice", id: "table-notice", "aria-live": "polite" });
  const fail = (e) => showError(e.message);

  function goTo(newId) {
    const token = tokenFor(id);
    if (token && !tokenFor(newId)) rememberToken(newId, token); // the same player holds a seat there
    location.hash = `#/game/${newId}`;
  }

  function update(game) {
    clear(controls);
    clear(notice);
    const seated = (game.your_seats || []).length > 0;
    const name = (seat) => game.seats[seat]?.name ?? "";
    if (seated && !game.terminal && !game.broken) {
      controls.append(h("button", { type: "button", id: "resign", onclick: () => {
        if (confirm(t("table.resignConfirm"))) client.resign().catch(fail);
      } }, t("table.resign")), " ");
      if (!game.can_draw) controls.append(h("span", { class: "muted", id: "no-draw" }, t("table.noDraw")));
      else if (!game.draw_offer) controls.append(h("button", { type: "button", id: "offer-draw", onclick: () => client.draw("offer").catch(fail) }, t("table.offerDraw")));
    }
    const offer = game.draw_offer;
    if (offer && !game.terminal) {
      const mine = (game.your_seats || []).includes(offer.by);
      const box = h("p", { class: "draw-offer", id: "draw-offer" });
      if ((game.draw_to_answer || []).length) {
        box.append(t("table.drawOffered", { name: name(offer.by) }), " ", h("button", { type: "button", class: "primary", id: "accept-draw", onclick: () => client.draw("accept").catch(fail) }, t("table.accept")), " ",
          h("button", { type: "button", id: "decline-draw", onclick: () => client.draw("decline").catch(fail) }, t("table.decline")));
      } else if (mine) {
        box.append(t("table.drawWaiting"), " ",
          h("button", { type: "button", id: "withdraw-draw", onclick: () => client.draw("decline").catch(fail) }, t("table.withdraw")));
      } else {
        box.append(t("table.drawOffered", { name: name(offer.by) })); // a spectator, or a seat that agreed
      }
      notice.append(box);
    }
    if (game.terminal && game.rematch) {
      notice.append(h("p", { class: "rematch", id: "rematch" }, t("table.rematchReady"), " ",
        h("a", { href: `#/game/${game.rematch}`, id: "go-rematch", onclick: (event) => { event.preventDefault(); goTo(game.rematch); } },
          seated ? t("table.joinRematch") : t("table.watchRematch"))));
    } else if (game.terminal && seated && !game.broken) {
      controls.append(h("button", { type: "button", class: "primary", id: "play-again", onclick: async () => {
        try {
          const made = await client.rematch();
          rememberInvites(made.id, made.invites);
          goTo(made.id);
        } catch (e) { fail(e); }
      } }, t("table.playAgain")));
    }
  }
  return { controls, notice, update };
}
