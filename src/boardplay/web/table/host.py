"""The seams between one game's room and the rest of the server process, declared apart from
both sides so that the imports run one way (house -> rooms, aijobs -> host).

Each part receives what it uses and nothing more, as boardgame.io's master receives its storage
and transport APIs rather than its owner:

- ``Database``: the storage, the thread its calls run on, and the moves' write (every stateful
  part needs it);
- ``RoomHost``: what a room, and the table modules that act on a room (offers, seating, clocks,
  chat, sockets), ask of the process: the database, the catalogue, the operator's ceilings, the
  server's clock, and the four things that follow a stored change (tell the other processes,
  watch its clock, tell players away from the table, tell who follows ends: its rating, a
  tournament). What only one action needs is given to it by its caller instead: a
  rematch its owner's quota (``offers.rematch``), a socket the note that its game's presence
  changed (``live.py``);
- the AI worker pool is ``aijobs.AiWorkers`` (its jobs keep its books), given to rooms by the house
  and to the reviewer by the hub; the reviewer needs nothing else but its store and the ceilings.

``House`` is the one implementation of both protocols."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, Protocol, TypeVar

from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.metrics import Metrics
from boardplay.web.table import storage as st
from boardplay.web.table.appended import Appended
from boardplay.web.table.clocks import Clock
from boardplay.web.table.presence import PresenceStore
from boardplay.web.table.rows import GameEnd, MoveWrite

P = ParamSpec("P")
T = TypeVar("T")


class Database(Protocol):
    """The game storage and the thread pool its calls run on."""

    storage: st.Storage

    @property
    def db(self) -> StorageThreads:
        """Runs a storage call off the event loop (and sends a call of one statement from it)."""
        ...

    async def write_moves(self, move: MoveWrite) -> int:
        """``Storage.write``, the write on every move's path, the fastest way the database
        allows (``pgwrite.py``)."""
        ...

    async def set_clock(self, game_id: str, revision: int, clock: Clock | None) -> int:
        """``Storage.set_clock``, the fastest way the database allows."""
        ...

    async def revision(self, game_id: str) -> int | None:
        """The game's current revision (None: no such game)."""
        ...


class RoomHost(Database, Protocol):
    """What a room (``rooms.Room``) and the modules acting on one ask of the process."""

    catalogue: WebCatalogue
    limits: Limits
    presence: PresenceStore
    """Who is at the tables (``presence.py``): sockets on every process, and players' visits."""
    metrics: Metrics
    """The operator's series: a room counts its moves and its end (``metrics.py``)."""

    def now(self) -> float:
        """The server's time in seconds since the epoch: every clock reads it (tests set it)."""
        ...

    def publish(
        self,
        game_id: str,
        revision: int,
        view: Callable[[], str],
        appended: Appended | None = None,
    ) -> None:
        """Tell the other processes that the game is now at ``revision``; ``view()`` gives its
        public view as JSON text, asked for only if some process may use it; ``appended``, the
        moves that change stored, if it was a move (``appended.py``)."""
        ...

    def watch_clock(self, game_id: str, deadline: float | None) -> None:
        """The game's running clock now falls at ``deadline`` (None: no clock runs): flag it
        then, if this process still holds the game."""
        ...

    async def game_ended(
        self, game_id: str, rated: bool, end: GameEnd, correspondence: bool = False
    ) -> None:
        """A game ended on this process, so (``end``): tell who follows ends (its rating, its
        tournament's results, its players away from it: ``GameFinished``); never raises."""
        ...

    async def turns_away(self, game_id: str, seats: tuple[int, ...]) -> None:
        """The turn of a correspondence game passed to these seats, whose players have no page
        of it open (``YourTurn``); never raises."""
        ...
