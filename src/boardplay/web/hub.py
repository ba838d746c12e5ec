"""The wiring of one server process, and nothing else (lichess's per-module ``Env``): it builds
each domain's parts, hands each the other domains' APIs it needs, starts the background work and
stops it all. No policy lives here: the rooms, their clocks and their AI seats are the table's
(``table.House``), making a game is ``table/creation.py``, rating is ``ratings.Settlement``.

The routes reach the parts through ``Hub``'s attributes (``hub.room``, ``hub.db``,
``hub.accounts``, ``hub.lobby`` ...), named as the domains name them."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from boardplay.web.accounts import Accounts
from boardplay.web.admission import Admission
from boardplay.web.advice import Reviewer
from boardplay.web.analysis import Analysis, Lines
from boardplay.web.bots import Bots
from boardplay.web.broker import Broker
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.chat import ChatRelay
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.events import Bus
from boardplay.web.fairplay import FairPlay
from boardplay.web.lobby import Lobby, Tv
from boardplay.web.metrics import Metrics
from boardplay.web.migrate import current, open_database, schema_head
from boardplay.web.moderation import ChatBans, Moderation
from boardplay.web.notify import MailConfig, Mailer, PushConfig, Pusher
from boardplay.web.observe import Readiness
from boardplay.web.puzzles import Puzzles
from boardplay.web.ratings import RATINGS_INTERVAL, Ratings
from boardplay.web.relations import Relations, Whereabouts
from boardplay.web.table import House
from boardplay.web.tasks import cancel_and_wait
from boardplay.web.throttles import Throttles
from boardplay.web.tournaments import Tournaments

log = logging.getLogger("boardplay.web")

CHAT_TOPIC = "chat"
"""The broker's topic of the table chat's messages (``Broker.send``)."""
BOTS_TOPIC = "bots"
"""The broker's topic of revoked API tokens, whose streams every process ends (``bots/``)."""
LOBBY_TOPIC = "lobby"
"""The broker's topic of the lobby's nudges: read the lobby's events now (``Lobby.remote``)."""
EVENTS_TOPIC = "events"
"""The broker's topic of the events between domains heard on every process (``events.py``)."""
OUTAGE_SPEEDUP = 4
"""How many times as often the watched games are checked while Redis is down."""
READY_TIMEOUT = 2.0
"""Seconds the readiness check waits for the database before it says the process is not
ready (a probe's own timeout is usually a few seconds)."""


class Hub:
    """One server process's parts, built and wired: the table's house (``house``: rooms, AI,
    clocks, presence), accounts and throttles, the relations, ratings, hints and reviews, the
    lobby, e-mail and push, the chat, and the bots' tokens and streams."""

    def __init__(
        self,
        database_url: str,
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
        metrics: Metrics | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.metrics = metrics = metrics or Metrics()
        """The operator's series (``metrics.py``): the domains count into it, and the backlogs
        it reads when scraped are the table's AI jobs and the two outboxes (below)."""
        self.limits = limits = limits or Limits()
        self.redis_url = redis_url
        self.sweep_interval = sweep_interval
        self.sync_interval = sync_interval
        self.engine = engine = open_database(database_url)
        """The database every domain keeps its tables in, migrated (``migrate.py``)."""
        self.throttles = throttles = Throttles(engine)
        """Counted ceilings on what a visitor may ask for (``throttles.py``)."""
        self.db = db = StorageThreads(engine)
        """Runs a storage call off the event loop (every domain's calls share its threads)."""
        self.bus = bus = Bus()
        """The events between domains (``events.py``)."""
        self.accounts = accounts = Accounts(engine, throttles, limits, db, bus)
        """Accounts, sessions, passkeys, and what other domains read of a player."""
        self.relations = relations = Relations(
            engine,
            db,
            limits,
            bus,
            accounts,
            Whereabouts(
                online=lambda ids: self.lobby.online(ids),
                playing=lambda ids: self.games.playing(ids),
                entered=lambda ids: self.tournaments.playing_in(ids),
            ),
        )
        """Who follows and who blocks whom (``relations/``); where the followed players are
        is read through the lobby, the table and the tournaments, built below."""
        self.admission = Admission(
            accounts, relations, limits, excluded=lambda ids: self.ratings.excluded_among(ids)
        )
        """Who may sit at a table with whom: every door's one rule (``admission/``); which
        players a moderator marked is the ratings', built below."""
        self.house = house = House(
            engine,
            catalogue,
            catalogue_ref,
            executor_factory,
            limits,
            throttles,
            db,
            self.admission,
            bus,
            data_dir,
            ai_workers=ai_workers,
            ai_lease=ai_lease,
            room_cache=room_cache,
            now=now,
            metrics=metrics,
        )
        """The games in play: rooms, their clocks and AI seats (``table/``)."""
        if house.connections is not None:  # PostgreSQL: one statement sent from the loop
            throttles.statement = house.connections.row
            db.loop = house.connections.rows
        self.storage, self.rooms, self.room = house.storage, house.rooms, house.room
        self.maker, self.games, self.epoch, self.ai = (
            house.maker,
            house.games,
            house.epoch,
            house.ai,
        )
        self.presence_changed, self.seats_here = house.presence_changed, house.seats_here
        self.ratings = ratings = Ratings(engine, db, bus, self.games.get, self.games.finished_rated)
        """The players' ratings, and the settling of rated games (``ratings/``)."""
        self.reviewer = Reviewer(engine, self.ai, limits)
        """Hints and reviews (``advice/``)."""
        self.analysis = Analysis(
            engine, db, limits, throttles, catalogue, self.games.get, house.room
        )
        """The analysis board's studies (``analysis/``): fair play's rule asks the table for
        the row of the game a study shows, and a study is made from a game's room."""
        self.lines = Lines(self.analysis, self.ai)
        """The engine's lines at a study's positions, searched in the AI worker pool."""
        self.puzzles = Puzzles(engine, db, limits, throttles, catalogue)
        """Puzzles, their attempts and ratings, the daily puzzle and streaks (``puzzles/``);
        the shipped sets are loaded at start."""
        self.lobby = Lobby(
            engine,
            db,
            house.epoch,
            limits,
            bus,
            maker=house.maker,
            accounts=accounts,
            ratings=ratings,
            catalogue=catalogue,
            games=self.games,
            relations=relations,
        )
        """The lobby's sockets, seeks and challenges (``lobby/``)."""
        self.tv = Tv(self.games, ratings, bus)
        """Each game's best game being played now (``lobby/tv.py``)."""
        self.mailer = Mailer.open(
            engine, db, mail, limits, house.epoch, catalogue, accounts.languages, bus, self.games
        )
        """E-mail notifications: what the events ask it to mail, and the outbox's sender."""
        self.push = Pusher.open(
            engine,
            db,
            push,
            house.epoch,
            catalogue,
            accounts.languages,
            self.seats_here,
            bus,
            self.games,
        )
        """Push notifications (``notify/``): the same events, the challenges', and the sender."""
        self.bans = bans = ChatBans(engine, db)
        """Who a moderator banned from the chats: every chat asks it (``moderation/``)."""
        self.chat = ChatRelay(
            house,
            engine,
            self.rooms,
            self.games.has_finished_game,
            relations,
            bus,
            silenced=bans.until,
        )
        """The table chat of this process's sockets (``chat/``)."""
        house.followers.append(self.chat.catch_up)
        self.bots = Bots(
            engine, db, limits, throttles, bus, accounts=accounts, games=self.games, metrics=metrics
        )
        """API tokens, bot accounts and the Bot API's open streams (``bots/``)."""
        self.tournaments = Tournaments(
            engine,
            db,
            house.maker,
            catalogue,
            bus,
            accounts,
            self.games,
            ratings,
            now=lambda: house.now(),
            limits=limits,
            silenced=bans.until,
            hidden=relations.hidden,
            metrics=metrics,
        )
        """Arenas, Swiss and pods (``tournaments/``): every process steps every tournament; its
        chat hides what the relations' blocks hide."""
        self.moderation = Moderation(
            engine, db, limits, bus, accounts, self.chat, self.games, bans, marks=ratings
        )
        """Moderators, reports, their queue, actions, audit log and notices (``moderation/``)."""
        self.fairplay = FairPlay(
            engine, db, limits, bus, accounts, self.ai, house.room, self.moderation, ratings
        )
        """Each rated game's fair-play evidence, judged in the AI workers, what moderators read
        of it, and the system's reports when the flag fires (``fairplay/``)."""
        metrics.watch_ai(house.storage.ai_backlog)
        metrics.watch_outbox("mail", self.mailer.store.box.backlog)
        metrics.watch_outbox("push", self.push.store.box.backlog)
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def now(self) -> Callable[[], float]:
        """The server's clock (``table/clocks.py``); tests give one they move by hand."""
        return self.house.now

    @now.setter
    def now(self, clock: Callable[[], float]) -> None:
        self.house.now = clock

    @property
    def broker(self) -> Broker | None:
        return self.house.broker

    async def start(self) -> None:
        """Connect to the broker (if configured) and start the background checks."""
        house = self.house
        if self.redis_url:
            house.broker = broker = Broker(self.redis_url, house.remote_change, house.catch_up)
            broker.topics[CHAT_TOPIC] = self.chat.remote
            self.chat.send = lambda text: broker.send(CHAT_TOPIC, text)
            broker.topics[BOTS_TOPIC] = self.bots.remote
            self.bots.send = lambda text: broker.send(BOTS_TOPIC, text)
            broker.topics[LOBBY_TOPIC] = self.lobby.remote
            self.lobby.send = lambda text: broker.send(LOBBY_TOPIC, text)
            broker.topics[EVENTS_TOPIC] = self.bus.remote
            self.bus.send = lambda text: broker.send(EVENTS_TOPIC, text)
            await broker.start()
        await self.puzzles.load_sets()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(_every(lambda: self.sweep_interval, house.sweep)),
            loop.create_task(_every(self._sync_every, house.catch_up)),
            loop.create_task(_every(lambda: RATINGS_INTERVAL, self.ratings.settlement.settle)),
            loop.create_task(_every(lambda: self.tournaments.interval, self.tournaments.tick)),
        ]
        await self.lobby.start()
        self.bots.start()
        self.mailer.start()
        await self.push.start()
        self.fairplay.start()

    # The periodic checks, by the names the tests and tools call them.
    async def sweep(self) -> None:
        await self.house.sweep()

    async def catch_up(self) -> None:
        await self.house.catch_up()

    async def settle_ratings(self, game_ids: Any = None) -> None:
        await self.ratings.settlement.settle(game_ids)

    async def flag_game(self, game_id: str) -> bool:
        return await self.house.clocks.flag_game(game_id)

    async def readiness(self) -> Readiness:
        """Whether this process can serve (``GET /healthz/ready``): the database answers, within
        ``READY_TIMEOUT``, at the schema this version needs. Redis is reported, never required:
        it carries notices only, and while it is down every process still serves (docs/deploy.md,
        "Redis outages"), so a Redis outage must not take every process out of the balancer."""
        checks: dict[str, str] = {}
        try:
            found = await asyncio.wait_for(self.db(current, self.engine), READY_TIMEOUT)
        except Exception as exc:
            checks["database"] = "timed out" if isinstance(exc, TimeoutError) else "unreachable"
        else:
            checks["database"] = "ok"
            checks["migrations"] = "ok" if found == schema_head() else "not at this version's head"
        broker = self.house.broker
        if broker is None:
            checks["redis"] = "not configured"
        else:
            checks["redis"] = "unreachable" if broker.down or broker.sender is None else "ok"
        ready = checks["database"] == "ok" and checks.get("migrations") == "ok"
        return Readiness(ready, checks)

    def _sync_every(self) -> float:
        """Seconds to the next check of the watched games: ``sync_interval``, a quarter of it
        while Redis is down, when the checks are the only way other processes' moves arrive
        (the fourth attack round saw sockets 1-2 moves behind for 8 s during an outage)."""
        broker = self.house.broker
        if broker is not None and broker.down:
            return self.sync_interval / OUTAGE_SPEEDUP
        return self.sync_interval

    async def close(self) -> None:
        await self.bots.close()  # its streams end first: they watch rooms and the lobby
        await self.tournaments.close()
        await self.bus.close()
        await self.reviewer.close()
        await self.fairplay.close()
        await self.lobby.close()
        await self.mailer.close()  # after the mail in hand, so none is sent twice
        await self.push.close()  # likewise the push in hand
        await cancel_and_wait(self._tasks)
        if self.house.broker is not None:
            await self.house.broker.close()
        await self.house.close()
        self.db.close()
        self.engine.dispose()


async def _every(seconds: Callable[[], float], work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work`` every ``seconds()`` (with jitter, so processes do not move in step)."""
    while True:
        await asyncio.sleep(seconds() * random.uniform(0.75, 1.25))
        try:
            await work()
        except Exception:
            log.exception("background check failed; trying again")
