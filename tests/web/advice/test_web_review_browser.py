"""Hints and reviews in a real headless Chromium: a finished game's review shows its chart and
list, and a flagged move jumps the board to the position it was played in; the list ends with how
the rules ended the game, which shows the final board with the ending marked and said (English
and Japanese, game page and replay page); a hint is said in words and marked on the board.
Screenshots (desktop 1280×800, phone 390×844) go to docs/screenshots/review-*.png and hint-*.png
(review-ending-* committed)."""

from __future__ import annotations

from typing import Any

import httpcalls
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
    response = httpcalls.post(f"{server}/api/games", json={"game": "potlatch", "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def finished_game(server: str, planted: Planted) -> str:
    return played_over_api(server, planted.record)


# The marks the final Potlatch board draws for the ending (boards/potlatch.js, ctx.ending).
ENDING_MARKS = "#board .ending-pawn, #board .ending-blocked, #board .ending-stack"


def shows_the_ending(page: Any, board: str = "#board") -> str:
    """Pick the review's last entry, how the game ended; the board then shows the final position
    with the ending marked, and the page says it as the review does. Returns the words."""
    entry = page.locator("#review-ending")
    said = entry.locator(".ending-words").inner_text().strip()
    assert said, "the review's ending entry has no words"
    entry.click()
    assert "chosen" in (entry.get_attribute("class") or "")
    page.wait_for_selector(ENDING_MARKS.replace("#board", board))
    return str(said)


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
    review = httpcalls.get(f"{server}/api/games/{game_id}/review", params={"seat": planted.seat})
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
    assert page.locator(ENDING_MARKS).count() == 0, "the position before the end marks the end"

    # The list ends with how the game ended: picking it shows the final board, the ending marked
    # there and said on the page, the same words as the review's.
    entry = page.locator("#review-ending")
    assert f"Move {moves} ended the game:" in entry.inner_text(), entry.inner_text()
    said = shows_the_ending(page)
    page.wait_for_selector("#look-back[hidden]", state="attached")
    assert page.inner_text("#ending-words").strip() == said
    page.locator("#review-ending").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "review-ending-desktop-en.png"))

    # A second visitor (a phone) reads the stored review without waiting for a search.
    phone.goto(f"{server}/#/game/{game_id}")
    phone.wait_for_selector("#status[data-terminal='1']")
    phone.select_option("#review-seat", str(planted.seat))
    phone.click("#review-start")
    phone.wait_for_selector("#review[data-state='done'] #review-flagged", timeout=10_000)
    phone.locator("#review").scroll_into_view_if_needed()
    phone.screenshot(path=str(SCREENSHOTS / "review-phone.png"))
    # On a phone the board is above the review: picking the ending brings it into view.
    shows_the_ending(phone)
    top = phone.eval_on_selector("#board", "el => el.getBoundingClientRect().top")
    assert 0 < top < 844 / 2, top  # under the status line and its words
    phone.screenshot(path=str(SCREENSHOTS / "review-ending-phone-en.png"))


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
    said = shows_the_ending(page, "#replay-board")
    page.wait_for_function(
        "n => document.querySelector('#replay-board').dataset.ply === String(n)", arg=moves
    )
    assert page.inner_text("#replay-status .ending-words").strip() == said


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_review_says_the_ending_in_japanese(
    browser: Any, server: str, planted: Planted, screen: str
) -> None:
    game_id = finished_game(server, planted)
    viewport = DESKTOP if screen == "desktop" else {"width": 390, "height": 844}
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    context.add_init_script("localStorage.setItem('boardplay.lang', 'ja')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_review(page, server, game_id, planted.seat)
    entry = page.locator("#review-ending")
    heading = entry.inner_text()
    assert f"{len(planted.record.moves)}手目でゲーム終了" in heading, heading
    said = shows_the_ending(page)
    # Said in Japanese (no English sentence left), and the page says the same under the result.
    assert not any(w in said for w in (" the ", " is ", " wins")), said
    assert page.inner_text("#ending-words").strip() == said
    page.locator("#review-ending" if screen == "desktop" else "#board").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"review-ending-{screen}-ja.png"))
    context.close()
    assert not errors, errors


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
