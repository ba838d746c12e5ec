"""The WebSocket protocol the server runs under uvicorn: uvicorn's own (websockets' sans-I/O
implementation), except for text frames that are not UTF-8.

uvicorn answers such a frame with close code 1007 (right), but logs a full traceback for every
one, so one visitor can flood the log, and it drops the connection at once, with the visitor's
later frames still unread: the kernel then resets the connection and the close frame is often
lost on its way. Here such a frame is one log line (at most one a minute per process, with the
number seen since), and the close is a proper closing handshake: close 1007 sent, the visitor's
remaining frames read and dropped until its close answer (or ``close_timeout``)."""

from __future__ import annotations

import logging
import time

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("boardplay.web")

INVALID_UTF8 = 1007
LOG_EVERY = 60.0
"""Seconds between two log lines about frames that are not UTF-8."""
_last_logged = -LOG_EVERY
_unlogged = 0


class QuietWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with a quiet, complete close on invalid UTF-8."""

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
