"""A table people enjoy (issue 16) in a real headless Chromium: what just happened is shown (the
last turn highlighted, the moves in words, numbered past 99, clickable to look back), the end
of a game marks the winner, and no page scrolls sideways on a 390 px phone."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from browsing import click_a_move, create_game, status, wait_turn

from boardplay.web.catalogue import REGISTRY

pytestmark = pytest.mark.browser


def overflow(page: Any) -> int:
    """How far the page reaches past the viewport's width (0 when nothing scrolls sideways)."""
    width: int = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return width


def test_phone_play_shows_the_last_turn_and_never_scrolls_sideways(
    phone: Any,
    server: str,
) -> None:
    page = phone
    page.goto(f"{server}/#/")
    page.wait_for_selector("#seats .seat-row")
    assert overflow(page) == 0, "the lobby scrolls sideways"
    gid = create_game(page, server, "potlatch", ("ai", "easy"))
    rng = random.Random(11)
    for _ in range(2):  # one whole turn of two actions (the default)
        wait_turn(page)
        click_a_move(page, rng)
    if wait_turn(page)["terminal"] == "1":
        pytest.skip("this seed's game ended in the first turn")
    # The AI has answered: its turn is ringed on the board and told in words.
    assert page.query_selector_all("#board .last-move"), "no last-move highlight"
    assert page.inner_text("#last-move").startswith("Last turn: Blue")
    assert overflow(page) == 0, "the game page scrolls sideways"
    # The move list is in words; no notation is shown.
    first = page.inner_text("#moves li[data-ply='0']")
    assert first.startswith("1.") and "moves" in first and "P-" not in first
    page.goto(f"{server}/#/replay/{gid}")
    page.wait_for_selector("#replay-board[data-ply]")
    assert page.query_selector_all("#replay-board .last-move")
    assert overflow(page) == 0, "the replay page scrolls sideways"
    for game in REGISTRY.names():
        page.goto(f"{server}/#/rules/{game}")
        page.wait_for_selector("#rules-text h1")
        assert overflow(page) == 0, f"the {game} rules scroll sideways"


def test_clicking_a_move_looks_back_and_the_board_waits(page: Any, server: str) -> None:
    create_game(page, server, "proteus", ("hotseat", None))
    rng = random.Random(12)
    for _ in range(4):
        wait_turn(page)
        click_a_move(page, rng)
    # Hot-seat: it is always "your turn", so wait for the fourth move itself to reach the page
    # (Proteus has no chance: four moves are ply 4); a new move brings the page back to the
    # present, by design.
    page.wait_for_selector("#status[data-ply='4']")
    page.click("#moves li[data-ply='1']")
    page.wait_for_selector("#look-back:not([hidden])")
    assert "move 2 of" in page.inner_text("#look-back")
    assert page.query_selector_all("#board [data-moves], #board [data-select]") == []
    assert "current" in (page.get_attribute("#moves li[data-ply='1']", "class") or "")
    page.click("#back-to-now")
    page.wait_for_selector("#look-back[hidden]", state="attached")
    assert page.query_selector_all("#board [data-select]")


def test_move_numbers_keep_every_digit_past_99(page: Any, server: str) -> None:
    page.goto(f"{server}/#/")
    page.wait_for_selector("#game-select")
    texts = page.evaluate(
        """async () => {
        const { moveList } = await import('/static/pages/parts.js');
        const box = document.createElement('div');
        document.body.append(box);
        const moves = Array.from({ length: 120 }, (_, i) =>
          ({ move: 'x', player: i % 2, words: `Move ${i + 1}.` }));
        moveList(box, moves, [{ name: 'A' }, { name: 'B' }], 120, null);
        const items = [...box.querySelectorAll('li .number')];
        const shown = items[119].getBoundingClientRect();
        return { n: items[119].textContent, width: shown.width, scroll: box.firstChild.scrollTop };
        }"""
    )
    assert texts["n"] == "120." and texts["width"] > 0
    assert texts["scroll"] > 0, "the list is not scrolled to the current move"


def test_the_end_marks_the_winner(page: Any, server: str) -> None:
    create_game(page, server, "potlatch", ("ai", "easy"))
    rng = random.Random(13)
    for _ in range(400):
        if wait_turn(page)["terminal"] == "1":
            break
        click_a_move(page, rng)
    assert status(page)["terminal"] == "1"
    text = page.inner_text("#status")
    # Said to the player in their own words (issue 52): "You won (...)", "You lost (...)".
    assert text.startswith(("Game over: You won", "Game over: You lost")) or "draw" in text
    if "You won" in text or "You lost" in text:
        winner = page.inner_text("#seats li.winner")
        assert "winner" in winner and ("(you)" in winner) == ("You won" in text)


def ghost_cells(page: Any) -> list[str]:
    """The cells under the tile ghost now shown (the hovered target's ghost)."""
    cells: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#board .ghost')]
          .filter((g) => getComputedStyle(g).opacity > 0.5)
          .map((g) => g.previousElementSibling.dataset.cell)"""
    )
    return cells


def test_passtally_tile_follows_the_pointer_turns_and_is_laid_by_clicking(
    page: Any, server: str
) -> None:
    create_game(page, server, "passtally", ("hotseat", None))
    rng = random.Random(14)
    # Setup: every seat puts its markers on slots, by clicking the board.
    while not page.query_selector_all("#board [data-pile][data-select]"):
        wait_turn(page)
        click_a_move(page, rng)
    page.locator("#board [data-pile][data-select]").first.click()
    page.wait_for_selector("#board .place-target")
    targets = page.query_selector_all("#board .place-target")
    assert ghost_cells(page) == []
    cell = targets[len(targets) // 2].get_attribute("data-cell")
    page.hover(f"#board .place-target[data-cell='{cell}']")
    assert ghost_cells(page) == [cell], "no ghost follows the pointer"
    before = [t.get_attribute("data-cell") for t in targets]
    words_before = page.get_attribute(f"#board .place-target[data-cell='{cell}']", "aria-label")
    page.evaluate("window.drawnBefore = document.querySelector('#board svg')")
    page.keyboard.press("r")
    page.wait_for_function("() => document.querySelector('#board svg') !== window.drawnBefore")
    after = [t.get_attribute("data-cell") for t in page.query_selector_all("#board .place-target")]
    label = page.get_attribute("#board .place-target", "aria-label") or ""
    assert after != before or label != words_before, "R did not turn the tile"
    page.click("#board .turn-buttons [data-view]")  # the Rotate button does the same
    ply = status(page)["ply"]
    target = page.locator("#board .place-target").first
    words = target.get_attribute("aria-label") or ""
    assert "lays the tile from pile" in words
    target.click()
    page.wait_for_function("p => document.querySelector('#status').dataset.ply !== p", arg=ply)
    assert words.split(" (")[0] in page.inner_text("#moves")
    assert page.query_selector_all("#board .last-move")


def test_potlatch_played_to_the_end_with_the_keyboard_only(page: Any, server: str) -> None:
    """Tab to a target, Enter to play it (Enter again picks in the chooser, which takes focus).

    Always taking the first move on the board can loop against the easy AI for hundreds of
    turns (the rules' endless games), so the game is capped at 60 turns: it still ends by the
    rules, by the turn limit (condition 4) if by nothing sooner."""
    create_game(page, server, "potlatch", ("ai", "easy"), {"turn_limit": "60"})
    for _ in range(300):
        if wait_turn(page)["terminal"] == "1":
            break
        ply = status(page)["ply"]
        for _tab in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("() => !!document.activeElement.closest('#board [data-moves]')"):
                break
        else:
            raise AssertionError("Tab never reaches a move on the board")
        page.keyboard.press("Enter")
        if page.query_selector(".chooser"):
            page.keyboard.press("Enter")
        page.wait_for_function(
            "p => document.querySelector('#status').dataset.ply !== p", arg=ply, timeout=120_000
        )
    assert status(page)["terminal"] == "1"


def test_potlatch_marks_a_move_that_loses_on_the_spot(page: Any, server: str) -> None:
    page.goto(f"{server}/#/")
    page.wait_for_selector("#game-select")
    marked = page.evaluate(
        """async () => {
        const { draw } = await import('/static/boards/potlatch.js');
        const position = { tiles: { '0,0': 'N', '1,0': '' }, stock: 0, pawns: ['0,0', '1,0'],
          to_move: 0, actions: 2 };
        const legal = [
          { id: 0, move: 'P-E', words: 'safe', struct: { kind: 'pawn', to: '1,0' } },
          { id: 7, move: 'C-NE', words: 'loses',
            struct: { kind: 'chip', to: '1,-1', ends: { winners: [1], result: 'Blue wins' } } },
        ];
        const { svg } = draw(position, { legal, interactive: true, hints: {}, lastTurn: [] });
        const at = (hex) => svg.querySelector(`[data-hex="${hex}"] .dead-end`) !== null;
        const legend = svg.querySelector('.legend') !== null;
        return { safe: at('1,0'), losing: at('1,-1'), legend };
        }"""
    )
    assert marked == {"safe": False, "losing": True, "legend": True}


def test_the_notation_shows_only_when_asked_for(page: Any, server: str) -> None:
    """No engine id or notation on the page by default; the setting shows the game's option
    string and each move's notation, and is remembered."""
    create_game(page, server, "potlatch", ("ai", "easy"))
    wait_turn(page)
    click_a_move(page, random.Random(1))
    page.wait_for_selector("#moves li[data-ply='0'] .notation", state="attached")
    hidden = "el => getComputedStyle(el).display === 'none'"
    assert page.eval_on_selector("#game-title .notation", hidden)
    assert page.eval_on_selector("#moves li[data-ply='0'] .notation", hidden)
    assert "potlatch" not in page.inner_text("#game-title").lower().replace("potlatch klone", "")
    page.check("#show-notation")
    assert page.inner_text("#game-title .notation") == "potlatch"
    notation = page.inner_text("#moves li[data-ply='0'] .notation")
    assert re.fullmatch(r"[PC]-(E|NE|NW|W|SW|SE)", notation), notation
    page.reload()
    page.wait_for_selector("#moves li[data-ply='0'] .notation")
    assert page.is_checked("#show-notation")
    page.uncheck("#show-notation")
    assert page.eval_on_selector("#game-title .notation", hidden)


def test_potlatch_draws_a_marked_move_onto_a_blank_hex(page: Any, server: str) -> None:
    """A review's better move (or a last turn) that went to a blank hex is drawn whole: the hex
    appears on the board, marked, although no tile stands there."""
    page.goto(f"{server}/#/")
    page.wait_for_selector("#game-select")
    marked = page.evaluate(
        """async () => {
        const { draw } = await import('/static/boards/potlatch.js');
        const position = { tiles: { '0,0': 'N', '1,0': '' }, stock: 3, pawns: ['0,0', '1,0'],
          to_move: 0, actions: 2 };
        const better = { kind: 'chip', from: '0,0', to: '0,1' };
        const ctx = { legal: [], interactive: false, hints: {}, lastTurn: [better] };
        const { svg } = draw(position, ctx);
        return svg.querySelectorAll('[data-hex="0,1"].blank .last-move').length;
        }"""
    )
    assert marked == 1


def test_the_seats_chosen_survive_a_late_redraw_of_the_lobby(page: Any, server: str) -> None:
    """The seats are redrawn when an option changes, after a preview from the server: the
    choices already made stay (an invite seat stays an invite seat, an AI keeps its level)
    instead of falling back to the defaults, however late the preview answers."""
    page.goto(f"{server}/#/")
    page.select_option("#game-select", "montana")
    page.wait_for_selector("#seats[data-game='montana'] .seat-row")
    page.select_option("#opt-players", "3")
    page.wait_for_function("document.querySelectorAll('#seats .seat-row').length === 3")
    held: list[Any] = []
    page.route("**/api/games/preview", lambda route: held.append(route))
    page.select_option("select[name=seat-1]", "invite")
    page.select_option("select[name=level-2]", "hard")
    page.evaluate("document.querySelector('#seats .seat-row').dataset.old = '1'")
    page.evaluate("document.querySelector('#options').dispatchEvent(new Event('change'))")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "changing an option did not ask for a seat preview"
    held[0].continue_()  # the late answer redraws the seats
    page.wait_for_function("!document.querySelector('#seats .seat-row').dataset.old")
    assert page.input_value("select[name=seat-1]") == "invite"
    assert page.input_value("select[name=seat-2]") == "ai"
    assert page.input_value("select[name=level-2]") == "hard"
    assert page.inner_text(".level-note[data-seat='2']").startswith("Searches many moves ahead")


def test_a_move_made_while_offline_is_kept_and_sent_once_back(page: Any, server: str) -> None:
    """A move played with the connection down said only "Failed to fetch" and was lost. Now the
    page says the move is kept, and sends it (with its ply guard) once the browser is back."""
    create_game(page, server, "potlatch", ("hotseat", None))
    wait_turn(page)
    ply = status(page)["ply"]
    target = page.locator("#board [data-moves]")
    single = [
        i
        for i in range(target.count())
        if len(json.loads(target.nth(i).get_attribute("data-moves"))) == 1
    ]
    assert single, "no board target plays a single move"
    page.context.set_offline(True)
    try:
        target.nth(single[0]).click()
        page.wait_for_function(
            "() => document.querySelector('#connection').textContent.startsWith('offline')"
        )
        assert "offline" in page.inner_text("#toast").lower()  # said as a sentence: "Offline: …"
        assert "Failed to fetch" not in page.inner_text("#toast")
        assert status(page)["ply"] == ply  # not shown as played: it waits
    finally:
        page.context.set_offline(False)
    page.wait_for_function(
        "ply => document.querySelector('#status').dataset.ply !== ply", arg=ply, timeout=30_000
    )
