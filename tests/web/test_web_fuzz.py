"""Property-based fuzzing of the whole API (issue 13).

HTTP: schemathesis generates requests from the app's own OpenAPI schema (every body is declared)
and sends them in-process; half of them aim at a real game with its seat token. WebSocket:
Hypothesis generates frames (well-formed messages with wild values, arbitrary JSON, arbitrary
text, binary). Either way: never a 5xx, never a socket dropped without a close code, and a
refused request changes nothing. Budgets grow under ``make soak`` (BOARDPLAY_SOAK=1)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.python.asgi import ASGIClient
from starlette.websockets import WebSocketDisconnect
from websettings import tiny_settings

from boardplay.web.app import create_app
from support import games

FUZZ_SETTINGS = settings(
    max_examples=games(40, 1000),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    return create_app(tiny_settings(Path(tmp_path_factory.mktemp("fuzz"))))


@pytest.fixture(scope="module")
def api_schema(fuzz_app: FastAPI) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", fuzz_app)


@pytest.fixture(scope="module")
def http(fuzz_app: FastAPI) -> Iterator[ASGIClient]:
    with ASGIClient(fuzz_app) as client:
        yield client


@pytest.fixture(scope="module")
def target(http: ASGIClient) -> dict[str, str]:
    """A game with an open seat, in the middle of a turn, for requests to aim at."""
    body = {"game": "tiny", "options": {"bonus": 1}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    created = http.post("/api/games", json=body).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    http.post(f"/api/games/{created['id']}/actions", json={"action": "t1"}, headers=headers)
    return {"id": created["id"], "token": created["token"]}


def snapshot(http: ASGIClient, game_id: str) -> Any:
    game = http.get(f"/api/games/{game_id}").json()
    every = http.app.state.hub.storage.game_ids(limit=1_000_000)
    return game["moves"], [s["claimed"] for s in game["seats"]], sorted(every)


@FUZZ_SETTINGS
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


@FUZZ_SETTINGS
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
frames = (
    messages
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
    body = {"game": "tiny", "options": {"bonus": 1}, "seats": [{"kind": "me"}, {"kind": "hotseat"}]}
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
                    ws.send_text(frame)
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
                assert reply["type"] in ("state", "update", "error", "pong", "done"), reply
                if reply["type"] == "error":
                    assert 400 <= reply["status"] < 500 and reply["error"]["message"]
            if any(r["type"] == "error" for r in replies) and not any(
                r["type"] == "update" for r in replies
            ):
                assert client.get(f"/api/games/{gid}").json()["moves"] == before, frame


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
