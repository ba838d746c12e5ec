"""Clocks in a real Chromium: two signed-in players of a rated real-time game, each on their own
page; one stops moving, and the flag falls on both pages within a second of the deadline the
server set, the result says the game ended on time, and both ratings change. Screenshots of a
game with its clocks running go to docs/screenshots/ (desktop and phone, English and
Japanese), with the players' chat beside the board."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsing import SCREENSHOTS, hold_seat

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
PASSWORD = "seed secret"
# Sets window.endedAt (this machine's clock, as the server's) when the page first shows the end.
WATCH_END = """
new MutationObserver(() => {
  const s = document.querySelector('#status');
  if (s && s.dataset.terminal === '1' && !window.endedAt) window.endedAt = Date.now() / 1000;
}).observe(document, { subtree: true, attributes: true, childList: true });
"""


def local(server: str) -> str:
    return server.replace("127.0.0.1", "localhost")


def player(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base)
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


def two_players(base: str, clock: dict[str, int]) -> tuple[str, list[httpx.Client], dict[int, str]]:
    """A rated Proteus game between two new accounts, seat 0 the creator's."""
    tag = secrets.token_hex(3)
    first, second = player(base, f"Aoi{tag}"), player(base, f"Ren{tag}")
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = first.post(
        "/api/games", json={"game": "proteus", "seats": seats, "rated": True, "clock": clock}
    )
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    joined = second.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.text
    return gid, [first, second], {0: made.json()["token"], 1: joined.json()["token"]}


def play(client: httpx.Client, gid: str, token: str) -> dict[str, Any]:
    view = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
    answer = client.post(
        f"/api/games/{gid}/actions",
        json={"action": view["legal"][0]["id"], "ply": view["ply"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text
    game: dict[str, Any] = answer.json()["game"]
    return game


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    made: list[tuple[Any, list[str]]] = []

    def make(base: str, gid: str, token: str, viewport: dict[str, int], lang: str = "en") -> Any:
        context = browser.new_context(viewport=viewport)
        hold_seat(context, gid, token, lang, "proteus")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        made.append((context, errors))
        page.add_init_script(WATCH_END)
        page.goto(f"{base}/#/game/{gid}")
        page.wait_for_selector("#clocks .clock.running")
        return page

    yield make
    for context, errors in made:
        context.close()
        assert not errors, errors


def rating(client: httpx.Client, name: str) -> float:
    profile = client.get(f"/api/players/{name}").json()
    found = [r["rating"] for r in profile["ratings"] if r["pool"] == "proteus"]
    return float(found[0]) if found else 1500.0


def test_the_flag_falls_on_both_pages_within_a_second(pages: Any, server: str) -> None:
    base = local(server)
    gid, clients, tokens = two_players(base, {"base": 15, "increment": 2})
    names = [c.get("/api/account/me").json()["account"]["name"] for c in clients]
    before = [rating(clients[0], n) for n in names]
    watchers = [pages(base, gid, tokens[0], DESKTOP), pages(base, gid, tokens[1], PHONE)]
    game: dict[str, Any] = {}
    for _ in range(2):  # a move each: the game is then decided, not aborted, by the flag
        current = clients[0].get(f"/api/games/{gid}").json()["current_player"]
        game = play(clients[current], gid, tokens[current])
    late = game["current_player"]
    deadline = game["clock"]["deadline"]
    assert game["clock"]["running"] == late and deadline is not None
    for page in watchers:  # the clock counts down on the page
        running = page.locator(f"#clocks .clock.running[data-seat='{late}'] .time")
        first = running.inner_text()
        page.wait_for_function(
            f"t => document.querySelector(\"#clocks .clock.running[data-seat='{late}'] .time\")"
            ".textContent !== t",
            arg=first,
        )
    for page in watchers:
        page.wait_for_function("() => window.endedAt", timeout=30_000)
        ended_at = page.evaluate("window.endedAt")
        print(f"the page showed the flag {ended_at - deadline:+.3f} s after the deadline")
        assert deadline <= ended_at + 0.05 and ended_at - deadline < 1.0, ended_at - deadline
        assert "on time" in page.inner_text("#status")  # "You won on time", "You lost on time"
        flagged = page.locator(f"#clocks .clock.flagged[data-seat='{late}'] .time")
        assert flagged.inner_text() == "0:00.0"
    result = clients[0].get(f"/api/games/{gid}").json()["result"]
    assert result["ended"] == "time" and result["winners"] == [1 - late]
    after = [rating(clients[0], n) for n in names]
    assert after[late] < before[late] and after[1 - late] > before[1 - late]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_a_game_on_the_clock(pages: Any, server: str, lang: str, size: str) -> None:
    base = local(server)
    gid, clients, tokens = two_players(base, {"base": 300, "increment": 3})
    for _ in range(3):
        current = clients[0].get(f"/api/games/{gid}").json()["current_player"]
        play(clients[current], gid, tokens[current])
    current = clients[0].get(f"/api/games/{gid}").json()["current_player"]
    for seat, text in ((0, "Good luck!"), (1, "Have fun — and watch the BISHOP tile.")):
        said = clients[seat].post(
            f"/api/games/{gid}/chat",
            json={"channel": "players", "text": text},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert said.status_code in (200, 201), said.text
    page = pages(base, gid, tokens[current], PHONE if size == "phone" else DESKTOP, lang)
    page.wait_for_selector("#status[data-your-turn='1']")
    assert page.locator("#clocks .clock").count() == 2
    page.wait_for_function("document.querySelectorAll('#chat-log .chat-text').length === 2")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    suffix = ("" if lang == "en" else "-ja") + ("" if size == "desktop" else "-phone")
    page.screenshot(path=str(SCREENSHOTS / f"clocks{suffix}.png"))
    if size == "phone":  # there the chat waits behind its tab: open it
        page.click("#chat-tab")
        page.wait_for_selector("#chat.open #chat-input")
        page.screenshot(path=str(SCREENSHOTS / f"chat{suffix}.png"))
