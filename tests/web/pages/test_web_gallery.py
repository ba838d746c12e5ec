"""The README's gallery (issue 16): each of the four games against the AI, in English and in
Japanese, at desktop (1280 x 800) and phone (390 x 844) size, a few turns in, played by clicking
the board alone. Each page is checked as it is photographed: it is in the asked language (a Japanese
page shows no English string), the AI's last turn is ringed on the board and told in words, and
nothing scrolls sideways. Under ``make soak`` all sixteen are played and the pictures go to
docs/screenshots/gallery/<game>-<lang>-<size>.png; ``make test`` plays four (tests/web/conftest.py's
SOAK_ONLY) and leaves the committed pictures alone."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browsing import SCREENSHOTS, click_a_move, create_game, wait_turn
from japanese import english_left, shown

from support import SOAK

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "ja": "ja-JP"}
# The player's own decisions before the picture: enough for the board to fill a little and for
# the AI to have answered at least once (a Montana turn is several decisions).
DECISIONS = {"potlatch": 4, "proteus": 4, "passtally": 6, "montana": 6}
LAST_TURN = {"en": "Last turn", "ja": "直前の手番"}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("game", DECISIONS)
def test_gallery(browser: Any, server: str, game: str, lang: str, size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        create_game(page, server, game, ("ai", "easy"))
        # A first game opens the walk-through; the gallery shows the table itself.
        page.evaluate("document.querySelector('#tutorial-skip')?.click()")
        rng = random.Random(7)
        for _ in range(DECISIONS[game]):
            if wait_turn(page)["terminal"] == "1":
                break
            assert click_a_move(page, rng) == "board", "a move was not offered on the board"
        wait_turn(page)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.inner_text("#last-move").startswith(LAST_TURN[lang])
        assert page.query_selector_all("#board .last-move"), "the last turn is not ringed"
        width = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert width == 0, f"the page scrolls {width} px sideways"
        if lang == "ja":
            assert not english_left(shown(page)), english_left(shown(page))
        if SOAK:  # the README's pictures, all sixteen, redrawn by make soak
            folder = SCREENSHOTS / "gallery"
            folder.mkdir(parents=True, exist_ok=True)
            # Clicking may have scrolled down to a board part; the picture shows the page's top.
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_function("window.scrollY === 0")
            page.screenshot(path=str(folder / f"{game}-{lang}-{size}.png"))
    finally:
        context.close()
