"""What a block does to the table chat (``chat/blocks.py``): a blocked player cannot write in either
channel of a game the blocker sits at, and neither of the two reads the other's messages, over
HTTP, in a socket's backlog, or as they are written, in anybody's game; a block made or ended
while a socket is open applies to it at once."""

from __future__ import annotations

from typing import Any

import pytest
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from test_web_chat import cookie, drain, hello, texts

from boardplay.web.chat import store as chat_store

SEATS = [{"kind": "me"}, {"kind": "open"}]


def game(first: Player, second: Player) -> tuple[str, str, str]:
    """A game between two signed-in players: its id and each one's token."""
    made = first.post("/api/games", {"game": "tiny", "seats": SEATS})
    assert made.status_code == 201, made.text
    joined = second.post(f"/api/games/{made.json()['id']}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    return made.json()["id"], made.json()["token"], joined.json()["token"]


def write(player: Player, gid: str, text: str, channel: str = "spectators", **extra: Any) -> Any:
    return player.post(f"/api/games/{gid}/chat", {"channel": channel, "text": text, **extra})


def read(player: Player, gid: str, channel: str = "spectators", token: str = "") -> list[str]:
    path = f"/api/games/{gid}/chat?channel={channel}"
    headers = player.headers() | ({"Authorization": f"Bearer {token}"} if token else {})
    answer = player.client.get(path, headers=headers)
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


def block(player: Player, other: Player, method: str = "POST") -> None:
    answer = player.client.request(
        method, f"/api/relations/block/{other.name}", headers=player.headers()
    )
    assert answer.status_code == 200, answer.text


def test_a_blocked_player_cannot_write_in_the_blockers_game(client: TestClient) -> None:
    ana, ben, cy, dee = (sign_up(client, n) for n in ("Ana", "Ben", "Cyd", "Dee"))
    gid, *_ = game(ana, cy)
    block(ana, ben)
    answer = write(ben, gid, "hello Ana")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "blocked"
    assert read(dee, gid) == []  # nothing was stored
    block(ana, ben, "DELETE")
    assert write(ben, gid, "hello again").status_code == 201


def test_nor_in_the_players_channel_of_a_game_they_share(client: TestClient) -> None:
    ana, ben = sign_up(client, "Ana"), sign_up(client, "Ben")
    gid, ana_token, ben_token = game(ana, ben)  # sat down before the block
    block(ana, ben)
    refused = write(ben, gid, "gg", "players", token=ben_token)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "blocked"
    assert write(ana, gid, "bye", "players", token=ana_token).status_code == 201
    assert read(ana, gid, "players", ana_token) == ["bye"]
    assert read(ben, gid, "players", ben_token) == []  # the blocked does not read the blocker


def test_neither_reads_the_other_in_a_third_game(client: TestClient) -> None:
    ana, ben, cy, dee, eve = (sign_up(client, n) for n in ("Ana", "Ben", "Cyd", "Dee", "Eve"))
    gid, *_ = game(cy, dee)
    for player in (ana, ben, eve):
        assert write(player, gid, f"from {player.name}").status_code == 201
    block(ana, ben)
    assert read(ana, gid) == ["from Ana", "from Eve"]
    assert read(ben, gid) == ["from Ben", "from Eve"]
    assert read(eve, gid) == ["from Ana", "from Ben", "from Eve"]
    block(ana, ben, "DELETE")
    assert read(ana, gid) == ["from Ana", "from Ben", "from Eve"]


def test_a_socket_is_not_shown_a_blocked_players_messages(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chat_store, "GAP", 0.0)  # Ben writes several times within a second
    ana, ben, cy, dee, eve = (sign_up(client, n) for n in ("Ana", "Ben", "Cyd", "Dee", "Eve"))
    gid, *_ = game(cy, dee)
    assert write(ben, gid, "before").status_code == 201
    block(ana, ben)
    path = f"/api/games/{gid}/ws"
    with (
        client.websocket_connect(path, headers=cookie(ana)) as mine,
        client.websocket_connect(path, headers=cookie(eve)) as theirs,
    ):
        assert texts(hello(mine, None)) == []  # the backlog leaves Ben's message out
        assert texts(hello(theirs, None)) == ["before"]
        assert write(ben, gid, "while blocked").status_code == 201
        assert write(eve, gid, "from Eve").status_code == 201
        assert texts(drain(mine)) == ["from Eve"]
        assert texts(drain(theirs)) == ["while blocked", "from Eve"]
        block(ana, ben, "DELETE")  # heard by the open socket at once
        assert write(ben, gid, "unblocked").status_code == 201
        assert texts(drain(mine)) == ["unblocked"]
        block(ben, ana)  # the other way, made while the socket is open
        assert write(ben, gid, "blocked again").status_code == 201
        assert texts(drain(mine)) == []
        assert texts(drain(theirs)) == ["unblocked", "blocked again"]
