"""What a block does to the table chat, as the relations answer it (``relations/``), asked here and
nowhere else (the routes and sockets only call the chat):

- **A blocked player cannot write in the blocker's game** (403 ``blocked``): in neither channel
  of a game at which a player who blocks them holds a seat.
- **Neither reads the other.** A reader is not shown the messages of a player they block or who
  blocks them, in any game, over HTTP or on a socket (lichess hides a blocked player's lines
  from the blocker; here the blocked player does not read the blocker's either, so neither can
  answer the other through a third party's game).

A reader is an account: the session's, or the one holding the seat whose token reads the
players' channel. A socket keeps the players hidden from it in memory (``Hidden``), read once
at its hello, so each message's delivery asks no query. A block or its end is heard at once by
every process's sockets (``BlockChanged``, heard everywhere through Redis); without Redis, a
process's periodic check reads every socket's anew at most every ``REFRESH`` seconds. A hello
takes a reader's players as another hello read them less than ``REFRESH`` seconds before, unless
a block of theirs changed since (a bot says hello on every game's stream): what it is given is
never older than what a socket kept since then holds."""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable, Sequence
from typing import Protocol

from boardplay.web.accounts import Account
from boardplay.web.chat.store import ChatMessage
from boardplay.web.errors import forbidden
from boardplay.web.events import BlockChanged, Bus
from boardplay.web.played import Game
from boardplay.web.relations import Relations
from boardplay.web.sockets import Subscriber

REFRESH = 30.0
"""Seconds between two reads of every socket's hidden players by the periodic check (the way
a block reaches another process's sockets without Redis)."""
KNOWN = 4096
"""Readers whose hidden players a process keeps for their sockets' next hello."""


class Seated(Protocol):
    """A game's table as the block rule reads it: its players, and whose a token is."""

    @property
    def row(self) -> Game: ...

    def seats_of(self, token: str | None) -> set[int]: ...


def reader_of(room: Seated, token: str | None, account: Account | None) -> int | None:
    """The account reading: the signed-in one, else the one holding the token's seat."""
    if account is not None:
        return account.id
    seats = room.seats_of(token)
    return room.row.seats[min(seats)].account if seats else None


def shown(messages: Iterable[ChatMessage], hidden: frozenset[int]) -> list[ChatMessage]:
    """``messages`` without those written by a player in ``hidden``."""
    return [m for m in messages if m.account_id is None or m.account_id not in hidden]


class Hidden:
    """The blocks as the chat of one process applies them: the check before a message is
    stored, and each socket's players not shown to it."""

    def __init__(self, relations: Relations, bus: Bus) -> None:
        self.relations = relations
        self.sockets: weakref.WeakKeyDictionary[Subscriber, tuple[int, frozenset[int]]] = (
            weakref.WeakKeyDictionary()
        )
        """Per socket with a reader: its account and the players hidden from it."""
        self.known: dict[int, tuple[float, frozenset[int]]] = {}
        """Per reader of a hello lately: when its hidden players were read, and they."""
        self.changes = 0
        """Blocks made or ended heard so far (a read that one overtook is not kept)."""
        self.read_at = time.monotonic()
        bus.subscribe(BlockChanged, self.changed, everywhere=True)

    async def check_writer(self, room: Seated, author: int | None) -> None:
        """403 if a player seated at ``room`` blocks ``author``."""
        if author is None:
            return
        seated = {s.account for s in room.row.seats if s.account is not None} - {author}
        if not seated:
            return
        pairs = await self.relations.blocks_among([author, *seated])
        if any(blocked == author for _, blocked in pairs):
            raise forbidden(
                "blocked", "you cannot write in this game's chat: a player at this table blocks you"
            )

    async def of(self, reader: int | None) -> frozenset[int]:
        """The players hidden from ``reader`` (none for a guest)."""
        if reader is None:
            return frozenset()
        return (await self.relations.hidden([reader]))[reader]

    async def watch(self, sub: Subscriber, reader: int | None) -> frozenset[int]:
        """Keep ``sub``'s hidden players (its hello); returns them."""
        hidden = await self._for_hello(reader)
        if reader is not None:
            self.sockets[sub] = (reader, hidden)
        else:
            self.sockets.pop(sub, None)
        return hidden

    async def _for_hello(self, reader: int | None) -> frozenset[int]:
        """``of``, or as a hello read it less than ``REFRESH`` seconds ago (module docstring)."""
        if reader is None:
            return frozenset()
        now, known = time.monotonic(), self.known.get(reader)
        if known is not None and now - known[0] < REFRESH:
            return known[1]
        changes = self.changes
        hidden = await self.of(reader)
        if changes == self.changes:  # no block changed while it was read
            self.known.pop(reader, None)
            self.known[reader] = (now, hidden)
            while len(self.known) > KNOWN:
                del self.known[next(iter(self.known))]
        return hidden

    def of_socket(self, sub: Subscriber) -> frozenset[int]:
        kept = self.sockets.get(sub)
        return kept[1] if kept is not None else frozenset()

    async def changed(self, event: BlockChanged) -> None:
        """A block was made or ended: the sockets of either player here follow at once, and
        their next hellos read theirs anew."""
        self.changes += 1
        self.known.pop(event.blocker, None)
        self.known.pop(event.blocked, None)
        for sub, (reader, hidden) in list(self.sockets.items()):
            pair = {event.blocker, event.blocked}
            if reader not in pair:
                continue
            (other,) = pair - {reader}
            # Another block the other way keeps them apart whatever this one did.
            if event.blocking:
                self.sockets[sub] = (reader, hidden | {other})
            else:
                still = (await self.relations.hidden([reader]))[reader]
                self.sockets[sub] = (reader, still)

    async def refresh(self, subs: Sequence[Subscriber]) -> None:
        """Read every kept socket's hidden players anew (one query), at most every
        ``REFRESH`` seconds: a block made on another process reaches them without Redis."""
        now = time.monotonic()
        if now - self.read_at < REFRESH:
            return
        self.read_at = now
        kept = [(sub, self.sockets[sub][0]) for sub in subs if sub in self.sockets]
        if not kept:
            return
        changes = self.changes
        found = await self.relations.hidden(sorted({reader for _, reader in kept}))
        for sub, reader in kept:
            self.sockets[sub] = (reader, found[reader])
        if changes == self.changes:  # the next hellos take what the sockets now hold
            for reader in found.keys() & self.known.keys():
                self.known[reader] = (now, found[reader])
