"""Games that end because of time rather than the board: a clock that runs out (a *flag*) and a
player who left a real-time game (*abandonment*).

**Flags.** The server is the clock (``clocks.py``): a game's ``deadline`` is stored with every
change, and each process looks for games past it (``Hub.sweep``, every second) besides setting
an exact timer for the games its sockets watch, so a clock falls on time whether or not anyone
is connected, and after a restart too. Several processes may try at once: the flag is stored
like a move, in one transaction naming the revision it was decided on, so exactly one of them
stores it and the others find the game over when they look again. A move that arrives after
its seat's time ran out is not played: the flag is stored instead.

- Two players left: the flagged seat loses (``"ended": "time"``). None of the four rulebooks
  has a position in which the other side could no longer win yet the game goes on (chess's
  "insufficient material"), so a flag is never a draw here. A seat flagged before it ever moved
  aborts the game: nobody wins and nothing is rated (the lichess convention).
- Three or four players: the flagged seat is played out by the AI, as after a resignation, and
  cannot win; the game goes on with the others' clocks.

**Abandonment.** In a real-time two-player game, when a player has been gone from the table (no
socket or bot game stream on any process, no request with their token, no move:
``presence.py``) for ``Limits.abandon_after`` seconds, the opponent may claim the win, or a draw
where the rules have draws; a game the absent player had not yet moved in is aborted instead. A
correspondence game needs no claim: its deadline decides."""

from __future__ import annotations

from typing import Literal

from boardplay.web.errors import conflict
from boardplay.web.table import storage as st
from boardplay.web.table.endings import (
    ABANDONED,
    aborted,
    agreed_draw,
    can_draw,
    names,
    out_of_time,
)
from boardplay.web.table.offers import finish, hand_to_ai, speaking_seat
from boardplay.web.table.presence import NOTE_EVERY
from boardplay.web.table.rooms import Room

Claim = Literal["win", "draw"]


def _running(room: Room) -> bool:
    return (
        room.broken is None
        and room.row.status == st.ACTIVE
        and not room.state.is_terminal()
        and not room.settled
    )


def abandonment_applies(room: Room) -> bool:
    """Whether a player gone from this game lets the opponent claim it: a real-time game of two
    players (a correspondence game's deadline decides instead). The claim asks it, and so does
    the Bot API's ``opponentGone`` (``bots/streams.py``), so a bot is told of exactly the
    absences it could claim."""
    control = room.control
    return control is not None and not control.correspondence and len(room.row.seats) == 2


def _moved(room: Room, seat: int) -> bool:
    return any(move.player == seat for move in room.moves)


async def flag(room: Room) -> bool:
    """Store the flag of the seat whose clock has run out by now, if any; True if this call
    stored it (another process may have been first). A held clock whose grace has run out is
    let run instead (its ``start_by`` is the game's deadline until then)."""
    flagged: list[int] = []

    async def change() -> None:
        clock = room.clock
        if _running(room) and await room.release_clock():
            return
        if _running(room) and clock is not None and clock.due(room.host.now()):
            assert clock.seat is not None
            await _out_of_time(room, clock.seat)
            flagged.append(clock.seat)

    await room._decide(change)
    return bool(flagged)


def late(room: Room) -> bool:
    """The seat to move has run out of time already (a move now comes too late)."""
    clock = room.clock
    return clock is not None and _running(room) and clock.due(room.host.now())


async def _out_of_time(room: Room, seat: int) -> None:
    gone = [*room.row.resigned, seat]
    playing = [s for s in range(len(room.row.seats)) if s not in gone]
    if len(playing) > 1:
        await hand_to_ai(room, seat, gone, flagged=True)
        return
    clock = room.clock_after(None, room.state, gone=frozenset(range(len(room.row.seats))))
    assert clock is not None
    clock.left[seat] = 0.0
    clock.flagged.append(seat)
    if len(room.row.seats) == 2 and not _moved(room, seat):
        await finish(room, aborted(room.game, seat, "time"), list(room.row.resigned), clock)
        return
    await finish(room, out_of_time(room.game, gone, _scores(room)), gone, clock)


def _scores(room: Room) -> object:
    try:
        return room.state.scores()
    except Exception:  # a view extra: a flag never fails for it
        return None


async def note_visit(room: Room, token: str | None) -> None:
    """A request with ``token`` asked for a running real-time game: its seats are at the table
    (stored at most every ``NOTE_EVERY`` seconds per seat, for every process to see; a clock
    held for them runs: ``Room.came``)."""
    control = room.control
    if not token or control is None or control.correspondence or room.row.status != st.ACTIVE:
        return
    seats = room.seats_of(token)
    if not seats:
        return
    await room.came(seats)
    now = room.host.now()
    noted = room.presence.noted
    due = [s for s in sorted(seats) if now - noted.get(s, -NOTE_EVERY) >= NOTE_EVERY]
    if due:
        noted.update((s, now) for s in due)
        await room.host.db(room.host.presence.saw, room.row.id, due, now)


async def absent_for(room: Room, seat: int) -> float:
    """Seconds since ``seat`` was last at this table: a page open (or a bot's game stream) on
    any process, a request with its token, or its last move (the clock it stopped)."""
    now = room.host.now()
    gone = room.presence.gone_for(seat, now)
    # With no watcher here, nothing keeps the other processes' seats current: ask the table.
    elsewhere = room.host.presence.seats_elsewhere
    if gone and not room.subscribers and seat in await room.host.db(elsewhere, room.row.id):
        return 0.0
    seen = (await room.host.db(room.host.presence.seen, room.row.id)).get(seat)
    if seen is not None:
        gone = min(gone, max(0.0, now - seen))
    clock = room.clock
    if clock is not None and clock.seat != seat and clock.since is not None and _moved(room, seat):
        gone = min(gone, max(0.0, now - clock.since))
    return gone


async def claim(room: Room, token: str | None, outcome: Claim) -> None:
    """The player still at the table ends a real-time game the opponent left: a win (or an
    abort, if the opponent never moved) or a draw."""

    async def change() -> None:
        me = speaking_seat(room, token, None)
        if not _running(room):
            raise conflict("game_over", "the game is over")
        if not abandonment_applies(room):
            raise conflict(
                "no_claim",
                "a win can be claimed only in a real-time game of two players; in a "
                "correspondence game the deadline decides",
            )
        other = 1 - me
        if other in room.seats_of(token):
            raise conflict("no_claim", "both seats are yours: there is nobody to claim against")
        waited = await absent_for(room, other)
        needed = room.host.limits.abandon_after
        if waited < needed:
            raise conflict(
                "opponent_here",
                f"{room.row.seats[other].name} has not left: a claim needs them gone for "
                f"{needed:g} s, and they were at the table {waited:.0f} s ago (a page open, a "
                "move or a request for the game)",
            )
        if not _moved(room, other):
            await finish(room, aborted(room.game, other, "left"), list(room.row.resigned))
            return
        if outcome == "draw":
            if not can_draw(room.game):
                raise conflict("no_draw", "this game always has a winner; claim the win instead")
            result = dict(agreed_draw(room.game, room.row.resigned, _scores(room)))
            result.update(
                ended=ABANDONED, left=other, text=f"draw: {names(room.game, [other])} left"
            )
            await finish(room, result, list(room.row.resigned))
            return
        gone = [*room.row.resigned, other]
        result = dict(out_of_time(room.game, gone, _scores(room)))
        result.update(
            ended=ABANDONED,
            left=other,
            text=f"{names(room.game, [other])} left the game: {names(room.game, [me])} wins",
        )
        await finish(room, result, gone)

    await room._decide(change)
