"""Taking a seat: with an invitation's code, or an open seat from the lobby's list.

A seat is claimed in one conditional update (the first claim wins); a signed-in player's seat is
their account's and carries its name, and a rated game seats signed-in players only, each once.
The seat's token is made here and only its hash is stored. When the last seat is taken, a timed
game's clock starts (``clocks.py``)."""

from __future__ import annotations

from boardplay.web.accounts import Account
from boardplay.web.errors import bad_request, conflict, forbidden, sign_in_needed
from boardplay.web.table import storage as st
from boardplay.web.table.rooms import Room
from boardplay.web.table.schemas import JoinRequest
from boardplay.web.text import tidy
from boardplay.web.tokens import hash_token, matches, new_token

NAME_CHARS = 40
"""Longest seat name a person may choose."""


async def join(room: Room, request: JoinRequest, account: Account | None = None) -> tuple[str, int]:
    """Take a seat (an invited one with its code, else an open one); a signed-in player's
    seat is their account's and carries its name. A rated game seats signed-in players
    only, each once."""
    taken: list[tuple[str, int]] = []

    async def change() -> None:
        taken.append(await _join(room, request, account))

    await room._decide(change)
    return taken[-1]


def seat_words(room: Room, seat: int) -> str:
    """A seat as the page names it: its colour or name, and its number counted from 1 (the
    API's ``seat`` field counts from 0; people never see that number)."""
    return f"{room.game.seat_name(seat)}'s seat (seat {seat + 1})"


def invited_seat(room: Room, invite: str) -> st.SeatRow:
    """The seat ``invite`` opens (claimed or not), or a 403."""
    for seat in room.row.seats:
        if seat.kind == st.INVITE and matches(invite, seat.invite_hash):
            return seat
    raise forbidden("wrong_invite", "this invitation code is not valid here")


async def _join(room: Room, request: JoinRequest, account: Account | None) -> tuple[str, int]:
    seat, invite = request.seat, request.invite
    room._require_live()
    if room.row.rated:
        if account is None:
            raise sign_in_needed("take a seat in a rated game")
        if any(s.account == account.id for s in room.row.seats):
            raise conflict("already_seated", "you already play in this rated game")
    if room.row.seed is not None and not request.accept_reproducible:
        raise conflict(
            "reproducible",
            "this game is reproducible: its creator chose the seed its luck follows "
            f"(seed {room.row.seed}, shown to everyone); join with "
            "accept_reproducible: true to agree",
        )
    chosen: st.SeatRow | None = None
    if invite is not None:
        chosen = invited_seat(room, invite)
    else:
        if seat is None:
            free = [s for s in room.row.seats if s.kind == st.OPEN and not s.claimed]
            if not free:
                raise conflict("no_open_seat", "this game has no open seat left")
            chosen = free[0]
        elif not 0 <= seat < len(room.row.seats):
            raise bad_request(
                f"seat must be 0..{len(room.row.seats) - 1} (the API counts seats from 0)"
            )
        else:
            chosen = room.row.seats[seat]
            if chosen.kind != st.OPEN:
                raise forbidden(
                    "not_open", f"{seat_words(room, seat)} is not open; it needs an invitation link"
                )
    if chosen.claimed:
        raise conflict(
            "seat_taken", f"{seat_words(room, chosen.seat)} is already taken by {chosen.name}"
        )
    token = new_token()
    player = tidy(request.name or "")[:NAME_CHARS] or room.game.seat_name(chosen.seat)
    owner = None if account is None else account.id
    if account is not None:
        player = account.name
    revision = await room.host.db(
        room.host.storage.claim_seat, room.row.id, chosen.seat, hash_token(token), player, owner
    )
    if revision is None:
        raise conflict("seat_taken", f"{seat_words(room, chosen.seat)} was just taken")
    chosen.token_hash = hash_token(token)
    chosen.name = player
    chosen.account = owner
    chosen.bot = account is not None and account.bot
    if revision != room.row.revision + 1:
        await room._refresh(revision)  # another change came in between: take it in too
    room.row.revision = revision
    room._touch()
    await room.start_clock()
    return token, chosen.seat
