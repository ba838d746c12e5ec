"""A rated game that moved a rating less than a whole game, or not at all, says why, on its page
and on the profiles (Chromium, one ``boardplay serve``): a second game between the same two
players the same day "counted at 50%", a game resigned at once "not rated", in English and in
Japanese; the first game between them, counted in full, says nothing more than its points."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from accountcalls import RAPID

from boardplay.i18n import messages

pytestmark = pytest.mark.browser

_names = itertools.count(1)


class Player:
    """An account made over HTTP, its session in ``api``."""

    def __init__(self, base: str, stem: str) -> None:
        self.name = f"{stem}{next(_names)}"
        self.api = httpx.Client(base_url=base, timeout=15)
        answer = self.api.post(
            "/api/account/signup", json={"name": self.name, "password": "x" * 12}
        )
        assert answer.status_code == 201, answer.text
        self.api.headers["X-CSRF-Token"] = answer.json()["csrf"]


def rated_game(a: Player, b: Player, turns: int) -> str:
    """A rated Proteus game, ``a`` first: ``turns`` moves each, then ``b`` resigns."""
    made = a.api.post(
        "/api/games",
        json={
            "game": "proteus",
            "seats": [{"kind": "me"}, {"kind": "open"}],
            "rated": True,
            "clock": RAPID,
        },
    )
    assert made.status_code == 201, made.text
    gid = str(made.json()["id"])
    joined = b.api.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.text
    tokens = {0: made.json()["token"], 1: joined.json()["token"]}
    view = joined.json()["game"]
    for _ in range(2 * turns):
        seat = view["current_player"]
        answer = a.api.post(
            f"/api/games/{gid}/actions",
            json={"action": view["legal"][0]["id"], "ply": view["ply"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    resigned = b.api.post(
        f"/api/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert resigned.json()["game"]["status"] == "finished", resigned.text
    return gid


@pytest.fixture(scope="module")
def games(server: str) -> Iterator[tuple[Player, dict[str, str]]]:
    hana, kenji = Player(server, "Hana"), Player(server, "Kenji")
    played = {
        "first": rated_game(hana, kenji, 3),
        "second": rated_game(hana, kenji, 3),
        "early": rated_game(hana, kenji, 0),
    }
    yield kenji, played


def note_on(page: Any, server: str, gid: str) -> str:
    """The rating note on the game's page, opened afresh: going from one game's hash to
    another's keeps the page, whose last game's note would answer the waits at once."""
    page.goto("about:blank")
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("#status[data-terminal='1']")
    page.wait_for_selector("#rating-note")
    return str(page.inner_text("#rating-note"))


def test_a_repeated_or_early_rated_game_says_why_on_its_page(
    page: Any, server: str, games: tuple[Player, dict[str, str]]
) -> None:
    _, played = games
    assert note_on(page, server, played["second"]).startswith("Counted at 50%: rated games")
    assert note_on(page, server, played["early"]).startswith("Not rated: the game ended")
    page.goto("about:blank")
    page.goto(f"{server}/#/game/{played['first']}")
    page.wait_for_selector("#seats .rating-change")  # settled, counted in full: no note
    assert page.locator("#rating-note").count() == 0


def test_the_profile_says_why_beside_the_points(
    page: Any, server: str, games: tuple[Player, dict[str, str]]
) -> None:
    kenji, played = games
    page.goto(f"{server}/#/player/{kenji.name}")
    page.wait_for_selector("#profile-recent")
    row = {g: page.locator(f"#profile-recent tr[data-game='{played[g]}']") for g in played}
    assert row["second"].locator(".rating-note").inner_text() == "(counted at 50%)"
    assert "24 hours" in str(row["second"].locator(".rating-note").get_attribute("title"))
    assert row["early"].locator(".rating-note").inner_text() == "(not rated)"
    assert row["first"].locator(".rating-note").count() == 0


def test_a_japanese_reader_is_told_why_in_japanese(
    browser: Any, server: str, games: tuple[Player, dict[str, str]]
) -> None:
    ja = messages("web", "ja")
    context = browser.new_context(locale="ja-JP")
    try:
        page = context.new_page()
        _, played = games
        said = note_on(page, server, played["second"])
        assert said == ja["result.ratingRepeated"].replace("{share}", "50%"), said
        assert note_on(page, server, played["early"]) == ja["result.ratingEarly"]
    finally:
        context.close()
