"""What a block does to the table chat (``chat/blocks.py``): a blocked player cannot write in either
channel of a game the blocker sits at, and neither of the two reads the other's messages, over
HTTP, in a socket's backlog, or as they are written, in anybody's game; a block made or ended
while a socket is open applies to it at once, on its process and on the others."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from test_web_chat import cookie, drain, hello, texts
from test_web_relay import Sent, hub_on

from boardplay.web.chat import blocks
from boardplay.web.chat import store as chat_store
from boardplay.web.events import BlockChanged, encode
from boardplay.web.sockets import Subscriber

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


def test_a_hello_takes_the_readers_blocks_as_read_lately_unless_a_block_changed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot says hello on every game's stream: its blocks are read once per ``REFRESH``, and
    a block made or ended since is read anew at the next hello."""
    ana, ben, cy, dee = (sign_up(client, n) for n in ("Ana", "Ben", "Cyd", "Dee"))
    gid, *_ = game(cy, dee)
    assert write(ben, gid, "from Ben").status_code == 201
    relations = client.app.state.hub.chat.blocks.relations  # type: ignore[attr-defined]
    reads: list[list[int]] = []
    asked = relations.hidden

    async def counted(readers: list[int]) -> Any:
        reads.append(list(readers))
        return await asked(readers)

    monkeypatch.setattr(relations, "hidden", counted)
    path = f"/api/games/{gid}/ws"

    def hello_texts() -> list[str]:
        with client.websocket_connect(path, headers=cookie(ana)) as socket:
            return texts(hello(socket, None))

    assert hello_texts() == ["from Ben"]
    assert hello_texts() == ["from Ben"]
    assert len(reads) == 1, "the second hello took what the first read"
    block(ana, ben)
    assert hello_texts() == []
    block(ana, ben, "DELETE")
    assert hello_texts() == ["from Ben"]


def test_a_block_made_on_one_process_reaches_the_sockets_of_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hubs on one database stand for two processes. Without Redis, the second's periodic
    check reads its sockets' blocks anew; with Redis, ``BlockChanged`` heard from the first
    (``Bus.remote``, as the broker hands it over) changes them at once."""
    monkeypatch.setattr(blocks, "REFRESH", 0.0)  # every check reads them

    async def scenario() -> tuple[int, list[frozenset[int]]]:
        url = f"sqlite:///{tmp_path / 'blocks.sqlite3'}"
        a, b = hub_on(url), hub_on(url)
        try:
            ana = await a.accounts.create("Ana", None)
            ben = await a.accounts.create("Ben", None)
            room, _, _ = await a.maker.create("tiny", {}, [{"kind": "me"}, {"kind": "hotseat"}])
            far = await b.room(room.row.id)
            seen = Sent()
            sub = Subscriber(seen.send, seen.close)
            sub.account = ana
            far.subscribers.add(sub)
            await b.chat.hello(far, sub)
            hidden = [b.chat.blocks.of_socket(sub)]
            await a.relations.block(ana, "Ben")  # on A: B has no Redis to hear it by
            hidden.append(b.chat.blocks.of_socket(sub))
            await b.chat.catch_up()
            hidden.append(b.chat.blocks.of_socket(sub))
            await a.relations.unblock(ana, "Ben")
            b.bus.remote(encode(BlockChanged(ana.id, ben.id, False)))  # what Redis brings
            for _ in range(200):
                if not b.chat.blocks.of_socket(sub):
                    break
                await asyncio.sleep(0.01)
            hidden.append(b.chat.blocks.of_socket(sub))
            return ben.id, hidden
        finally:
            for hub in (a, b):
                await hub.close()
                hub.storage.close()

    ben, hidden = asyncio.run(scenario())
    assert hidden == [frozenset(), frozenset(), frozenset({ben}), frozenset()]
