"""What players ask of each other rather than of the board: resign, offer or answer a draw, and
play again.

Each request is decided like a move (``Room._decide``): on a copy brought up to the database's
revision, stored in one transaction that names that revision, then published to every process's
sockets. Only a seat may ask, and only for a seat its token holds; a refused request raises
``ApiError`` (4xx) before anything is stored.

- **Resign.** In a two-player game the other seat wins at once. With more players the game goes
  on: the seat is handed to the AI (so the turn order the rules need stays whole) and can no
  longer win; once one seat is left it wins.
- **Draw.** Only in games whose rules have a drawn result (``endings.can_draw``). A seat offers;
  every other seat still playing must accept; any of them (or the offerer) may decline, which
  ends the offer. An AI seat plays on, so a draw is never offered to one.
- **Play again.** A finished game's seat starts a new game with the same options, every seat
  moved one place on (two players swap), each player keeping their token, so the players find
  their places in it from the old game's page; AI seats stay AI. Asking again gives the same
  rematch."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal

from boardplay.ai.specs import make_agent
from boardplay.core.errors import BoardplayError
from boardplay.web.errors import bad_request, conflict, forbidden
from boardplay.web.table import storage as st
from boardplay.web.table.clocks import Clock
from boardplay.web.table.endings import aborted, agreed_draw, can_draw, resignation
from boardplay.web.table.rooms import Room
from boardplay.web.table.seating import seat_words
from boardplay.web.tokens import hash_token, new_game_id, new_token

DrawAnswer = Literal["offer", "accept", "decline"]

RESIGNED_SPECS = ("easy", "random")
"""Who plays a resigned seat out in a game of three or more (the first the game accepts)."""


def speaking_seat(
    room: Room, token: str | None, seat: int | None, prefer: Iterable[int] = ()
) -> int:
    """The seat a request speaks for: ``seat`` if the token holds it, else the token's only seat,
    else (a hot-seat token holds several) the first of ``prefer`` it holds, else the seat to
    move; refused for a spectator or for a seat the token does not hold."""
    if not token:
        raise forbidden(
            "token_required",
            "only a player can do this: send your seat's token (header Authorization: Bearer …)",
        )
    held = room.seats_of(token)
    if not held:
        raise forbidden("wrong_token", "this token does not hold a seat in this game")
    if seat is not None:
        if seat not in held:
            shown = seat_words(room, seat) if 0 <= seat < len(room.row.seats) else f"seat {seat}"
            raise forbidden("not_your_seat", f"your token does not hold {shown}")
        return seat
    if len(held) == 1:
        return next(iter(held))
    for wanted in prefer:
        if wanted in held:
            return wanted
    current = room.state.current_player()
    if current in held:
        return current
    raise bad_request("your token holds several seats: say which one in field 'seat'")


def _playing(room: Room) -> list[int]:
    return [s for s in range(room.game.num_players) if s not in room.row.resigned]


def _require_running(room: Room) -> None:
    room._require_live()
    if room.row.status == st.FINISHED or room.state.is_terminal():
        text = (room.row.result or {}).get("text") or room.state.result_text()
        raise conflict("game_over", f"the game is over: {text}")


async def finish(
    room: Room, result: dict[str, object], resigned: list[int], clock: Clock | None = None
) -> None:
    """End the game with ``result`` (every clock stops: ``clock`` if given, else as of now)."""
    row = room.row
    if clock is None:
        clock = room.clock_after(None, room.state, gone=frozenset(range(len(row.seats))))
    row.revision = await room.host.db(
        room.host.storage.finish, row.id, row.revision, dict(result), resigned, clock
    )
    room.set_clock(clock)
    room.news.append(None)
    row.status, row.result, row.resigned = st.FINISHED, dict(result), resigned
    row.draw_offer, row.ai_seat, row.ai_error = None, None, None
    room._touch()


def _scores(room: Room) -> object:
    try:
        return room.state.scores()
    except Exception:  # a view extra: a resignation never fails for it
        return None


async def resign(room: Room, token: str | None, seat: int | None) -> int:
    """``seat`` (or the token's seat) gives up; returns the seat that resigned."""
    done: list[int] = []

    async def change() -> None:
        me = speaking_seat(room, token, seat)
        _require_running(room)
        await _give_up(room, me)
        done.append(me)

    await room._decide(change)
    return done[-1]


async def resign_account(room: Room, account_id: int) -> list[int]:
    """The account's seats of a running game resign, one after another as players' own
    resignations would (the account is being deleted: nobody may act for it any more); a game
    whose every other seat is the account's too (its own hot-seat table) is left as it is.
    Returns the seats that resigned."""
    done: list[int] = []

    async def change() -> None:
        room._require_live()
        mine = [s.seat for s in room.row.seats if s.account == account_id]
        if not mine or len(mine) == len(room.row.seats):
            return
        for seat in mine:
            if room.row.status == st.FINISHED or room.state.is_terminal():
                return
            if seat in room.row.resigned:
                continue
            await _give_up(room, seat)
            done.append(seat)

    await room._decide(change)
    return done


async def _give_up(room: Room, seat: int) -> None:
    """``seat`` resigns (a player's own resignation, or for an account being deleted): the game
    ends when one seat is left playing, else an AI plays the seat out (``hand_to_ai``)."""
    resigned = [*room.row.resigned, seat]
    if len(_playing(room)) - 1 <= 1:
        await finish(room, resignation(room.game, resigned, _scores(room)), resigned)
    else:
        await hand_to_ai(room, seat, resigned)


async def hand_to_ai(room: Room, seat: int, resigned: list[int], flagged: bool = False) -> None:
    """A seat of a game of three or more leaves (resigns, or its time ran out: ``flagged``): an
    AI plays it out, its clock stops, and it cannot win."""
    row = room.row
    spec = "random"
    for candidate in RESIGNED_SPECS:
        try:
            make_agent(candidate, room.game, 0)
        except BoardplayError:
            continue
        spec = candidate
        break
    current = room.state.current_player()
    ai_seat = seat if current == seat else room.ai_to_move(room.state)
    clock = room.clock_after(None, room.state, gone=frozenset({seat}))
    if clock is not None and flagged:
        clock.left[seat] = 0.0
        clock.flagged.append(seat)
    row.revision = await room.host.db(
        room.host.storage.resign_seat, row.id, row.revision, seat, spec, resigned, ai_seat, clock
    )
    room.set_clock(clock)
    taken = row.seats[seat]
    taken.kind, taken.spec, taken.token_hash = st.AI, spec, None
    row.resigned, row.draw_offer, row.ai_seat, row.ai_error = resigned, None, ai_seat, None
    room._touch()


async def draw(room: Room, token: str | None, answer: DrawAnswer, seat: int | None) -> None:
    """Offer a draw, or accept or decline the one on the table."""

    async def change() -> None:
        offer = room.row.draw_offer
        waiting = [s for s in _playing(room) if offer and s not in offer.get("agreed", [])]
        me = speaking_seat(room, token, seat, prefer=waiting if answer == "accept" else ())
        _require_running(room)
        if not can_draw(room.game):
            raise conflict(
                "no_draw",
                f"{getattr(room.game, 'title', room.game.name)} always has a winner under its "
                "rules, so a draw cannot be offered; you can resign instead",
            )
        if me in room.row.resigned:
            raise forbidden("resigned", "you have resigned from this game")
        row = room.row
        if answer == "offer":
            if offer:
                raise conflict(
                    "draw_offered",
                    f"{row.seats[offer['by']].name} has already offered a draw; accept or "
                    "decline it",
                )
            ai = [
                row.seats[s].name for s in _playing(room) if s != me and row.seats[s].kind == st.AI
            ]
            if ai:
                raise conflict(
                    "ai_plays_on",
                    f"{', '.join(ai)} is an AI and never agrees to a draw; it plays on",
                )
            await _offer_draw(room, {"by": me, "agreed": [me]})
            return
        if not offer:
            raise conflict("no_draw_offer", "no draw has been offered")
        if answer == "decline":
            await _offer_draw(room, None)
            return
        if me in offer.get("agreed", []):
            raise conflict("already_agreed", "you have already agreed to this draw")
        agreed = [*offer.get("agreed", []), me]
        if all(s in agreed for s in _playing(room)):
            result = agreed_draw(room.game, row.resigned, _scores(room))
            await finish(room, result, list(row.resigned))
            return
        await _offer_draw(room, {"by": offer["by"], "agreed": agreed})

    await room._decide(change)


async def _offer_draw(room: Room, offer: dict[str, Any] | None) -> None:
    """The draw offer on the table is now ``offer`` (None: declined), stored and in the room."""
    row = room.row
    row.revision = await room.host.db(room.host.storage.set_draw_offer, row.id, row.revision, offer)
    row.draw_offer = offer
    room._touch()


async def abort(room: Room, token: str | None, seat: int | None = None) -> int:
    """End a two-player game nobody has lost yet: allowed while some seat has not made a move
    of its own (lichess's abort, which the Bot API offers); nobody wins and nothing is rated
    (``endings.aborted``). Returns the seat that aborted."""
    done: list[int] = []

    async def change() -> None:
        me = speaking_seat(room, token, seat)
        _require_running(room)
        moved = {m.player for m in room.moves if m.player >= 0}
        if len(room.row.seats) != 2 or all(s in moved for s in range(len(room.row.seats))):
            raise conflict(
                "not_abortable",
                "a game can be aborted only while a player of two has not moved yet; resign "
                "instead",
            )
        await finish(room, aborted(room.game, me, "left"), list(room.row.resigned))
        done.append(me)

    await room._decide(change)
    return done[-1]


RematchAnswer = Literal["offer", "accept", "decline"]


def _people(room: Room) -> set[int]:
    """The seats whose players must agree to play again: those a person holds (an AI agrees
    by itself; a seat never taken is offered to whoever its new invitation reaches)."""
    return {s.seat for s in room.row.seats if s.kind != st.AI and s.token_hash is not None}


async def _offer_rematch(room: Room, offer: dict[str, Any] | None) -> None:
    """Play again as offered now: ``offer`` (None: declined), stored and in the room."""
    row = room.row
    row.revision = await room.host.db(
        room.host.storage.set_rematch_offer, row.id, row.revision, offer
    )
    row.rematch_offer = offer
    room._touch()


async def rematch(
    room: Room,
    admit: Callable[[st.GameRow], Awaitable[None]],
    token: str | None,
    owner: str | None = None,
    answer: RematchAnswer = "offer",
) -> tuple[str | None, dict[int, str]]:
    """Play again with the seats swapped, once every player agrees. An offer or an acceptance
    adds the seats the token holds; when that makes every player's seat (``_people``), the
    rematch starts: its id and the invitation codes of seats nobody had taken (only for the
    request that started it; a later request gets the id). Until then the id is None and the
    view carries ``rematch_offer``. A decline withdraws the offer. Before anything is stored,
    ``admit`` (``GameMaker.rematch``) may refuse the new game: it counts against ``owner``'s
    quota as a created one does, and its players must be admitted."""
    made: list[tuple[str | None, dict[int, str]]] = []

    async def change() -> None:
        mine = room.seats_of(token)
        speaking_seat(room, token, None, prefer=mine)
        room._require_live()
        row = room.row
        if row.status != st.FINISHED and not room.state.is_terminal():
            raise conflict("not_finished", "play again is offered once the game is over")
        if row.rematch:
            made.append((row.rematch, {}))
            return
        offer = row.rematch_offer
        if answer == "decline":
            if not offer:
                raise conflict("no_rematch_offer", "nobody has offered to play again")
            await _offer_rematch(room, None)
            made.append((None, {}))
            return
        if answer == "accept" and not offer:
            raise conflict("no_rematch_offer", "nobody has offered to play again")
        agreed = sorted({*(offer or {}).get("agreed", []), *mine})
        if not _people(room) <= set(agreed):
            await _offer_rematch(
                room, {"by": offer["by"] if offer else min(mine), "agreed": agreed}
            )
            made.append((None, {}))
            return
        new_id = new_game_id()
        new_row, invites = rematch_row(room, new_id, owner)
        await admit(new_row)
        row.revision = await room.host.db(
            room.host.storage.set_rematch, row.id, row.revision, new_id
        )
        row.rematch, row.rematch_offer = new_id, None
        await room.host.db(room.host.storage.create_game, new_row)
        room._touch()
        made.append((new_id, invites))

    await room._decide(change)
    return made[-1]


def rematch_row(room: Room, new_id: str, owner: str | None) -> tuple[st.GameRow, dict[int, str]]:
    """The rematch and its seats' invitation codes: seat ``i`` is taken by whoever sat at seat
    ``i + 1`` (so two players swap), keeping their token; a default seat name follows the new
    seat."""
    game, row, control = room.game, room.row, room.control
    count = len(row.seats)
    invites: dict[int, str] = {}
    seats: list[st.SeatRow] = []
    for index in range(count):
        old = row.seats[(index + 1) % count]
        name = game.seat_name(index) if old.name == game.seat_name(old.seat) else old.name
        if old.kind == st.INVITE and old.token_hash is None:
            code = new_token()
            invites[index] = code
            seats.append(st.SeatRow(index, st.INVITE, name, invite_hash=hash_token(code)))
        else:
            seats.append(
                st.SeatRow(index, old.kind, name, old.spec, old.token_hash, account=old.account)
            )
    made = st.GameRow(
        id=new_id,
        game=row.game,
        options=dict(row.options),
        seed=secrets.randbelow(2**63) if row.seed is not None else None,
        seats=seats,
        start_position=row.start_position,
        private=row.private,
        owner=owner,
        rated=row.rated and not any(s.kind == st.AI for s in seats),
        clock=row.clock,
        clock_state=None if control is None else Clock.fresh(control, count).to_json(),
    )
    return made, invites
