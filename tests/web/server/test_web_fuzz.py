"""Property-based fuzzing of the whole API (issue 13).

HTTP: schemathesis generates requests from the app's own OpenAPI schema (every body is declared)
and sends them in-process; half of them aim at a real game with its seat token. They are sent
as a guest, as a signed-in player (session cookie and CSRF token) and with a personal API token
(``Bearer bp_...``, every scope), to an app on SQLite and to one on a throwaway PostgreSQL, which
refuses what SQLite stores quietly (a NUL in text: review server-2026-11d, N1, found by
schemathesis there). WebSocket: Hypothesis generates frames (well-formed messages with wild
values, arbitrary JSON, arbitrary text, binary). Either way: never a 5xx, never a socket dropped
without a close code, and a refused request changes nothing. Budgets grow under ``make soak``
(BOARDPLAY_SOAK=1)."""

from __future__ import annotations

import itertools
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ondatabase import DATABASES, settings_on
from schemathesis.python.asgi import ASGIClient
from starlette.websockets import WebSocketDisconnect

from boardplay.web.app import create_app
from support import games

FUZZ_SETTINGS = settings(
    max_examples=games(40, 1000),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
HTTP_SETTINGS = settings(FUZZ_SETTINGS, max_examples=games(20, 1000))
"""The HTTP tests run on both databases: under ``make test`` 20 examples on each are the 40
one had on SQLite alone (the suite's time is budgeted); ``make soak`` runs 1,000 on each."""
IDENTITY_SETTINGS = settings(FUZZ_SETTINGS, max_examples=games(10, 1000))
"""The whole API as each signed-in identity, on each database: a guest's 20 and 10 for each of
the two are 40 examples of the whole API per database under ``make test``."""


@pytest.fixture(scope="module", params=DATABASES)
def database(request: pytest.FixtureRequest) -> str:
    """The database the HTTP fuzzing's apps run on: every HTTP test runs on each."""
    return str(request.param)


@pytest.fixture(scope="module")
def fuzz_app(
    tmp_path_factory: pytest.TempPathFactory, database: str, request: pytest.FixtureRequest
) -> FastAPI:
    return create_app(settings_on(database, Path(tmp_path_factory.mktemp("fuzz")), request))


@pytest.fixture(scope="module")
def api_schema(fuzz_app: FastAPI) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)


@pytest.fixture(scope="module")
def http(fuzz_app: FastAPI) -> Iterator[ASGIClient]:
    with ASGIClient(fuzz_app) as client:
        yield client


@pytest.fixture(scope="module")
def target(http: ASGIClient) -> dict[str, str]:
    """A game on the clock with an open seat, in the middle of a turn, for requests to aim at."""
    body = {
        "game": "tiny",
        "options": {"bonus": 1},
        "seats": [{"kind": "me"}, {"kind": "open"}],
        "clock": {"base": 600, "increment": 5},
    }
    created = http.post("/api/games", json=body).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    http.post(f"/api/games/{created['id']}/actions", json={"action": "t1"}, headers=headers)
    return {"id": created["id"], "token": created["token"]}


def snapshot(http: ASGIClient, game_id: str) -> Any:
    game = http.get(f"/api/games/{game_id}").json()
    every = http.app.state.hub.storage.game_ids(limit=1_000_000)
    return game["moves"], [s["claimed"] for s in game["seats"]], sorted(every)


@HTTP_SETTINGS
@given(data=st.data())
def test_http_api_never_fails_and_refusals_change_nothing(
    data: st.DataObject, api_schema: Any, http: ASGIClient, target: dict[str, str]
) -> None:
    case = data.draw(api_schema.as_strategy())
    aimed = "game_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2 == 0
    if aimed:
        case.path_parameters["game_id"] = target["id"]
    headers = {"Authorization": f"Bearer {target['token']}"} if aimed else {}
    before = snapshot(http, target["id"])
    response = case.call(session=http, headers=headers)
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"], response.text
        assert len(response.content) < 2000
        assert snapshot(http, target["id"]) == before, (case.method, case.path, case.body)


SIGNED_IN_ROUTES = r"^/api/(account|players|ratings|seeks|challenges)"
ACCOUNT_NUMBERS = itertools.count()


def signed_in(http: ASGIClient, number: int) -> dict[str, str]:
    """A fresh account's session headers (cookie and CSRF token)."""
    answer = http.post(
        "/api/account/signup", json={"name": f"fuzz{number}", "password": "fuzz password"}
    )
    assert answer.status_code == 201, answer.text
    cookie = answer.headers["set-cookie"].split(";")[0]
    http.cookies.clear()
    return {"Cookie": cookie, "X-CSRF-Token": answer.json()["csrf"]}


@HTTP_SETTINGS
@given(data=st.data())
def test_account_routes_never_fail_for_a_signed_in_player(
    data: st.DataObject, api_schema: Any, http: ASGIClient, target: dict[str, str]
) -> None:
    """The routes of accounts, players and ratings, fuzzed as a signed-in player would send
    them (the session cookie and its CSRF token): never a 5xx, every refusal in the one shape,
    and no game touched."""
    accounts = api_schema.include(path_regex=SIGNED_IN_ROUTES)
    case = data.draw(accounts.as_strategy())
    headers = signed_in(http, next(ACCOUNT_NUMBERS))
    before = snapshot(http, target["id"])
    response = case.call(session=http, headers=headers)
    http.cookies.clear()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"], response.text
        assert len(response.content) < 2000
    assert snapshot(http, target["id"]) == before, (case.method, case.path, case.body)


SCOPES = ["bot:play", "challenge:read", "challenge:write", "tournament:write"]
STREAMS = r"^/api/(stream/event|bot/game/stream/)"
"""The Bot API's streams: a token's stays open until its reader goes, so a fuzzed request would
wait for ever (``test_web_bots_streams.py`` holds them to their ceilings)."""


def with_token(http: ASGIClient, number: int) -> dict[str, str]:
    """A fresh account's personal API token with every scope, as a bot or script sends it."""
    session = signed_in(http, number)
    made = http.post(
        "/api/account/tokens", json={"label": "fuzz", "scopes": SCOPES}, headers=session
    )
    http.cookies.clear()
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['token']}"}


@IDENTITY_SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("identity", ["session", "token"])
def test_http_api_never_fails_for_a_signed_in_player_or_a_token(
    data: st.DataObject, identity: str, api_schema: Any, http: ASGIClient, target: dict[str, str]
) -> None:
    """The whole API as a signed-in player (a fresh account's cookie and CSRF token, with the
    seat token of the game aimed at) or a personal API token sends it: never a 5xx, every
    refusal in the one shape, and a refused request changes nothing."""
    case = data.draw(api_schema.exclude(path_regex=STREAMS).as_strategy())
    aimed = "game_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2 == 0
    if aimed:
        case.path_parameters["game_id"] = target["id"]
    number = next(ACCOUNT_NUMBERS)
    if identity == "token":
        headers = with_token(http, number)
    else:
        headers = signed_in(http, number)
        if aimed:
            headers["Authorization"] = f"Bearer {target['token']}"
    before = snapshot(http, target["id"])
    response = case.call(session=http, headers=headers)
    http.cookies.clear()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"], response.text
        assert len(response.content) < 2000
        assert snapshot(http, target["id"]) == before, (case.method, case.path, case.body)


MAIL_ROUTES = r"^/api/(account/email|email/)"


@pytest.fixture(scope="module")
def mail_http(
    tmp_path_factory: pytest.TempPathFactory, database: str, request: pytest.FixtureRequest
) -> Iterator[ASGIClient]:
    """An app with e-mail on, whose SMTP server never answers (mails wait and are retried)."""
    from browsing import free_port

    settings = settings_on(
        database,
        Path(tmp_path_factory.mktemp("fuzzmail")),
        request,
        smtp_url=f"smtp://127.0.0.1:{free_port()}",
        mail_from="boardplay@example.org",
        origin="http://testserver",
    )
    with ASGIClient(create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
def mail_schema(mail_http: ASGIClient) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", mail_http.app).include(
        path_regex=MAIL_ROUTES
    )


@HTTP_SETTINGS
@given(data=st.data())
def test_mail_routes_never_fail_with_email_on(
    data: st.DataObject, mail_schema: Any, mail_http: ASGIClient
) -> None:
    """The e-mail routes (address, confirm and unsubscribe links) of a server that sends mail,
    fuzzed as a signed-in player: never a 5xx, every refusal in the one shape."""
    case = data.draw(mail_schema.as_strategy())
    headers = signed_in(mail_http, next(ACCOUNT_NUMBERS))
    response = case.call(session=mail_http, headers=headers)
    mail_http.cookies.clear()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"], response.text
        assert len(response.content) < 2000


# ----- WebSocket frames -------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "act", "undo", "ping", "HELLO", ""])},
    optional={
        "action": json_values | st.sampled_from(["t1", "t2", "t3", "t9", 0, 1, 2]),
        "ply": json_values | st.integers(0, 6),
        "token": json_values,
        "id": json_values,
    },
).map(lambda m: json.dumps(m))
TOKEN = "$TOKEN"
"""Stands in a generated frame for the seat token of the game the frames are sent to."""
chat_frames = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("hello"), "chat": st.booleans() | json_values},
        optional={"token": st.just(TOKEN) | json_values, "id": json_values},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("chat"),
            "channel": st.sampled_from(["players", "spectators"]) | json_values,
            "text": st.text(max_size=400) | st.integers(1, 5000).map("x".__mul__) | json_values,
        },
        optional={"id": json_values, "token": json_values},
    ),
).map(lambda m: json.dumps(m))
"""The table chat's messages (``chat.py``): asking for it in the hello, and writing in it."""
frames = (
    messages
    | chat_frames
    | json_values.map(json.dumps)
    | st.text(max_size=200)
    | st.binary(max_size=64)
    | st.integers(1, 3000).map(lambda n: "[" * n + "]" * n)
    | st.integers(1, 200).map(lambda n: '{"type": "act", "action": ' + "7" * n + "}")
    | st.sampled_from(['{"type": "hello", "token": "\\ud800"}', '{"type": "\\udfff"}'])
)


@FUZZ_SETTINGS
@given(batch=st.lists(frames, min_size=1, max_size=5))
def test_websocket_frames_never_drop_the_socket_silently(
    client: TestClient, batch: list[Any]
) -> None:
    body = {
        "game": "tiny",
        "options": {"bonus": 1},
        "seats": [{"kind": "me"}, {"kind": "hotseat"}],
        "clock": {"base": 900, "increment": 10},  # the clock runs while the frames arrive
    }
    created = client.post("/api/games", json=body).json()
    gid = created["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        for frame in batch:
            before = client.get(f"/api/games/{gid}").json()["moves"]
            try:
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame.replace(TOKEN, created["token"]))
                ws.send_text('{"type": "ping", "id": "probe"}')
                replies = []
                while True:
                    reply = ws.receive_json()
                    if reply == {"type": "pong", "id": "probe"}:
                        break
                    replies.append(reply)
            except WebSocketDisconnect as closed:
                assert closed.code in (1009, 1013), closed.code
                return
            for reply in replies:
                assert reply["type"] in ("state", "update", "error", "pong", "done", "chat"), reply
                if reply["type"] == "error":
                    assert 400 <= reply["status"] < 500 and reply["error"]["message"]
            if any(r["type"] == "error" for r in replies) and not any(
                r["type"] == "update" for r in replies
            ):
                assert client.get(f"/api/games/{gid}").json()["moves"] == before, frame
    chat = client.get(
        f"/api/games/{gid}/chat", headers={"Authorization": f"Bearer {created['token']}"}
    )
    assert chat.status_code == 200, chat.text
    assert_chat_ceilings(chat.json()["messages"], 300)


@FUZZ_SETTINGS
@given(batch=st.lists(frames, min_size=1, max_size=5))
def test_lobby_socket_frames_never_drop_it_silently_or_change_anything(
    client: TestClient, batch: list[Any]
) -> None:
    """The lobby socket (``/api/lobby/ws``) of a signed-in player, sent anything: each frame
    gets an error or a pong, the socket closes only with a code that says why, and the seeks
    and challenges stay as they were (every change is an HTTP request)."""
    player = signed_in_client(client, next(ACCOUNT_NUMBERS))
    with client.websocket_connect("/api/lobby/ws", headers=player) as ws:
        assert ws.receive_json()["type"] == "seeks"
        for frame in batch:
            try:
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
                ws.send_text('{"type": "ping", "id": "probe"}')
                while True:
                    reply = ws.receive_json()
                    if reply == {"type": "pong", "id": "probe"}:
                        break
                    assert reply["type"] in ("error", "pong", "seeks"), reply
                    if reply["type"] == "error":
                        assert 400 <= reply["status"] < 500 and reply["error"]["message"]
            except WebSocketDisconnect as closed:
                assert closed.code in (1009, 1013), closed.code
                return
    assert client.get("/api/seeks").json()["seeks"] == []


def signed_in_client(client: TestClient, number: int) -> dict[str, str]:
    answer = client.post(
        "/api/account/signup", json={"name": f"lobby{number}", "password": "fuzz password"}
    )
    assert answer.status_code == 201, answer.text
    client.cookies.clear()
    return {"Cookie": answer.headers["set-cookie"].split(";")[0]}


# ----- the table chat ---------------------------------------------------------------------------
CHAT_ROUTES = r"^/api/games/\{game_id\}/chat"
CHAT_LIMITS = {"chat_per_game": 12, "chat_per_minute": 3}
"""Low ceilings, so that a fuzzing run meets each of them."""


def assert_chat_ceilings(messages: list[dict[str, Any]], length: int) -> None:
    """Whatever was sent, the chat holds plain, tidy text within the length ceiling."""
    for message in messages:
        text = message["text"]
        assert 0 < len(text) <= length and text == text.strip(), message
        assert "  " not in text, message
        assert not any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text), message


def stored_chat(client: ASGIClient, game_id: str) -> list[Any]:
    from boardplay.web.chat.store import chat_messages_table as table

    engine = client.app.state.hub.storage.engine
    with engine.connect() as conn:
        return list(
            conn.execute(table.select().where(table.c.game_id == game_id).order_by(table.c.id))
        )


def assert_stored_chat_within_ceilings(client: ASGIClient, game_id: str) -> None:
    """The game keeps at most its share of messages, and no sender wrote more than their
    share in any minute of a channel, nor two within a second."""
    rows = stored_chat(client, game_id)
    assert len(rows) <= CHAT_LIMITS["chat_per_game"]
    assert_chat_ceilings([{"text": row.text} for row in rows], 300)
    senders: dict[Any, list[float]] = {}
    for row in rows:
        senders.setdefault((row.channel, row.seat, row.account_id), []).append(row.created)
    for times in senders.values():
        assert all(b - a >= 1.0 for a, b in itertools.pairwise(times)), times
        per_minute = CHAT_LIMITS["chat_per_minute"]
        assert all(
            times[i + per_minute] - times[i] >= 60 for i in range(len(times) - per_minute)
        ), times


@pytest.fixture(scope="module")
def chat_http(
    tmp_path_factory: pytest.TempPathFactory, database: str, request: pytest.FixtureRequest
) -> Iterator[ASGIClient]:
    settings = settings_on(
        database, Path(tmp_path_factory.mktemp("fuzzchat")), request, CHAT_LIMITS
    )
    with ASGIClient(create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
def chat_schema(chat_http: ASGIClient) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", chat_http.app).include(
        path_regex=CHAT_ROUTES
    )


def chat_table(client: ASGIClient) -> str:
    """A new game between two players; returns its id (the players' tokens: ``CHAT_TOKENS``)."""
    seats = [{"kind": "me"}, {"kind": "open"}]
    created = client.post("/api/games", json={"game": "tiny", "seats": seats}).json()
    joined = client.post(f"/api/games/{created['id']}/join", json={"seat": 1}).json()
    CHAT_TOKENS[created["id"]] = [created["token"], joined["token"]]
    return str(created["id"])


CHAT_TOKENS: dict[str, list[str]] = {}


@pytest.fixture(scope="module")
def chat_people(chat_http: ASGIClient) -> dict[str, Any]:
    """One game for the schema's requests to aim at, and two signed-in spectators."""
    return {
        "game": chat_table(chat_http),
        "spectators": [signed_in(chat_http, next(ACCOUNT_NUMBERS)) for _ in range(2)],
    }


def chat_identities(game_id: str, people: dict[str, Any]) -> list[dict[str, str]]:
    """Who may ask: each player (their token), each signed-in spectator, a guest."""
    players = [{"Authorization": f"Bearer {token}"} for token in CHAT_TOKENS[game_id]]
    return [*players, *people["spectators"], {}]


@HTTP_SETTINGS
@given(data=st.data())
def test_chat_routes_never_fail_and_keep_their_ceilings(
    data: st.DataObject, chat_schema: Any, chat_http: ASGIClient, chat_people: dict[str, Any]
) -> None:
    """The chat's routes, fuzzed from the schema as a player, a signed-in spectator or a guest,
    at a real game: never a 5xx, every refusal in the one shape, and whatever got through
    stays within the length, rate and count ceilings."""
    case = data.draw(chat_schema.as_strategy())
    game_id = chat_people["game"]
    if data.draw(st.booleans()):
        case.path_parameters["game_id"] = game_id
    headers = data.draw(st.sampled_from(chat_identities(game_id, chat_people)))
    response = case.call(session=chat_http, headers=headers)
    chat_http.cookies.clear()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["code"] and error["message"], response.text
        assert len(response.content) < 2000
    assert_stored_chat_within_ceilings(chat_http, game_id)


@HTTP_SETTINGS
@given(
    sends=st.lists(
        st.tuples(st.integers(0, 4), st.sampled_from(["players", "spectators"]), st.text()),
        min_size=1,
        max_size=25,
    )
)
def test_a_burst_of_chat_from_every_side_keeps_the_ceilings(
    chat_http: ASGIClient, chat_people: dict[str, Any], sends: list[tuple[int, str, str]]
) -> None:
    """Messages from every side of a new game as fast as they can be sent: each is stored or
    refused with a 4xx that says why, and what is stored keeps every ceiling."""
    game_id = chat_table(chat_http)
    identities = chat_identities(game_id, chat_people)
    stored = 0
    for who, channel, text in sends:
        answer = chat_http.post(
            f"/api/games/{game_id}/chat",
            json={"channel": channel, "text": text},
            headers=identities[who],
        )
        chat_http.cookies.clear()
        assert answer.status_code in (201, 400, 401, 403, 429), answer.text
        if answer.status_code == 429:
            code = answer.json()["error"]["code"]
            assert code == "chat_full" or answer.headers["Retry-After"].isdigit(), answer.text
        stored += answer.status_code == 201
    assert len(stored_chat(chat_http, game_id)) == stored
    assert_stored_chat_within_ceilings(chat_http, game_id)
