"""Following in a real Chromium: a signed-in player follows another from the profile's button,
then opens the Following page from a cold page load and sees each followed player where they
are — playing (with a link that watches the game), on the site (a page open in another browser),
in a running tournament, or away — in English and Japanese, on a desktop and a phone. The
screenshots go to docs/screenshots/ (``following*.png``, ``profile-follow*.png``); axe-core finds
no serious or critical violation on either page."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsing import SCREENSHOTS
from japanese import english_left, shown
from test_web_a11y import violations

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
PASSWORD = "seed secret"
RAPID = {"base": 600, "increment": 5}
_followers = itertools.count(1)
NAMES = re.compile(r"\b(Haru\d+|Kai|Mika|Nao|Rin|Sol|Autumn Arena)\b")
"""The players' and the tournament's own names: what a Japanese page keeps in Latin letters."""


def account(base: str, name: str) -> httpx.Client:
    """A client signed up (or, if it exists, signed in) as ``name``, with its CSRF token."""
    client = httpx.Client(base_url=base)
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    if answer.status_code == 409:
        answer = client.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


@pytest.fixture(scope="module")
def cast(server: str) -> Iterator[dict[str, str]]:
    """The players followed: Mika plays Nao a real-time game, Rin plays in a running arena,
    Kai is on the site (a page each test opens), Sol is away. Returns Mika's game's id."""
    mika, nao = account(server, "Mika"), account(server, "Nao")
    made = mika.post(
        "/api/games",
        json={"game": "proteus", "seats": [{"kind": "me"}, {"kind": "open"}], "clock": RAPID},
    ).json()
    assert nao.post(f"/api/games/{made['id']}/join", json={"seat": 1}).status_code == 200
    rin = account(server, "Rin")
    body = {"name": "Autumn Arena", "kind": "arena", "game": "proteus", "minutes": 60}
    arena = rin.post("/api/tournaments", json={**body, "clock": RAPID, "starts": time.time()})
    assert arena.status_code == 201, arena.text
    tid = arena.json()["tournament"]["id"]
    assert rin.post(f"/api/tournaments/{tid}/join").status_code == 200
    for _ in range(100):  # the server's tick starts it
        if rin.get(f"/api/tournaments/{tid}").json()["tournament"]["status"] == "started":
            break
        time.sleep(0.1)
    account(server, "Kai")
    account(server, "Sol")
    yield {"game": made["id"], "tournament": tid}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_follow_from_the_profile_and_see_where_they_are(
    browser: Any, server: str, cast: dict[str, str], lang: str, size: str
) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    suffix = ("" if lang == "en" else "-ja") + ("" if size == "desktop" else "-phone")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    # Kai has a page of the site open in a browser of his own.
    kai = browser.new_context(viewport=DESKTOP)
    signed = kai.request.post(
        f"{server}/api/account/signin", data={"name": "Kai", "password": PASSWORD}
    )
    assert signed.ok, signed.text()
    kai.new_page().goto(server)
    name = f"Haru{next(_followers)}"
    haru = account(server, name)
    for other in ("Kai", "Rin", "Sol"):
        assert haru.post(f"/api/relations/follow/{other}").status_code == 200
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('boardplay.lang', '{lang}')")
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/#/signin")
        page.fill("#signin-name", name)
        page.fill("#signin-password", PASSWORD)
        page.click("#signin-submit")
        page.wait_for_function(
            "name => document.querySelector('#account-link')?.textContent === name", arg=name
        )
        page.goto(f"{server}/#/player/Mika")
        page.click("#follow")
        page.wait_for_selector("#unfollow")
        page.screenshot(path=str(SCREENSHOTS / f"profile-follow{suffix}.png"))
        found = violations(page, "profile with its buttons")
        if lang == "ja":
            assert not english_left(shown(page), NAMES), english_left(shown(page), NAMES)
        # A cold load of the Following page: nothing kept from the pages before.
        page.goto(f"{server}/#/following")
        page.reload()
        page.wait_for_selector("#following-list tr[data-name]")
        rows = page.locator("#following-list tr[data-name]")
        now = {
            rows.nth(i).get_attribute("data-name"): rows.nth(i).get_attribute("data-now")
            for i in range(rows.count())
        }
        assert now == {
            "Kai": "online",
            "Mika": "playing",
            "Rin": "tournament",
            "Sol": "away",
        }, now
        watch = page.locator("#following-list tr[data-name='Mika'] a.watch")
        assert watch.get_attribute("href") == f"#/game/{cast['game']}"
        tournament = page.locator("#following-list tr[data-name='Rin'] td.who a")
        assert tournament.get_attribute("href") == f"#/tournament/{cast['tournament']}"
        page.screenshot(path=str(SCREENSHOTS / f"following{suffix}.png"), full_page=True)
        found += violations(page, "following")
        assert not found, "\n".join(found)
        if lang == "ja":
            assert not english_left(shown(page), NAMES), english_left(shown(page), NAMES)
        watch.click()
        page.wait_for_selector("#board svg, .board svg")
        assert page.url.endswith(f"#/game/{cast['game']}")
    finally:
        context.close()
        kai.close()
    assert not errors, errors


def test_the_following_page_hears_a_followed_player_start_a_game(browser: Any, server: str) -> None:
    """Open on the Following page, the follower is told at once when Tao's game starts: a note,
    and Tao's row now playing, with no reload."""
    tao, uma = account(server, "Tao"), account(server, "Uma")
    name = f"Haru{next(_followers)}"
    assert account(server, name).post("/api/relations/follow/Tao").status_code == 200
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/#/signin")
        page.fill("#signin-name", name)
        page.fill("#signin-password", PASSWORD)
        page.click("#signin-submit")
        page.wait_for_function(
            "name => document.querySelector('#account-link')?.textContent === name", arg=name
        )
        page.goto(f"{server}/#/following")
        page.wait_for_selector("#following-list tr[data-name='Tao'][data-now='away']")
        seats = [{"kind": "me"}, {"kind": "open"}]
        made = tao.post("/api/games", json={"game": "proteus", "seats": seats, "clock": RAPID})
        game = made.json()["id"]
        assert uma.post(f"/api/games/{game}/join", json={"seat": 1}).status_code == 200
        page.wait_for_selector("#following-list tr[data-name='Tao'][data-now='playing']")
        assert "Tao" in page.locator("#note").inner_text()
        watch = page.locator("#following-list tr[data-name='Tao'] a.watch")
        assert watch.get_attribute("href") == f"#/game/{game}"
    finally:
        context.close()
    assert not errors, errors
