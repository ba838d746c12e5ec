"""The Japanese web UI in a real headless Chromium (issue 16, build 7): a browser that prefers
Japanese gets the lobby, the game pages, a replay and the rules in Japanese, with no visible string
left in English (the page's strings are compared with the catalogue's English); the language can
be switched on every page and is remembered. Screenshots of the Japanese lobby and a Japanese game
go to docs/screenshots/ja-*.png."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from browsing import SCREENSHOTS, click_a_move, create_game, played_over_api, wait_turn
from japanese import KANA, english_left, shown

from boardplay.i18n import messages
from boardplay.web.catalogue import REGISTRY
from reviewgames import planted_blunder
from support import uniform_record

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


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


def test_a_japanese_browser_gets_the_lobby_in_japanese(ja_page: Any, server: str) -> None:
    page = ja_page
    page.goto(f"{server}/#/")
    page.wait_for_selector("#seats .seat-row")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.input_value("#language") == "ja"
    assert "新しいゲーム" in page.inner_text("#new-game")
    assert page.inner_text("header nav") == "ロビー 記録を開く 検討ボード パズル 大会 レーティング"
    page.evaluate("document.querySelector('#more-options').open = true")
    for game in REGISTRY.names():
        page.select_option("#game-select", game)
        page.wait_for_selector(f"#seats[data-game='{game}'] .seat-row")
        assert not english_left(shown(page)), (game, english_left(shown(page)))
        # Every rule option explains itself in a tooltip, in Japanese; a number box says what
        # it takes in Japanese too.
        tips = page.eval_on_selector_all(
            "#new-game label.option", "els => els.map((el) => el.getAttribute('title') || '')"
        )
        assert tips and all(KANA.search(tip) for tip in tips), (game, tips)
        hints = page.eval_on_selector_all(
            "#new-game label.option input:not([type=checkbox])",
            "els => els.map((el) => el.placeholder + ' | ' + el.title)",
        )
        assert all(KANA.search(hint) for hint in hints), (game, hints)


@pytest.mark.parametrize("game", REGISTRY.names())
def test_game_replay_and_rules_pages_leave_no_english(ja_page: Any, server: str, game: str) -> None:
    page = ja_page
    gid = create_game(page, server, game, ("hotseat", None))
    rng = random.Random(game)
    for _ in range(6 if game == "montana" else 4):  # the move list and last turn in words
        if wait_turn(page)["terminal"] == "1":
            break
        click_a_move(page, rng)
    wait_turn(page)
    texts = shown(page)
    assert any("手番" in text for text in texts), texts
    assert page.inner_text("#moves li[data-ply='0']").endswith("。")
    assert not english_left(texts), english_left(texts)
    # The game page's own rules drawer is in Japanese too (it fetched the English rules once).
    page.click("#rules-open")
    page.wait_for_selector("#rules-panel-text h1")
    assert page.get_attribute("#rules-panel-text", "lang") == "ja"
    assert re.search(r"[\u30a0-\u30ff]", page.inner_text("#rules-panel-title"))
    assert re.search(r"[\u30a0-\u30ff]", page.inner_text("#rules-panel-text h1"))
    # Option names and notation are folded away, under a Japanese title.
    folded = page.locator("#rules-panel-text details.expert:not([open]) > summary")
    assert folded.count() == 1 and KANA.search(folded.inner_text()), folded.count()
    page.goto(f"{server}/#/replay/{gid}")
    page.wait_for_selector("#replay-board[data-ply]")
    assert not english_left(shown(page)), english_left(shown(page))
    page.goto(f"{server}/#/rules/{game}")
    page.wait_for_selector("#rules-text h1")
    assert page.get_attribute("#rules-text", "lang") == "ja"
    assert re.search(r"[\u30a0-\u30ff]", page.inner_text("#rules-text h1"))
    assert not english_left(shown(page)), english_left(shown(page))


def test_a_word_in_a_japanese_number_box_reaches_the_game_as_the_engines_word(
    ja_page: Any, server: str
) -> None:
    """Montana's landscape and start player boxes show "random" in Japanese; left as they are
    they keep the engine's default, and a number typed in is sent as the number."""
    page = ja_page
    page.goto(f"{server}/#/")
    page.select_option("#game-select", "montana")
    page.wait_for_selector("#seats[data-game='montana'] .seat-row")
    page.evaluate("document.querySelector('#more-options').open = true")
    random_word = messages("web", "ja")["choice.random"]
    assert page.input_value("#opt-start_player") == random_word
    page.fill("#opt-board_seed", "7")
    page.click("#create")
    page.wait_for_selector("#status[data-ply]")
    options = page.evaluate(
        "fetch('/api/games/' + location.hash.split('/')[2]).then(r => r.json())"
        ".then(g => g.options)"
    )
    assert options["board_seed"] == 7 and options["start_player"] == "random", options


def test_the_language_is_switched_on_any_page_and_remembered(ja_page: Any, server: str) -> None:
    page = ja_page
    create_game(page, server, "potlatch", ("hotseat", None))
    assert page.inner_text("#undo") == "1手戻す" or page.is_hidden("#undo")
    assert "手番" in page.inner_text("#status")
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_function("document.querySelector('#status')?.textContent.includes('move')")
    links = "Lobby Open a record Analysis board Puzzles Tournaments Ratings"
    assert page.inner_text("header nav") == links
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
        tip = page.eval_on_selector("#opt-layout", "el => el.closest('label').title")
        assert tip == messages("web", "en")["tip.potlatch.layout"]
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


def finished_record(game: str, seed: int, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A record of a random game played to its end here (not in the browser: a Montana game
    takes over a thousand steps), written where the replay page can open it."""
    record, _state, _before, _seat = uniform_record(REGISTRY.load(game, {}), seed)
    path = tmp_path / f"{game}-{seed}.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert record.result is not None
    return path, record.result


def open_record(page: Any, server: str, path: Path) -> None:
    page.goto(f"{server}/#/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-board[data-ply]")


@pytest.mark.parametrize("game", REGISTRY.names())
def test_the_end_of_a_game_says_in_japanese_who_won_and_why(
    ja_page: Any, server: str, game: str, tmp_path: Path
) -> None:
    """The result line, the last move and the board at the end are Japanese: put together from
    the winners and the engine's end code, not from its English sentence."""
    page = ja_page
    path, result = finished_record(game, 1, tmp_path)
    open_record(page, server, path)
    ja = messages("web", "ja")
    status = page.inner_text("#replay-status")
    assert status.startswith(ja["replay.result"].split("{")[0]), status
    assert ja[f"end.{result['end']}"] in status, status
    last = page.inner_text("ol.moves li:last-child")
    assert ja["game.ends"].split("{")[0].strip() in last and last.endswith("。"), last
    assert not english_left(shown(page)), english_left(shown(page))


def test_a_finished_game_and_the_lobby_say_the_result_in_japanese(
    ja_page: Any, server: str
) -> None:
    """A Potlatch game played to its end over the API: its page and the lobby's list of recent
    games word the result in Japanese, with why it ended."""
    created = httpcalls.post(
        f"{server}/api/games",
        json={"game": "potlatch", "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
    ).json()
    gid, token, view = created["id"], created["token"], created["game"]
    rng = random.Random(5)
    while not view["terminal"]:
        move = rng.choice(view["legal"])["id"]
        answer = httpcalls.post(
            f"{server}/api/games/{gid}/actions",
            json={"action": move, "ply": view["ply"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    reason = messages("web", "ja")[f"end.{view['result']['end']}"]
    page = ja_page
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("#status[data-terminal='1']")
    assert "ゲーム終了" in page.inner_text("#status") and reason in page.inner_text("#status")
    assert not english_left(shown(page)), english_left(shown(page))
    page.goto(f"{server}/#/")
    row = page.wait_for_selector(f"#recent-games tr[data-game='{gid}']")
    assert reason in row.inner_text(), row.inner_text()
    # On a phone, no game's name and no link of the list is broken across lines (a word cut in
    # two is two line boxes).
    page.set_viewport_size(PHONE)
    broken = page.eval_on_selector_all(
        "#recent-games .game-name, #recent-games td a",
        "els => els.filter((el) => el.getClientRects().length > 1).map((el) => el.textContent)",
    )
    assert page.locator("#recent-games .game-name").count() and not broken, broken


def test_a_finished_games_replay_and_review_are_japanese(ja_page: Any, server: str) -> None:
    """The replay page of a finished game with its review: the seat menu's every choice, the
    chart's name, the flagged moves and the jump to one of them are Japanese."""
    planted = planted_blunder()
    game_id = played_over_api(server, planted.record)
    page = ja_page
    page.goto(f"{server}/#/replay/{game_id}")
    page.wait_for_selector("#replay-board[data-ply]")
    choices = page.eval_on_selector_all("#review-seat option", "els => els.map((o) => o.text)")
    assert len(choices) == 2 and all(KANA.search(c) for c in choices), choices
    page.select_option("#review-seat", str(planted.seat))
    page.click("#review-start")
    page.wait_for_selector("#review[data-state='done'] #review-flagged", timeout=180_000)
    assert KANA.search(page.get_attribute("#review-chart", "aria-label") or ""), "chart name"
    page.click(f"#review-flagged li[data-review-ply='{planted.ply}']")
    page.wait_for_function(
        "ply => document.querySelector('#replay-board').dataset.ply === String(ply)",
        arg=planted.ply,
    )
    ja = messages("web", "ja")
    before = ja["game.lookBefore"].format(n=planted.ply + 1, total=len(planted.record.moves))
    assert page.inner_text("#replay-status").startswith(before), page.inner_text("#replay-status")
    assert not english_left(shown(page)), english_left(shown(page))


@pytest.mark.parametrize(("size", "viewport"), [("", DESKTOP), ("-phone", PHONE)])
def test_japanese_montana_screenshots(
    browser: Any, server: str, size: str, viewport: Any, tmp_path: Path
) -> None:
    """docs/screenshots/ja-montana*.png (a hot-seat game after a few steps: the decision panel,
    the move list and the last turn in Japanese), ja-montana-end*.png (a finished game's last
    position) and ja-lobby-options*.png (the lobby's rule options with a tooltip's text)."""
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        create_game(page, server, "montana", ("hotseat", None))
        rng = random.Random(11)
        for _ in range(8):
            if wait_turn(page)["terminal"] == "1":
                break
            click_a_move(page, rng)
        wait_turn(page)
        page.wait_for_selector("#mt-prompt")
        assert "直前の手番" in page.inner_text("#last-move")
        page.screenshot(path=str(SCREENSHOTS / f"ja-montana{size}.png"), full_page=True)
        assert not english_left(shown(page)), english_left(shown(page))
        path, _result = finished_record("montana", 2, tmp_path)
        open_record(page, server, path)
        assert "最終ラウンドが終わった" in page.inner_text("#mt-prompt")
        page.screenshot(path=str(SCREENSHOTS / f"ja-montana-end{size}.png"), full_page=True)
        assert not english_left(shown(page)), english_left(shown(page))
        page.goto(f"{server}/#/")
        page.select_option("#game-select", "montana")
        page.wait_for_selector("#seats[data-game='montana'] .seat-row")
        page.evaluate("document.querySelector('#more-options').open = true")
        # A tooltip is drawn by the browser, not the page: show its text where a person sees it.
        page.evaluate(
            """() => { const el = document.querySelector('#opt-recruit_grain').closest('label');
               const tip = document.createElement('div'); tip.id = 'tip-shown';
               tip.style.cssText = 'border:1px solid #888;background:#ffffe0;padding:4px;';
               tip.textContent = el.title; el.after(tip); el.scrollIntoView(); }"""
        )
        page.screenshot(path=str(SCREENSHOTS / f"ja-lobby-options{size}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_montana_tie_says_which_tie_break_decided(
    browser: Any, server: str, lang: str, tmp_path: Path
) -> None:
    """Seed 134's random game ends with both players' settlements all placed and level on
    cattle and canteens: the end of its replay says that silver, workers and goods decided."""
    path, result = finished_record("montana", 134, tmp_path)
    assert result["end"] == "final_round" and result["text"].endswith(
        "), tie broken by silver, workers and goods"
    )
    context = browser.new_context(viewport=DESKTOP, locale="ja-JP" if lang == "ja" else "en-US")
    try:
        page = context.new_page()
        open_record(page, server, path)
        prompt = page.inner_text("#mt-prompt")
        catalogue = messages("web", lang)
        assert catalogue["montana.decided.money"] in prompt, prompt
        page.screenshot(path=str(tmp_path / f"montana-tie-{lang}.png"))
        if lang == "ja":
            assert not english_left(shown(page)), english_left(shown(page))
    finally:
        context.close()
