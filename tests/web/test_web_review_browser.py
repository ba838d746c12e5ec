"""Hints and reviews in a real headless Chromium: a finished game's review shows its chart and
list, and a flagged move jumps the board to the position it was played in; a hint is said in
words and marked on the board. Screenshots (desktop 1280×800, phone 390×844) go to
docs/screenshots/review-*.png and hint-*.png (not committed)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browsing import SCREENSHOTS, played_over_api

from reviewgames import Planted, planted_blunder

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def planted() -> Planted:
    return planted_blunder()


def new_game(server: str) -> tuple[str, str]:
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    response = httpx.post(f"{server}/api/games", json={"game": "potlatch", "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def finished_game(server: str, planted: Planted) -> str:
    return played_over_api(server, planted.record)


def open_review(page: Any, server: str, game_id: str, seat: int) -> None:
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#status[data-terminal='1']")
    page.select_option("#review-seat", str(seat))
    page.click("#review-start")
    page.wait_for_selector("#review[data-state='done'] #review-chart polyline", timeout=180_000)


def test_a_finished_games_review_jumps_to_the_blunder(
    page: Any, phone: Any, server: str, planted: Planted
) -> None:
    game_id = finished_game(server, planted)
    page.set_viewport_size(DESKTOP)
    open_review(page, server, game_id, planted.seat)
    points = page.get_attribute("#review-chart polyline", "points")
    assert points and len(points.split()) >= 5
    flagged = page.locator(f"#review-flagged li[data-review-ply='{planted.ply}']")
    text = flagged.inner_text()
    assert "Blunder" in text and f"Move {planted.ply + 1} · lost" in text and "Better:" in text
    assert page.locator(
        f"#review-chart circle.flag.blunder[data-review-ply='{planted.ply}']"
    ).count()

    flagged.click()
    page.wait_for_selector("#look-back:not([hidden])")
    moves = len(planted.record.moves)
    # "Move N" of the review opens the position move N was played in, and says so.
    assert f"before move {planted.ply + 1} of {moves}" in page.inner_text("#look-back")
    current = page.get_attribute("#moves li.current", "data-ply")
    assert current == str(planted.ply - 1), "the board did not jump to the blunder's position"
    assert "chosen" in (flagged.get_attribute("class") or "")
    # The better move is drawn whole: its destination is on the board and marked, even where
    # it is a blank hex that holds no tile yet.
    review = httpx.get(f"{server}/api/games/{game_id}/review", params={"seat": planted.seat})
    best = next(m for m in review.json()["review"]["flagged"] if m["ply"] == planted.ply)["best"]
    marked = page.locator(f"#board g[data-hex='{best['struct']['to']}'] .last-move")
    assert marked.count() == 1, best
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "review-desktop.png"))

    # Back to the end, then the chart's dot jumps there too.
    page.click("#back-to-now")
    page.wait_for_selector("#look-back[hidden]", state="attached")
    page.click(f"#review-chart circle.flag[data-review-ply='{planted.ply}']")
    page.wait_for_selector("#look-back:not([hidden])")

    # A second visitor (a phone) reads the stored review without waiting for a search.
    phone.goto(f"{server}/#/game/{game_id}")
    phone.wait_for_selector("#status[data-terminal='1']")
    phone.select_option("#review-seat", str(planted.seat))
    phone.click("#review-start")
    phone.wait_for_selector("#review[data-state='done'] #review-flagged", timeout=10_000)
    phone.locator("#review").scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "review-phone.png"))


def test_replay_page_offers_the_review_too(page: Any, server: str, planted: Planted) -> None:
    game_id = finished_game(server, planted)
    page.goto(f"{server}/#/replay/{game_id}")
    page.wait_for_selector("#replay-board[data-ply]")
    page.select_option("#review-seat", str(planted.seat))
    page.click("#review-start")
    page.wait_for_selector("#review[data-state='done'] #review-flagged", timeout=180_000)
    page.click(f"#review-flagged li[data-review-ply='{planted.ply}']")
    page.wait_for_function(
        "ply => document.querySelector('#replay-board').dataset.ply === String(ply)",
        arg=planted.ply,
    )
    # "Move N" opens the position move N was played in, and the page says so (not "after move
    # N-1", which read as the wrong move).
    moves = len(planted.record.moves)
    status = page.inner_text("#replay-status")
    assert f"before move {planted.ply + 1} of {moves}" in status, status
    assert "better move is marked" in status, status


def test_a_hint_is_said_and_marked_on_the_board(page: Any, phone: Any, server: str) -> None:
    for viewer, name in ((page, "desktop"), (phone, "phone")):
        game_id, token = new_game(server)
        viewer.goto(f"{server}/")
        # This browser holds the seats' token, as the one that created the game would.
        remember = "([id, token]) => localStorage.setItem('boardplay.tokens', "
        viewer.evaluate(remember + "JSON.stringify({[id]: token}))", [game_id, token])
        if viewer is page:
            viewer.set_viewport_size(DESKTOP)
        viewer.goto(f"{server}/#/game/{game_id}")
        viewer.wait_for_selector("#status[data-your-turn='1']")
        viewer.click("#hint-button")
        viewer.wait_for_selector("#hint:not([hidden])", timeout=60_000)
        assert "Hint:" in viewer.inner_text("#hint") and "chance to win" in viewer.inner_text(
            "#hint"
        )
        viewer.wait_for_selector("#board .hinted")
        viewer.screenshot(path=str(SCREENSHOTS / f"hint-{name}.png"))
        # Playing the hinted move clears the hint.
        viewer.locator("#board .hinted").first.click()
        chooser = viewer.locator(".chooser button[data-move]")
        if chooser.count():  # the target stands for several moves: take the first offered
            chooser.first.click()
        viewer.wait_for_function("() => document.querySelector('#status').dataset.ply !== '0'")
        viewer.wait_for_selector("#hint[hidden]", state="attached")
