"""TV in a real Chromium, from a cold page load: signed-in players play real-time games (two of
Proteus, one of Potlatch Klone, made by challenges over the API); a guest's first lobby lists
each game's channel with its players and their ratings, and its Watch link opens the game a
spectator sees, under a line saying what it is. When the game on the air ends, the TV page
shows its end and then, by itself, the next best game of Proteus; when none is left it says
so. Desktop and phone, English and Japanese; screenshots in docs/screenshots/: tv-lobby-*.png
and tv-*.png."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpcalls
import pytest
from botcalls import Person, sign_up
from browsing import SCREENSHOTS

pytestmark = pytest.mark.browser

CLOCK = {"base": 600, "increment": 5}


def challenge(server: str, host: Person, guest: Person, game: str) -> str:
    """A casual real-time game of ``game`` between the two, by a challenge accepted."""
    sent = host.post(server, "/api/challenges", {"to": guest.name, "game": game, "clock": CLOCK})
    assert sent.status_code == 201, sent.text
    accepted = guest.post(server, f"/api/challenges/{sent.json()['challenge']['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    return str(accepted.json()["id"])


def move_once(server: str, game_id: str, people: list[Person]) -> None:
    """The player to move makes their first legal move (over the API, with their seat's token)."""
    view = httpcalls.get(f"{server}/api/games/{game_id}", timeout=20).json()
    mover = next(p for p in people if p.name == view["seats"][view["current_player"]]["name"])
    token = mover.post(server, f"/api/account/games/{game_id}/token").json()["token"]
    game = httpcalls.get(
        f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=20
    ).json()
    moved = httpcalls.post(
        f"{server}/api/games/{game_id}/actions",
        json={"action": game["legal"][0]["id"], "ply": game["ply"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )
    assert moved.status_code == 200, moved.text


@pytest.fixture(scope="module")
def on_air(server: str) -> Iterator[dict[str, Any]]:
    people = [sign_up(server, name) for name in ("Mei_tv", "Ravi_tv", "Sol_tv", "Tove_tv")]
    second = challenge(server, people[2], people[3], "proteus")
    potlatch = challenge(server, people[2], people[3], "potlatch")
    first = challenge(server, people[0], people[1], "proteus")
    move_once(server, first, people)  # moved last: the first of equals
    time.sleep(5.5)  # past the server's reckoning of a moment ago (lobby/tv.py's FRESH)
    yield {"people": people, "first": first, "second": second, "potlatch": potlatch}


def guest_page(browser: Any, lang: str, phone: bool) -> Any:
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_guest_watches_the_best_game_from_the_lobby(
    browser: Any, server: str, on_air: dict[str, Any], lang: str, phone: bool
) -> None:
    device = "phone" if phone else "desktop"
    page = guest_page(browser, lang, phone)
    page.goto(server)  # a cold load: nothing in this browser yet
    page.wait_for_selector("#lobby-tv [data-channel='proteus']")
    row = page.locator("#lobby-tv [data-channel='proteus']")
    assert row.get_attribute("data-game") == on_air["first"]
    words = row.inner_text()
    assert "Mei_tv (1500)" in words and "Ravi_tv (1500)" in words, words
    assert ("Proteus" if lang == "en" else "プロテウス") in words
    assert (
        page.locator("#lobby-tv [data-channel='potlatch']").get_attribute("data-game")
        == (on_air["potlatch"])
    )
    page.locator("#lobby-tv").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"tv-lobby-{lang}-{device}.png"))

    row.locator(".tv-watch").click()
    page.wait_for_url("**/#/tv/proteus")
    page.wait_for_selector(f"#tv-head[data-game='{on_air['first']}']")
    page.wait_for_selector("#board[data-ply] svg")
    assert page.locator("#table-controls #resign").count() == 0  # a spectator's view
    line = page.inner_text("#tv-line")
    assert "Mei_tv (1500)" in line, line
    page.screenshot(path=str(SCREENSHOTS / f"tv-{lang}-{device}.png"))
    assert not page.errors, page.errors
    page.context.close()


def test_the_tv_page_moves_on_to_the_next_best_game_when_its_game_ends(
    browser: Any, server: str, on_air: dict[str, Any]
) -> None:
    page = guest_page(browser, "en", False)
    page.goto(f"{server}/#/tv/proteus")
    page.wait_for_selector(f"#tv-head[data-game='{on_air['first']}']")
    mei = on_air["people"][0]
    token = mei.post(server, f"/api/account/games/{on_air['first']}/token").json()["token"]
    gone = httpcalls.post(
        f"{server}/api/games/{on_air['first']}/resign",
        json={},
        headers={"Authorization": f"Bearer {token}"},
        timeout=20,
    )
    assert gone.status_code == 200, gone.text
    page.wait_for_function("document.querySelector('#status')?.dataset.terminal === '1'")
    ended = time.monotonic()
    assert page.locator("#tv-head").get_attribute("data-game") == on_air["first"]
    page.wait_for_selector(f"#tv-head[data-game='{on_air['second']}']", timeout=20_000)
    assert time.monotonic() - ended >= 3  # its end was on screen first
    page.wait_for_selector("#board[data-ply] svg")
    assert "Sol_tv (1500)" in page.inner_text("#tv-line")
    assert not page.errors, page.errors
    page.context.close()
