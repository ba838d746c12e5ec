"""The wiring of one server process, and nothing else (lichess's per-module ``Env``): it builds
each domain's parts, hands each the other domains' APIs it needs, starts the background work and
stops it all. No policy lives here: the rooms, their clocks and their AI seats are the table's
(``table.House``), making a game is ``table/creation.py``, rating is ``ratings.Settlement``.

The routes reach the parts through ``Hub``'s attributes (``hub.room``, ``hub.db``,
``hub.accounts``, ``hub.lobby`` ...), named as the domains name them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from boardplay.web.accounts import Accounts, AccountStore
from boardplay.web.admission import Admission
from boardplay.web.advice import Reviewer, ReviewStore
from boardplay.web.bots import Bots, TokenStore
from boardplay.web.broker import Broker
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.chat import ChatRelay, ChatStore
from boardplay.web.config import Limits
from boardplay.web.database import StorageThreads
from boardplay.web.events import Bus, ChallengeSent, GameFinished
from boardplay.web.lobby import Lobby, SeekStore
from boardplay.web.notify import MailConfig, Mailer, PushConfig, Pusher
from boardplay.web.ratings import RATINGS_INTERVAL, Ratings, RatingStore, Settlement
from boardplay.web.table import House, Storage
from boardplay.web.throttles import Throttles
from boardplay.web.tournaments import Tournaments, TournamentStore

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


class Hub:
    """One server process's parts, built and wired: the table's house (``house``: rooms, AI,
    clocks, presence), accounts and throttles, ratings, hints and reviews, the lobby, e-mail
    and push, the chat, and the bots' tokens and streams."""

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
        self.catalogue = catalogue
        self.limits = limits or Limits()
        self.redis_url = redis_url
        self.sweep_interval = sweep_interval
        self.sync_interval = sync_interval
        self.throttles = Throttles(storage.engine)
        """Counted ceilings on what a visitor may ask for (``throttles.py``)."""
        self.db = db = StorageThreads(storage.engine)
        """Runs a storage call off the event loop (every domain's calls share its threads)."""
        self.bus = bus = Bus()
        """The events between domains (``events.py``)."""
        self.accounts = Accounts(AccountStore(storage.engine), self.throttles, self.limits, db, bus)
        """Accounts, sessions, passkeys, and what other domains read of a player."""
        self.admission = Admission(self.accounts, self.limits)
        """Who may sit at a table with whom: every door's one rule (``admission/``)."""
        self.house = House(
            storage,
            catalogue,
            catalogue_ref,
            executor_factory,
            self.limits,
            self.throttles,
            db,
            self.admission,
            bus,
            data_dir,
            ai_workers=ai_workers,
            ai_lease=ai_lease,
            room_cache=room_cache,
            now=now,
        )
        house = self.house
        self.rooms, self.room, self.ai = house.rooms, house.room, house.ai
        self.maker, self.presence, self.epoch = house.maker, house.presence, house.epoch
        self.publish, self.notice = house.publish, house.notice
        self.presence_changed, self.seats_here = house.presence_changed, house.seats_here
        self.ratings = Ratings(RatingStore(storage.engine, self.limits.rating_pair_cap), db)
        """The players' ratings: what other domains read of them (``ratings/``)."""
        self.settlement = Settlement(self.ratings.store, db, storage.get_game)
        bus.subscribe(GameFinished, self.settlement.finished)
        self.reviewer = Reviewer(ReviewStore(storage.engine), self.ai, self.limits)
        """Hints and reviews (``advice/``)."""
        self.lobby = Lobby(
            SeekStore(storage.engine),
            db,
            house.epoch,
            self.limits,
            bus,
            maker=house.maker,
            accounts=self.accounts,
            ratings=self.ratings,
            catalogue=catalogue,
        )
        """The lobby's sockets, seeks and challenges (``lobby/``)."""
        self.mailer = Mailer.for_hub(house, mail)
        """E-mail notifications: the hooks the game code calls and the outbox's sender."""
        self.push = Pusher.for_hub(self, push)
        """Push notifications (``notify/``): the same hooks, the challenges', and the sender."""
        house.mailer, house.push = self.mailer, self.push
        bus.subscribe(ChallengeSent, self._challenge_sent)
        self.chat = ChatRelay(house, ChatStore(storage.engine), self.rooms, self.accounts.store)
        """The table chat of this process's sockets (``chat/``)."""
        house.followers.append(self.chat.catch_up)
        store = self.accounts.store
        self.bots = Bots(self, TokenStore(storage.engine, store), store)
        """API tokens, bot accounts and the Bot API's open streams (``bots/``)."""
        self.tournaments = Tournaments(
            TournamentStore(storage.engine),
            db,
            house.maker,
            catalogue,
            bus,
            self.accounts,
            self.ratings,
            now=lambda: house.now(),
            limits=self.limits,
        )
        """Arenas, Swiss and pods (``tournaments/``): every process steps every tournament."""
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def now(self) -> Callable[[], float]:
        """The server's clock (``clocks.py``); tests give one they move by hand."""
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
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(_every(lambda: self.sweep_interval, house.sweep)),
            loop.create_task(_every(self._sync_every, house.catch_up)),
            loop.create_task(_every(lambda: RATINGS_INTERVAL, self.settlement.settle)),
            loop.create_task(_every(lambda: self.tournaments.interval, self.tournaments.tick)),
        ]
        await self.lobby.start()
        self.bots.start()
        self.mailer.start()
        await self.push.start()

    # The periodic checks, by the names the tests and tools call them.
    async def sweep(self) -> None:
        await self.house.sweep()

    async def catch_up(self) -> None:
        await self.house.catch_up()

    async def settle_ratings(self, game_ids: Any = None) -> None:
        await self.settlement.settle(game_ids)

    async def flag_game(self, game_id: str) -> bool:
        return await self.house.clocks.flag_game(game_id)

    async def _challenge_sent(self, event: ChallengeSent) -> None:
        await self.push.challenge(
            event.to_account, event.sender, event.game, event.rated, event.challenge_id
        )

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
        await self.lobby.close()
        await self.mailer.close()  # after the mail in hand, so none is sent twice
        await self.push.close()  # likewise the push in hand
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.house.broker is not None:
            await self.house.broker.close()
        await self.house.close()
        self.db.close()


async def _every(seconds: Callable[[], float], work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work`` every ``seconds()`` (with jitter, so processes do not move in step)."""
    while True:
        await asyncio.sleep(seconds() * random.uniform(0.75, 1.25))
        try:
            await work()
        except Exception:
            log.exception("background check failed; trying again")
