"""Presence: a game's sockets are told which seats have their page open and how many people
watch, when it changes, and a socket is told it once it has said who it is."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from webcalls import create


def next_presence(ws: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "presence":
            return dict(message)


def sees(ws: Any, seats: list[int], spectators: int) -> None:
    """The socket is told this presence (after at most a few steps on the way: a newcomer is a
    spectator until its hello)."""
    wanted = {"type": "presence", "seats": seats, "spectators": spectators}
    seen = [next_presence(ws) for _ in range(1)]
    while seen[-1] != wanted:
        assert len(seen) < 4, seen
        seen.append(next_presence(ws))


def hello(ws: Any, token: str | None) -> None:
    """Say who the socket is, and read up to the state answering it (what came before, the
    spectator's view and presence, is what every socket starts with)."""
    ws.send_json({"type": "hello", "token": token, "id": 1, "presence": True})
    while not (lambda m: m["type"] == "state" and m.get("id") == 1)(ws.receive_json()):
        pass


def test_seats_and_spectators_come_and_go(client: TestClient) -> None:
    game = create(client, seats=[{"kind": "me"}, {"kind": "open"}])
    path = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(path) as player:
        hello(player, game["token"])
        sees(player, [0], 0)
        with client.websocket_connect(path) as watcher:
            hello(watcher, None)
            sees(player, [0], 1)
            sees(watcher, [0], 1)
            joined = client.post(f"/api/games/{game['id']}/join", json={"seat": 1}).json()
            with client.websocket_connect(path) as second:
                hello(second, joined["token"])
                sees(second, [0, 1], 1)
                sees(player, [0, 1], 1)
            sees(player, [0], 1)
        sees(player, [0], 0)


def test_a_hot_seat_page_holds_every_seat_it_plays(client: TestClient) -> None:
    game = create(client)  # two seats, one token
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        hello(ws, game["token"])
        sees(ws, [0, 1], 0)


def test_a_socket_that_did_not_ask_is_never_sent_presence(client: TestClient) -> None:
    """A client written before presence existed sees the messages it always did."""
    game = create(client)
    with (
        client.websocket_connect(f"/api/games/{game['id']}/ws") as old,
        client.websocket_connect(f"/api/games/{game['id']}/ws") as new,
    ):
        assert old.receive_json()["type"] == "state"
        old.send_json({"type": "hello", "token": game["token"], "id": 1})
        assert old.receive_json()["id"] == 1
        hello(new, None)
        sees(new, [0, 1], 1)
        old.send_json({"type": "ping", "id": "after"})
        assert old.receive_json() == {"type": "pong", "id": "after"}
