"""A WebSocket client that never reads, against a real uvicorn server: once the operating
system's buffers and the socket's bounded queue are full, the server closes that socket (1013,
try again later) instead of holding an ever longer backlog for it, and other games stay live
meanwhile. The test client's receive buffer is made small so that the buffers fill quickly."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import devservices as ds
import httpcalls
import pytest
from liveview import merge
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.sync.client import ClientConnection, connect
from websockets.uri import parse_uri

HERE = Path(__file__).parents[1]
QUEUE = 8
"""The server's per-socket send queue in this test (BOARDPLAY_WEB_WS_SEND_QUEUE)."""
HELLOS = 3000
"""Hellos the stuck client sends at most: each is answered with the whole view (about 1.5 kB),
several megabytes in all, far more than the buffers between the two hold."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("slowreader") / "web.sqlite3"
    port = ds.free_port()
    env = {
        "BOARDPLAY_DATABASE_URL": f"sqlite:///{db}",
        "BOARDPLAY_WEB_CATALOGUE": "webtiny:CATALOGUE",
        "BOARDPLAY_WEB_AI_WORKERS": "0",
        "BOARDPLAY_WEB_RATE_PER_SECOND": "100000",
        "BOARDPLAY_WEB_RATE_BURST": "100000",
        "BOARDPLAY_WEB_WS_SEND_QUEUE": str(QUEUE),
        "PYTHONPATH": str(HERE),
    }
    process = ds.start_server(port, env)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        ds.stop_server(process)


def create(address: str) -> tuple[str, str]:
    answer = httpcalls.post(
        f"http://{address}/api/games",
        json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], created["token"]


class NonReader:
    """A WebSocket client that sends but does not read: the handshake and frames come from the
    ``websockets`` protocol (sans I/O) over a plain socket whose receive buffer holds only a few
    kilobytes, so nothing reads what the server sends until ``drain``. No compression, so the
    server's messages fill the buffers as they are."""

    def __init__(self, address: str, game_id: str) -> None:
        host, port = address.split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(5)
        self.sock.connect((host, int(port)))
        self.protocol = ClientProtocol(parse_uri(f"ws://{address}/api/games/{game_id}/ws"))
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        while self.protocol.state is State.CONNECTING:
            self.protocol.receive_data(self.sock.recv(4096))
        assert self.protocol.state is State.OPEN, self.protocol.handshake_exc
        self.events: list[Any] = list(self.protocol.events_received())

    def _flush(self) -> None:
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def send(self, text: str) -> bool:
        """Send one text message; False once the server no longer takes any."""
        try:
            self.protocol.send_text(text.encode())
            self._flush()
        except (OSError, InvalidState):
            return False
        return True

    def drain(self) -> tuple[int, int | None]:
        """Read everything the server sent, to the end; (text messages, close code)."""
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if data:
                self.protocol.receive_data(data)
            else:
                self.protocol.receive_eof()
            self.events.extend(self.protocol.events_received())
            if not data or self.protocol.close_rcvd is not None:
                break
        texts = sum(1 for e in self.events if isinstance(e, Frame) and e.opcode is Opcode.TEXT)
        close = self.protocol.close_rcvd
        return texts, close.code if close is not None else None

    def close(self) -> None:
        self.sock.close()


def test_a_socket_that_never_reads_is_closed_while_other_games_stay_live(server: str) -> None:
    stuck_game, stuck_token = create(server)
    live_game, live_token = create(server)
    stuck = NonReader(server, stuck_game)
    try:
        with connect(f"ws://{server}/api/games/{live_game}/ws", open_timeout=10) as live:
            view = merge(None, json.loads(live.recv(timeout=10)))
            # Each hello asks for the whole view again; the stuck client takes none of them in.
            hello = json.dumps({"type": "hello", "token": stuck_token})
            sent = 0
            while sent < HELLOS and stuck.send(hello):
                sent += 1
                if sent % 200 == 0:
                    # Meanwhile the other game goes on at once: a move, its update on its socket.
                    ply = move(server, live_game, live_token)
                    view = until_ply(live, view, ply)
            # Reading at last, the stuck client finds far fewer answers than it asked for, then
            # the close: the server dropped what it could not send instead of keeping it all.
            received, code = stuck.drain()
            assert code == 1013, (code, received, sent)
            assert received < sent / 2, (received, sent)
            # The other game is still live after the drop.
            ply = move(server, live_game, live_token)
            assert until_ply(live, view, ply)["ply"] == ply
    finally:
        stuck.close()


def move(address: str, game_id: str, token: str) -> int:
    """One legal move of the live game; the ply it reached (the same once the game is over)."""
    view = httpcalls.get(f"http://{address}/api/games/{game_id}", timeout=10).json()
    if view["terminal"]:
        return int(view["ply"])
    answer = httpcalls.post(
        f"http://{address}/api/games/{game_id}/actions",
        json={"action": view["legal"][0]["id"], "ply": view["ply"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    return int(answer.json()["game"]["ply"])


def until_ply(socket: ClientConnection, view: dict[str, Any], ply: int) -> dict[str, Any]:
    """Read ``socket`` (whose view so far is ``view``) until its view reaches ``ply``, within
    10 s."""
    deadline = time.monotonic() + 10
    while view["ply"] < ply:
        message = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] in ("state", "update"):
            view = merge(view, message)
    return view
