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

**Keep-alive pings in bursts.** uvicorn pings each socket ``ws_ping_interval`` seconds after its
last pong, so a process's sockets are pinged one at a time, around the clock: 200 sockets at the
default 20 s woke an idle process ten times a second. Here a ping waits for the next instant on
a grid of ``PING_SLOTS`` per interval, so the sockets are pinged in a few bursts per interval
(each ping still within one slot of when uvicorn would have sent it)."""

from __future__ import annotations

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


class QuietWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with a quiet, complete close on invalid UTF-8, small
    messages uncompressed and keep-alive pings on a grid."""

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
