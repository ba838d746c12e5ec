"""The push sender against push services that misbehave (the fifth reliability round's N6, N9
and N12): a service that hangs delays only its own pushes, never more than a few of its posts
are out at once, a huge answer is not read whole, and an endpoint the sender could never post
to is refused when it is given and dropped (not retried) if it was stored before.

The push services are fake ones on loopback, allowed by the operator's setting
(``BOARDPLAY_WEB_PUSH_SERVICES``), each answering by path: ``/hang/...`` holds the post until
the test lets it go, ``/huge/...`` answers 201 with a 20 MB body written as it goes, anything
else 201 at once. The pushes are queued by challenges, each pushed to every device of the
account challenged: Kenji's devices hang, Mika's answer, and Kenji is challenged first."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from accountcalls import PASSWORD
from fastapi.testclient import TestClient
from pushservice import Device
from websettings import tiny_settings

from boardplay.web.accounts.service import COOKIE, DEVICE_COOKIE
from boardplay.web.app import create_app

MB = 1 << 20
HUGE = 20 * MB
CHUNK = 64 * 1024
SEND_BUFFER = 64 * 1024
QUICK = 2.0
"""Seconds within which a push to a healthy service must be posted, whatever else hangs."""


@dataclass
class Service:
    """What a fake push service saw: each post's path and when it came, how many posts it
    holds now and held at most at once, and how much of a huge answer it got to write."""

    origin: str = ""
    arrived: dict[str, list[float]] = field(default_factory=dict)
    holding: int = 0
    most: int = 0
    written: int = 0
    done_writing: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, path: str) -> int:
        with self.lock:
            return len(self.arrived.get(path, []))

    def wait(self, path: str, timeout: float) -> float:
        """When the first post to ``path`` came (``time.monotonic``); fails after ``timeout``."""
        end = time.monotonic() + timeout
        while not self.count(path):
            assert time.monotonic() < end, f"no push to {path} within {timeout} s"
            time.sleep(0.01)
        with self.lock:
            return self.arrived[path][0]

    def handle(self, request: BaseHTTPRequestHandler) -> None:
        request.rfile.read(int(request.headers.get("Content-Length", "0")))
        with self.lock:
            self.arrived.setdefault(request.path, []).append(time.monotonic())
        if request.path.startswith("/hang/"):
            with self.lock:
                self.holding += 1
                self.most = max(self.most, self.holding)
            try:
                self.release.wait(30)
            finally:
                with self.lock:
                    self.holding -= 1
        if request.path.startswith("/huge/"):
            self.huge(request)
            return
        request.send_response(201)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def huge(self, request: BaseHTTPRequestHandler) -> None:
        """201 with a body of ``HUGE`` bytes, made as it is written: whatever the sender does
        not read is never made, and ``written`` says how far the writing got."""
        request.send_response(201)
        request.send_header("Content-Length", str(HUGE))
        request.end_headers()
        chunk = b"x" * CHUNK
        try:
            for _ in range(HUGE // CHUNK):
                request.wfile.write(chunk)
                with self.lock:
                    self.written += len(chunk)
        except OSError:
            pass  # the sender hung up
        finally:
            self.done_writing.set()


def start(service: Service) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def setup(self) -> None:
            # A small send buffer, fixed (the kernel would grow it to megabytes): what the
            # service gets to write is then what the sender read, give or take its own buffer.
            self.request.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            super().setup()

        def do_POST(self) -> None:
            service.handle(self)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    service.origin = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def services() -> Iterator[tuple[Service, Service]]:
    """Two push services on loopback (two origins: two services to the sender)."""
    slow, quick = Service(), Service()
    servers = [start(slow), start(quick)]
    yield slow, quick
    for service, server in zip((slow, quick), servers, strict=True):
        service.release.set()
        server.shutdown()
        server.server_close()


@pytest.fixture
def app(
    tmp_path: Path,
    services: tuple[Service, Service],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> Iterator[TestClient]:
    """The app, allowing both services, on SQLite (or PostgreSQL: ``indirect`` parameter)."""
    monkeypatch.setenv("BOARDPLAY_WEB_PUSH_SERVICES", ",".join(s.origin for s in services))
    settings = tiny_settings(tmp_path)
    if getattr(request, "param", "sqlite") == "postgresql":
        url = request.getfixturevalue("postgres_url")
        settings = dataclasses.replace(settings, database_url=url)
    with TestClient(create_app(settings)) as client:
        yield client
        for service in services:  # the posts in hand end before the app stops
            service.release.set()


@dataclass
class Player:
    """A signed-in player; ``device`` names the browser a request comes from."""

    client: TestClient
    cookie: str
    csrf: str

    def call(self, method: str, path: str, body: Any = None, device: str = "") -> Any:
        cookies = f"{COOKIE}={self.cookie}"
        if device:
            cookies += f"; {DEVICE_COOKIE}={device}"
        headers = {"Cookie": cookies, "X-CSRF-Token": self.csrf}
        return self.client.request(method, path, json=body, headers=headers)


def sign_up(client: TestClient, name: str) -> Player:
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    player = Player(client, answer.cookies[COOKIE], answer.json()["csrf"])
    client.cookies.clear()
    return player


def subscription(endpoint: str) -> dict[str, Any]:
    """``PushSubscription.toJSON()`` of a browser whose push service gave ``endpoint``."""
    return {**Device("", "any").subscription(), "endpoint": endpoint}


def subscribe_devices(player: Player, endpoints: list[str]) -> None:
    """One device of ``player`` for each endpoint, subscribed in this order."""
    for n, endpoint in enumerate(endpoints):
        device = f"device-cookie-of-browser-number-{n:02d}"
        answer = player.call("PUT", "/api/push", subscription(endpoint), device)
        assert answer.status_code == 200, answer.text
        assert answer.json()["devices"] == n + 1


def challenge(hana: Player, name: str = "Kenji") -> float:
    """Hana challenges ``name``: a push to each of its devices. When they were queued."""
    queued = time.monotonic()
    sent = hana.call("POST", "/api/challenges", {"to": name, "game": "tiny"})
    assert sent.status_code == 201, sent.text
    return queued


def held(service: Service, posts: int) -> None:
    """Wait until ``service`` holds ``posts`` posts (then check it holds no more)."""
    end = time.monotonic() + QUICK
    while service.holding < posts:
        assert time.monotonic() < end, f"{service.holding} posts held, not {posts}"
        time.sleep(0.01)
    time.sleep(0.3)
    assert service.most == service.holding == posts


def pusher_of(client: TestClient) -> Any:
    return client.app.state.hub.push  # type: ignore[attr-defined]


def outbox(client: TestClient) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pusher_of(client).store.outbox()
    return rows


def settle(client: TestClient, timeout: float = 20.0) -> list[dict[str, Any]]:
    """The push outbox once nothing in it is waiting or in a sender's hand."""
    end = time.monotonic() + timeout
    while True:
        rows = outbox(client)
        if all(r["state"] != "queued" for r in rows):
            return rows
        assert time.monotonic() < end, rows
        time.sleep(0.05)


# ----- N9: an endpoint is checked as the sender will use it --------------------------------------
@pytest.mark.parametrize(
    ("endpoint", "named", "rule"),
    [
        ("https://fcm.goog\tleapis.com/fcm/send/x", "a tab at position 16", "printable ASCII"),
        (
            "https://fcm.googleapis.com/fcm/send/x\r\nX-Evil: 1",
            "a carriage return (CR)",
            "printable ASCII",
        ),
        ("https://fcm.googleapis.com\n/fcm/send/x", "a line feed (LF)", "printable ASCII"),
        ("https://fcm.googleapis.com/fcm/send/a b", "a space", "printable ASCII"),
        # refused at the edge with every other text (web/text.py), before the push check
        ("https://fcm.googleapis.com/fcm/send/\x00", "U+0000 (NUL)", "no control character"),
        ("https://fcm.googleapis.com/fcm/send/caf\u00e9", "U+00E9 (LATIN SMALL", "printable ASCII"),
    ],
)
def test_an_endpoint_with_control_characters_or_spaces_is_refused(
    client: TestClient, endpoint: str, named: str, rule: str
) -> None:
    """``urlsplit`` drops tab, CR and LF before the host is checked, so the tab endpoint passed
    as fcm.googleapis.com and was stored, and httpx refused it at every send (today: 200)."""
    hana = sign_up(client, "Hana")
    answer = hana.call("PUT", "/api/push", subscription(endpoint), "hana-browser-device-cookie")
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]["message"]
    assert "endpoint" in message and named in message and rule in message, message
    good = subscription("https://fcm.googleapis.com/fcm/send/x")
    assert hana.call("PUT", "/api/push", good, "hana-browser-device-cookie").status_code == 200


def test_a_stored_endpoint_no_push_can_be_posted_to_is_dropped_not_retried(
    app: TestClient, services: tuple[Service, Service]
) -> None:
    """A subscription stored before the check (its host with a tab in it): its push is given
    up at once and the subscription forgotten, as for a service's 410 (today: retried after
    30 s, 2 and 8 minutes, the subscription kept)."""
    quick = services[1]
    hana, kenji = sign_up(app, "Hana"), sign_up(app, "Kenji")
    subscribe_devices(kenji, [f"{quick.origin}/ok/0"])
    broken = quick.origin.replace("127.0.0.1", "127.0.\t0.1") + "/ok/0"
    with pusher_of(app).store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE push_subscriptions SET endpoint = :e"), {"e": broken})
    challenge(hana)
    end = time.monotonic() + 10
    while not [r for r in outbox(app) if r["attempts"] and r["claimed_by"] is None]:
        assert time.monotonic() < end, outbox(app)
        time.sleep(0.05)
    row = outbox(app)[0]
    assert row["state"] == "gone", row
    assert "cannot be posted to" in row["last_error"] and row["attempts"] == 1
    assert pusher_of(app).store.subscriptions() == []
    assert kenji.call("GET", "/api/push").json()["devices"] == 0
    assert quick.count("/ok/0") == 0


# ----- N12: a push service's answer is read up to a cap ------------------------------------------
def test_a_huge_answer_is_not_read_whole(
    app: TestClient, services: tuple[Service, Service]
) -> None:
    """A service answering 201 with 20 MB: the push counts as sent and the sender hangs up
    after the first few kB, so the service gets to write only what the sockets' buffers hold
    (today: all 20 MB read into memory)."""
    quick = services[1]
    hana, kenji = sign_up(app, "Hana"), sign_up(app, "Kenji")
    subscribe_devices(kenji, [f"{quick.origin}/huge/0"])
    challenge(hana)
    [row] = settle(app)
    assert row["state"] == "sent" and row["status_code"] == 201, row
    assert quick.done_writing.wait(10), "the service is still writing its answer"
    assert quick.written < HUGE // 10, f"{quick.written} bytes of the answer were written"


# ----- N6: pushes are posted side by side -------------------------------------------------------
def test_a_push_service_that_hangs_delays_only_its_own_pushes(
    app: TestClient, services: tuple[Service, Service]
) -> None:
    """Three posts that hang, queued first, and a fourth to the same service that answers at
    once: the fourth is posted at once while the three still hang (today: one post after
    another, each cut at 10 s, the fourth at +30 s)."""
    slow = services[0]
    hana, kenji, mika = (sign_up(app, name) for name in ("Hana", "Kenji", "Mika"))
    subscribe_devices(kenji, [f"{slow.origin}/hang/{n}" for n in range(3)])
    subscribe_devices(mika, [f"{slow.origin}/ok"])
    challenge(hana, "Kenji")
    queued = challenge(hana, "Mika")
    assert slow.wait("/ok", QUICK) - queued < QUICK
    held(slow, 3)
    slow.release.set()
    rows = settle(app)
    assert [r["state"] for r in rows] == ["sent"] * 4 and all(r["attempts"] == 1 for r in rows)
    assert all(slow.count(p) == 1 for p in ("/hang/0", "/hang/1", "/hang/2", "/ok"))


@pytest.mark.parametrize("app", ["sqlite", "postgresql"], indirect=True)
def test_one_push_service_holds_a_few_posts_at_most(
    app: TestClient, services: tuple[Service, Service]
) -> None:
    """Six posts to a service that hangs, queued first, and one to another service: that one
    goes at once, and the hanging service never holds more than ``posts_per_service`` posts;
    once it answers, its other pushes follow, each posted once (today: the other service's
    push waits a minute). On PostgreSQL too: the claim skips a busy service's pushes in SQL."""
    slow, quick = services
    hana, kenji, mika = (sign_up(app, name) for name in ("Hana", "Kenji", "Mika"))
    subscribe_devices(kenji, [f"{slow.origin}/hang/{n}" for n in range(6)])
    subscribe_devices(mika, [f"{quick.origin}/ok"])
    challenge(hana, "Kenji")
    queued = challenge(hana, "Mika")
    assert quick.wait("/ok", QUICK) - queued < QUICK
    held(slow, pusher_of(app).config.posts_per_service)
    assert sum(slow.count(f"/hang/{n}") for n in range(6)) == slow.most == 4
    slow.release.set()
    rows = settle(app)
    assert [r["state"] for r in rows] == ["sent"] * 7
    assert [slow.count(f"/hang/{n}") for n in range(6)] == [1] * 6


def test_a_process_posts_at_most_so_many_pushes_at_once(
    app: TestClient, services: tuple[Service, Service]
) -> None:
    """The process's own ceiling: with two posts at once, two of three hanging posts are out
    and the rest wait for them, all posted once in the end."""
    slow, quick = services
    pusher = pusher_of(app)
    pusher.config = dataclasses.replace(pusher.config, posts_at_once=2)
    hana, kenji, mika = (sign_up(app, name) for name in ("Hana", "Kenji", "Mika"))
    subscribe_devices(kenji, [f"{slow.origin}/hang/{n}" for n in range(3)])
    subscribe_devices(mika, [f"{quick.origin}/ok"])
    challenge(hana, "Kenji")
    challenge(hana, "Mika")
    held(slow, 2)
    assert quick.count("/ok") == 0
    slow.release.set()
    rows = settle(app)
    assert [r["state"] for r in rows] == ["sent"] * 4
    assert [slow.count(f"/hang/{n}") for n in range(3)] == [1] * 3 and quick.count("/ok") == 1
