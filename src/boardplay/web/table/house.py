"""All the rooms of one server process (the table domain's house, as lila's round module has
its ``Env``): loaded on demand from the database into a bounded cache, kept current with the
other processes, their AI seats claimed and their clocks watched. To its rooms it is their
``host.RoomHost``; the wiring (``hub.py``) gives it the checks that ride on its periodic one
(the chat). A turn passed it tells as ``YourTurn`` and a game's end as ``GameFinished``, which
the ratings, the tournaments, mail and push hear.

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
(``House.db``), and on PostgreSQL a move's write, the one on every move's path, is awaited on the
loop itself through an asynchronous connection (``pgwrite.py``). While one game's move is being
committed (an fsync) the process goes on serving the others, and PostgreSQL can commit several
games' moves together. SQLite, which takes one writer at a time, gets a single thread."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from boardplay.web.admission import Admission
from boardplay.web.broker import Broker, Notice
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.database import DB_THREADS, StorageThreads
from boardplay.web.errors import ApiError, not_found, quote
from boardplay.web.events import Bus, GameFinished, RatingSettled, YourTurn
from boardplay.web.metrics import Metrics
from boardplay.web.table.aijobs import AiWorkers
from boardplay.web.table.appended import Appended
from boardplay.web.table.checks import Checks, ThreadChecks, postgres_parts
from boardplay.web.table.clocks import Clock
from boardplay.web.table.clockwatch import ClockWatch
from boardplay.web.table.creation import GameMaker
from boardplay.web.table.games import Games
from boardplay.web.table.presence import Here, Heres, PresenceStore
from boardplay.web.table.rooms import Room
from boardplay.web.table.rows import GameEnd, GameRow, MoveWrite, clock_values
from boardplay.web.table.storage import Storage
from boardplay.web.table.watchstore import current_revision
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.throttles import Throttles
from boardplay.web.tokens import new_token

if TYPE_CHECKING:
    from boardplay.web.table.pgwrite import LoopConnections, MovesWriter

log = logging.getLogger("boardplay.web")


class House:
    """All rooms of one server process, loaded on demand from storage."""

    def __init__(
        self,
        engine: Engine,
        catalogue: WebCatalogue,
        catalogue_ref: str,
        executor_factory: Callable[[], Executor],
        limits: Limits,
        throttles: Throttles,
        db: StorageThreads,
        admission: Admission,
        bus: Bus,
        data_dir: str | None = None,
        *,
        ai_workers: int = 1,
        ai_lease: float = 10.0,
        room_cache: int = 2000,
        now: Callable[[], float],
        metrics: Metrics | None = None,
    ) -> None:
        self.storage = storage = Storage(engine)
        """The games' store (private to the table: other domains read them through ``games``)."""
        self.metrics = metrics = metrics or Metrics()
        """The operator's series: the rooms count moves and ends, the maker games made."""
        self.catalogue = catalogue
        self.limits = limits
        self.db = db
        """Runs a storage call off the event loop (the process's storage threads)."""
        self.bus = bus
        """Where a game's end is told (``GameFinished``: its rating, its tournament)."""
        bus.subscribe(RatingSettled, self._rated, everywhere=True)
        self.now = now
        """The server's clock (``clocks.py``); tests give one they move by hand."""
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self.room_cache = room_cache
        self.epoch = new_token()[:10]
        """Identifies this server process (as the holder of AI jobs)."""
        self.broker: Broker | None = None
        """Redis between the processes, once started (``hub.py``); None: one process."""
        self.followers: list[Callable[[], Awaitable[None]]] = []
        """Checks that ride on this process's periodic one (the chat's), never raising."""
        self.ai = AiWorkers(
            self,
            executor_factory,
            catalogue_ref,
            data_dir,
            limits,
            self.epoch,
            workers=ai_workers,
            lease=ai_lease,
        )
        """The AI worker pool: AI turns (the sweeper claims them only while ``ai.free``), hints
        and reviews."""
        self.maker = GameMaker(
            catalogue,
            limits,
            storage,
            throttles,
            self.db,
            self.room,
            self.made,
            admission,
            bus,
            lambda: self.now(),
            metrics,
        )
        """Makes games within the ceilings (``creation.py``)."""
        self.games = Games(storage, db, self.room, self.rooms.get, bus)
        """What other domains read of the games and the accounts' seats (``games.py``)."""
        self.clocks = ClockWatch(self.room, lambda: self.now())
        self._wanted: dict[str, int] = {}
        """Newest revision heard of, per watched game whose copy is being brought up to it."""
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._relayed: dict[str, Notice] = {}
        """The notice (with its view) of the newest revision wanted, per game being synced."""
        self.presence = PresenceStore(storage.engine, self.epoch)
        self._present: set[str] = set()
        """Games whose count of this process's sockets changed since the last check."""
        self.connections: LoopConnections | None = None
        """On PostgreSQL, the moves' writes and the periodic checks are one statement each from
        the event loop (``pgwrite.py``, ``pgchecks.py``: psycopg, which SQLite installs lack)."""
        self.writer: MovesWriter | None = None
        self.checks: Checks = ThreadChecks(self.db, storage, self.presence)
        if storage.engine.dialect.name == "postgresql":
            self.connections, self.writer, self.checks = postgres_parts(
                storage.engine.url, DB_THREADS, self.presence
            )

    async def write_moves(self, move: MoveWrite) -> int:
        """Store a change's plies as ``Storage.write`` does (the new revision, or
        ``StaleWrite``): on PostgreSQL one statement from the event loop, elsewhere a
        transaction on a storage thread."""
        if self.writer is not None:
            return await self.writer.write(move)
        return await self.db(self.storage.write, move)

    async def set_clock(self, game_id: str, revision: int, clock: Clock | None) -> int:
        """``Storage.set_clock`` (a clock that starts or stops; ``StaleWrite`` as there), on
        PostgreSQL as a move's write with no plies, from the event loop: two bots' streams
        opening start a clock in every game of an arena."""
        if self.writer is not None:
            return await self.writer.set(game_id, revision, clock_values(clock))
        return await self.db(self.storage.set_clock, game_id, revision, clock)

    async def revision(self, game_id: str) -> int | None:
        """The game's current revision (None: no such game): a copy's check before a read that
        must be current (``RoomCopy.refresh``), twice or more in a bot's game."""
        return await current_revision(self.db, game_id)

    async def room(self, game_id: str, current: bool = True) -> Room:
        """The game's room, current with the database (``ApiError`` 404 if there is none). Not
        ``current``: a room this process holds is taken as it is, with no query; for a request
        that acts on the game, which ``Room._decide`` checks against the database itself (a
        change names the revision it was based on, a refusal stands only on a current copy),
        as a socket's moves are."""
        room = self.rooms.get(game_id)
        if room is not None:
            self.rooms.move_to_end(game_id)
            if not current:
                return room
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
        return await self._hold(row)

    async def made(self, row: GameRow) -> Room:
        """The room of a game this process has just stored as ``row``, taken as it is: what a
        read would give back (``test_web_game_rows.py``), so a tournament's or a challenge's
        game is not read whole right after it was written (five statements a game)."""
        room = self.rooms.get(row.id)
        if room is not None:  # asked for by another request meanwhile: keep that copy
            return room
        return await self._hold(row)

    async def _hold(self, row: GameRow) -> Room:
        """A room for ``row`` kept among this process's rooms, settled (``Room.settle``)."""
        room = Room(self, row, self.ai)
        self.rooms[row.id] = room
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
        for follow in self.followers:  # never raise: the chat written on the other processes
            await follow()
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

    # ----- AI seats and clocks ----------------------------------------------------------------
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
            await self.clocks.flag_game(game_id)

    def watch_clock(self, game_id: str, deadline: float | None) -> None:
        """Flag the game at ``deadline`` (``clockwatch.py``)."""
        self.clocks.watch_clock(game_id, deadline)

    async def _rated(self, event: RatingSettled) -> None:
        """A game's ratings were settled (on any process): the pages watching it here are told,
        so they show each player's change at once rather than at their next look."""
        room = self.rooms.get(event.game_id)
        for sub in list(room.subscribers) if room is not None else []:
            sub.push({"type": "rated"})

    async def game_ended(
        self, game_id: str, rated: bool, end: GameEnd, correspondence: bool = False
    ) -> None:
        """A game ended on this process: tell every domain that follows ends
        (``GameFinished``: the ratings rate it now, its tournament steps on, the players of a
        correspondence game are told away from it). Each of them must not rely on being told
        (a process may die first): it is the fast path of their own periodic look."""
        resigned = tuple(end.resigned)
        await self.bus.publish(GameFinished(game_id, rated, correspondence, end.result, resigned))

    async def turns_away(self, game_id: str, seats: tuple[int, ...]) -> None:
        """The turn of a correspondence game passed to these seats, whose players have no page
        of it open: tell them away from the table (``YourTurn``: mail, push)."""
        await self.bus.publish(YourTurn(game_id, seats))

    async def close(self) -> None:
        await self.clocks.close()
        await cancel_and_wait(self._syncing.values())
        for room in list(self.rooms.values()):
            await room.ai.stop()
        with contextlib.suppress(Exception):  # nobody is at this process's tables any more
            await self.db(self.presence.forget)
        if self.connections is not None:
            await self.connections.close()
