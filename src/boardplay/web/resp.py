"""One connection to Redis for the broker (``broker.py``): commands written as Redis's wire protocol
(RESP2) and replies parsed by hiredis, on a plain asyncio protocol.

The broker's two jobs are one command each (``PUBLISH``, and ``PSUBSCRIBE`` followed by a
stream of messages), and both happen for every move. Through redis-py's asyncio client a
message heard cost 220-290 µs of CPU on an idle event loop, against 62-72 µs for the same
message parsed by hiredis in a protocol's own callback, and every publish woke a task to await
its reply through a connection pool. Here each reply is handed to a callback from the protocol
as it is parsed: no task is woken and nothing waits, and a publish is a single write."""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import unquote, urlsplit


class RedisError(Exception):
    """An error reply from Redis (hiredis returns, rather than raises, one per failed command)."""


Reply = Callable[[Any], None]
"""Takes the reply to one command: its value, or a ``RedisError``."""


class Connection(asyncio.Protocol):
    """Commands go out in order and their replies come back in the same order, each to the
    callback given with its command; a message pushed by Redis on a subscribed connection (a
    reply to no command) goes to ``pushed``."""

    def __init__(self, pushed: Callable[[list[Any]], None]) -> None:
        import hiredis  # the ``cluster`` extra: a server without Redis never needs it

        self.pushed = pushed
        self.reader = hiredis.Reader(replyError=RedisError)
        self.pack = hiredis.pack_command
        self.garbled = hiredis.ProtocolError
        self.waiting: deque[Reply] = deque()
        self.transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()
        """Set, with the cause if any, when the connection is gone."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        try:
            while (reply := self.reader.gets()) is not False:
                if isinstance(reply, list) and reply and reply[0] in PUSHED:
                    self.pushed(reply)
                elif self.waiting:
                    self.waiting.popleft()(reply)
        except self.garbled as exc:
            self._fail(exc)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("Redis closed the connection"))

    def abort(self, exc: BaseException) -> None:
        """Drop the connection now, for ``exc``."""
        self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        if self.transport is not None:
            self.transport.abort()
        if not self.lost.done():
            self.lost.set_result(exc)

    @property
    def open(self) -> bool:
        return not self.lost.done()

    def send(self, reply: Reply, *parts: str | bytes) -> None:
        """Write one command; ``reply`` is called with its reply."""
        assert self.transport is not None
        self.waiting.append(reply)
        self.transport.write(self.pack(parts))  # type: ignore[arg-type]

    async def call(self, *parts: str | bytes) -> Any:
        """Write one command and wait for its reply (``RedisError`` if Redis refused it,
        ``ConnectionError`` if the connection went first)."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def reply(value: Any) -> None:
            if not answer.done():
                answer.set_result(value)

        self.send(reply, *parts)
        done, _ = await asyncio.wait((answer, self.lost), return_when=asyncio.FIRST_COMPLETED)
        if answer not in done:
            answer.cancel()
            raise ConnectionError(f"Redis went away: {self.lost.result()}")
        value = answer.result()
        if isinstance(value, RedisError):
            raise value
        return value

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


PUSHED = (b"pmessage", b"message")
"""The first element of a message Redis pushes to a subscriber."""


def check_url(url: str) -> None:
    """``ValueError``, naming the forms taken, unless ``url`` is one ``connect`` can use:
    ``redis://[[user]:password@]host[:port][/db]``, ``rediss://`` (TLS) or ``unix:///path``."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (read for its check: a port that is not a number raises)
    except ValueError as exc:
        raise ValueError(f"not a Redis URL: {url!r} ({exc})") from None
    if parts.scheme not in ("redis", "rediss", "unix") or (
        parts.scheme == "unix" and not parts.path
    ):
        raise ValueError(
            f"not a Redis URL: {url!r} (redis://[[user]:password@]host[:port][/db], rediss://… "
            "for TLS, or unix:///path/to/socket)"
        )


async def connect(url: str, pushed: Callable[[list[Any]], None], timeout: float) -> Connection:
    """A connection to the Redis at ``url`` (as ``check_url`` takes it), authenticated if the
    URL holds a password; within ``timeout`` seconds (``TimeoutError``), else ``OSError`` or
    ``RedisError``."""
    check_url(url)
    parts = urlsplit(url)
    loop = asyncio.get_running_loop()

    def made() -> Connection:
        return Connection(pushed)

    async def opened() -> Connection:
        if parts.scheme == "unix":
            _, protocol = await loop.create_unix_connection(made, unquote(parts.path))
        else:
            secure = ssl.create_default_context() if parts.scheme == "rediss" else None
            host = parts.hostname or "localhost"
            _, protocol = await loop.create_connection(made, host, parts.port or 6379, ssl=secure)
        if parts.password is not None:
            who = [unquote(parts.username)] if parts.username else []
            await protocol.call("AUTH", *who, unquote(parts.password))
        return protocol

    return await asyncio.wait_for(opened(), timeout)
