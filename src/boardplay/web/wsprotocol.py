"""The WebSocket protocol the server runs under uvicorn: uvicorn's own (websockets' sans-I/O
implementation), except for text frames that are not UTF-8, small messages and keep-alive pings.

uvicorn answers such a frame with close code 1007 (right), but logs a full traceback for every
one, so one visitor can flood the log, and it drops the connection at once, with the visitor's
later frames still unread: the kernel then resets the connection and the close frame is often
lost on its way. Here such a frame is one log line (at most one a minute per process, with the
number seen since), and the close is a proper closing handshake: close 1007 sent, the visitor's
remaining frames read and dropped until its close answer (or ``close_timeout``).

**Small messages go uncompressed.** With permessage-deflate (which browsers ask for) uvicorn
compresses every message. A move's update is about 1-2 kB: compressing it saves about a kilobyte
and cost 0.2-0.4 ms of CPU per move in ``make bench-web`` (the socket's compressor state is cold
by the time of each move). RFC 7692 lets a sender leave any message uncompressed (its RSV1 bit
unset; the compression context just does not see it), so messages under ``SMALL_MESSAGE`` bytes
are sent as they are, and larger ones (a game's whole state, a replay) are still compressed.

**Writes of one turn go out together.** Everything the protocol writes to a socket within one
turn of the event loop is handed to the connection in one write, at the end of that turn
(``Coalesced``): a move's update and the answer to the move's own request (``done``), sent one
after the other, used to be two writes, each a trip through the kernel's TCP path on behalf of
both ends. ``make bench-web``'s floor put the second write at about 0.1 ms of CPU per move on
one process here. The order of everything written is kept, and a close lets the waiting bytes go
out first.

**Keep-alive pings in bursts.** uvicorn pings each socket ``ws_ping_interval`` seconds after its
last pong, so a process's sockets are pinged one at a time, around the clock: 200 sockets at the
default 20 s woke an idle process ten times a second. Here a ping waits for the next instant on
a grid of ``PING_SLOTS`` per interval, so the sockets are pinged in a few bursts per interval
(each ping still within one slot of when uvicorn would have sent it)."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode

log = logging.getLogger("boardplay.web")

INVALID_UTF8 = 1007
LOG_EVERY = 60.0
"""Seconds between two log lines about frames that are not UTF-8."""
_last_logged = -LOG_EVERY
_unlogged = 0
SMALL_MESSAGE = 2048
"""Bytes under which a message (in one frame) is sent uncompressed."""
PING_SLOTS = 4
"""Instants per ping interval at which a process sends its keep-alive pings."""


def next_ping_at(now: float, interval: float, rtt: float) -> float:
    """When to ping next: the first slot (a multiple of ``interval / PING_SLOTS`` on the loop's
    clock) not before uvicorn's own choice, ``interval`` less the last round trip from ``now``."""
    slot = interval / PING_SLOTS
    return math.ceil((now + max(0.0, interval - rtt)) / slot) * slot


class SmallUncompressed(PerMessageDeflate):
    """permessage-deflate that leaves messages under ``SMALL_MESSAGE`` bytes uncompressed."""

    def encode(self, frame: Frame) -> Frame:
        data = frame.opcode in (Opcode.TEXT, Opcode.BINARY)
        if data and frame.fin and len(frame.data) < SMALL_MESSAGE:
            return frame
        return super().encode(frame)


class SmallUncompressedFactory(ServerPerMessageDeflateFactory):
    """uvicorn's permessage-deflate offer, negotiated as it is, giving ``SmallUncompressed``."""

    def process_request_params(
        self, params: Any, accepted: Any
    ) -> tuple[list[tuple[str, str | None]], PerMessageDeflate]:
        answer, agreed = super().process_request_params(params, accepted)
        return answer, SmallUncompressed(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )


class Coalesced:
    """A socket's transport whose writes within one turn of the event loop go out as one, at
    the end of the turn, in the order they were made; closing writes what waits first, aborting
    drops it. Everything else is the transport's own."""

    __slots__ = ("_loop", "_pending", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        if pending and not self._transport.is_closing():
            self._transport.write(b"".join(pending))

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending = []
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class QuietWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with a quiet, complete close on invalid UTF-8, small
    messages uncompressed, the writes of one turn in one, and keep-alive pings on a grid."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        factories = self.conn.available_extensions or []
        self.conn.available_extensions = [
            SmallUncompressedFactory(
                factory.server_no_context_takeover,
                factory.client_no_context_takeover,
                factory.server_max_window_bits,
                factory.client_max_window_bits,
                factory.compress_settings,
                factory.require_client_max_window_bits,
            )
            if isinstance(factory, ServerPerMessageDeflateFactory)
            else factory
            for factory in factories
        ]

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.transport = Coalesced(self.transport, self.loop)  # type: ignore[assignment]

    def schedule_ping(self) -> None:
        assert self.ping_interval is not None
        when = next_ping_at(self.loop.time(), self.ping_interval, self.last_ping_rtt)
        self.ping_timer = self.loop.call_at(when, self.send_keepalive_ping)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                _note_invalid_text()
                self.conn.send_close(INVALID_UTF8, "text frames must be UTF-8")
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.close_sent = True
                self.queue.put_nowait({"type": "websocket.disconnect", "code": INVALID_UTF8})
                if self.read_paused:  # read on, so the visitor's close answer arrives
                    self.read_paused = False
                    self.transport.resume_reading()
                self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)
                return
        super().send_receive_event_to_app()


def _note_invalid_text() -> None:
    global _last_logged, _unlogged
    _unlogged += 1
    now = time.monotonic()
    if now - _last_logged >= LOG_EVERY:
        log.warning(
            "closed %d WebSocket(s) with 1007: a text frame was not UTF-8 (logged once a minute)",
            _unlogged,
        )
        _last_logged, _unlogged = now, 0
