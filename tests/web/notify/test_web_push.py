"""Web Push (issue 52): a push service on loopback (``pushservice.py``) receives the pushes a
server sends; each is decrypted with the device's own key and auth secret (RFC 8291) and its
VAPID token checked (RFC 8292). "Your turn" reaches a player with no page open, in the
account's language; nothing goes to a player whose page shows the game; a 404 or 410 from the
service deletes the subscription; signing out everywhere, a new password and deleting the
account remove them; the ceilings hold; the key is made once and kept."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from accountcalls import PASSWORD
from accountcalls import sign_up as mail_player
from fastapi.testclient import TestClient
from pushservice import Device, PushService, push_service, vapid_claims
from test_web_mail import (  # the mail tests' SMTP server on loopback, and their helpers
    Inbox,
    call,
    confirmed,
    correspondence_game,
    link_in,
    mail_settings,
    mailer_of,
    put_email,
    row_of,
    text_of,
)
from webcalls import auth, refused
from websettings import tiny_settings

from boardplay.web.accounts.service import COOKIE, DEVICE_COOKIE
from boardplay.web.app import create_app
from boardplay.web.notify import Pusher
from boardplay.web.notify.pushstore import push_subscriptions_table

DAY = 86_400


@dataclass
class Player:
    """A signed-in player on one browser: its session and device cookies and CSRF token."""

    client: TestClient
    name: str
    cookie: str
    device: str
    csrf: str

    def headers(self, csrf: bool = True, token: str | None = None) -> dict[str, str]:
        out = {"Cookie": f"{COOKIE}={self.cookie}; {DEVICE_COOKIE}={self.device}"}
        if csrf:
            out["X-CSRF-Token"] = self.csrf
        if token:
            out["Authorization"] = f"Bearer {token}"
        return out

    def call(self, method: str, path: str, body: Any = None, csrf: bool = True) -> Any:
        return self.client.request(method, path, json=body, headers=self.headers(csrf))


def sign_up(client: TestClient, name: str, device: str | None = None) -> Player:
    """A new account signed in on a browser (a new one, or the browser whose device cookie is
    ``device``)."""
    headers = {"Cookie": f"{DEVICE_COOKIE}={device}"} if device else {}
    response = client.post(
        "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=headers
    )
    assert response.status_code == 201, response.text
    found = device or response.cookies.get(DEVICE_COOKIE)
    player = Player(client, name, response.cookies[COOKIE], found, response.json()["csrf"])
    client.cookies.clear()
    return player


def sign_in(client: TestClient, player: Player) -> Player:
    """The same player signed in again on the same browser (a new session)."""
    response = client.post(
        "/api/account/signin",
        json={"name": player.name, "password": PASSWORD},
        headers={"Cookie": f"{DEVICE_COOKIE}={player.device}"},
    )
    assert response.status_code == 200, response.text
    client.cookies.clear()
    return Player(
        client, player.name, response.cookies[COOKIE], player.device, response.json()["csrf"]
    )


@pytest.fixture
def service() -> Iterator[PushService]:
    yield from push_service()


@pytest.fixture
def pushed(
    tmp_path: Path, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, PushService]]:
    monkeypatch.setenv("BOARDPLAY_WEB_PUSH_SERVICES", service.origin)
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        yield client, service


def pusher_of(client: TestClient) -> Pusher:
    pusher: Pusher = client.app.state.hub.push  # type: ignore[attr-defined]
    return pusher


def subscribe(player: Player, device: Device) -> dict[str, Any]:
    answer = player.call("PUT", "/api/push", device.subscription())
    assert answer.status_code == 200, answer.text
    status: dict[str, Any] = answer.json()
    assert status["device"] is True and status["endpoint"] == device.endpoint
    return status


def correspondence(first: Player, second: Player) -> dict[str, Any]:
    """A correspondence game (3 days a move) of ``first`` (seat 0) against ``second``."""
    made = first.call(
        "POST",
        "/api/games",
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"days": 3}},
    )
    assert made.status_code == 201, made.text
    joined = second.call("POST", f"/api/games/{made.json()['id']}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    return {"id": made.json()["id"], 0: made.json()["token"], 1: joined.json()["token"]}


def play_turn(client: TestClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """Every step of ``seat``'s turn, made over HTTP (no socket: no page is open)."""
    view = client.get(f"/api/games/{game['id']}", headers=auth(game[seat])).json()
    assert view["current_player"] == seat, view
    while view["current_player"] == seat and not view.get("terminal"):
        answer = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": view["legal"][0]["id"], "ply": view["ply"]},
            headers=auth(game[seat]),
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return view


def settle(client: TestClient, timeout: float = 15.0) -> list[dict[str, Any]]:
    """The push outbox once nothing in it is waiting."""
    end = time.monotonic() + timeout
    while True:
        rows = pusher_of(client).store.outbox()
        if all(r["state"] != "queued" for r in rows):
            return rows
        assert time.monotonic() < end, rows
        time.sleep(0.02)


def test_your_turn_reaches_a_player_with_no_open_page_decrypted_signed_and_in_their_language(
    pushed: tuple[TestClient, PushService],
) -> None:
    client, service = pushed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    phone = Device(service.origin, "kenji-phone")
    status = subscribe(kenji, phone)
    assert status["available"] is True and len(status["key"]) == 87 and status["devices"] == 1
    game = correspondence(hana, kenji)
    start = time.time()
    play_turn(client, game, 0)  # Hana moves: Kenji, with no page open, is told

    push = service.wait(phone.path, 1)[0]
    message = phone.read(push)
    assert message["kind"] == "turn" and message["title"] == "Your turn"
    assert message["body"] == "Tiny take against Hana"
    assert message["url"] == f"/#/game/{game['id']}" and message["game"] == game["id"]
    assert message["tag"] == f"boardplay-turn-{game['id']}" and message["lang"] == "en"
    assert message["off"] == "Turn off on this device"
    claims = vapid_claims(push, status["key"])
    assert claims["aud"] == service.origin and claims["sub"].startswith(("mailto:", "https://"))
    assert start < claims["exp"] <= time.time() + DAY
    assert push.headers["TTL"] == str(12 * 3600) and push.headers["Urgency"] == "normal"
    assert push.headers["Topic"] == f"turn-{game['id']}"

    # Kenji switches the page to Japanese: his next push speaks it.
    assert kenji.call("PUT", "/api/account/language", {"language": "ja"}).json() == {
        "language": "ja"
    }
    assert kenji.call("GET", "/api/account/me").json()["account"]["language"] == "ja"
    play_turn(client, game, 1)
    play_turn(client, game, 0)
    message = phone.read(service.wait(phone.path, 2)[1])
    assert message["title"] == "あなたの手番です" and message["lang"] == "ja"
    assert message["body"] == "Tiny take（対戦相手：Hana）"
    assert message["off"] == "この端末への通知を止める"
    refused(kenji.call("PUT", "/api/account/language", {"language": "fr"}))
    assert {r["state"] for r in settle(client)} == {"sent"}


def test_game_over_goes_to_each_player_not_looking_and_nothing_for_a_game_on_screen(
    pushed: tuple[TestClient, PushService],
) -> None:
    client, service = pushed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    hana_phone, kenji_phone = Device(service.origin, "hana"), Device(service.origin, "kenji")
    subscribe(hana, hana_phone)
    subscribe(kenji, kenji_phone)
    game = correspondence(hana, kenji)
    # Kenji's page shows the game (a socket holding his seat): Hana's moves push him nothing.
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": game[1], "id": 1, "presence": True})
        while not (lambda m: m["type"] == "state" and m.get("id") == 1)(ws.receive_json()):
            pass
        view = play_turn(client, game, 0)
        while not view.get("terminal"):  # to the end, Kenji looking all the while
            view = play_turn(client, game, view["current_player"])
        settle(client)
        kinds = [hana_phone.read(p)["kind"] for p in service.to(hana_phone.path)]
        assert "end" in kinds and not service.to(kenji_phone.path)
    end = [hana_phone.read(p) for p in service.to(hana_phone.path)][-1]
    assert end["kind"] == "end" and end["title"] == "Game over: Tiny take"
    assert end["body"].startswith("Against Kenji. ") and end["body"].endswith(
        ("You won.", "You did not win.", "You share the win.", "A draw: nobody won.")
    )
    assert service.to(hana_phone.path)[-1].headers["Urgency"] == "low"


def test_a_404_or_410_from_the_push_service_removes_the_subscription(
    pushed: tuple[TestClient, PushService],
) -> None:
    client, service = pushed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    gone, lost, kept = (Device(service.origin, n) for n in ("gone", "lost", "kept"))
    subscribe(kenji, gone)
    laptop = sign_in(client, kenji)
    laptop.device = "laptop-device-cookie-" + "x" * 20
    subscribe(laptop, lost)
    third = Player(client, "Kenji", laptop.cookie, "third-device-cookie-" + "y" * 20, laptop.csrf)
    subscribe(third, kept)
    assert len(pusher_of(client).store.subscriptions()) == 3
    service.answers[gone.path] = 410
    service.answers[lost.path] = 404
    game = correspondence(hana, kenji)
    play_turn(client, game, 0)
    for device in (gone, lost, kept):
        assert device.read(service.wait(device.path, 1)[0])["kind"] == "turn"
    rows = settle(client)
    assert sorted(r["state"] for r in rows) == ["gone", "gone", "sent"]
    left = pusher_of(client).store.subscriptions()
    assert [s["endpoint"] for s in left] == [kept.endpoint]
    assert kenji.call("GET", "/api/push").json()["device"] is False  # its phone was gone
    # The next turn goes to the device that is left, and only there.
    play_turn(client, game, 1)
    play_turn(client, game, 0)
    service.wait(kept.path, 2)
    assert len(service.to(gone.path)) == len(service.to(lost.path)) == 1


def test_signing_out_everywhere_a_new_password_and_deletion_remove_subscriptions(
    pushed: tuple[TestClient, PushService],
) -> None:
    client, service = pushed
    hana = sign_up(client, "Hana")
    here, there = Device(service.origin, "here"), Device(service.origin, "there")
    subscribe(hana, here)
    other = sign_in(client, hana)
    other.device = "another-browser-device-cookie-" + "z" * 10
    subscribe(other, there)
    store = pusher_of(client).store
    assert len(store.subscriptions()) == 2
    # A new password, set on the first browser: the other device's subscription goes.
    answer = hana.call("POST", "/api/account/password", {"old": PASSWORD, "new": PASSWORD + "!"})
    assert answer.status_code == 200, answer.text
    assert [s["endpoint"] for s in store.subscriptions()] == [here.endpoint]
    hana = Player(client, "Hana", answer.cookies[COOKIE], hana.device, answer.json()["csrf"])
    assert hana.call("GET", "/api/push").json()["device"] is True
    # Signing out everywhere: every subscription goes.
    assert hana.call("POST", "/api/account/signout-everywhere", {}).status_code == 200
    assert store.subscriptions() == []
    # Deleting the account: its subscriptions go with it.
    kenji = sign_up(client, "Kenji")
    subscribe(kenji, Device(service.origin, "kenji"))
    assert kenji.call("POST", "/api/account/delete", {"confirm": "Kenji"}).status_code == 200
    assert store.subscriptions() == []
    # Signing out on one browser forgets that browser's subscription only.
    mika = sign_up(client, "Mika")
    subscribe(mika, Device(service.origin, "mika"))
    mika_laptop = sign_in(client, mika)
    mika_laptop.device = "mika-laptop-device-cookie-" + "w" * 10
    subscribe(mika_laptop, Device(service.origin, "mika-laptop"))
    assert mika.call("POST", "/api/account/signout", {}).status_code == 200
    assert [s["endpoint"] for s in store.subscriptions()] == [f"{service.origin}/push/mika-laptop"]


def test_subscriptions_are_checked_and_the_one_click_off_needs_the_devices_secret(
    pushed: tuple[TestClient, PushService],
) -> None:
    client, service = pushed
    assert refused(client.get("/api/push"), 401)
    hana = sign_up(client, "Hana")
    phone = Device(service.origin, "phone")
    body = phone.subscription()
    assert "CSRF" in refused(hana.call("PUT", "/api/push", body, csrf=False), 403)
    elsewhere = {**body, "endpoint": "http://169.254.169.254/latest/meta-data"}
    assert "push service" in refused(hana.call("PUT", "/api/push", elsewhere))
    for name, value in (("p256dh", "AAAA"), ("auth", "c2hvcnQ"), ("p256dh", "!!")):
        bad = {**body, "keys": {**body["keys"], name: value}}
        assert "keys" in refused(hana.call("PUT", "/api/push", bad))
    subscribe(hana, phone)
    # Another account cannot take this browser's endpoint with keys of its own.
    thief = sign_up(client, "Thief")
    stolen = {**Device(service.origin, "phone").subscription()}
    assert "endpoint" in refused(thief.call("PUT", "/api/push", stolen), 409)
    assert hana.call("GET", "/api/push").json()["device"] is True
    # The notification's "Turn off" button: the service worker posts without any cookie.
    wrong = client.post(
        "/api/push/off", json={"endpoint": phone.endpoint, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}
    )
    assert wrong.json() == {"removed": False}
    secret = body["keys"]["auth"]
    right = client.post("/api/push/off", json={"endpoint": phone.endpoint, "auth": secret})
    assert right.json() == {"removed": True}
    assert hana.call("GET", "/api/push").json()["device"] is False
    # The browser replaced its subscription: the new one takes the old one's place.
    subscribe(hana, phone)
    fresh = Device(service.origin, "phone-renewed")
    renewed = client.post(
        "/api/push/renew",
        json={"old": {"endpoint": phone.endpoint, "auth": secret}, "new": fresh.subscription()},
    )
    assert renewed.json() == {"renewed": True}
    assert hana.call("GET", "/api/push").json()["endpoint"] == fresh.endpoint
    # Turned off from the account page.
    assert hana.call("DELETE", "/api/push").json()["device"] is False


def test_ceilings_one_waiting_turn_per_game_and_challenges(
    tmp_path: Path, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDPLAY_WEB_PUSH_SERVICES", service.origin)
    monkeypatch.setenv("BOARDPLAY_WEB_PUSHES_PER_ACCOUNT_HOUR", "3")
    monkeypatch.setenv("BOARDPLAY_WEB_PUSH_DEVICES_PER_ACCOUNT", "2")
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
        pusher = pusher_of(client)
        devices = [Device(service.origin, f"d{n}") for n in range(3)]
        for n, device in enumerate(devices):
            kenji.device = f"kenji-device-cookie-number-{n}-" + "q" * 10
            subscribe(kenji, device)
        kept = [s["endpoint"] for s in pusher.store.subscriptions()]
        assert kept == [devices[1].endpoint, devices[2].endpoint]  # the oldest went
        # A challenge: pushed at once, urgent, living as long as the challenge.
        sent = hana.call("POST", "/api/challenges", {"to": "Kenji", "game": "tiny"})
        assert sent.status_code == 201, sent.text
        push = service.wait(devices[2].path, 1)[0]
        message = devices[2].read(push)
        assert message["kind"] == "challenge" and message["title"] == "Hana challenges you"
        assert "Tiny take, casual" in message["body"] and message["url"] == "/#/"
        assert push.headers["Urgency"] == "high" and push.headers["TTL"] == "600"
        # Two more notifications fill the hour's three; the fourth is dropped, for every device.
        game = correspondence(hana, kenji)
        play_turn(client, game, 0)
        service.wait(devices[2].path, 2)
        play_turn(client, game, 1)
        play_turn(client, game, 0)
        service.wait(devices[2].path, 3)
        view = play_turn(client, game, 1)
        if not view.get("terminal"):
            play_turn(client, game, 0)
        settle(client)
        assert len(service.to(devices[2].path)) == 3 == len(service.to(devices[1].path))
        assert pusher.counters.dropped >= 1


def test_the_server_key_is_made_once_kept_and_an_operators_key_wins(
    tmp_path: Path, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOARDPLAY_WEB_PUSH_SERVICES", service.origin)
    settings = tiny_settings(tmp_path)
    keys = []
    for _ in range(2):
        with TestClient(create_app(settings)) as client:
            keys.append(pusher_of(client).public_key)
            engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
    assert keys[0] == keys[1] and keys[0] is not None
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM push_keys")).scalar() == 1
    from boardplay.web.notify.webpush import ServerKey, new_private_key

    mine = new_private_key()
    monkeypatch.setenv("BOARDPLAY_WEB_VAPID_PRIVATE_KEY", mine)
    with TestClient(create_app(settings)) as client:
        assert pusher_of(client).public_key == ServerKey(mine).public != keys[0]
        hana = sign_up(client, "Hana")
        assert hana.call("GET", "/api/push").json()["key"] == ServerKey(mine).public
    monkeypatch.setenv("BOARDPLAY_WEB_VAPID_PRIVATE_KEY", "not a key")
    with pytest.raises(ValueError, match="BOARDPLAY_WEB_VAPID_PRIVATE_KEY"):
        create_app(settings)


def test_pushes_made_for_an_older_key_are_not_sent(
    pushed: tuple[TestClient, PushService],
) -> None:
    client, service = pushed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    phone = Device(service.origin, "old-key")
    subscribe(kenji, phone)
    store = pusher_of(client).store
    with store.engine.begin() as conn:  # the operator changed the key since
        conn.execute(push_subscriptions_table.update().values(server_key="an older key"))
    assert kenji.call("GET", "/api/push").json()["device"] is False
    game = correspondence(hana, kenji)
    play_turn(client, game, 0)
    time.sleep(0.3)
    assert not service.to(phone.path) and settle(client) == []


def test_the_manifest_and_the_service_worker_are_served_from_the_root(client: TestClient) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    found = manifest.json()
    assert found["display"] == "standalone" and found["start_url"] == "/" and found["name"]
    sizes = {icon["sizes"] for icon in found["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in found["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon
    worker = client.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache" and "showNotification" in worker.text
    again = client.get("/sw.js", headers={"If-None-Match": worker.headers["etag"]})
    assert again.status_code == 304
    page = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


@pytest.fixture
def mailing(tmp_path: Path) -> Iterator[tuple[TestClient, Inbox]]:
    """An app that mails through an SMTP server on loopback (``test_web_mail.py``'s)."""
    from aiosmtpd.controller import Controller
    from browsing import free_port

    handler, port = Inbox(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    with TestClient(create_app(mail_settings(tmp_path, port))) as client:
        yield client, handler
    controller.stop()


def test_mails_speak_the_language_the_account_chose(mailing: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailing
    hana, kenji = mail_player(client, "Hana"), mail_player(client, "Kenji")
    assert hana.client.put(
        "/api/account/language", json={"language": "ja"}, headers=hana.headers()
    ).json() == {"language": "ja"}
    assert put_email(hana, "hana@example.org").json()["sent"] is True
    confirmation = inbox.wait("hana@example.org", 1)[0]
    assert confirmation["Subject"] == "boardplayのメールアドレスの確認"
    words = text_of(confirmation)
    assert "アカウント「Hana」" in words and "無視してください" in words
    assert client.get(link_in(confirmation)).status_code == 200
    confirmed(kenji, inbox, "kenji@example.org")
    game = correspondence_game(hana, kenji)
    row = row_of(client, game["id"])
    call(client, mailer_of(client).your_turn, row, 1)  # Hana's came as the game started
    turn = inbox.wait("hana@example.org", 2)[-1]
    assert turn["Subject"] == "あなたの手番です：Tiny take（対戦相手：Kenji）"
    body = text_of(turn)
    assert "Kenjiさんとの" in body and "手番を行う：" in body and "UTC に切れます" in body
    assert "このメールを止める：" in body and "受け取るメールを選ぶ：" in body
    english = inbox.wait("kenji@example.org", 2)[-1]
    assert english["Subject"] == "Your turn: Tiny take against Hana"
    assert "Turn these mails off:" in text_of(english)
    row.result = {"text": "Red wins 6-4", "winners": [0]}
    call(client, mailer_of(client).game_over, row)
    end = text_of(inbox.wait("hana@example.org", 3)[-1])
    assert "あなたの勝ちです。" in end and "Red wins" not in end
    assert "Red wins 6-4 You did not win." in text_of(inbox.wait("kenji@example.org", 3)[-1])


def test_each_push_leaves_once_whichever_processes_send(
    pushed: tuple[TestClient, PushService],
) -> None:
    """Three senders on one database (the app's and two more, as other server processes'
    would be) drain the same outbox at once: every push is posted exactly once."""
    client, service = pushed
    kenji = sign_up(client, "Kenji")
    phone = Device(service.origin, "many")
    subscribe(kenji, phone)
    own = pusher_of(client)
    assert own.key is not None and own.config is not None
    account = own.store.subscriptions()[0]["account_id"]
    for n in range(12):
        made = own.challenge_payload("en", f"Player{n}", "tiny", False, f"c{n}")
        queued = own.store.queue("challenge", f"c{n}", {account: made}, 600, 100, own.key.public)
        assert queued == (1, 0)

    async def race() -> None:
        import asyncio

        others = [Pusher(own.store, own.run, own.config, f"other{n}") for n in range(2)]
        for other in others:
            await other.start()
        try:
            await asyncio.gather(own.drain(), *(other.drain() for other in others))
        finally:
            for other in others:
                await other.close()

    call(client, race)
    rows = settle(client)
    assert [r["state"] for r in rows] == ["sent"] * 12
    assert len({r["claimed_by"] for r in rows}) == 1  # none held any more
    bodies = [phone.read(p)["tag"] for p in service.wait(phone.path, 12)]
    time.sleep(0.5)
    assert sorted(bodies) == sorted(f"boardplay-challenge-c{n}" for n in range(12))
    assert len(service.to(phone.path)) == 12


def test_pushes_on_postgresql(
    postgres_url: str, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same path on PostgreSQL: the key made once, a "your turn" pushed and decrypted, the
    hourly count taken, a 410 deleting the subscription."""
    from dataclasses import replace

    monkeypatch.setenv("BOARDPLAY_WEB_PUSH_SERVICES", service.origin)
    settings = replace(tiny_settings(Path(".")), database_url=postgres_url)
    with TestClient(create_app(settings)) as client:
        hana, kenji = sign_up(client, "PgHana"), sign_up(client, "PgKenji")
        phone, gone = Device(service.origin, "pg-phone"), Device(service.origin, "pg-gone")
        key = subscribe(kenji, phone)["key"]
        other = sign_in(client, kenji)
        other.device = "postgres-other-device-cookie-" + "p" * 10
        subscribe(other, gone)
        service.answers[gone.path] = 410
        game = correspondence(hana, kenji)
        play_turn(client, game, 0)
        push = service.wait(phone.path, 1)[0]
        assert phone.read(push)["title"] == "Your turn" and vapid_claims(push, key)
        service.wait(gone.path, 1)
        settle(client)
        left = pusher_of(client).store.subscriptions()
        assert [s["endpoint"] for s in left] == [phone.endpoint]
    with TestClient(create_app(settings)) as client:
        assert pusher_of(client).public_key == key
