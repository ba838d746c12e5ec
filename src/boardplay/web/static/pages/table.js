// What players settle between themselves, beside the board: resign (after a confirmation), offer,
// accept or decline a draw (only where the rules have a drawn result; elsewhere the page says
// so), and play again once the game is over (a rematch with the seats swapped, started once every
// player has accepted the offer, that the other players find on this page). Every request goes through the GameClient; the server decides.
import { h, clear } from "../dom.js";
import { showError } from "../api.js";
import { t, seatName } from "../text.js";
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
    const name = (seat) => seatName(game.seats[seat]?.name ?? "");
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
    } else if (game.terminal && !game.broken) {
      // Play again only once every player agrees: an offer, then the others accept or decline.
      const ask = game.rematch_offer;
      const again = (answer) => async () => {
        try {
          const made = await client.rematch(answer);
          if (made.id) { rememberInvites(made.id, made.invites); goTo(made.id); }
        } catch (e) { fail(e); }
      };
      const agreed = ask && (game.your_seats || []).every((seat) => ask.agreed.includes(seat));
      if (seated && !ask) controls.append(h("button", { type: "button", class: "primary", id: "play-again", onclick: again("offer") }, t("table.playAgain")));
      else if (seated && agreed) {
        notice.append(h("p", { class: "rematch-offer", id: "rematch-offer" }, t("table.rematchWaiting"), " ",
          h("button", { type: "button", id: "withdraw-rematch", onclick: again("decline") }, t("table.withdraw"))));
      } else if (seated) {
        notice.append(h("p", { class: "rematch-offer", id: "rematch-offer" }, t("table.rematchOffered", { name: name(ask.by) }), " ",
          h("button", { type: "button", class: "primary", id: "accept-rematch", onclick: again("accept") }, t("table.acceptRematch")), " ",
          h("button", { type: "button", id: "decline-rematch", onclick: again("decline") }, t("table.decline"))));
      } else if (ask) notice.append(h("p", { class: "rematch-offer", id: "rematch-offer" }, t("table.rematchOffered", { name: name(ask.by) })));
    }
  }
  return { controls, notice, update };
}
