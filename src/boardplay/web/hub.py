"""All rooms of one server process: loaded on demand from the database into a bounded cache,
and created from a visitor's request within the operator's ceilings (AI think time and
iterations, seat names and specs that fit their columns, a seed only for games everyone agrees
to make reproducible).

Several processes may share one database. A cached room is checked against the database's
revision of its game whenever it is used, so a process never acts on an old copy; changes made
by other processes reach this process's sockets through the broker (Redis, ``broker.py``) and,
should a message be lost, through a check of every watched game every ``sync_interval``
seconds. Both compare the database with what the sockets were last *sent* (``Room.sent``), not
with the copy: a request that refreshed the copy first sends the update itself, and a check
after a lost notice still finds the sockets behind. Nothing is replayed at start: games load
when first asked for, and a sweeper claims AI jobs nobody holds (new ones, and those of a
process that died), so a restart answers at once and no game waits for a visitor to wake its AI.

The event loop never blocks on the database: every storage call runs in a small pool of threads
(``Hub.db``), and on PostgreSQL a move's write, the one on every move's path, is awaited on the
loop itself through an asynchronous connection (``pgwrite.py``). While one game's move is being
committed (an fsync) the process goes on serving the others, and PostgreSQL can commit several
games' moves together. SQLite, which takes one writer at a time, gets a single thread."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from boardplay.core.records import Move
from boardplay.web.accounts import AccountStore
from boardplay.web.advice import Reviewer, ReviewStore
from boardplay.web.broker import Broker, Notice
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.chat import ChatRelay, ChatStore
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, not_found, quote
from boardplay.web.lobby import Lobby, SeekStore
from boardplay.web.mail import MailConfig, Mailer
from boardplay.web.presence import Here, Heres, PresenceStore
from boardplay.web.push import PushConfig, Pusher
from boardplay.web.ratings import UNRATED, RatingStore, places_of, pool_of
from boardplay.web.table import (
    AiWorkers,
    Appended,
    Checks,
    GameMaker,
    Room,
    Storage,
    ThreadChecks,
    flag,
    postgres_parts,
)
from boardplay.web.tables import FINISHED
from boardplay.web.throttles import Throttles
from boardplay.web.tokens import new_token

if TYPE_CHECKING:
    from boardplay.web.table import LoopConnections, MovesWriter

log = logging.getLogger("boardplay.web")

DB_THREADS = 8
"""Storage calls one process has in flight at once (PostgreSQL); within SQLAlchemy's default
pool of 5 + 10 connections."""

TIMER_HORIZON = 3600.0
"""Clocks falling within this many seconds get an exact timer on a process whose sockets
watch the game; the sweep (every ``sweep_interval``) catches every other."""
TIMER_SLACK = 0.005
"""Seconds a timer waits past the deadline, so the clock it reads has surely fallen."""
RATINGS_INTERVAL = 5.0
"""Seconds between a process's looks for rated games that ended unrated (the process that saw
the end normally rates it at once; this catches one that died first)."""
OUTAGE_SPEEDUP = 4
"""How many times as often the watched games are checked while Redis is down."""
P = ParamSpec("P")
T = TypeVar("T")


class Hub:
    """All rooms of one server process, loaded on demand from storage; and the parts it
    composes, each given only what it uses: the AI worker pool (``ai``), the reviewer, the
    lobby, the mailer and the chat relay. To its rooms it is a ``host.RoomHost``."""

    def __init__(
        self,
        storage: Storage,
        catalogue: WebCatalogue,
        catalogue_ref: str,
        executor_factory: Callable[[], Executor],
        limits: Limits | None = None,
        data_dir: str | None = None,
        *,
        ai_workers: int = 1,
        ai_lease: float = 10.0,
        room_cache: int = 2000,
        redis_url: str | None = None,
        sweep_interval: float = 1.0,
        sync_interval: float = 2.0,
        mail: MailConfig | None = None,
        push: PushConfig | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.now = now
        """The server's clock (``clocks.py``); tests give one they move by hand."""
        self.limits = limits or Limits()
        self._flag_timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        self.accounts = AccountStore(storage.engine)
        self.throttles = Throttles(storage.engine)
        """Counted ceilings on what a visitor may ask for (``throttles.py``)."""
        self.maker = GameMaker(catalogue, self.limits, storage, self.throttles, self.db, self.room)
        """Makes games within the ceilings (``creation.py``)."""
        self.ratings = RatingStore(storage.engine, self.limits.rating_pair_cap)
        self.catalogue = catalogue
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self.room_cache = room_cache
        self.redis_url = redis_url
        self.broker: Broker | None = None
        self.sweep_interval = sweep_interval
        self.sync_interval = sync_interval
        self.epoch = new_token()[:10]
        """Identifies this server process (as the holder of AI jobs)."""
        self.ai = AiWorkers(
            self,
            executor_factory,
            catalogue_ref,
            data_dir,
            self.limits,
            self.epoch,
            workers=ai_workers,
            lease=ai_lease,
        )
        """The AI worker pool: AI turns (the sweeper claims them only while ``ai.free``), hints
        and reviews."""
        self.reviewer = Reviewer(ReviewStore(storage.engine), self.ai, self.limits)
        """Hints and reviews (``reviews.py``)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[bool]] = set()
        self._wanted: dict[str, int] = {}
        """Newest revision heard of, per watched game whose copy is being brought up to it."""
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._relayed: dict[str, Notice] = {}
        """The notice (with its view) of the newest revision wanted, per game being synced."""
        self.presence = PresenceStore(storage.engine, self.epoch)
        self._present: set[str] = set()
        """Games whose count of this process's sockets changed since the last check."""
        threads = 1 if storage.engine.dialect.name == "sqlite" else DB_THREADS
        self.db_pool = ThreadPoolExecutor(threads, thread_name_prefix="boardplay-db")
        self.connections: LoopConnections | None = None
        """On PostgreSQL, the moves' writes and the periodic checks are one statement each from
        the event loop (``pgwrite.py``, ``pgchecks.py``: psycopg, which SQLite installs lack)."""
        self.writer: MovesWriter | None = None
        self.checks: Checks = ThreadChecks(self.db, storage, self.presence)
        if storage.engine.dialect.name == "postgresql":
            self.connections, self.writer, self.checks = postgres_parts(
                storage.engine.url, DB_THREADS, self.presence
            )
        self.lobby = Lobby(self, SeekStore(storage.engine))
        """The lobby's sockets, seeks and challenges (``lobby.py``, ``seeks.py``)."""
        self.mailer = Mailer.for_hub(self, mail)
        """E-mail notifications: the hooks the game code calls and the outbox's sender."""
        self.push = Pusher.for_hub(self, push)
        """Push notifications (``push/``): the same hooks, the challenges', and the sender."""
        self.chat = ChatRelay(self, ChatStore(storage.engine), self.rooms, self.accounts)
        """The table chat of this process's sockets (``chat.py``)."""

    def db(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]:
        """Run the storage call ``call(*args, **kwargs)`` off the event loop; await its answer."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self.db_pool, functools.partial(call, *args, **kwargs))

    async def append_moves(
        self,
        game_id: str,
        first_ply: int,
        moves: Sequence[Move],
        status: str,
        result: dict[str, Any] | None,
        **change: Any,
    ) -> int:
        """Store a change's plies as ``Storage.append_moves`` does (the same arguments, the new
        revision or ``StaleWrite``): on PostgreSQL one statement from the event loop, elsewhere
        a transaction on a storage thread."""
        if self.writer is not None:
            return await self.writer.append_moves(
                game_id, first_ply, moves, status, result, **change
            )
        return await self.db(
            self.storage.append_moves, game_id, first_ply, moves, status, result, **change
        )

    async def start(self) -> None:
        """Connect to the broker (if configured) and start the background checks."""
        if self.redis_url:
            self.broker = Broker(self.redis_url, self.remote_change, self.catch_up)
            await self.broker.start()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._every(lambda: self.sweep_interval, self.sweep)),
            loop.create_task(self._every(self._sync_every, self.catch_up)),
            loop.create_task(self._every(lambda: RATINGS_INTERVAL, self.settle_ratings)),
        ]
        await self.lobby.start()
        self.mailer.start()
        await self.push.start()

    async def room(self, game_id: str) -> Room:
        """The game's room, current with the database (``ApiError`` 404 if there is none)."""
        room = self.rooms.get(game_id)
        if room is not None:
            self.rooms.move_to_end(game_id)
            await room.refresh()
            if room.sockets_behind:  # another process's change, found first by this request
                await room.broadcast()
            return room
        row = await self.db(self.storage.get_game, game_id)
        if row is None:
            raise not_found(f"there is no game with id {quote(game_id)}")
        room = self.rooms.get(game_id)
        if room is not None:  # loaded by another request meanwhile: keep that copy
            await room.refresh()
            return room
        room = Room(self, row, self.ai)
        self.rooms[game_id] = room
        self._evict()
        await room.settle()
        return room

    def _evict(self) -> None:
        """Keep at most ``room_cache`` rooms, dropping the least recently used ones that no
        socket watches and no AI job of this process needs (they load again when asked for)."""
        excess = len(self.rooms) - self.room_cache
        if excess <= 0:
            return
        for game_id in [
            gid for gid, r in self.rooms.items() if not r.subscribers and not r.ai.running
        ][:excess]:
            del self.rooms[game_id]

    # ----- between processes ----------------------------------------------------------------
    def publish(
        self,
        game_id: str,
        revision: int,
        view: Callable[[], str],
        appended: Appended | None = None,
    ) -> None:
        """Tell the other processes that a game changed, with its public view and the moves
        stored (``appended.py``) so that they need neither build the view again nor read the
        game back (never waits: see ``Broker.publish``)."""
        if self.broker is not None:
            # Alone on the broker (one process), nobody would use them: leave them out.
            peers = self.broker.peers
            text = view() if peers else ""
            step = appended.to_text() if peers and appended is not None else ""
            self.broker.publish(game_id, Notice(revision, self.epoch, text, step))

    def remote_change(self, game_id: str, revision: int, notice: Notice) -> None:
        """A process changed a game: update the sockets watching it here."""
        if notice.origin != self.epoch:  # this process's own changes are sent already
            self.notice(game_id, revision, notice)

    def notice(self, game_id: str, revision: int, relayed: Notice | None = None) -> None:
        """The database holds ``revision`` of a game: if sockets here were last sent an older
        one, bring the copy up to it and update them, without waiting. Games catch up side by
        side, and notices that arrive while a game is reloading fold into one more reload (never
        a queue of them), so a burst of moves cannot pile up behind one slow game. A
        ``relayed`` notice's moves are applied if they lead on from the copy, and its view is
        used if the copy lands on its revision."""
        room = self.rooms.get(game_id)
        if room is None or not room.subscribers or revision <= room.sent:
            return
        if revision >= self._wanted.get(game_id, revision):
            self._wanted[game_id] = revision
            if relayed is not None and (relayed.view_text or relayed.step_text):
                self._relayed[game_id] = relayed
        if game_id not in self._syncing:
            task = asyncio.get_running_loop().create_task(self._sync(room))
            self._syncing[game_id] = task

    async def _sync(self, room: Room) -> None:
        game_id = room.row.id
        try:
            while (revision := self._wanted.pop(game_id, None)) is not None:
                relayed = self._relayed.pop(game_id, None)
                if relayed is None or not await room.follow(relayed.revision, relayed.step_text):
                    await room.refresh(revision)
                # Sent whether this refresh or an earlier one (a request's) advanced the copy:
                # what counts is what the sockets were last sent.
                if room.sockets_behind:
                    if relayed is not None:
                        room.adopt_view(relayed.revision, relayed.view_text)
                    await room.broadcast()
        except Exception:
            log.exception("could not bring game %s up to date; the next check tries again", game_id)
        finally:
            self._syncing.pop(game_id, None)
            self._relayed.pop(game_id, None)

    async def catch_up(self) -> None:
        """Compare every watched game with the database (one query) and send what was missed;
        and who is at those tables on the other processes (``presence.py``)."""
        await self.chat.catch_up()  # never raises: chat written on the other processes
        watched = [r for r in self.rooms.values() if r.subscribers]
        sent = {r.row.id: r.sent for r in watched}
        reports: Heres = {}
        for game_id in self._present:
            found = self.rooms.get(game_id)  # gone from the cache: no socket here any more
            reports[game_id] = found.presence.local if found is not None else Here()
        if not sent and not reports:
            return
        self._present.clear()
        try:  # one statement, or one trip to a storage thread, for both (see ``sweep``)
            revisions, others = await self.checks.check(sent, reports)
        except Exception:
            self._present.update(reports)  # stored at the next check instead
            raise
        for room in watched:
            revision = revisions.get(room.row.id)
            if revision is not None:
                self.notice(room.row.id, revision)
            room.presence.send(room.subscribers, others.get(room.row.id, Here()))

    def seats_here(self, game_id: str) -> frozenset[int]:
        """The seats whose page shows the game now, on any process (as of the last check)."""
        room = self.rooms.get(game_id)
        return (room.presence.local + room.presence.others).seats if room else frozenset()

    def presence_changed(self, game_id: str) -> None:
        """This process's count of the game's sockets changed: stored at the next check."""
        self._present.add(game_id)

    async def sweep(self) -> None:
        """Claim AI jobs nobody holds (up to this process's free AI capacity) and flag the games
        whose clock fell (watched or not, across processes and restarts), found in one statement
        on PostgreSQL, elsewhere in one trip to a storage thread on one connection
        (``checks.py``): a trip costs milliseconds of CPU even when it finds none."""
        jobs, fallen = await self.checks.due(self.ai.free, self.now())
        for game_id in jobs:
            try:
                (await self.room(game_id)).kick()
            except ApiError:
                continue
            except Exception:  # one game's trouble must not stop the others' AI turns
                log.exception("could not start the AI turn of game %s", game_id)
        for game_id in fallen:
            await self.flag_game(game_id)

    # ----- clocks -----------------------------------------------------------------------------
    def watch_clock(self, game_id: str, deadline: float | None) -> None:
        """Flag the game at ``deadline`` exactly, if it falls within ``TIMER_HORIZON`` (later
        ones, and games no socket here watches, are found by ``sweep``)."""
        known = self._flag_timers.get(game_id)
        if known is not None and known[0] == deadline:
            return
        if known is not None:
            known[1].cancel()
            del self._flag_timers[game_id]
        if deadline is None:
            return
        delay = deadline - self.now()
        if delay > TIMER_HORIZON:
            return
        handle = asyncio.get_running_loop().call_later(
            max(0.0, delay) + TIMER_SLACK, lambda: self._flag_soon(game_id)
        )
        self._flag_timers[game_id] = (deadline, handle)

    def _flag_soon(self, game_id: str) -> None:
        self._flag_timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self.flag_game(game_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def flag_game(self, game_id: str) -> bool:
        """Store the flag of the game if its running clock has fallen; True if this process
        stored it."""
        try:
            room = await self.room(game_id)
            return await flag(room)
        except ApiError:
            return False
        except Exception:  # one game's trouble must not stop the others' clocks
            log.exception("could not flag game %s; the next sweep tries again", game_id)
            return False

    async def settle_ratings(self, game_ids: Sequence[str] | None = None) -> None:
        """Rate finished rated games not yet rated (``game_ids``, else any the database lists):
        once each, whichever process gets there first (``ratingstore.py``)."""
        if game_ids is None:
            game_ids = await self.db(self.ratings.unsettled, 20)
        for game_id in game_ids:
            try:
                row = await self.db(self.storage.get_game, game_id)
                if row is None or not row.rated or row.status != FINISHED:
                    continue
                places = places_of(row)
                pool = pool_of(row.game, row.options, len(row.seats)) if places else UNRATED
                await self.db(self.ratings.settle, game_id, pool, places or [])
            except Exception:  # one game's trouble must not stop the others' ratings
                log.exception("could not rate game %s; the next look tries again", game_id)

    def _sync_every(self) -> float:
        """Seconds to the next check of the watched games: ``sync_interval``, a quarter of it
        while Redis is down, when the checks are the only way other processes' moves arrive
        (the fourth attack round saw sockets 1-2 moves behind for 8 s during an outage)."""
        if self.broker is not None and self.broker.down:
            return self.sync_interval / OUTAGE_SPEEDUP
        return self.sync_interval

    async def _every(
        self, seconds: Callable[[], float], work: Callable[[], Awaitable[None]]
    ) -> None:
        """Run ``work`` every ``seconds()`` (with jitter, so processes do not move in step)."""
        while True:
            await asyncio.sleep(seconds() * random.uniform(0.75, 1.25))
            try:
                await work()
            except Exception:
                log.exception("background check failed; trying again")

    async def close(self) -> None:
        await self.reviewer.close()
        await self.lobby.close()
        await self.mailer.close()  # after the mail in hand, so none is sent twice
        await self.push.close()  # likewise the push in hand
        for _, handle in self._flag_timers.values():
            handle.cancel()
        tasks = [*self._tasks, *self._syncing.values(), *self._background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for room in list(self.rooms.values()):
            await room.ai.stop()
        if self.broker is not None:
            await self.broker.close()
        with contextlib.suppress(Exception):  # nobody is at this process's tables any more
            await self.db(self.presence.forget)
        self.db_pool.shutdown(wait=True)
        if self.connections is not None:
            await self.connections.close()
