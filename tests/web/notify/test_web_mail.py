"""E-mail notifications (issue 28): a real SMTP server (aiosmtpd) on loopback receives the
confirmation, "your turn" and "game over" mails; their links work; a player who turned mails
off gets none; the ceilings hold; two mailers on one database send each mail once; failures are
retried and then given up."""

from __future__ import annotations

import asyncio
import dataclasses
import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from accountcalls import Player, sign_up
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from browsing import free_port
from fastapi.testclient import TestClient
from webcalls import auth, refused
from websettings import TEST_LIMITS, tiny_settings

from boardplay.web.app import create_app
from boardplay.web.config import Limits, Settings
from boardplay.web.notify.mailer import MAX_ATTEMPTS, MailConfig, Mailer
from boardplay.web.notify.mailstore import (
    BODY_MAX,
    END,
    SUBJECT_MAX,
    Draft,
    MailStore,
    mail_addresses_table,
    mail_outbox_table,
)
from boardplay.web.smtp import parse_smtp_url
from boardplay.web.table.storage import GameRow, Storage

ORIGIN = "http://testserver"
SENDER = "boardplay <boardplay@example.org>"
LINK = re.compile(r"https?://[\w.:-]+(/api/email/(?:confirm|unsubscribe)\?token=[\w-]+)")


class Inbox:
    """An aiosmtpd handler keeping every message it accepts; ``refuse`` holds addresses it
    answers 550 for (a mailbox that does not exist)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse: set[str] = set()
        self.lock = threading.Lock()

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if address in self.refuse:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def wait(self, address: str, count: int, timeout: float = 15.0) -> list[EmailMessage]:
        """The first ``count`` messages to ``address``, waiting for them to arrive."""
        end = time.monotonic() + timeout
        while len(self.to(address)) < count:
            assert time.monotonic() < end, f"{address} got {len(self.to(address))} of {count}"
            time.sleep(0.02)
        return self.to(address)


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


def mail_settings(tmp_path: Path, port: int, **limits: Any) -> Settings:
    return tiny_settings(
        tmp_path,
        limits,
        smtp_url=f"smtp://127.0.0.1:{port}",
        mail_from=SENDER,
        origin=ORIGIN,
    )


@pytest.fixture
def mailed(tmp_path: Path, inbox: tuple[Inbox, int]) -> Iterator[tuple[TestClient, Inbox]]:
    with TestClient(create_app(mail_settings(tmp_path, inbox[1]))) as client:
        yield client, inbox[0]


def mailer_of(client: TestClient) -> Mailer:
    mailer: Mailer = client.app.state.hub.mailer  # type: ignore[attr-defined]
    return mailer


def text_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    content: str = part.get_content()
    return content


def link_in(message: EmailMessage) -> str:
    found = LINK.search(text_of(message))
    assert found, text_of(message)
    return found.group(1)


def put_email(player: Player, address: str, **choices: Any) -> Any:
    return player.client.put(
        "/api/account/email", json={"address": address, **choices}, headers=player.headers()
    )


def confirmed(player: Player, inbox: Inbox, address: str, **choices: Any) -> None:
    """Give ``address`` and confirm it through the link of the mail it is sent."""
    answer = put_email(player, address, **choices)
    assert answer.status_code == 200, answer.text
    assert answer.json()["sent"] is True and answer.json()["email"]["confirmed"] is False
    message = inbox.wait(address, 1)[-1]
    assert "Confirm" in message["Subject"] and message["List-Unsubscribe"] is None
    page = player.client.get(link_in(message), headers={"Accept": "text/html"})
    assert page.status_code == 200 and "Address confirmed" in page.text, page.text
    assert page.headers["referrer-policy"] == "no-referrer"
    assert player.get("/api/account/email").json()["email"]["confirmed"] is True


def correspondence_game(first: Player, second: Player) -> dict[str, Any]:
    made = first.post(
        "/api/games",
        {"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}], "clock": {"days": 3}},
    )
    assert made.status_code == 201, made.text
    joined = second.post(f"/api/games/{made.json()['id']}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    return {"id": made.json()["id"], 0: made.json()["token"], 1: joined.json()["token"]}


def row_of(client: TestClient, game_id: str) -> GameRow:
    row = client.app.state.hub.storage.get_game(game_id)  # type: ignore[attr-defined]
    assert row is not None and row.clock == {"days": 3}
    return row


def call(client: TestClient, hook: Any, *args: Any) -> Any:
    """Run a coroutine of the app on its own event loop (where its database threads live)."""
    assert client.portal is not None
    return client.portal.call(hook, *args)


def outbox(client: TestClient) -> list[dict[str, Any]]:
    return mailer_of(client).store.outbox()


def settle(client: TestClient, timeout: float = 15.0) -> list[dict[str, Any]]:
    """The outbox once no mail in it is waiting or being sent (the SMTP server may have a
    mail a moment before its sender marks it sent)."""
    end = time.monotonic() + timeout
    while True:
        rows = outbox(client)
        if all(r["state"] != "queued" for r in rows):
            return rows
        assert time.monotonic() < end, rows
        time.sleep(0.02)


def test_turn_and_end_mails_arrive_with_working_unsubscribe_links(
    mailed: tuple[TestClient, Inbox],
) -> None:
    client, inbox = mailed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    assert hana.get("/api/account/email").json() == {"available": True, "email": None}
    game = correspondence_game(hana, kenji)
    row = row_of(client, game["id"])
    # Unconfirmed: the address gets its confirmation and nothing else.
    assert put_email(hana, "hana@example.org").json()["sent"] is True
    call(client, mailer_of(client).your_turn, row, 0)
    assert [m["kind"] for m in outbox(client)] == ["confirm"]
    inbox.wait("hana@example.org", 1)
    hana_link = link_in(inbox.to("hana@example.org")[0])
    assert client.get(hana_link).status_code == 200  # confirmed by the first mail's link
    assert "bad_link" in client.get(hana_link).text  # a link confirms once
    confirmed(kenji, inbox, "kenji@example.org", notify_turns=False)

    row.deadline = time.time() + 3 * 86_400
    call(client, mailer_of(client).your_turn, row, 0)
    call(client, mailer_of(client).your_turn, row, 1)  # Kenji turned "your turn" off
    turn = inbox.wait("hana@example.org", 2)[-1]
    assert turn["Subject"] == "Your turn: Tiny take against Kenji"
    assert turn["From"] == SENDER and turn["Auto-Submitted"] == "auto-generated"
    body = text_of(turn)
    assert f"{ORIGIN}/#/game/{game['id']}" in body and "runs out at" in body
    unsubscribe = link_in(turn)
    assert turn["List-Unsubscribe"] == f"<{ORIGIN}{unsubscribe}>"
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    row.result = {"text": "Red wins 6-4", "winners": [0]}
    call(client, mailer_of(client).game_over, row)
    hana_end = inbox.wait("hana@example.org", 3)[-1]
    kenji_end = inbox.wait("kenji@example.org", 2)[-1]
    assert hana_end["Subject"] == kenji_end["Subject"].replace("Hana", "Kenji")
    assert "Red wins 6-4 You won." in text_of(hana_end)
    assert "You won" not in text_of(kenji_end)
    assert len(inbox.to("kenji@example.org")) == 2  # the confirmation and the end, no turn

    # Hana follows the unsubscribe link of the turn mail: no more mails of either kind.
    page = client.get(unsubscribe, headers={"Accept": "text/html"})
    assert page.status_code == 200 and "No more e-mail" in page.text
    assert hana.get("/api/account/email").json()["email"] == {
        "address": "hana@example.org",
        "confirmed": True,
        "notify_turns": False,
        "notify_end": False,
    }
    call(client, mailer_of(client).your_turn, row, 0)
    call(client, mailer_of(client).game_over, row)
    inbox.wait("kenji@example.org", 3)  # Kenji still gets his
    # Kenji unsubscribes with the one-click POST a mail program sends (RFC 8058).
    one_click = client.post(
        link_in(inbox.to("kenji@example.org")[-1]),
        content="List-Unsubscribe=One-Click",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert one_click.status_code == 200 and one_click.json()["code"] == "unsubscribed"
    call(client, mailer_of(client).game_over, row)
    assert {m["state"] for m in settle(client)} == {"sent"}
    assert len(inbox.to("hana@example.org")) == 3 and len(inbox.to("kenji@example.org")) == 3


def test_only_correspondence_games_are_mailed_and_links_are_checked(
    mailed: tuple[TestClient, Inbox],
) -> None:
    client, inbox = mailed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    confirmed(hana, inbox, "hana@example.org")
    game = correspondence_game(hana, kenji)
    row = row_of(client, game["id"])
    before = settle(client)
    row.clock = {"base": 300, "increment": 2}
    call(client, mailer_of(client).your_turn, row, 0)
    row.clock = None
    call(client, mailer_of(client).game_over, row)
    assert outbox(client) == before
    for path in ("/api/email/confirm", "/api/email/unsubscribe"):
        for token in ("", "x", "A" * 43):
            assert refused(client.get(path, params={"token": token})).startswith("This link")
            page = client.get(path, params={"token": token}, headers={"Accept": "text/html"})
            assert page.status_code == 400 and "not (or no longer) valid" in page.text
        refused(client.get(path, params={"token": "A" * 300}))
    assert refused(client.post("/api/email/unsubscribe?token=nope", content="x=1"))


def test_the_address_is_checked_and_needs_a_session_with_its_csrf_token(
    mailed: tuple[TestClient, Inbox],
) -> None:
    client, _inbox = mailed
    assert refused(client.get("/api/account/email"), 401)
    hana = sign_up(client, "Hana")
    body = {"address": "hana@example.org"}
    no_csrf = client.put("/api/account/email", json=body, headers=hana.headers(csrf=False))
    assert "CSRF" in refused(no_csrf, 403)
    for bad in (
        "hana",
        "hana@localhost",
        "a b@example.org",
        "hana@example.org\r\nBcc: x@y.z",
        "ハナ@example.org",
        "x" * 65 + "@example.org",
        "hana@" + "a" * 250 + ".org",
    ):
        assert "e-mail address" in refused(put_email(hana, bad)), bad
    saved = put_email(hana, "  Hana.Sato+games@Example.ORG ", notify_end=False).json()
    assert saved["email"] == {
        "address": "Hana.Sato+games@example.org",
        "confirmed": False,
        "notify_turns": True,
        "notify_end": False,
    }
    again = put_email(hana, "Hana.Sato+games@example.org", notify_end=True).json()
    assert again["sent"] is False and again["email"]["notify_end"] is True
    deleted = client.delete("/api/account/email", headers=hana.headers())
    assert deleted.json() == {"available": True, "email": None}
    assert {m["state"] for m in settle(client)} <= {"cancelled", "sent"}


def test_confirmations_are_capped_per_account_and_per_address(
    tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    settings = mail_settings(tmp_path, inbox[1], confirmations_per_hour=3)
    with TestClient(create_app(settings)) as client:
        hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
        for n in range(3):
            assert put_email(hana, f"h{n}@example.org").status_code == 200
        capped = put_email(hana, "h3@example.org")
        assert "3 an hour" in refused(capped, 429) and capped.headers["retry-after"] == "3600"
        assert hana.get("/api/account/email").json()["email"]["address"] == "h2@example.org"
        # Another account cannot make the server mail h0 a stranger's confirmations again
        # and again either.
        assert put_email(kenji, "h0@example.org").status_code == 200
        assert put_email(kenji, "h0@example.org", resend=True).status_code == 200
        refused(put_email(kenji, "h0@example.org", resend=True), 429)
        # Only the newest confirmation of an address goes out; the older are cancelled.
        inbox[0].wait("h2@example.org", 1)
        inbox[0].wait("h0@example.org", 1)
        settle(client)
        assert len(inbox[0].to("h0@example.org")) <= 3 and not inbox[0].to("h3@example.org")


def test_notification_ceiling_drops_the_excess_and_bounds_every_mail(
    tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    handler, port = inbox
    with TestClient(create_app(mail_settings(tmp_path, port, mails_per_account_hour=3))) as client:
        hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
        game = correspondence_game(hana, kenji)  # before the address: no turn mail yet
        confirmed(hana, handler, "hana@example.org")
        row = row_of(client, game["id"])
        row.seats[1].name = "Ken\r\nBcc: evil@example.org"
        row.result = {"text": "x" * 10_000, "winners": [0]}
        for _ in range(5):
            call(client, mailer_of(client).game_over, row)
        assert mailer_of(client).dropped == 2
        handler.wait("hana@example.org", 4)
        settle(client)
        mails = handler.to("hana@example.org")
        assert len(mails) == 4  # the confirmation and 3 of the 5
        for mail in mails[1:]:
            assert len(mail["Subject"]) <= SUBJECT_MAX and "\n" not in mail["Subject"]
            assert mail["Bcc"] is None and mail["Subject"].endswith("Ken Bcc: evil@example.org")
            assert len(text_of(mail)) < BODY_MAX + 600 and "x" * 400 not in text_of(mail)
        assert not handler.to("evil@example.org")
        row.seats[1].name = "K" * 300
        call(client, mailer_of(client).store.prune)  # nothing old to forget yet
        assert len(mailer_of(client)._end_draft(row, 1).subject) <= SUBJECT_MAX


def test_a_waiting_turn_mail_is_not_queued_twice(mailed: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    row = row_of(client, correspondence_game(hana, kenji)["id"])
    confirmed(hana, inbox, "hana@example.org")  # after the game began: no turn mail yet
    settle(client)
    call(client, mailer_of(client).close)  # no sender: the mails stay waiting
    store = mailer_of(client).store
    turn = Draft("Your turn", "body")
    assert store.notify("turn", row.id, {1: turn}, 12) == (1, 0)
    assert store.notify("turn", row.id, {1: turn}, 12) == (0, 0)
    assert store.notify("turn", "another-game", {1: turn}, 12) == (1, 0)
    assert store.notify("turn", row.id, {2: turn}, 12) == (0, 0)  # Kenji gave no address


def test_deleting_the_account_forgets_its_address(mailed: tuple[TestClient, Inbox]) -> None:
    client, inbox = mailed
    hana = sign_up(client, "Hana")
    confirmed(hana, inbox, "hana@example.org")
    assert hana.post("/api/account/delete", {"confirm": "Hana"}).status_code == 200
    engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert conn.execute(sa.select(mail_addresses_table)).all() == []


def test_a_server_without_smtp_sends_nothing(client: TestClient) -> None:
    hana = sign_up(client, "Hana")
    assert hana.get("/api/account/email").json() == {"available": False, "email": None}
    assert "SMTP" in refused(put_email(hana, "hana@example.org"), 409)
    assert client.delete("/api/account/email", headers=hana.headers()).status_code == 200


# ----- sending, between processes ---------------------------------------------------------------
def queue_mails(client: TestClient, inbox: Inbox, players: int, each: int) -> list[str]:
    """``players`` confirmed accounts, ``each`` "game over" mails queued for every one."""
    addresses = []
    for n in range(players):
        player = sign_up(client, f"p{n}x")
        addresses.append(f"p{n}@example.org")
        confirmed(player, inbox, addresses[-1])
    settle(client)
    call(client, mailer_of(client).close)  # the app's own sender stays out of what follows
    store = mailer_of(client).store
    ids = {r["account_id"] for r in outbox(client)}
    for _ in range(each):
        store.notify(END, None, {a: Draft("Game over", "over") for a in ids}, 100)
    return addresses


def two_mailers(client: TestClient, port: int) -> list[Mailer]:
    """Two mailers as two server processes would have them: each its own engine on the same
    database, its own process id, its own threads."""
    url = str(client.app.state.hub.storage.url)  # type: ignore[attr-defined]
    config = MailConfig(parse_smtp_url(f"smtp://127.0.0.1:{port}"), SENDER, ORIGIN)
    mailers = []
    for process in ("process-a", "process-b"):
        store = MailStore(Storage(url).engine)

        async def run(call: Any, *args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(call, *args, **kwargs)

        mailers.append(Mailer(store, run, config, TEST_LIMITS, process))
    return mailers


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_two_processes_send_each_mail_exactly_once(
    tmp_path: Path, inbox: tuple[Inbox, int], database: str, request: pytest.FixtureRequest
) -> None:
    handler, port = inbox
    settings = mail_settings(tmp_path, port)
    if database == "postgresql":  # real concurrent transactions, as between hosts
        url = request.getfixturevalue("postgres_url")
        settings = dataclasses.replace(settings, database_url=url)
    with TestClient(create_app(settings)) as client:
        addresses = queue_mails(client, handler, 4, 6)
        first, second = two_mailers(client, port)

        async def race() -> list[int]:
            totals = [0, 0]
            while True:
                sent = await asyncio.gather(first.drain(), second.drain())
                totals = [a + b for a, b in zip(totals, sent, strict=True)]
                if sent == [0, 0]:
                    return totals

        totals = asyncio.run(race())
        assert sum(totals) == 24, totals
        for address in addresses:
            assert len(handler.to(address)) == 1 + 6  # the confirmation and six, once each
        rows = outbox(client)
        assert {r["state"] for r in rows} == {"sent"} and all(r["attempts"] == 1 for r in rows)
        assert len({r["id"] for r in rows}) == len(rows)


def test_a_claim_outlives_a_dead_process_only_until_its_lease(
    tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    handler, port = inbox
    with TestClient(create_app(mail_settings(tmp_path, port))) as client:
        queue_mails(client, handler, 1, 1)
        first, second = two_mailers(client, port)
        held = first.store.claim("process-a", 0.3)  # then process a "dies"
        assert held is not None
        assert asyncio.run(second.drain()) == 0
        time.sleep(0.35)
        assert asyncio.run(second.drain()) == 1
        assert not first.store.sent(held.id, "process-a")  # its claim was taken over
        assert len(handler.to("p0@example.org")) == 2


def test_failures_are_retried_with_backoff_then_given_up(
    tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    handler, port = inbox
    with TestClient(create_app(mail_settings(tmp_path, port))) as client:
        queue_mails(client, handler, 2, 1)
        handler.refuse.add("p1@example.org")  # a mailbox that does not exist: given up at once
        mailer = two_mailers(client, port)[0]
        nowhere = parse_smtp_url(f"smtp://127.0.0.1:{free_port()}")  # nothing listens
        mailer.config = MailConfig(nowhere, SENDER, ORIGIN)
        engine = mailer.store.engine
        box = mail_outbox_table
        for attempt in range(1, MAX_ATTEMPTS + 1):
            before = time.time()
            assert asyncio.run(mailer.drain()) == 0
            rows = [r for r in outbox(client) if r["kind"] == END]
            nobody = rows[0]
            assert nobody["attempts"] == attempt and "Connection" in nobody["last_error"]
            if attempt < MAX_ATTEMPTS:
                assert nobody["state"] == "queued"
                assert nobody["claimed_until"] >= before + 60 * 4 ** (attempt - 1) - 1
                with engine.begin() as conn:  # the pause is over
                    conn.execute(box.update().values(claimed_until=None))
        assert rows[0]["state"] == "failed"
        mailer.config = MailConfig(parse_smtp_url(f"smtp://127.0.0.1:{port}"), SENDER, ORIGIN)
        with engine.begin() as conn:
            conn.execute(box.update().where(box.c.id == rows[1]["id"]).values(attempts=0))
        assert asyncio.run(mailer.drain()) == 0
        refused_row = next(r for r in outbox(client) if r["id"] == rows[1]["id"])
        assert refused_row["state"] == "failed" and "550" in refused_row["last_error"]
        assert refused_row["attempts"] == 1


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtp_login_and_settings_that_do_not_add_up(tmp_path: Path) -> None:
    handler = Inbox()
    port = free_port()

    def authenticator(
        server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        ok = isinstance(data, LoginPassword) and data == LoginPassword(b"bp", b"s3cr:t@")
        return AuthResult(success=ok)

    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=port,
        authenticator=authenticator,
        auth_require_tls=False,  # loopback only: the password is this test's
        auth_required=True,
    )
    controller.start()
    try:
        url = f"smtp://bp:s3cr%3At%40@127.0.0.1:{port}"
        settings = tiny_settings(tmp_path, smtp_url=url, mail_from=SENDER, origin=ORIGIN)
        with TestClient(create_app(settings)) as client:
            confirmed(sign_up(client, "Hana"), handler, "hana@example.org")
    finally:
        controller.stop()
    assert parse_smtp_url("smtps://mail.example.org").port == 465
    assert parse_smtp_url("smtp+starttls://u@mail.example.org").port == 587
    server = parse_smtp_url("smtp://u:p%2Fw@mail.example.org:2525")
    assert (server.user, server.password, server.port) == ("u", "p/w", 2525)
    assert "p/w" not in repr(server)
    for url, needs in (
        ("http://mail.example.org", "smtp://"),
        ("smtp://u:secret@:25", "no host"),
        ("smtp://u:secret@host:99999", "port"),
    ):
        with pytest.raises(ValueError, match=needs) as refusal:
            Settings(smtp_url=url, mail_from=SENDER, origin=ORIGIN, limits=Limits())
        assert "secret" not in str(refusal.value)
    with pytest.raises(ValueError, match="BOARDPLAY_WEB_MAIL_FROM"):
        Settings(smtp_url="smtp://localhost", mail_from=None, origin=ORIGIN, limits=Limits())
    with pytest.raises(ValueError, match="BOARDPLAY_WEB_MAIL_FROM"):
        Settings(smtp_url="smtp://localhost", mail_from="a\nb@c", origin=ORIGIN, limits=Limits())
    with pytest.raises(ValueError, match="BOARDPLAY_WEB_ORIGIN"):
        Settings(smtp_url="smtp://localhost", mail_from=SENDER, origin=None, limits=Limits())


def test_a_correspondence_game_played_over_the_api_mails_its_players(
    mailed: tuple[TestClient, Inbox],
) -> None:
    """End to end: the moves themselves (``rooms.py``) call the hooks."""
    client, inbox = mailed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    confirmed(hana, inbox, "hana@example.org")
    confirmed(kenji, inbox, "kenji@example.org", notify_end=False)
    game = correspondence_game(hana, kenji)
    view = client.get(f"/api/games/{game['id']}", headers=auth(game[0])).json()
    while view["status"] == "active":
        seat = view["current_player"]
        moved = client.post(
            f"/api/games/{view['id']}/actions",
            json={"action": "t1", "ply": view["ply"]},
            headers=auth(game[seat]),
        )
        assert moved.status_code == 200, moved.text
        view = moved.json()["game"]
    end = "Game over: Tiny take against Kenji"
    deadline = time.monotonic() + 15
    while not any(m["Subject"] == end for m in inbox.to("hana@example.org")):
        assert time.monotonic() < deadline, [m["Subject"] for m in inbox.to("hana@example.org")]
        time.sleep(0.02)
    settle(client)
    for address, other in (("hana@example.org", "Kenji"), ("kenji@example.org", "Hana")):
        subjects = [m["Subject"] for m in inbox.to(address)[1:]]
        assert f"Your turn: Tiny take against {other}" in subjects, subjects
        for mail in inbox.to(address)[1:]:
            assert f"{ORIGIN}/#/game/{game['id']}" in text_of(mail)
            assert mail["List-Unsubscribe"].startswith(f"<{ORIGIN}/api/email/unsubscribe?token=")
    assert not any(m["Subject"].startswith("Game over") for m in inbox.to("kenji@example.org"))


def test_no_turn_mail_to_a_player_whose_page_shows_the_game(
    mailed: tuple[TestClient, Inbox],
) -> None:
    """Kenji has the game open (a socket holding his seat): the move that hands him the turn
    mails nobody; once his page is gone, the next one mails him."""
    client, inbox = mailed
    hana, kenji = sign_up(client, "Hana"), sign_up(client, "Kenji")
    confirmed(kenji, inbox, "kenji@example.org")
    game = correspondence_game(hana, kenji)

    def play_until(seat: int) -> None:
        view = client.get(f"/api/games/{game['id']}", headers=auth(game[0])).json()
        while view["current_player"] != seat:
            mover = view["current_player"]
            moved = client.post(
                f"/api/games/{game['id']}/actions",
                json={"action": "t1", "ply": view["ply"]},
                headers=auth(game[mover]),
            )
            assert moved.status_code == 200, moved.text
            view = moved.json()["game"]

    play_until(0)
    settle(client)
    before = len(inbox.to("kenji@example.org"))
    with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": game[1], "id": 1})
        while ws.receive_json().get("id") != 1:
            pass
        play_until(1)
        settle(client)
        assert len(inbox.to("kenji@example.org")) == before
    play_until(0)
    play_until(1)
    assert inbox.wait("kenji@example.org", before + 1)[-1]["Subject"].startswith("Your turn")
