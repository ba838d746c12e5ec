// What players settle between themselves, beside the board: resign (after a confirmation), offer,
// accept or decline a draw (only where the rules have a drawn result; elsewhere the page says
// so; a declined offer is said to the player who made it), and play again once the game is over
// (a rematch with the seats swapped, started once every player has accepted the offer: every
// player who agreed on this page is taken to it at once, as lichess does, since its clock may be
// running; a spectator finds a link). Every request goes through the GameClient; the server decides.
import { h, clear } from "../dom.js";
import { showError } from "../api.js";
import { t, seatName } from "../text.js";
import { tokenFor, rememberToken, rememberInvites } from "../store.js";

export function tableControls(client, id) {
  const controls = h("div", { class: "table-controls", id: "table-controls" });
  const notice = h("div", { class: "table-notice", id: "table-notice", "aria-live": "polite" });
  const fail = (e) => showError(e.message);
  let before = null; // the view drawn before this one (what changed tells what the others did)
  let withdrawing = false; // this page withdrew its own draw offer (not declined by the others)
  let declinedAt = null; // the ply at which this player's draw offer was declined

  function goTo(newId) {
    const token = tokenFor(id);
    if (token && !tokenFor(newId)) rememberToken(newId, token); // the same player holds a seat there
    location.hash = `#/game/${newId}`;
  }

  function update(game) {
    clear(controls);
    clear(notice);
    const was = before;
    before = game;
    const mine = game.your_seats || [];
    const seated = mine.length > 0;
    const name = (seat) => seatName(game.seats[seat]?.name ?? "");
    // Every player has now agreed to play again: one who agreed on this page goes there at once.
    if (was && was !== game && !was.rematch && game.rematch && seated && (was.rematch_offer?.agreed || []).some((s) => mine.includes(s))) {
      goTo(game.rematch);
      return;
    }
    // This player's draw offer is gone with the game still on and nobody resigned: declined.
    const offered = was?.draw_offer;
    if (offered && mine.includes(offered.by) && !game.draw_offer && !game.terminal && !withdrawing && (game.resigned || []).length === (was.resigned || []).length) declinedAt = game.ply;
    if (!game.draw_offer) withdrawing = false;
    if (declinedAt !== null && (declinedAt !== game.ply || game.draw_offer || game.terminal)) declinedAt = null;
    if (seated && !game.terminal && !game.broken) {
      controls.append(h("button", { type: "button", id: "resign", onclick: () => {
        if (confirm(t("table.resignConfirm"))) client.resign().catch(fail);
      } }, t("table.resign")), " ");
      if (!game.can_draw) controls.append(h("span", { class: "muted", id: "no-draw" }, t("table.noDraw")));
      else if (!game.draw_offer) controls.append(h("button", { type: "button", id: "offer-draw", onclick: () => client.draw("offer").catch(fail) }, t("table.offerDraw")));
    }
    // Said beside the button that made the offer (on a phone, far below the board's notices).
    if (declinedAt !== null) controls.append(h("p", { class: "draw-declined", id: "draw-declined" }, t("table.drawDeclined")));
    const offer = game.draw_offer;
    if (offer && !game.terminal) {
      const mine = (game.your_seats || []).includes(offer.by);
      const box = h("p", { class: "draw-offer", id: "draw-offer" });
      if ((game.draw_to_answer || []).length) {
        box.append(t("table.drawOffered", { name: name(offer.by) }), " ", h("button", { type: "button", class: "primary", id: "accept-draw", onclick: () => client.draw("accept").catch(fail) }, t("table.accept")), " ",
          h("button", { type: "button", id: "decline-draw", onclick: () => client.draw("decline").catch(fail) }, t("table.decline")));
      } else if (mine) {
        box.append(t("table.drawWaiting"), " ",
          h("button", { type: "button", id: "withdraw-draw", onclick: () => { withdrawing = true; client.draw("decline").catch((e) => { withdrawing = false; fail(e); }); } }, t("table.withdraw")));
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
