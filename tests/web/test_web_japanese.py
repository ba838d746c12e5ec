"""The Japanese web UI in a real headless Chromium (issue 16, build 7): a browser that prefers
Japanese gets the lobby, the game pages, a replay and the rules in Japanese, with no visible string
left in English (the page's strings are compared with the catalogue's English); the language can
be switched on every page and is remembered. Screenshots of the Japanese lobby and a Japanese game
go to docs/screenshots/ja-*.png."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browsing import SCREENSHOTS, click_a_move, create_game, wait_turn

from boardplay.i18n import messages

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# What a Japanese page may show in Latin letters: the brand, the language's own name, the rule
# names the Japanese rules keep in English (Proteus), Passtally's tile designs (named by their
# halves, as in the rules), "AI", file formats and a publisher's name.
LATIN_OK = {
    "boardplay",
    "English",
    "KING",
    "ROOK",
    "BISHOP",
    "KNIGHT",
    "POLARITY",
    "COLOR",
    "SHAPE",
    "LINE",
    "XNE",
    "XNW",
    "NENE",
    "NWNW",
    "NENW",
    "JSON",
    "Kadon",
    "AI",
}

# Every visible text node, every selected option, and the accessible names and tooltips of the
# page, except what is marked translate="no" (notation, seeds, links: not words).
SHOWN = """() => {
  const out = [];
  const skip = (el) => !el || el.closest('[translate="no"], option, script, style, #rules-text')
    || !el.checkVisibility({visibilityProperty: true});
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.trim();
    if (text && !skip(n.parentElement)) out.push(text);
  }
  for (const el of document.querySelectorAll('select')) {
    const chosen = el.selectedOptions[0];
    if (!skip(el.parentElement) && chosen) out.push(chosen.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (el.closest('[translate="no"]')) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) out.push(value.trim());
    }
  }
  return out;
}"""


def english_left(texts: list[str]) -> list[str]:
    """The texts that are English on a Japanese page: equal to an English message of the
    catalogue that has a different Japanese, or holding a Latin word that is not a name."""
    en, ja = messages("web", "en"), messages("web", "ja")
    english = {en[k] for k in en if en[k] != ja[k] and "{" not in en[k]}
    left = []
    for text in texts:
        words = [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in LATIN_OK]
        if text in english or words:
            left.append(text)
    return left


@pytest.fixture
def ja_page(browser: Any) -> Iterator[Any]:
    """A page of a browser whose languages are Japanese first (navigator.languages and
    Accept-Language), as a Japanese visitor's is."""
    context = browser.new_context(viewport=DESKTOP, locale="ja-JP")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()
    assert not errors, errors


def shown(page: Any) -> list[str]:
    texts: list[str] = page.evaluate(SHOWN)
    return texts


def test_a_japanese_browser_gets_the_lobby_in_japanese(ja_page: Any, server: str) -> None:
    page = ja_page
    page.goto(f"{server}/#/")
    page.wait_for_selector("#seats .seat-row")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.input_value("#language") == "ja"
    assert "新しいゲーム" in page.inner_text("#new-game")
    assert page.inner_text("header nav") == "ロビー 記録を開く"
    for game in ("potlatch", "proteus", "passtally", "montana"):
        page.select_option("#game-select", game)
        page.wait_for_selector(f"#seats[data-game='{game}'] .seat-row")
        assert not english_left(shown(page)), (game, english_left(shown(page)))


@pytest.mark.parametrize("game", ["potlatch", "proteus", "passtally"])
def test_game_replay_and_rules_pages_leave_no_english(ja_page: Any, server: str, game: str) -> None:
    page = ja_page
    gid = create_game(page, server, game, ("hotseat", None))
    rng = random.Random(game)
    for _ in range(4):  # a few moves, so the move list and the last turn are in words
        if wait_turn(page)["terminal"] == "1":
            break
        click_a_move(page, rng)
    wait_turn(page)
    texts = shown(page)
    assert any("手番" in text for text in texts), texts
    assert page.inner_text("#moves li[data-ply='0']").endswith("。")
    assert not english_left(texts), english_left(texts)
    page.goto(f"{server}/#/replay/{gid}")
    page.wait_for_selector("#replay-board[data-ply]")
    assert not english_left(shown(page)), english_left(shown(page))
    page.goto(f"{server}/#/rules/{game}")
    page.wait_for_selector("#rules-text h1")
    assert page.get_attribute("#rules-text", "lang") == "ja"
    assert re.search(r"[\u30a0-\u30ff]", page.inner_text("#rules-text h1"))
    assert not english_left(shown(page)), english_left(shown(page))


def test_the_language_is_switched_on_any_page_and_remembered(ja_page: Any, server: str) -> None:
    page = ja_page
    create_game(page, server, "potlatch", ("hotseat", None))
    assert page.inner_text("#undo") == "1手戻す" or page.is_hidden("#undo")
    assert "手番" in page.inner_text("#status")
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_function("document.querySelector('#status')?.textContent.includes('move')")
    assert page.inner_text("header nav") == "Lobby Open a record"
    page.reload()
    page.wait_for_selector("#status[data-ply]")
    # Remembered over the browser's own preference for Japanese.
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "move" in page.inner_text("#status")
    page.select_option("#language", "ja")
    page.wait_for_function("document.querySelector('#status')?.textContent.includes('手番')")


def test_an_unknown_browser_language_means_english(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{server}/#/")
        page.wait_for_selector("#seats .seat-row")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert "New game" in page.inner_text("#new-game")
    finally:
        context.close()


@pytest.mark.parametrize(("size", "viewport"), [("", DESKTOP), ("-phone", PHONE)])
def test_japanese_screenshots(browser: Any, server: str, size: str, viewport: Any) -> None:
    """docs/screenshots/ja-lobby*.png and ja-potlatch*.png: the Japanese lobby and a Japanese
    Potlatch game after a few moves, at desktop and phone size."""
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.goto(f"{server}/#/")
        page.wait_for_selector("#seats .seat-row")
        page.screenshot(path=str(SCREENSHOTS / f"ja-lobby{size}.png"))
        create_game(page, server, "potlatch", ("ai", "easy"))
        rng = random.Random(2)
        for _ in range(2):
            if wait_turn(page)["terminal"] == "1":
                break
            click_a_move(page, rng)
        wait_turn(page)
        page.screenshot(path=str(SCREENSHOTS / f"ja-potlatch{size}.png"), full_page=True)
        assert "直前の手番" in page.inner_text("#last-move")
        # The AI's seat and its moves are in Japanese too.
        assert "AI（やさしい）" in page.inner_text("#seats")
        assert not english_left(shown(page)), english_left(shown(page))
    finally:
        context.close()
