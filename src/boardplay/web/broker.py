"""Live updates between server processes: Redis pub/sub.

Each accepted change is published once, by the process that stored it, on channel
``boardplay:from:<sender>:<game id>``: the game's new revision, the publishing process, the moves
stored when the change was a move (``table/appended.py``) and the game's public view at that
revision (as the page sees it: ``Room.public_view``). Every process listens to every other process's
channels, never to its own (``patterns``), and, for a game whose sockets it serves, brings its
copy up to that revision (applying the moves when its copy is at the revision they were stored
on, else reloading from the database, the single source of truth) and sends each socket the
update, built from the view that came with the notice when it is the view of the revision it
reached (so a move's view is built once, by the process that accepted it, not once per process).
A notice that is lost or arrives late costs nothing but time, because a process compares
revisions and catches up from the database (the house also checks its watched games every few
seconds, and after the connection to Redis comes back).

A process's own notices are not sent back to it: each was read only to be thrown away (reading
one cost redis-py 220-290 µs of CPU when it arrived alone on an idle event loop, measured on this
project's machine; about 65 µs of that is the wake-up itself).

Redis is never in a move's path: the move is stored and acknowledged first, and its notice is
written to Redis without waiting for an answer. While Redis is down the notices wait in a
bounded outbox that keeps only the newest notice of each game (so an outage cannot pile them
up), and a notice written but not yet answered when the connection drops goes back there; the
outage is logged once when it starts and once when it ends, and no request waits for Redis or
fails because of it. When Redis answers again, the waiting notices go out and every process
checks its watched games against the database, so nothing changed meanwhile stays unseen.

Both connections speak Redis's protocol directly (``resp.py``): a notice is written the moment
it is published, its reply (how many processes heard it) is counted in the connection's own
callback, and a message heard is handed to the house from the callback that parsed it, so neither
wakes a task. A lost connection is never mended silently: the broker reconnects, resubscribes
and has the house catch up (a client that retried inside itself, as redis-py does by default, let
a short outage go unnoticed, and a socket on another process stayed behind until the next
periodic check).

Besides games' notices, a domain may send a *topic* message (``Broker.send``): text for the
other processes' handler of that topic (``Broker.topics``), on channel
``boardplay:from:<sender>:~<topic>``. The table chat sends each message this way, so a socket on
another process has it at once. Such a message is written only while Redis is connected and is
never kept for later: whoever sends one has a slower way that needs no Redis (the chat's
periodic check), as a lost notice has."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from boardplay.web import resp
from boardplay.web.tasks import cancel_and_wait

log = logging.getLogger("boardplay.web")

CHANNEL = "boardplay:from:"
"""The prefix of every channel: ``<CHANNEL><sender>:<game id>``."""
ANNOUNCE = "~"
"""The game id under which a process says it has begun listening (after every subscription): a
process that was alone, and so stopped publishing, starts again. No game id contains ``~``; a
topic's channel ends in ``~<topic>``."""
RETRY_SECONDS = 1.0
TIMEOUT_SECONDS = 2.0
"""Longest wait for Redis to connect or answer a command (a hung Redis counts as down)."""
OUTBOX = 10_000
"""Games whose newest notice may wait to be published; beyond that the oldest are dropped (the
other processes catch up from the database by revision)."""

Changed = Callable[[str, int, "Notice"], None]
"""Takes another process's notice (game id, revision, notice) as it is heard: it must not block
(the house starts a task for whatever needs to wait)."""


def patterns(sender: str) -> list[str]:
    """Redis glob patterns that match every channel but ``sender``'s own. The i-th matches the
    senders that agree with ``sender`` before character i and differ at it, so another sender's
    channel matches exactly one of them (one delivery; a sender's name is followed by ``:``,
    which no name holds) and ``sender``'s matches none. Names are hex: nothing needs escaping."""
    return [f"{CHANNEL}{sender[:i]}[^{c}]*" for i, c in enumerate(sender)]


Reconnected = Callable[[], Awaitable[None]]
Topic = Callable[[str], None]
"""Takes another process's message of a topic as it is heard (its text): it must not block."""


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
    """One process's connections to Redis: publishes its changes, hands others' to ``changed``."""

    def __init__(self, url: str, changed: Changed, reconnected: Reconnected) -> None:
        resp.check_url(url)  # a mistyped setting fails at start, not in a background task
        try:
            import hiredis  # noqa: F401 (needed by resp's connections)
        except ModuleNotFoundError:
            raise RuntimeError(
                "a Redis URL is set, but hiredis is not installed: pip install 'boardplay[cluster]'"
            ) from None
        self.url = url
        self.changed = changed
        self.reconnected = reconnected
        self.listening = asyncio.Event()
        self.announced_once = asyncio.Event()
        """Set once Redis has taken this process's first announcement (``start`` waits for it,
        so the other processes know of this one before it publishes anything)."""
        self.sender: resp.Connection | None = None
        """The publishing connection while it is open."""
        self.in_flight: OrderedDict[int, tuple[str, Notice, int, float]] = OrderedDict()
        """Notices written and not yet answered, by serial number: (game, notice, the count of
        announcements heard when it was written, when). They go back to the outbox if the
        connection drops first."""
        self.serial = 0
        self.outbox: OrderedDict[str, Notice] = OrderedDict()
        """The newest notice of each game that waits for Redis, oldest first."""
        self.waiting = asyncio.Event()
        """Set when the outbox holds something the sender could write now."""
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
        self.topics: dict[str, Topic] = {}
        """Handlers of the topics' messages heard from other processes, by topic (``send``)."""
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Start listening; returns once subscribed and announced (or after a few seconds
        without Redis: the server still works, catching up from the database until Redis
        answers)."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.announced_once.wait(), timeout=5)

    def publish(self, game_id: str, notice: Notice) -> None:
        """Publish ``notice`` for ``game_id``: written at once while Redis is connected, else
        kept (replacing an older one of the game) until it is; never waits. Alone on Redis,
        drop it: this process would be its only reader."""
        if self.peers == 0 and not self.down:
            return
        if self.sender is not None and not self.outbox:
            self._write(self.sender, game_id, notice)
            return
        self._keep(game_id, notice)
        self.waiting.set()

    def send(self, topic: str, text: str) -> bool:
        """Send ``text`` to the other processes' handler of ``topic`` at once, if Redis is
        connected (True when written); else drop it: it is never kept for later, so the caller
        must have a slower way (a periodic check). Never waits."""
        sender = self.sender
        if sender is None or self.down or self.peers == 0:
            return False
        sender.send(_ignore, "PUBLISH", self._channel(ANNOUNCE + topic), text)
        return True

    def _keep(self, game_id: str, notice: Notice) -> None:
        """Into the outbox, unless a newer notice of the game waits there already."""
        known = self.outbox.pop(game_id, None)
        self.outbox[game_id] = (
            notice if known is None or notice.revision >= known.revision else known
        )
        if len(self.outbox) > OUTBOX:
            self.outbox.popitem(last=False)
            self.dropped += 1
        if self.down:
            self.held = max(self.held, len(self.outbox))

    def _write(self, sender: resp.Connection, game_id: str, notice: Notice) -> None:
        self.serial += 1
        serial = self.serial
        written = asyncio.get_running_loop().time()
        self.in_flight[serial] = (game_id, notice, self.announced, written)
        sender.send(
            lambda reply: self._answered(serial, reply),
            "PUBLISH",
            self._channel(game_id),
            notice.encode(),
        )

    def _answered(self, serial: int, reply: Any) -> None:
        """Redis's answer to a publish: how many other processes heard it."""
        _, _, heard, _ = self.in_flight.pop(serial, ("", None, -1, 0.0))
        if isinstance(reply, int) and heard == self.announced:
            self.peers = reply
        self._back()

    async def _send(self) -> None:
        """Keep the publishing connection: (re)connect every ``RETRY_SECONDS`` while Redis is
        down, then write what waited; notices unanswered when it drops wait again."""
        while True:
            try:
                sender = await resp.connect(self.url, _ignore, TIMEOUT_SECONDS)
            except (OSError, TimeoutError, resp.RedisError) as exc:
                self._lost(exc)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.sender = sender
            try:
                self._announce(sender)
                while sender.open:
                    self._flush(sender)
                    self.waiting.clear()
                    waiting = asyncio.ensure_future(self.waiting.wait())
                    await asyncio.wait(
                        (waiting, sender.lost),
                        timeout=TIMEOUT_SECONDS,
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                    waiting.cancel()
                    if self._unanswered() > TIMEOUT_SECONDS:  # a hung Redis counts as down
                        sender.abort(TimeoutError("Redis did not answer a publish in time"))
                self._lost(sender.lost.result() or ConnectionError("closed"))
            finally:
                self.sender = None
                sender.close()
                for game_id, notice, _, _ in self.in_flight.values():
                    self._keep(game_id, notice)
                self.in_flight.clear()
            await asyncio.sleep(RETRY_SECONDS)

    def _unanswered(self) -> float:
        """Seconds the oldest notice written has waited for Redis's answer (0 if none)."""
        for _, _, _, written in self.in_flight.values():
            return asyncio.get_running_loop().time() - written
        return 0.0

    def _flush(self, sender: resp.Connection) -> None:
        batch, self.outbox = self.outbox, OrderedDict()
        for game_id, notice in batch.items():
            self._write(sender, game_id, notice)

    def _announce(self, sender: resp.Connection) -> None:
        """Tell the other processes this one listens (if it does yet: else once it does)."""
        if self.listening.is_set():
            sender.send(
                lambda _reply: self.announced_once.set(), "PUBLISH", self._channel(ANNOUNCE), ""
            )

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
        while True:
            try:
                listener = await resp.connect(self.url, self._heard, TIMEOUT_SECONDS)
            except (OSError, TimeoutError, resp.RedisError) as exc:
                self._lost(exc)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            try:
                cause = await self._subscribed(listener)
            except (OSError, TimeoutError, resp.RedisError) as exc:
                cause = exc
            finally:
                listener.close()
            self._lost(cause or ConnectionError("closed"))
            self.listening.clear()
            await asyncio.sleep(RETRY_SECONDS)

    async def _subscribed(self, listener: resp.Connection) -> BaseException | None:
        """Subscribe ``listener`` to every other process's channels, say so, and have the house
        catch up on what it may have missed; then listen until the connection is lost (why)."""
        await asyncio.wait_for(
            asyncio.gather(*(listener.call("PSUBSCRIBE", p) for p in patterns(self.me))),
            TIMEOUT_SECONDS,
        )
        self.peers = max(self.peers, 1)  # until a publish counts them again
        self.listening.set()
        if self.sender is not None:
            self._announce(self.sender)
        self._back()
        try:
            await self.reconnected()
        except Exception:  # the periodic check catches up instead; the listening goes on
            log.exception("could not catch up after connecting to Redis")
        return await listener.lost

    def _heard(self, message: list[Any]) -> None:
        """A message pushed on the listening connection: ``[b"pmessage", pattern, channel,
        data]``."""
        try:
            channel = message[2].decode()
            game_id = channel.removeprefix(CHANNEL).partition(":")[2]
            if game_id == ANNOUNCE:
                self.announced += 1
                self.peers = max(self.peers, 1)
                return
            if game_id.startswith(ANNOUNCE):
                self._topic(game_id.removeprefix(ANNOUNCE), message[3])
                return
            notice = Notice.decode(message[3])
        except (IndexError, AttributeError, UnicodeDecodeError, ValueError) as exc:
            log.warning("ignoring a malformed broker message: %s", exc)
            return
        try:
            self.changed(game_id, notice.revision, notice)
        except Exception:
            log.exception("could not deliver a change of %s", channel)

    def _topic(self, topic: str, data: bytes) -> None:
        handler = self.topics.get(topic)
        if handler is None:
            return
        try:
            handler(data.decode())
        except Exception:
            log.exception("could not take a message of topic %s", topic)

    async def close(self) -> None:
        await cancel_and_wait(self._tasks)


def _ignore(_reply: Any) -> None:
    """For messages nobody needs: a publishing connection is pushed none."""
