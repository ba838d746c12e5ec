"""Live updates between server processes: Redis pub/sub.

Each accepted change is published once, by the process that stored it, on channel
``boardplay:from:<sender>:<game id>``: the game's new revision, the publishing process, the moves
stored when the change was a move (``appended.py``) and the game's public view at that revision
(as the page sees it: ``Room.public_view``). Every process listens to every other process's
channels, never to its own (``patterns``), and, for a game whose sockets it serves, brings its
copy up to that revision (applying the moves when its copy is at the revision they were stored
on, else reloading from the database, the single source of truth) and sends each socket the
update, built from the view that came with the notice when it is the view of the revision it
reached (so a move's view is built once, by the process that accepted it, not once per process).
A notice that is lost or arrives late costs nothing but time, because a process compares
revisions and catches up from the database (the hub also checks its watched games every few
seconds, and after the connection to Redis comes back).

A process's own notices are not sent back to it. Each was read only to be thrown away, and
reading one message costs redis-py 220-290 µs of CPU when it arrives alone on an idle event loop
(measured on this project's machine; about 65 µs of that is the wake-up itself).

Redis is never in a move's path: the move is stored and acknowledged first, and its notice waits
in a bounded outbox that keeps only the newest notice of each game; a background task publishes
everything waiting in one round trip. While Redis is down the notices wait there (only the
newest per game, so an outage cannot pile them up), the outage is logged once when it starts and
once when it ends, and no request waits for Redis or fails because of it. When Redis answers
again, the waiting notices go out and every process checks its watched games against the
database, so nothing changed meanwhile stays unseen.

The listening connection is made with redis-py's own retries turned off: a lost connection must
reach this module (which reconnects, resubscribes and has the hub catch up), never be mended
silently inside the client, which skipped the catch-up (with redis-py's default of ten retries, a
short outage went unnoticed, and a socket on another process stayed behind until the next
periodic check)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("boardplay.web")

CHANNEL = "boardplay:from:"
"""The prefix of every channel: ``<CHANNEL><sender>:<game id>``."""
ANNOUNCE = "~"
"""The game id under which a process says it has begun listening (after every subscription): a
process that was alone, and so stopped publishing, starts again. No game id contains ``~``."""
RETRY_SECONDS = 1.0
TIMEOUT_SECONDS = 2.0
"""Longest wait for Redis to connect or answer a command (a hung Redis counts as down)."""
OUTBOX = 10_000
"""Games whose newest notice may wait to be published; beyond that the oldest are dropped (the
other processes catch up from the database by revision)."""

Changed = Callable[[str, int, "Notice"], Awaitable[None]]


def patterns(sender: str) -> list[str]:
    """Redis glob patterns that match every channel but ``sender``'s own. The i-th matches the
    senders that agree with ``sender`` before character i and differ at it, so another sender's
    channel matches exactly one of them (one delivery; a sender's name is followed by ``:``,
    which no name holds) and ``sender``'s matches none. Names are hex: nothing needs escaping."""
    return [f"{CHANNEL}{sender[:i]}[^{c}]*" for i, c in enumerate(sender)]


Reconnected = Callable[[], Awaitable[None]]


class Notice:
    """A change notice as it arrived: the revision, who sent it, the stored move it was (an
    ``appended.Appended`` as text, empty for any other change) and the public view's JSON text,
    both left undecoded until a process needs them (most notices concern games a process does
    not serve, or its own changes)."""

    __slots__ = ("origin", "revision", "step_text", "view_text")

    def __init__(
        self, revision: int, origin: str = "", view_text: str = "", step_text: str = ""
    ) -> None:
        self.revision = revision
        self.origin = origin
        self.view_text = view_text
        self.step_text = step_text

    def encode(self) -> str:
        return (
            f"{self.revision} {self.origin} {len(self.step_text)} {self.step_text}{self.view_text}"
        )

    @classmethod
    def decode(cls, data: bytes | str) -> Notice:
        """``"<revision> <origin> <length of step> <step><view JSON>"`` (``ValueError`` if
        malformed)."""
        text = data.decode() if isinstance(data, bytes) else str(data)
        revision, origin, length, rest = [*text.split(" ", 3), "0", ""][:4]
        size = int(length)
        if not 0 <= size <= len(rest):
            raise ValueError(f"a step of {size} characters in a notice of {len(rest)}")
        return cls(int(revision), origin, rest[size:], rest[:size])


class Broker:
    """One process's connection to Redis: publishes its changes, hands others' to ``changed``."""

    def __init__(self, url: str, changed: Changed, reconnected: Reconnected) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.url = url
        # Publishing may retry once at once (a pooled connection that Redis closed meanwhile);
        # listening never retries inside the client (see the module's docstring).
        self.redis: Any = aioredis.from_url(
            url,
            socket_connect_timeout=TIMEOUT_SECONDS,
            socket_timeout=TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 1),
        )
        self.listener: Any = aioredis.from_url(
            url,
            socket_connect_timeout=TIMEOUT_SECONDS,
            socket_timeout=TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 0),
        )
        self.changed = changed
        self.reconnected = reconnected
        self.listening = asyncio.Event()
        self.outbox: OrderedDict[str, Notice] = OrderedDict()
        """The newest unpublished notice of each game, oldest first."""
        self.waiting = asyncio.Event()
        """Set when the outbox holds something."""
        self.down = False
        """Redis is known to be unreachable (logged once; cleared when it answers again)."""
        self.dropped = 0
        """Notices never published during the current outage (outbox full)."""
        self.held = 0
        """Notices that waited for Redis during the current outage."""
        self.peers = 1
        """Other processes listening, as the last publish counted them (each of them hears this
        one's channels through exactly one pattern, so Redis's count of receivers is their
        number); assumed until counted. A process alone (0) publishes nothing, since nobody
        would read it, until another announces itself (``ANNOUNCE``); the one starting then has
        no sockets yet, and a notice missed anyway is caught up from the database."""
        self.me = secrets.token_hex(4)
        """This broker's name: the sender in its channels' names."""
        self.announced = 0
        """Announcements heard from others: a publish's count taken before the latest one is
        stale and must not declare this process alone."""
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Start listening; returns once subscribed (or after a few seconds without Redis: the
        server still works, catching up from the database until Redis answers)."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), timeout=5)

    def publish(self, game_id: str, notice: Notice) -> None:
        """Queue ``notice`` for ``game_id`` (replacing an older one still waiting); never waits.
        Alone on Redis, drop it: this process would be its only reader."""
        if self.peers == 0 and not self.down:
            return
        self.outbox.pop(game_id, None)
        self.outbox[game_id] = notice
        if len(self.outbox) > OUTBOX:
            self.outbox.popitem(last=False)
            self.dropped += 1
        self.waiting.set()

    async def _publish(self) -> None:
        """Publish everything waiting in one round trip (a pipeline when more than one notice
        waits: a pipeline costs more CPU than a plain command); while Redis is down, keep
        the notices (the newest per game) and try again every ``RETRY_SECONDS``."""
        while True:
            await self.waiting.wait()
            self.waiting.clear()
            batch, self.outbox = self.outbox, OrderedDict()
            if self.down:
                self.held = max(self.held, len(batch))
            heard = self.announced
            try:
                if len(batch) == 1:  # the usual case when moves come one at a time
                    ((game_id, notice),) = batch.items()
                    receivers = [await self.redis.publish(self._channel(game_id), notice.encode())]
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for game_id, notice in batch.items():
                            pipe.publish(self._channel(game_id), notice.encode())
                        receivers = await pipe.execute()
            except Exception as exc:
                self._lost(exc)
                for game_id, notice in batch.items():  # newer notices queued meanwhile win
                    self.outbox.setdefault(game_id, notice)
                    if notice.revision > self.outbox[game_id].revision:
                        self.outbox[game_id] = notice
                while len(self.outbox) > OUTBOX:
                    self.outbox.popitem(last=False)
                    self.dropped += 1
                self.held = max(self.held, len(self.outbox))
                await asyncio.sleep(RETRY_SECONDS)
                self.waiting.set()
            else:
                if receivers and heard == self.announced:
                    self.peers = int(receivers[-1])
                self._back()

    def _channel(self, game_id: str) -> str:
        return f"{CHANNEL}{self.me}:{game_id}"

    def _lost(self, exc: BaseException) -> None:
        if not self.down:
            self.down = True
            log.error(
                "Redis at %s is unreachable (%s): moves are still stored and answered; other "
                "processes' sockets catch up from the database every few seconds until it is back",
                self.url,
                str(exc) or type(exc).__name__,
            )

    def _back(self) -> None:
        if self.down:
            self.down = False
            log.warning(
                "Redis is reachable again; %d games' change notices waited and go out now, %d "
                "were dropped (the sockets catch up from the database)",
                self.held,
                self.dropped,
            )
        self.dropped = 0
        self.held = 0

    async def _listen(self) -> None:
        from redis.exceptions import RedisError

        while True:
            pubsub = self.listener.pubsub()
            try:
                await pubsub.psubscribe(*patterns(self.me))
                self.peers = max(self.peers, 1)  # until a publish counts them again
                await self.redis.publish(self._channel(ANNOUNCE), "")
                self.listening.set()
                self._back()
                await self.reconnected()
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None:
                        await self._deliver(message)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except (RedisError, OSError) as exc:
                self._lost(exc)
                self.listening.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(RETRY_SECONDS)

    async def _deliver(self, message: dict[str, Any]) -> None:
        try:
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            game_id = channel.removeprefix(CHANNEL).partition(":")[2]
            if game_id == ANNOUNCE:
                self.announced += 1
                self.peers = max(self.peers, 1)
                return
            notice = Notice.decode(message["data"])
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("ignoring a malformed broker message: %s", exc)
            return
        try:
            await self.changed(game_id, notice.revision, notice)
        except Exception:
            log.exception("could not deliver a change of %s", channel)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        for client in (self.redis, self.listener):
            with contextlib.suppress(Exception):
                await client.aclose()
