"""What a room, an AI job and the reviewer may ask of the process that holds them: the seam
between one game and the rest of the server.

Rooms, AI jobs and reviews receive a ``RoomHost`` and know nothing else of the hub (``Hub``
is the one implementation): the storage and the thread its calls run on, the catalogue, the
operator's ceilings, the AI worker pool and its fair queue, and the channel that tells other
processes of a change. Declared here, apart from both sides, so that the imports run one way
(hub -> rooms -> host), as boardgame.io's master receives its storage and transport APIs rather
than its owner."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import ParamSpec, Protocol, TypeVar

from boardplay.web import storage as st
from boardplay.web.aiqueue import FairQueue
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.presence import PresenceStore

P = ParamSpec("P")
T = TypeVar("T")


class Notifier(Protocol):
    """Tells players away from the table (``mail.py``); never raises."""

    async def your_turn(self, row: st.GameRow, seat: int) -> None: ...

    async def game_over(self, row: st.GameRow) -> None: ...


class RoomHost(Protocol):
    storage: st.Storage
    catalogue: WebCatalogue
    catalogue_ref: str
    """The catalogue as ``module:attribute``, for worker processes to find the same one."""
    data_dir: str | None
    limits: Limits
    epoch: str
    """This process's id (the holder of its AI jobs)."""
    presence: PresenceStore
    """Who is at the tables on every process (``presence.py``)."""

    @property
    def mailer(self) -> Notifier:
        """E-mail for correspondence games: whose turn it is, and how a game ended."""
        ...

    executor: Executor
    """The AI worker pool (searches of AI moves, hints and reviews)."""
    ai_queue: FairQueue
    ai_lease: float
    ai_running: int
    """AI jobs this process holds now."""

    def now(self) -> float:
        """The server's time in seconds since the epoch: every clock reads it (tests set it)."""
        ...

    def watch_clock(self, game_id: str, deadline: float | None) -> None:
        """The game's running clock now falls at ``deadline`` (None: no clock runs): flag it
        then, if this process still holds the game."""
        ...

    def db(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]:
        """Run a storage call off the event loop."""
        ...

    def publish(self, game_id: str, revision: int, view: Callable[[], str]) -> None:
        """Tell the other processes that the game is now at ``revision``; ``view()`` gives its
        public view as JSON text, asked for only if some process may use it."""
        ...

    def renew_executor(self) -> None:
        """Replace a broken worker pool."""
        ...

    async def check_quota(self, owner: str | None, ai_only: bool = False) -> None:
        """429 if ``owner`` may make no more games now."""
        ...

    def presence_changed(self, game_id: str) -> None:
        """This process's count of the game's sockets changed (stored at the next check)."""
        ...

    async def settle_ratings(self, game_ids: Sequence[str] | None = None) -> None:
        """Rate these finished rated games, if nobody has yet."""
        ...
