"""Who reads and writes which channel of a table's chat, and what a message may hold: the rules
``service.py``'s docstring states, each checked here once, for every door that reads or writes
(HTTP, the game's socket, the Bot API).

A player (a seat's token) reads and writes the players' channel; everybody else reads the
spectators', and writes there signed in; the players read it too once the game is over. A
player may also *write* in the spectators' channel during the game without reading it
(``aloud``: lichess lets a bot post its engine's lines there)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol, TypeVar

from boardplay.web.accounts import Account
from boardplay.web.chat.store import PLAYERS, SPECTATORS, Author
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError, forbidden
from boardplay.web.played import FINISHED, Game
from boardplay.web.sockets import Subscriber
from boardplay.web.text import tidy

T = TypeVar("T")


class ChatHost(Protocol):
    """What the chat asks of the server process: its ceilings and its storage threads."""

    @property
    def limits(self) -> Limits: ...

    @property
    def db(self) -> StorageThreads: ...


class Room(Protocol):
    """A game's table as the chat sees it (the table's ``Room`` is one): who holds which seat,
    whether the game is over, the sockets watching it, and the process it lives in."""

    @property
    def row(self) -> Game: ...
    @property
    def host(self) -> ChatHost: ...
    @property
    def subscribers(self) -> Collection[Subscriber]: ...

    def seats_of(self, token: str | None) -> set[int]: ...


def clean(text: str, limit: int) -> str:
    """``text`` as a chat message, tidied as all text shown to others is (``text.tidy``: every
    control character, line break and direction control a space, zero-width spaces gone, runs
    of spaces one, the ends trimmed); a 400 if nothing is left or more than ``limit``
    characters are."""
    tidied = tidy(text)
    if not tidied:
        raise ApiError(400, "chat_empty", "the message is empty: write something first")
    if len(tidied) > limit:
        raise ApiError(
            400,
            "chat_too_long",
            f"a chat message is at most {limit} characters; this one has {len(tidied)}",
        )
    return tidied


# ----- who reads and writes -----------------------------------------------------------------
def account_seated(room: Room, account: Account | None) -> bool:
    """Whether ``account`` holds a seat of the game (with or without its token at hand)."""
    return account is not None and any(s.account == account.id for s in room.row.seats)


def readable(room: Room, token: str | None, account: Account | None) -> frozenset[str]:
    """The channels a visitor may read: a seat's token reads the players' chat; everybody
    else the spectators'; the players too once the game is over."""
    seated = bool(room.seats_of(token))
    over = room.row.status == FINISHED
    channels = set()
    if seated:
        channels.add(PLAYERS)
    if over or not (seated or account_seated(room, account)):
        channels.add(SPECTATORS)
    return frozenset(channels)


def require_reader(room: Room, token: str | None, account: Account | None, channel: str) -> None:
    """403 unless the visitor may read ``channel``, saying why."""
    if channel in readable(room, token, account):
        return
    if channel == PLAYERS:
        raise forbidden(
            "not_a_player",
            "only the players of this game read the players' chat (send your seat's token: "
            "Authorization: Bearer …)",
        )
    raise forbidden(
        "spectators_chat_hidden",
        "the spectators' chat is hidden from the players until the game is over",
    )


def author_of(
    room: Room, token: str | None, account: Account | None, channel: str, aloud: bool = False
) -> Author:
    """Who writes in ``channel``: the token's seat (players), or the signed-in account
    (spectators); 401/403 saying what is missing. With ``aloud`` a player (the token's seat)
    writes in the spectators' chat during the game without reading it (lichess lets a bot
    post its engine's lines there): it is the player's account that writes, and nothing of
    the spectators' reaches the player until the game is over."""
    if aloud and channel == SPECTATORS and account is not None and room.seats_of(token):
        return Author(None, account.id, account.name)
    if channel == PLAYERS:
        require_reader(room, token, account, channel)
        seat = room.row.seats[min(room.seats_of(token))]
        return Author(seat.seat, seat.account, seat.name)
    require_reader(room, token, account, channel)
    if account is None:
        raise ApiError(
            401,
            "sign_in_required",
            "sign in to write in the spectators' chat (anyone may read it)",
        )
    return Author(None, account.id, account.name)


def default_channel(room: Room, token: str | None, account: Account | None) -> str:
    """The channel a visitor who names none means: their own (a seat's: the players')."""
    channels = readable(room, token, account)
    return PLAYERS if PLAYERS in channels else SPECTATORS
