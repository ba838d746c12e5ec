"""Text at the edge (review server-2026-11d, N1 and N11): a control character sent in a path, a
query, a JSON text field or key, a form or a socket message is refused by the front door
(``guard.py``, ``safejson.py``, ``text.py``) with 400 ``bad_text`` before any route runs, alike
on SQLite and PostgreSQL (which cannot store a NUL and answered 500 with a traceback), nothing is
written and the connection goes on; and the text people choose for others to read (tournament
names, seat names, token labels, chat) is tidied by one function, ``text.tidy``.

The requests go to a real server (uvicorn in a thread, as ``boardplay serve`` runs it) over one
keep-alive socket each, since a 500 there also cost the visitor their connection."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from pushservice import Device
from starlette.testclient import WebSocketDenialResponse

from boardplay.web.accounts.service import COOKIE
from boardplay.web.app import create_app

LIMITS = {"tournaments_per_account": 100, "api_tokens_per_account": 100}
"""Every tidied name below is a tournament or a token of one account."""
SCOPES = ["bot:play", "challenge:read", "challenge:write", "tournament:write"]
LATER = time.time() + 3 * 86_400
"""When the tournaments made here start: upcoming all through the test (listed)."""
RAPID = {"base": 600, "increment": 5}


@dataclass
class Site:
    """A server on ``port`` and the people who ask it: ``player`` (session cookie and CSRF
    token), ``bot`` (a personal API token with every scope), ``game`` (a game with an open seat,
    made by a guest holding ``seat``), and the database the server writes to."""

    app: FastAPI
    port: int
    database: str
    player: dict[str, str]
    bot: dict[str, str]
    game: str
    seat: dict[str, str]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Connection:
    """One keep-alive HTTP/1.1 connection to the server, requests written as given (a path with
    ``%00`` is sent as it is): a request whose answer closed it fails the next one."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)

    def close(self) -> None:
        self.sock.close()

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any, dict[str, str]]:
        data = raw if raw is not None else b"" if body is None else json.dumps(body).encode()
        sent = {"Host": "127.0.0.1", "Content-Length": str(len(data)), **(headers or {})}
        if body is not None and raw is None:
            sent["Content-Type"] = "application/json"
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items())
        self.sock.sendall(head.encode("latin-1") + b"\r\n" + data)
        response = http.client.HTTPResponse(self.sock, method=method)
        response.begin()
        content = response.read()
        answer: dict[str, str] = {}
        for key, value in response.getheaders():  # several Set-Cookie: one a line
            answer[key.lower()] = "\n".join(filter(None, (answer.get(key.lower()), value)))
        try:
            parsed = json.loads(content)
        except ValueError:
            parsed = content.decode("utf-8", "replace")
        return response.status, parsed, answer


def serve(app: FastAPI) -> Iterator[int]:
    """``app`` on uvicorn on a free loopback port, in a thread, for as long as the caller holds
    the generator."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="boardplay.web.wsprotocol:QuietWebSockets",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    settings = settings_on(request.param, tmp_path_factory.mktemp("edge"), request, LIMITS)
    app = create_app(settings)
    for port in serve(app):
        conn = Connection(port)
        try:
            made = conn.send("POST", "/api/account/signup", {"name": "ana", "password": "x" * 12})
            assert made[0] == 201, made
            cookie = next(
                c.split(";")[0] for c in made[2]["set-cookie"].split("\n") if c.startswith(COOKIE)
            )
            player = {"Cookie": cookie, "X-CSRF-Token": made[1]["csrf"]}
            minted = conn.send(
                "POST", "/api/account/tokens", {"label": "fuzz", "scopes": SCOPES}, player
            )
            assert minted[0] == 201, minted
            game = conn.send(
                "POST", "/api/games", {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}]}
            )
            assert game[0] == 201, game
        finally:
            conn.close()
        yield Site(
            app,
            port,
            settings.database_url,
            player,
            {"Authorization": f"Bearer {minted[1]['token']}"},
            game[1]["id"],
            {"Authorization": f"Bearer {game[1]['token']}"},
        )


def rows(database: str) -> dict[str, int]:
    """How many rows each table of ``database`` holds (what a refused request must not
    change)."""
    engine = sa.create_engine(database, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            names = sa.inspect(conn).get_table_names()
            return {
                name: conn.execute(sa.select(sa.func.count()).select_from(sa.table(name))).scalar()
                or 0
                for name in names
            }
    finally:
        engine.dispose()


FCM = "https://fcm.googleapis.com/fcm/send/"


def subscription(endpoint: str) -> dict[str, Any]:
    """A browser's push subscription (real keys) for ``endpoint``."""
    return {**Device(FCM, "x").subscription(), "endpoint": endpoint}


# ----- N1: refused at the front door --------------------------------------------------------
ANONYMOUS: list[tuple[str, str, Any]] = [
    # the review's repros
    ("GET", "/api/games?ids=a%00", None),
    ("GET", "/api/players/a%00b", None),
    ("GET", "/api/tournaments/a%00b", None),
    ("GET", "/api/games/abc%00defghij", None),
    ("GET", "/api/tournament-pages?game=a%00", None),
    ("POST", "/api/account/signin", {"name": "a\u0000b", "password": "x" * 12}),
    # every other path parameter a visitor may send without signing in
    ("GET", "/api/games/abc%00defghij/record", None),
    ("GET", "/api/games/abc%00defghij/replay", None),
    ("GET", "/api/games/abc%00defghij/rating", None),
    ("GET", "/api/games/abc%00defghij/chat", None),
    ("GET", "/api/games/abc%00defghij/review", None),
    ("POST", "/api/games/abc%00defghij/join", {}),
    ("POST", "/api/games/abc%00defghij/actions", {"action": "t1"}),
    ("POST", "/api/games/abc%00defghij/chat/1/report", {}),
    ("POST", "/api/games/abc%00defghij/hint", {}),
    ("GET", "/api/tournaments/a%00b/standings", None),
    ("GET", "/api/tournament-pages/a%00b", None),
    ("GET", "/api/tournament-pages/a%00b/chat", None),
    ("GET", "/api/ratings/a%00b", None),
    ("GET", "/api/rules/a%00b", None),
    ("GET", "/api/i18n/a%00", None),
    # other controls, and where else a query carries text
    ("GET", "/api/players/a%1bb", None),
    ("GET", "/api/players/a%0ab", None),
    ("GET", "/api/players/a%7fb", None),
    ("GET", "/api/rules/tiny?lang=en%00", None),
    ("GET", "/api/games?a%00=1", None),
    ("GET", "/api/games?ids=a%09b", None),
    ("GET", "/api/email/confirm?token=a%00b", None),
    ("GET", "/api/email/unsubscribe?token=a%00b", None),
    ("GET", "/api/ratings/tiny?limit=1%00", None),
    # JSON text and keys
    ("POST", "/api/account/signup", {"name": "a\u0000b", "password": "x" * 12}),
    ("POST", "/api/account/signin", {"name": "ana", "password": "x\u0000" * 6}),
    ("POST", "/api/account/signin", {"name": "a\u001bb", "password": "x" * 12}),
    ("POST", "/api/games/preview", {"game": "tiny", "options": {"bonus\u0000": 1}}),
    ("POST", "/api/games", {"game": "tiny\u0000", "seats": [{"kind": "me"}, {"kind": "open"}]}),
    ("POST", "/api/games", {"game": "tiny", "seats": [{"kind": "me", "name": "a\u0000"}]}),
    ("POST", "/api/games", {"game": "tiny", "seats": [{"kind": "me", "name": "a\u0007"}]}),
    ("POST", "/api/push/off", {"endpoint": FCM + "\u0000", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}),
    ("POST", "/api/replay", {"format": "boardplay-record", "game": "tiny\u0000"}),
    ("POST", "/api/account/passkeys/signin/finish", {"ceremony": "\u0000", "credential": {}}),
]
"""Requests anybody may send, each with a control character where text goes."""

SIGNED_IN: list[tuple[str, str, Any]] = [
    # the review's repros
    ("POST", "/api/tournaments", {"name": "\u0000", "kind": "arena", "game": "tiny",
                                   "clock": RAPID, "starts": LATER, "minutes": 30}),
    ("POST", "/api/account/tokens", {"label": "\u0000", "scopes": ["challenge:read"]}),
    ("PUT", "/api/push", subscription(FCM + "\u0000")),
    ("POST", "/api/challenges", {"to": "\u0000", "game": "tiny"}),
    ("POST", "/api/challenges/ab%00cdefg/accept", None),
    # the other path parameters of a signed-in player
    ("POST", "/api/challenges/ab%00cdefg/decline", None),
    ("POST", "/api/challenges/ab%00cdefg/cancel", None),
    ("POST", "/api/tournaments/a%00b/join", None),
    ("POST", "/api/tournaments/a%00b/pause", None),
    ("POST", "/api/tournaments/a%00b/withdraw", None),
    ("POST", "/api/tournament-pages/a%00b/chat", {"text": "hello"}),
    ("DELETE", "/api/account/tokens/a%00", None),
    ("DELETE", "/api/account/passkeys/a%00", None),
    ("POST", "/api/account/games/abc%00defghij/token", None),
    ("DELETE", "/api/seeks/a%00b", None),
    ("POST", "/api/seeks/a%00b/accept", None),
    ("POST", "/api/seeks/a%00b/sit", None),
    ("DELETE", "/api/seeks/a%00b/sit", None),
    # their text fields
    ("POST", "/api/seeks", {"game": "tiny\u0000"}),
    ("PUT", "/api/account/email", {"address": "ana\u0000@example.org"}),
    ("PUT", "/api/account/language", {"language": "en\u0000"}),
    ("POST", "/api/account/delete", {"confirm": "ana\u0000"}),
    ("POST", "/api/account/passkeys/register/finish",
     {"ceremony": "a", "credential": {}, "label": "phone\u0000"}),
    ("POST", "/api/tournaments", {"name": "Cup", "kind": "arena", "game": "tiny",
                                   "options": {"\u0000": 1},
                                   "clock": RAPID, "starts": LATER, "minutes": 30}),
]  # fmt: skip
"""Requests of a signed-in player (cookie and CSRF token)."""

BOT: list[tuple[str, str, Any]] = [
    ("POST", "/api/challenge/a%00b", {"game": "tiny"}),
    ("POST", "/api/challenge/a%00b/accept", None),
    ("POST", "/api/challenge/abcdefg/a%00", None),
    ("GET", "/api/bot/game/stream/a%00b", None),
    ("POST", "/api/bot/game/a%00b/move/t1", None),
    ("POST", "/api/bot/game/abcdefghijkl/move/t%00", None),
    ("POST", "/api/bot/game/a%00b/resign", None),
    ("POST", "/api/bot/game/a%00b/abort", None),
    ("POST", "/api/bot/game/a%00b/draw/yes", None),
    ("POST", "/api/bot/game/a%00b/chat", {"text": "hi"}),
    ("POST", "/api/bot/account/upgrade", {"confirm": "ana\u0000"}),
]
"""Requests of a personal API token (``Authorization: Bearer bp_...``)."""


def case_id(case: tuple[str, str, Any]) -> str:
    method, path, body = case
    return f"{method} {path}" + (f" {json.dumps(body)[:40]}" if body else "")


def assert_refused(site: Site, method: str, path: str, body: Any, who: dict[str, str]) -> None:
    """``method path`` with ``body`` is 400 ``bad_text`` naming what it refused, and the
    connection answers the next request."""
    conn = Connection(site.port)
    try:
        status, answer, headers = conn.send(method, path, body, who)
        assert status == 400, (status, answer)
        assert answer["error"]["code"] == "bad_text", answer
        assert "U+00" in answer["error"]["message"], answer
        assert headers.get("connection", "").lower() != "close", headers
        again = conn.send("GET", "/api/health")
        assert again[0] == 200, again
    finally:
        conn.close()


@pytest.mark.parametrize("case", ANONYMOUS, ids=case_id)
def test_a_control_character_anywhere_is_refused_before_any_route_runs(
    site: Site, case: tuple[str, str, Any]
) -> None:
    assert_refused(site, *case, {})


@pytest.mark.parametrize("case", SIGNED_IN, ids=case_id)
def test_a_signed_in_players_text_is_refused_alike(site: Site, case: tuple[str, str, Any]) -> None:
    assert_refused(site, *case, site.player)


@pytest.mark.parametrize("case", BOT, ids=case_id)
def test_a_bots_text_is_refused_alike(site: Site, case: tuple[str, str, Any]) -> None:
    assert_refused(site, *case, site.bot)


def test_a_guest_taking_a_seat_and_a_seats_move_are_refused(site: Site) -> None:
    assert_refused(site, "POST", f"/api/games/{site.game}/join", {"name": "a\u0000b"}, {})
    assert_refused(
        site, "POST", f"/api/games/{site.game}/actions", {"action": "t\u0000"}, site.seat
    )
    assert_refused(site, "GET", f"/api/games/{site.game}/chat?channel=players%00", None, site.seat)


def test_a_new_password_with_a_nul_is_refused_and_the_sessions_stay(site: Site) -> None:
    """Its own account: the older code took the password (it is only hashed) and so ended the
    account's other sessions and tokens."""
    conn = Connection(site.port)
    try:
        made = conn.send("POST", "/api/account/signup", {"name": "cyd", "password": "x" * 12})
        assert made[0] == 201, made
        cookie = next(
            c.split(";")[0] for c in made[2]["set-cookie"].split("\n") if c.startswith(COOKIE)
        )
        cyd = {"Cookie": cookie, "X-CSRF-Token": made[1]["csrf"]}
        body = {"old": "x" * 12, "new": "y\u0000" * 6}
        assert_refused(site, "POST", "/api/account/password", body, cyd)
        assert conn.send("GET", "/api/account/me", headers=cyd)[1]["account"]["name"] == "cyd"
    finally:
        conn.close()


def test_a_form_body_is_refused_alike(site: Site) -> None:
    """The one route posted a form (RFC 8058's one-click unsubscribe) gets the same rule for
    its fields, percent-decoded; a form without controls passes the door (and is answered by
    the route: an unknown link)."""
    conn = Connection(site.port)
    try:
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        path = "/api/email/unsubscribe?token=abc"
        for body in (b"List-Unsubscribe=One-Click%00", b"List%00=One-Click", b"a=b\x1b"):
            status, answer, _ = conn.send("POST", path, headers=form, raw=body)
            assert status == 400 and answer["error"]["code"] == "bad_text", (body, answer)
        status, answer, _ = conn.send("POST", path, headers=form, raw=b"List-Unsubscribe=One-Click")
        assert status != 400 or answer["error"]["code"] != "bad_text", answer
        assert status < 500, answer
    finally:
        conn.close()


def test_refused_requests_write_nothing(site: Site) -> None:
    """Every refusal above, sent again: not one row of any table comes or goes."""
    before = rows(site.database)
    for cases, who in ((ANONYMOUS, {}), (SIGNED_IN, site.player), (BOT, site.bot)):
        conn = Connection(site.port)
        try:
            for method, path, body in cases:
                status, answer, _ = conn.send(method, path, body, who)
                assert status == 400, (method, path, answer)
        finally:
            conn.close()
    assert rows(site.database) == before


# ----- the socket -------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=DATABASES)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    settings = settings_on(request.param, tmp_path_factory.mktemp("edgews"), request, LIMITS)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_a_socket_to_a_path_with_a_control_character_is_refused(client: TestClient) -> None:
    for path in (
        "/api/games/abc%00defghij/ws",
        "/api/games/abc/ws?token=a%00",
        "/api/lobby/ws?x=%00",
    ):
        with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(path):
            pass
        assert refused.value.status_code == 400, path
        assert refused.value.json()["error"]["code"] == "bad_text", path


def test_a_socket_message_with_a_control_character_is_refused_and_chat_is_tidied(
    client: TestClient,
) -> None:
    """A move or a token with a control character in a game socket's message is an error frame
    (the socket stays open); chat text may hold any, each becomes a space."""
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    created = client.post("/api/games", json={"game": "tiny", "seats": seats}).json()
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        for message in (
            {"type": "act", "action": "t\u0000", "token": created["token"]},
            {"type": "hello", "token": "\u0000"},
            {"type": "ping", "id": "\u0000"},
            {"type": "ping", "\u0001": 1},
        ):
            ws.send_text(json.dumps(message))
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["error"]["code"] == "bad_text", reply
        ws.send_json({"type": "hello", "token": created["token"], "chat": True})
        chat = {"type": "chat", "channel": "players", "text": "good\u0000luck\u202e\u0007!"}
        ws.send_json({**chat, "token": created["token"]})
        ws.send_json({"type": "ping", "id": "probe"})
        replies = []
        while (reply := ws.receive_json()) != {"type": "pong", "id": "probe"}:
            replies.append(reply)
        said = [m["text"] for r in replies if r["type"] == "chat" for m in r["messages"]]
        assert said == ["good luck !"], replies


# ----- N11: text shown to others is tidied --------------------------------------------------
TIDIED = [
    "\u202e", "\n", "\r\n", "\t", "\u007f", "\u0085", "\u2066", "\u2069", "\u2028", "\u2029",
    "\u200e", "\u200f", "\u061c", "\u202a", "\u0080", "\u009f", "\u00a0",
]  # fmt: skip
"""Characters a name may be typed with that would break or reorder a line shown to others."""


@pytest.mark.parametrize("char", TIDIED, ids=lambda c: "+".join(f"U+{ord(x):04X}" for x in c))
def test_a_tournament_name_is_listed_tidied(site: Site, char: str) -> None:
    conn = Connection(site.port)
    try:
        name = f"Cup{char}Final{char}"
        body = {"name": name, "kind": "arena", "game": "tiny", "clock": RAPID}
        made = conn.send("POST", "/api/tournaments", {**body, "starts": LATER, "minutes": 30},
                         site.player)  # fmt: skip
        assert made[0] == 201, made
        assert made[1]["tournament"]["name"] == "Cup Final", made
        listed = conn.send("GET", "/api/tournaments")[1]
        mine = [t for t in listed["tournaments"] if t["id"] == made[1]["tournament"]["id"]]
        assert [t["name"] for t in mine] == ["Cup Final"], listed
    finally:
        conn.close()


def test_a_tournament_name_with_a_nul_or_an_escape_is_refused(site: Site) -> None:
    for char in ("\u0000", "\u001b", "\u0008"):
        body = {"name": f"Cup{char}", "kind": "arena", "game": "tiny", "clock": RAPID}
        assert_refused(site, "POST", "/api/tournaments", {**body, "starts": LATER, "minutes": 30},
                       site.player)  # fmt: skip


def test_token_labels_and_seat_names_are_tidied(site: Site) -> None:
    conn = Connection(site.port)
    try:
        label = "my\u202escript\u2066\n\u0085"
        made = conn.send(
            "POST", "/api/account/tokens", {"label": label, "scopes": SCOPES}, site.player
        )
        assert made[0] == 201 and made[1]["label"] == "my script", made
        listed = conn.send("GET", "/api/account/tokens", headers=site.player)[1]
        assert "my script" in [t["label"] for t in listed["tokens"]], listed
        seats = [
            {"kind": "me", "name": "Ann\u202e\tLee"},
            {"kind": "hotseat", "name": "\u2067Bo\u2069\r\n"},
        ]
        created = conn.send("POST", "/api/games", {"game": "tiny", "seats": seats})
        assert created[0] == 201, created
        assert [s["name"] for s in created[1]["game"]["seats"]] == ["Ann Lee", "Bo"]
        opened = [{"kind": "me"}, {"kind": "open"}]
        game = conn.send("POST", "/api/games", {"game": "tiny", "seats": opened})[1]
        joined = conn.send("POST", f"/api/games/{game['id']}/join", {"name": "Cy\u202e\u0085d"})
        assert joined[0] == 200, joined
        view = conn.send("GET", f"/api/games/{game['id']}")[1]
        assert view["seats"][1]["name"] == "Cy d", view
    finally:
        conn.close()


def test_chat_text_may_hold_controls_and_is_tidied(site: Site) -> None:
    """Chat is the one field that takes any control character: each becomes a space
    (``chat.clean``), so a message of nothing else is empty, as the chat tests hold."""
    conn = Connection(site.port)
    try:
        path = f"/api/games/{site.game}/chat"
        said = conn.send("POST", path, {"channel": "players", "text": "hi\u0000there\u001b"},
                         site.seat)  # fmt: skip
        assert said[0] == 201 and said[1]["message"]["text"] == "hi there", said
        time.sleep(1.05)
        empty = conn.send("POST", path, {"channel": "players", "text": "\u0000\u0007\n"}, site.seat)
        assert empty[0] == 400 and empty[1]["error"]["code"] == "chat_empty", empty
    finally:
        conn.close()


def test_tidy() -> None:
    from boardplay.web.text import tidy  # here: the module is new, the rest runs on older code

    assert tidy("  a\u0000b\u202ec\u2066d\u2069\u0085e\u2028f\tg\r\nh  ") == "a b c d e f g h"
    assert tidy("a\u200bb\ufeff\u2060c") == "abc"
    assert tidy("\u0007\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u2067\u2068") == ""
    assert tidy("東京 \U0001f44d\U0001f3fd é") == "東京 \U0001f44d\U0001f3fd é"
    assert tidy("family: \U0001f468\u200d\U0001f469\u200d\U0001f467") == (
        "family: \U0001f468\u200d\U0001f469\u200d\U0001f467"
    )  # the joiner stays: it builds the emoji


def test_only_chat_bodies_have_a_text_field(site: Site) -> None:
    """``text`` is the field the front door lets hold control characters (chat tidies each into
    a space before it is stored): no other body may name a field so, or its text would pass
    unchecked."""
    schema = site.app.openapi()
    components = schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                ref = media["schema"].get("$ref", "")
                model = components.get(ref.rsplit("/", 1)[-1], media["schema"])
                if "text" in model.get("properties", {}):
                    assert path.endswith("/chat"), (method, path)


def test_the_refusal_names_where_and_which_character(site: Site) -> None:
    conn = Connection(site.port)
    try:
        for method, path, body, who, words in (
            ("GET", "/api/games?ids=a%00", None, {}, "query's parameter 'ids'"),
            ("GET", "/api/players/a%1bb", None, {}, "path holds the control character U+001B"),
            ("POST", "/api/account/tokens", {"label": "a\u0000", "scopes": SCOPES}, site.player,
             "field label holds the control character U+0000 (NUL)"),
            ("POST", "/api/games", {"game": "tiny", "seats": [{"kind": "me"}, {"name": "\u0007"}]},
             {}, "field seats[1].name holds the control character U+0007 (BEL)"),
        ):  # fmt: skip
            status, answer, _ = conn.send(method, path, body, who)
            assert status == 400 and words in answer["error"]["message"], answer
    finally:
        conn.close()


def test_a_number_past_its_column_is_refused_alike(site: Site) -> None:
    """A chat message's id past its SQL ``INTEGER`` column: PostgreSQL refused the query (a 500,
    found by the fuzzers on PostgreSQL), SQLite found no message; now 400 on both."""
    conn = Connection(site.port)
    try:
        for number in ("2147483648", "9007199254740992"):
            path = f"/api/games/{site.game}/chat/{number}/report"
            status, answer, _ = conn.send("POST", path, {}, site.seat)
            assert status == 400 and answer["error"]["code"] == "bad_request", answer
        status, answer, _ = conn.send("POST", f"/api/games/{site.game}/chat/2147483647/report",
                                      {}, site.seat)  # fmt: skip
        assert status == 404, answer
    finally:
        conn.close()
