"""Journeys from a cold start (issue 52): each begins with a page loaded from nothing, holding only
what a real person's browser holds — nothing (a guest), or the sign-in cookie of a session made
yesterday (put into the browser context, never signed in inside the page) — on a desktop or on a
phone (390x844, touch), and goes through a whole flow between two people: finding each other by a
seek, a quick game or a challenge, a rematch, a claim after the opponent left, a spectator who
signs up. A reload or a second tab comes in the middle. One server and one browser serve them
all; each journey is few steps and whole, to catch what the feature tests cannot (the lobby's
live connection was never opened on a page load, and every feature test signed in inside the
page first)."""

from __future__ import annotations

import itertools
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from accountcalls import RAPID
from browsing import check_server_logs, free_port, serve

from boardplay.web.accounts import COOKIE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LIVE = 2_000
"""Milliseconds within which a change made elsewhere must show on a page (the issue's 2 s)."""
ABANDON_AFTER = 3
"""Seconds an opponent's page must be gone before the win can be claimed (30 in production)."""
SHOTS = Path("/tmp/shots52")
_names = itertools.count(1)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``boardplay serve`` (SQLite) for every journey here, with a short abandonment wait;
    reached as ``localhost`` (passkeys and cookies as a person's browser sees the site)."""
    port = free_port()
    env = {"BOARDPLAY_WEB_ABANDON_AFTER": str(ABANDON_AFTER)}
    process = serve(tmp_path_factory.mktemp("journeys") / "web.sqlite3", port, env)
    yield f"http://localhost:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()


class Player:
    """Someone with an account made over HTTP (as on another day): ``api`` is their session
    (cookie and CSRF token), for what the other side does without a page."""

    def __init__(self, base: str, stem: str) -> None:
        self.name = f"{stem}{next(_names)}"
        self.api = httpx.Client(base_url=base, timeout=15)
        answer = self.api.post(
            "/api/account/signup", json={"name": self.name, "password": "journey secret"}
        )
        assert answer.status_code == 201, answer.text
        self.api.headers["X-CSRF-Token"] = answer.json()["csrf"]
        self.cookie = str(self.api.cookies.get(COOKIE))


class Visit:
    """A browser context as a person's: optionally a phone with touch, a language, and the
    sign-in cookie of ``player`` already in it. Any script error on its pages fails the test."""

    def __init__(
        self,
        chromium: Any,
        base: str,
        player: Player | None = None,
        phone: bool = False,
        lang: str = "en",
    ) -> None:
        self.base = base
        extra: dict[str, Any] = {"is_mobile": True, "has_touch": True} if phone else {}
        self.context = chromium.new_context(
            viewport=PHONE if phone else DESKTOP,
            locale="ja-JP" if lang == "ja" else "en-US",
            **extra,
        )
        if player is not None:
            self.context.add_cookies([{"name": COOKIE, "value": player.cookie, "url": base}])
        self.errors: list[str] = []
        self.page = self.tab()

    def tab(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    def open(self, route: str = "#/") -> Any:
        """A cold load of ``route`` (a new page load, not a route change inside the page)."""
        self.page.goto(f"{self.base}/{route}")
        return self.page

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def visits(browser: Any, site: str) -> Iterator[Any]:
    made: list[Visit] = []

    def visit(player: Player | None = None, phone: bool = False, lang: str = "en") -> Visit:
        made.append(Visit(browser, site, player, phone, lang))
        return made[-1]

    yield visit
    for one in made:
        one.close()
    check_server_logs()


def test_a_returning_player_s_cold_lobby_is_live_and_so_is_a_guest_s(
    visits: Any, site: str
) -> None:
    """Defect 1 of issue 52: a page loaded with yesterday's sign-in cookie shows a seek posted
    elsewhere within 2 s and receives a challenge sent after it loaded within 2 s; a guest's
    page shows the seeks live too."""
    haru, kenji = Player(site, "Haru"), Player(site, "Kenji")
    returning = visits(kenji, phone=True)
    page = returning.open()
    page.wait_for_selector("#seek-list")
    guest = visits().open()
    guest.wait_for_selector("#seek-list")
    seek = haru.api.post("/api/seeks", json={"game": "proteus", "rated": True, "clock": RAPID})
    assert seek.status_code == 201, seek.text
    row = f"#seek-list tr[data-seek='{seek.json()['seek']['id']}']"
    page.wait_for_selector(row, timeout=LIVE)
    guest.wait_for_selector(row, timeout=LIVE)
    sent = haru.api.post("/api/challenges", json={"to": kenji.name, "game": "potlatch"})
    assert sent.status_code == 201, sent.text
    notice = page.wait_for_selector("#challenge-bar .challenge", timeout=LIVE)
    assert haru.name in notice.inner_text()
    haru.api.delete(f"/api/seeks/{seek.json()['seek']['id']}")
    haru.api.post(f"/api/challenges/{sent.json()['challenge']['id']}/cancel", json={})
