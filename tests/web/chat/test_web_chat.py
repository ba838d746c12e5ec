"""The table chat (``chat.py``): the players' channel and the spectators' kept apart, over HTTP
and the game's socket; who may write (seats; signed-in spectators); the ceilings (length, rate,
count) and plain text; reports stored for the operator; the chat kept out of the public view,
record and replay; and a message written on one process reaching the sockets of another."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcalls
import pytest
import sqlalchemy as sa
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from test_web_relay import Sent, hub_on
from webcalls import auth, create, refused
from websettings import tiny_settings

from boardplay.web.accounts.service import COOKIE
from boardplay.web.app import create_app
from boardplay.web.chat.rights import clean
from boardplay.web.chat.store import (
    Author,
    ChatMessage,
    ChatRefused,
    ChatStore,
    backlog,
    chat_reports_table,
)
from boardplay.web.config import Settings
from boardplay.web.database import StorageThreads
from boardplay.web.errors import ApiError
from boardplay.web.sockets import Subscriber

SPECTATOR = ("spectators", Author(None, None, "Mika"))
ROOMY = {"per_minute": 100, "per_game": 100, "per_author": 100}
"""Ceilings no test of the store's reads reaches."""


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[TestClient]:
    """A client whose server checks its watched games five times a second."""
    with TestClient(create_app(tiny_settings(tmp_path, sync_interval=0.2))) as test_client:
        yield test_client


def table(client: TestClient) -> tuple[str, str, str]:
    """A two-player game between two browsers: its id and each player's token."""
    game = create(client, seats=[{"kind": "me"}, {"kind": "open"}])
    joined = client.post(f"/api/games/{game['id']}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.text
    return game["id"], game["token"], joined.json()["token"]


def say(client: TestClient, gid: str, channel: str, text: str, **headers: str) -> Any:
    return client.post(
        f"/api/games/{gid}/chat", json={"channel": channel, "text": text}, headers=headers
    )


def said(client: TestClient, gid: str, channel: str, text: str, **headers: str) -> dict[str, Any]:
    answer = say(client, gid, channel, text, **headers)
    assert answer.status_code == 201, answer.text
    message: dict[str, Any] = answer.json()["message"]
    return message


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def hello(ws: Any, token: str | None, chat: bool = True) -> list[dict[str, Any]]:
    """Say who the socket is (asking for the chat), and return what followed the state that
    answered it, up to a pong: the chat's backlog."""
    ws.send_json({"type": "hello", "token": token, "id": "hi", "chat": chat})
    while not (lambda m: m["type"] == "state" and m.get("id") == "hi")(ws.receive_json()):
        pass
    return drain(ws)


def drain(ws: Any) -> list[dict[str, Any]]:
    """Every message the socket has been sent so far (a ping's pong comes after them)."""
    ws.send_json({"type": "ping", "id": "probe"})
    seen = []
    while (message := ws.receive_json()) != {"type": "pong", "id": "probe"}:
        seen.append(message)
    return seen


def texts(messages: list[dict[str, Any]], channel: str | None = None) -> list[str]:
    return [
        m["text"]
        for message in messages
        if message["type"] == "chat" and channel in (None, message["channel"])
        for m in message["messages"]
    ]


def cookie(player: Player) -> dict[str, str]:
    return {"Cookie": f"{COOKIE}={player.cookie}"}


def play_out(client: TestClient, gid: str, tokens: dict[int, str]) -> None:
    view = client.get(f"/api/games/{gid}").json()
    while view["status"] == "active":
        answer = client.post(
            f"/api/games/{gid}/actions",
            json={"action": "t1", "ply": view["ply"]},
            headers=auth(tokens[view["current_player"]]),
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]


# ----- the two channels ---------------------------------------------------------------------
def test_a_players_message_reaches_the_other_player_and_no_spectator(client: TestClient) -> None:
    gid, first, second = table(client)
    watcher = sign_up(client, "Watcher")
    path = f"/api/games/{gid}/ws"
    with (
        client.websocket_connect(path) as a,
        client.websocket_connect(path) as b,
        client.websocket_connect(path, headers=cookie(watcher)) as spectator,
    ):
        for ws, token in ((a, first), (b, second), (spectator, None)):
            assert texts(hello(ws, token)) == []
        sent = said(client, gid, "players", "good luck!", **bearer(first))
        assert sent["name"] == "North" and sent["seat"] == 0 and sent["author"] == "seat:0"
        got = drain(b)
        assert got == [{"type": "chat", "channel": "players", "messages": [sent]}]
        assert texts(drain(a)) == ["good luck!"]
        assert texts(drain(spectator)) == []
        # And a spectator's message reaches the spectators only.
        seen = said(client, gid, "spectators", "nice opening", **watcher.headers())
        assert seen["name"] == "Watcher" and seen["seat"] is None and seen["author"] == "@Watcher"
        assert texts(drain(spectator), "spectators") == ["nice opening"]
        assert texts(drain(a)) == texts(drain(b)) == []
    # Over HTTP: each reads its own channel, and no other.
    players = client.get(f"/api/games/{gid}/chat", headers=bearer(second)).json()
    assert players["channel"] == "players" and texts(
        [{"type": "chat", "channel": "players", **players}]
    ) == ["good luck!"]
    assert players["can_write"] and players["length"] == 300
    assert "players" in refused(
        client.get(f"/api/games/{gid}/chat?channel=players", headers=watcher.headers()), 403
    )
    assert "until the game is over" in refused(
        client.get(f"/api/games/{gid}/chat?channel=spectators", headers=bearer(first)), 403
    )
    guest = client.get(f"/api/games/{gid}/chat").json()
    assert guest["channel"] == "spectators" and not guest["can_write"]
    assert [m["text"] for m in guest["messages"]] == ["nice opening"]


def test_who_may_write_where(client: TestClient) -> None:
    gid, first, _ = table(client)
    watcher = sign_up(client, "Watcher")
    assert refused(say(client, gid, "spectators", "hi"), 401)  # a guest reads, never writes
    assert refused(say(client, gid, "players", "hi"), 403)
    assert refused(say(client, gid, "players", "hi", **watcher.headers()), 403)
    assert refused(say(client, gid, "spectators", "psst", **bearer(first)), 403)
    # The session's CSRF token is needed as for every change made with the cookie.
    no_csrf = watcher.post(
        f"/api/games/{gid}/chat", {"channel": "spectators", "text": "x"}, csrf=False
    )
    assert refused(no_csrf, 403)
    # A signed-in player who opens the game without their token is still a player.
    seated = sign_up(client, "Seated")
    own = seated.post("/api/games", {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert own.status_code == 201, own.text
    own_id = own.json()["id"]
    assert "until the game is over" in refused(seated.get(f"/api/games/{own_id}/chat"), 403)
    assert refused(say(client, own_id, "spectators", "x", **seated.headers()), 403)
    assert refused(client.get("/api/games/nosuchgame/chat"), 404)


def test_players_read_the_spectators_chat_once_the_game_is_over(quick: TestClient) -> None:
    gid, first, second = table(quick)
    watcher = sign_up(quick, "Watcher")
    said(quick, gid, "spectators", "they will never see this", **watcher.headers())
    with quick.websocket_connect(f"/api/games/{gid}/ws") as a:
        assert texts(hello(a, first)) == []
        play_out(quick, gid, {0: first, 1: second})
        # The next check (every 0.2 s here) gives the socket the channel it may now read.
        deadline = time.monotonic() + 10
        seen: list[str] = []
        while not seen:
            assert time.monotonic() < deadline, "the spectators' backlog never came"
            seen = texts(drain(a), "spectators")
            time.sleep(0.05)
        assert seen == ["they will never see this"]
        time.sleep(1.05)  # one message a second
        said(quick, gid, "spectators", "well played", **watcher.headers())
        assert texts(drain(a), "spectators") == ["well played"]
    answer = quick.get(f"/api/games/{gid}/chat?channel=spectators", headers=bearer(second))
    assert answer.status_code == 200, answer.text
    assert [m["text"] for m in answer.json()["messages"]] == [
        "they will never see this",
        "well played",
    ]
    assert sorted(answer.json()["channels"]) == ["players", "spectators"]
    # Players may say "good game" after the end, too.
    said(quick, gid, "players", "gg", **bearer(second))


def test_the_backlog_on_hello_holds_only_readable_channels(client: TestClient) -> None:
    gid, first, second = table(client)
    watcher = sign_up(client, "Watcher")
    said(client, gid, "players", "one", **bearer(first))
    said(client, gid, "spectators", "two", **watcher.headers())
    path = f"/api/games/{gid}/ws"
    with client.websocket_connect(path) as b, client.websocket_connect(path) as spectator:
        backlog = hello(b, second)
        assert [(m["channel"], m["backlog"]) for m in backlog] == [("players", True)]
        assert texts(backlog) == ["one"]
        assert texts(hello(spectator, None)) == ["two"]


def test_a_check_during_the_backlogs_read_sends_no_line_twice(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket is in the chat from its hello on, so a check that runs while its backlog is
    read sends it what was written lately; the backlog then leaves those lines out (a full run
    once saw a spectator sent the same line twice)."""
    gid, *_ = table(client)
    said(client, gid, "spectators", "lately", **sign_up(client, "Watcher").headers())
    relay = client.app.state.hub.chat  # type: ignore[attr-defined]
    backlog = relay._backlog

    async def backlog_after_a_check(*args: Any) -> None:
        await relay.catch_up()  # the check, between the hello and the backlog
        await backlog(*args)

    monkeypatch.setattr(relay, "_backlog", backlog_after_a_check)
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        assert texts(hello(spectator, None)) == ["lately"]


def test_a_socket_that_did_not_ask_is_never_sent_chat(client: TestClient) -> None:
    gid, first, second = table(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as old:
        hello(old, second, chat=False)
        said(client, gid, "players", "hello?", **bearer(first))
        assert [m for m in drain(old) if m["type"] == "chat"] == []


# ----- over the socket ------------------------------------------------------------------------
def test_chat_written_over_the_socket(client: TestClient) -> None:
    gid, first, second = table(client)
    watcher = sign_up(client, "Watcher")
    path = f"/api/games/{gid}/ws"
    with (
        client.websocket_connect(path) as a,
        client.websocket_connect(path) as b,
        client.websocket_connect(path, headers=cookie(watcher)) as spectator,
        client.websocket_connect(path) as guest,
    ):
        for ws, token in ((a, first), (b, second), (spectator, None), (guest, None)):
            hello(ws, token)
        a.send_json({"type": "chat", "channel": "players", "text": "hi B", "id": 7})
        answer = drain(a)
        done = [m for m in answer if m["type"] == "done"]
        assert done and done[0]["id"] == 7 and isinstance(done[0]["chat"], int)
        assert texts(drain(b)) == ["hi B"] and texts(drain(spectator)) == []
        spectator.send_json({"type": "chat", "channel": "spectators", "text": "hi all", "id": 8})
        assert [m["type"] for m in drain(spectator)] == ["chat", "done"]
        assert texts(drain(guest)) == ["hi all"] and texts(drain(a)) == texts(drain(b)) == []
        guest.send_json({"type": "chat", "channel": "spectators", "text": "me too", "id": 9})
        error = drain(guest)[0]
        assert error["type"] == "error" and error["status"] == 401 and error["id"] == 9
        spectator.send_json({"type": "chat", "channel": "players", "text": "psst", "id": 10})
        assert drain(spectator)[0]["status"] == 403
        a.send_json({"type": "chat", "channel": "players", "text": "x" * 301, "id": 11})
        assert drain(a)[0]["error"]["code"] == "chat_too_long"
        a.send_json({"type": "chat", "channel": "lobby", "text": "x", "id": 12})
        assert drain(a)[0]["status"] == 400
    # Another site's page opens a socket with the player's cookie: it is a guest's.
    with client.websocket_connect(
        path, headers={**cookie(watcher), "Origin": "https://evil.example"}
    ) as forged:
        hello(forged, None)
        forged.send_json({"type": "chat", "channel": "spectators", "text": "spoof", "id": 1})
        assert drain(forged)[0]["status"] == 401


# ----- text and ceilings --------------------------------------------------------------------
def test_text_is_tidied_plain_and_bounded(client: TestClient) -> None:
    gid, first, second = table(client)
    message = said(
        client,
        gid,
        "players",
        "  <b>bold</b>\n\n<script>x()</script>\t ok \u202e  ",
        **bearer(first),
    )
    assert message["text"] == "<b>bold</b> <script>x()</script> ok"
    assert said(client, gid, "players", "é" * 300, **bearer(second))["text"] == "é" * 300
    time.sleep(1.05)
    too_long = say(client, gid, "players", "a" * 301, **bearer(second))
    assert "at most 300 characters" in refused(too_long, 400)
    assert too_long.json()["error"]["code"] == "chat_too_long"
    for empty in ("", "   ", "\n\t\x00\u2028"):
        answer = say(client, gid, "players", empty, **bearer(second))
        assert answer.json()["error"]["code"] == "chat_empty", answer.text
    assert refused(say(client, gid, "players", "a" * 5000, **bearer(second)), 400)
    assert refused(say(client, gid, "players", 5, **bearer(second)), 400)  # type: ignore[arg-type]
    assert clean(" a\r\nb ", 10) == "a b"
    for invisible in ("\x1b\x07", "\u200b\ufeff \u2060"):
        with pytest.raises(ApiError):
            clean(invisible, 10)
    assert clean("a\u200bb \u202ec", 10) == "ab c"


def test_the_rate_ceilings_per_sender(tmp_path: Path) -> None:
    limits = {"chat_per_minute": 2}
    with TestClient(create_app(tiny_settings(tmp_path, limits))) as client:
        gid, first, second = table(client)
        said(client, gid, "players", "one", **bearer(first))
        fast = say(client, gid, "players", "two", **bearer(first))
        assert "a second" in refused(fast, 429) and fast.headers["Retry-After"] == "1"
        said(client, gid, "players", "other sender", **bearer(second))  # a rate is per sender
        time.sleep(1.05)
        said(client, gid, "players", "two", **bearer(first))
        time.sleep(1.05)
        third = say(client, gid, "players", "three", **bearer(first))
        assert "at most 2 chat messages a minute" in refused(third, 429)
        assert 55 <= int(third.headers["Retry-After"]) <= 60
        assert third.json()["error"]["code"] == "chat_rate"


def test_a_game_keeps_at_most_its_share_of_messages(tmp_path: Path) -> None:
    limits = {"chat_per_game": 3, "chat_spectators_kept": 2}
    with TestClient(create_app(tiny_settings(tmp_path, limits))) as client:
        gid, first, second = table(client)
        said(client, gid, "players", "1", **bearer(first))
        said(client, gid, "players", "2", **bearer(second))
        # The spectators' channel never closes: it keeps its latest lines and drops the oldest,
        # and nothing written there counts against the players' (issue 47).
        for index in range(4):
            watcher = sign_up(client, f"Watcher{index}")
            said(client, gid, "spectators", f"s{index}", **watcher.headers())
        kept = client.get(f"/api/games/{gid}/chat?channel=spectators").json()["messages"]
        assert [m["text"] for m in kept] == ["s2", "s3"]
        time.sleep(1.05)  # a player writes one line a second at most
        said(client, gid, "players", "3", **bearer(first))
        full = say(client, gid, "players", "4", **bearer(second))
        assert "at most 3 players' messages" in refused(full, 429)
        assert full.json()["error"]["code"] == "chat_full"
        # Another game's chat is its own.
        other, token, _ = table(client)
        said(client, other, "players", "fresh", **bearer(token))


@pytest.mark.parametrize("database", ["sqlite", "postgresql", "postgresql, from the loop"])
def test_the_backlog_is_each_channels_last_lines_oldest_first(
    request: pytest.FixtureRequest, tmp_path: Path, database: str
) -> None:
    """One statement reads both channels' backlogs (``chat.store.backlog``): each its own last
    lines, none of the other's, none of another game's, on both databases, on a storage thread
    and (PostgreSQL) sent from the event loop as the server sends it."""
    if database == "sqlite":
        settings = tiny_settings(tmp_path)
    else:
        url = request.getfixturevalue("postgres_url")
        settings = Settings(database_url=url, catalogue="webtiny:CATALOGUE", ai_workers=0)
    app = create_app(settings)
    with TestClient(app) as client:
        (gid, _, _), (other, _, _) = table(client), table(client)
        store = ChatStore(app.state.hub.storage.engine)
        for n in range(7):  # the channels interleaved, a line a second
            channel, author = ("players", Author(0, None, "Red")) if n % 2 else SPECTATOR
            store.post(gid, channel, author, f"{channel}{n}", **ROOMY, now=1000.0 + n)
            store.post(other, "players", Author(1, None, "Blue"), f"x{n}", **ROOMY, now=1000.0 + n)
        db = StorageThreads(store.engine)

        async def read() -> tuple[dict[str, list[ChatMessage]], dict[str, list[ChatMessage]]]:
            loop = None
            if database.endswith("from the loop"):
                from boardplay.web.table.pgwrite import LoopConnections

                loop = LoopConnections(store.engine.url, 1)
                db.loop = loop.rows
            try:
                return await backlog(db, gid, 2), await backlog(db, other, 10)
            finally:
                if loop is not None:
                    await loop.close()

        mine, others = asyncio.run(read())
        assert {c: [m.text for m in lines] for c, lines in mine.items()} == {
            "players": ["players3", "players5"],
            "spectators": ["spectators4", "spectators6"],
        }
        assert mine["players"][0] == ChatMessage(
            mine["players"][0].id, gid, "players", 0, None, "Red", "players3", 1003.0
        )
        assert [m.text for m in others["spectators"]] == [] and len(others["players"]) == 7


def test_the_store_counts_a_minute_per_sender_and_channel(tmp_path: Path) -> None:
    client_app = create_app(tiny_settings(tmp_path))
    with TestClient(client_app) as client:
        gid, _, _ = table(client)
        store = ChatStore(client_app.state.hub.storage.engine)
        seat = Author(0, None, "Red")
        for second in range(0, 50, 5):
            store.post(
                gid, "players", seat, f"m{second}", per_minute=10, per_game=100, now=1000.0 + second
            )
        with pytest.raises(ChatRefused) as refusal:
            store.post(gid, "players", seat, "again", per_minute=10, per_game=100, now=1055.0)
        assert refusal.value.reason == "rate" and refusal.value.retry_after == pytest.approx(5.0)
        # Past the minute of the first, one more passes; another seat was never limited.
        store.post(gid, "players", seat, "later", per_minute=10, per_game=100, now=1060.5)
        store.post(
            gid, "players", Author(1, None, "Blue"), "b", per_minute=10, per_game=100, now=1060.5
        )
        assert [m.text for m in store.latest(gid, "players", 2)] == ["later", "b"]


# ----- reports and the public record -----------------------------------------------------------
def test_a_reader_reports_a_message_once_for_the_operator(client: TestClient) -> None:
    gid, first, second = table(client)
    watcher = sign_up(client, "Watcher")
    rude = said(client, gid, "players", "you are bad", **bearer(first))
    path = f"/api/games/{gid}/chat/{rude['id']}/report"
    answer = client.post(path, headers=bearer(second))
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"reported": True, "already": False}
    assert client.post(path, headers=bearer(second)).json() == {"reported": True, "already": True}
    assert refused(watcher.post(path), 403)  # a spectator never read it
    assert refused(client.post(f"/api/games/{gid}/chat/999999/report", headers=bearer(second)), 404)
    loud = said(client, gid, "spectators", "boo", **watcher.headers())
    assert client.post(f"/api/games/{gid}/chat/{loud['id']}/report").status_code == 200  # a guest
    assert refused(
        client.post(f"/api/games/{gid}/chat/{loud['id']}/report", headers=bearer(first)), 403
    )
    engine: sa.Engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(sa.select(chat_reports_table).order_by(chat_reports_table.c.id)).all()
    assert [(r.text, r.channel) for r in rows] == [
        ("you are bad", "players"),
        ("boo", "spectators"),
    ]
    assert rows[0].author == "seat 0: North" and rows[0].message_id == rude["id"]
    assert rows[1].author.startswith("account ") and rows[1].author.endswith(": Watcher")
    assert rows[0].reporter.startswith("seat 1 (") and rows[1].reporter.startswith("guest ")
    # The operator reads them with ``boardplay db reports``, newest first.
    from typer.testing import CliRunner

    from boardplay.cli.main import app

    listed = CliRunner().invoke(app, ["db", "reports", "--db", str(engine.url), "--game", gid])
    assert listed.exit_code == 0, listed.output
    assert listed.output.index("boo") < listed.output.index("you are bad")
    none = CliRunner().invoke(app, ["db", "reports", "--db", str(engine.url), "--game", "x"])
    assert "no chat message has been reported" in none.output


def test_the_chat_is_never_in_the_public_view_record_or_replay(client: TestClient) -> None:
    gid, first, second = table(client)
    said(client, gid, "players", "secret plan", **bearer(first))
    play_out(client, gid, {0: first, 1: second})
    for path in (
        f"/api/games/{gid}",
        f"/api/games/{gid}/record",
        f"/api/games/{gid}/replay",
        "/api/games",
    ):
        for headers in ({}, bearer(first)):
            answer = client.get(path, headers=headers)
            assert answer.status_code == 200, answer.text
            assert "secret plan" not in answer.text


# ----- several processes ---------------------------------------------------------------------
def test_a_message_written_on_one_process_reaches_the_sockets_of_another(tmp_path: Path) -> None:
    """Two hubs on one database stand for two processes: the check of the second (``catch_up``)
    finds what the first stored, sends it once, and to the readers of its channel only."""

    async def scenario() -> tuple[list[str], list[str]]:
        from boardplay.web.chat.service import post

        url = f"sqlite:///{tmp_path / 'chat.sqlite3'}"
        a, b = hub_on(url), hub_on(url)
        try:
            room, token, _ = await a.maker.create("tiny", {}, [{"kind": "me"}, {"kind": "hotseat"}])
            far = await b.room(room.row.id)
            player_seen, spectator_seen = Sent(), Sent()
            player = Subscriber(player_seen.send, player_seen.close)
            player.token = token
            spectator = Subscriber(spectator_seen.send, spectator_seen.close)
            for sub in (player, spectator):
                far.subscribers.add(sub)
                await b.chat.hello(far, sub)
            await post(room, a.chat, token, None, "players", "across")
            await b.chat.catch_up()
            await b.chat.catch_up()  # sent once, however many checks look
            # A message whose id is below what B has seen (committed late) is found by its age.
            b.chat.floor += 1_000
            await asyncio.sleep(1.05)  # one message a second
            await post(room, a.chat, token, None, "players", "late")
            await b.chat.catch_up()
            await b.chat.catch_up()
            for _ in range(5):
                await asyncio.sleep(0)  # the sockets' senders run
            return player_seen.texts, spectator_seen.texts
        finally:
            for hub in (a, b):
                await hub.close()
                hub.storage.close()

    import json

    player_texts, spectator_texts = asyncio.run(scenario())
    player_messages = [json.loads(t) for t in player_texts]
    assert [m["channel"] for m in player_messages] == ["players"] * 3  # backlog, then one each
    assert player_messages[0]["messages"] == []
    assert [m["text"] for m in player_messages[1]["messages"]] == ["across"]
    assert [m["text"] for m in player_messages[2]["messages"]] == ["late"]
    assert [json.loads(t)["messages"] for t in spectator_texts] == [[]]  # its (empty) backlog


def test_chat_crosses_real_server_processes_at_once_and_without_redis(postgres_url: str) -> None:
    """Two ``boardplay serve`` processes on one PostgreSQL database with Redis between them: a
    player's message written on the first reaches the other player's socket on the second at
    once (through the broker, as a move does: each of three within half a second; it used to
    wait for the second's periodic check, about 2 s), and the spectator's socket there is sent
    none of it. With Redis stopped, a message still arrives, at the next check."""
    import contextlib
    import json

    import devservices as ds
    from test_web_multi import Cluster, fresh_database, server_env

    port = ds.free_port()
    outage = contextlib.ExitStack()
    outage.enter_context(ds.redis(port))
    cluster = Cluster(server_env(fresh_database(postgres_url), f"redis://127.0.0.1:{port}/0"), 2)
    try:
        seats = [{"kind": "me"}, {"kind": "open"}]
        made = httpcalls.post(f"{cluster.base[0]}/api/games", json={"game": "tiny", "seats": seats})
        gid, first = made.json()["id"], made.json()["token"]
        joined = httpcalls.post(f"{cluster.base[1]}/api/games/{gid}/join", json={"seat": 1}).json()
        with cluster.ws(1, gid) as far, cluster.ws(1, gid) as watcher:
            for socket, token in ((far, joined["token"]), (watcher, None)):
                socket.send(json.dumps({"type": "hello", "token": token, "id": 1, "chat": True}))
            seen: list[str] = []
            tokens = [first, joined["token"]]
            answered: dict[int, float] = {}  # when each seat's last message was answered

            def arrives(text: str, seat: int, within: float) -> float:
                """Writes ``text`` as ``seat`` on process A, a second after that seat's last
                message was answered (one message a second each: the server stamped it before
                answering); seconds until the socket on B of seat 1 has it."""
                time.sleep(max(0.0, answered.get(seat, 0.0) + 1.05 - time.monotonic()))
                answer = httpcalls.post(
                    f"{cluster.base[0]}/api/games/{gid}/chat",
                    json={"channel": "players", "text": text},
                    headers=bearer(tokens[seat]),
                )
                assert answer.status_code == 201, answer.text
                written = answered[seat] = time.monotonic()
                while text not in seen:
                    left = written + within - time.monotonic()
                    assert left > 0, f"{text!r} did not cross within {within} s: {seen}"
                    message = json.loads(far.recv(timeout=left))
                    if message["type"] == "chat":
                        seen.extend(m["text"] for m in message["messages"])
                return time.monotonic() - written

            delays = [arrives("hello", 0, 5), arrives("hi", 1, 5), arrives("from process A", 0, 5)]
            assert max(delays) < 0.5, delays
            outage.close()  # Redis is gone: the periodic check still brings a message
            arrives("without Redis", 1, 5)
            assert sorted(seen) == sorted(["hello", "hi", "from process A", "without Redis"])
            watcher.send(json.dumps({"type": "ping", "id": "probe"}))
            while (message := json.loads(watcher.recv(timeout=15)))["type"] != "pong":
                assert message["type"] != "chat" or not message["messages"], message
    finally:
        outage.close()
        cluster.stop()
