"""The web app in a real headless Chromium: every available game played to the end against the AI
by clicking the board, a hot-seat game, an invitation between two browsers, a reload mid-game,
replays and rules. Screenshots of each board go to docs/screenshots/<game>.png."""

from __future__ import annotations

import random
import signal
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from browsing import (
    GAMES,
    SCREENSHOTS,
    click_a_move,
    create_game,
    free_port,
    play_to_end,
    serve,
    status,
    wait_turn,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", GAMES)
def test_play_against_the_ai_to_the_end_by_clicking(page: Any, server: str, game: str) -> None:
    create_game(page, server, game)
    counts = play_to_end(page, random.Random(game), SCREENSHOTS / f"{game}.png")
    assert "Game over" in page.inner_text("#status")
    assert counts["board"] > 0, "no move was made on the board"
    assert counts["list"] == 0, "every move of every game is drawn on the board"


@pytest.mark.parametrize("size", ["page", "phone"])
@pytest.mark.parametrize("game", GAMES)
def test_hot_seat_by_board_clicks_alone(request: Any, server: str, game: str, size: str) -> None:
    """Every game, hot-seat, at desktop and phone size: both seats move from one screen, and every
    move is made on the board (never from a list of moves)."""
    page = request.getfixturevalue(size)
    create_game(page, server, game, ("hotseat", None))
    page.evaluate("document.querySelector('#tutorial-skip')?.click()")
    rng = random.Random(f"{game}-{size}")
    # A step of the current turn can be taken back (Potlatch turns have 2 or 3 steps).
    if game == "potlatch":
        assert click_a_move(page, rng) == "board"
        assert page.is_visible("#undo")
        page.click("#undo")
        page.wait_for_function("() => document.querySelector('#status').dataset.ply === '0'")
    movers = set()
    for _ in range(16):
        if wait_turn(page)["terminal"] == "1":
            break
        movers.add(page.inner_text("#seats li.current"))
        assert click_a_move(page, rng) == "board", "a move was not offered on the board"
    assert len(movers) == 2


def test_invitation_link_between_two_browsers(browser: Any, server: str) -> None:
    host_context = browser.new_context()
    guest_context = browser.new_context()
    try:
        host = host_context.new_page()
        game = GAMES[0]
        gid = create_game(host, server, game, ("invite", None))
        link = host.inner_text("#invites .invite")
        assert f"/#/join/{gid}/" in link
        guest = guest_context.new_page()
        guest.goto(link)
        # The invitation says which side it offers (seat 1, the second: the host sits first).
        guest.wait_for_selector("#your-seat")
        assert "(seat 2)" in guest.inner_text("#your-seat")
        guest.fill("#player-name", "Guest")
        guest.click("#accept")
        guest.wait_for_selector("#status[data-ply]")
        # The host sees the guest take the seat, live.
        host.wait_for_function("() => document.querySelector('#seats').innerText.includes('Guest')")
        rng = random.Random(2)
        movers = set()
        for _ in range(12):
            # Whoever's turn it is moves; the other browser sees the move arrive live.
            for _wait in range(600):
                ready = [p for p in (host, guest) if status(p)["yours"] == "1"]
                if ready or status(host)["terminal"] == "1":
                    break
                host.wait_for_timeout(50)
            if not ready:
                break
            player = ready[0]
            movers.add("host" if player is host else "guest")
            ply = int(status(player)["ply"])
            click_a_move(player, rng)
            other = guest if player is host else host
            other.wait_for_function(
                "ply => +document.querySelector('#status').dataset.ply > ply", arg=ply
            )
        assert movers == {"host", "guest"}
        # A third browser watches: it sees the board but is offered no move.
        watcher = host_context.browser.new_context().new_page()
        watcher.goto(f"{server}/#/game/{gid}")
        watcher.wait_for_selector("#status[data-ply]")
        assert watcher.query_selector_all("#board [data-moves], #board [data-select]") == []
        assert watcher.query_selector_all("#legal-list button") == []
        assert "(you)" not in watcher.inner_text("#seats")
        watcher.context.close()
        assert "Guest" in host.inner_text("#seats")
    finally:
        host_context.close()
        guest_context.close()


def test_reload_mid_game_and_continue(page: Any, server: str) -> None:
    game = GAMES[0]
    gid = create_game(page, server, game, ("hotseat", None))
    rng = random.Random(3)
    for _ in range(3):
        wait_turn(page)
        click_a_move(page, rng)
    # Chance the server plays after a move reaches the page a moment later: read the page
    # only once it shows the server's ply.
    server_ply = page.request.get(f"{server}/api/games/{gid}").json()["ply"]
    page.wait_for_selector(f"#status[data-ply='{server_ply}']")
    before = status(page)["ply"]
    moves = page.inner_text("#moves")
    page.reload()
    page.wait_for_selector("#status[data-ply]")
    assert status(page)["ply"] == before and page.inner_text("#moves") == moves
    assert f"#/game/{gid}" in page.url
    wait_turn(page)
    click_a_move(page, rng)
    assert int(status(page)["ply"]) > int(before)


def test_replay_stepping_and_record_upload(page: Any, server: str, tmp_path: Path) -> None:
    game = GAMES[0]
    gid = create_game(page, server, game, ("hotseat", None))
    rng = random.Random(4)
    for _ in range(4):
        wait_turn(page)
        click_a_move(page, rng)
    plies = int(status(page)["ply"])
    page.goto(f"{server}/#/replay/{gid}")
    page.wait_for_selector("#replay-board[data-ply]")
    board = page.locator("#replay-board")
    assert board.get_attribute("data-ply") == str(plies)
    page.click("#first")
    assert board.get_attribute("data-ply") == "0"
    first_svg = board.inner_html()
    page.click("#next")
    assert board.get_attribute("data-ply") == "1"
    page.click("#next")
    page.click("#prev")
    assert board.get_attribute("data-ply") == "1"
    page.fill("#scrub", "3")
    page.dispatch_event("#scrub", "input")
    assert board.get_attribute("data-ply") == "3"
    page.click("#last")
    assert board.inner_html() != first_svg
    # Download the record, then open it as a file.
    record = httpcalls.get(f"{server}/api/games/{gid}/record").text
    path = tmp_path / "game.json"
    path.write_text(record)
    page.goto(f"{server}/#/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-board[data-ply]")
    assert page.locator("#replay-board").get_attribute("data-ply") == str(plies)
    # The rules are one click away.
    page.click("text=Rules")
    page.wait_for_selector("#rules-text h1")


def test_page_reconnects_after_a_server_restart(page: Any, tmp_path: Path) -> None:
    """The server dies and comes back on the same address: the open page reconnects by itself
    and shows what happens next, live."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = tmp_path / "restart.sqlite3"
    process = serve(db, port)
    try:
        gid = create_game(page, base, GAMES[0], ("invite", None))
        code = page.inner_text("#invites .invite").rsplit("/", 1)[1]
        page.wait_for_function("() => document.querySelector('#connection').textContent === 'live'")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        page.wait_for_function(
            "() => document.querySelector('#connection').textContent === 'reconnecting…'"
        )
        process = serve(db, port)
        page.wait_for_function(
            "() => document.querySelector('#connection').textContent === 'live'", timeout=60_000
        )
        joined = httpcalls.post(
            f"{base}/api/games/{gid}/join", json={"invite": code, "name": "Late"}
        )
        assert joined.status_code == 200
        page.wait_for_function("() => document.querySelector('#seats').innerText.includes('Late')")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def test_the_creator_plays_under_a_name_of_their_choosing(page: Any, server: str) -> None:
    """The creator had no name ("Red" played "Hana"): the lobby now asks for one, keeps it in
    this browser, and the seat carries it."""
    page.goto(f"{server}/#/")
    page.wait_for_selector("#game-select")
    page.select_option("#game-select", "proteus")
    page.wait_for_selector("#seats[data-game='proteus'] .seat-row")
    page.fill("#my-name", "Aki")
    page.select_option("select[name=seat-0]", "me")
    page.select_option("select[name=seat-1]", "invite")
    page.click("#create")
    page.wait_for_selector("#status[data-ply]")
    page.wait_for_function("() => document.querySelector('#seats').innerText.includes('Aki')")
    page.goto(f"{server}/#/")
    page.wait_for_selector("#my-name")
    assert page.input_value("#my-name") == "Aki"
