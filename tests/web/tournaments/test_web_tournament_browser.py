"""The tournament pages in a real Chromium: a person signs up in the page, finds a Swiss of bots
on the tournaments page (and in the lobby), joins it there, is taken to their round-1 game
against a bot when the Swiss starts, comes back to find "your game is ready", plays moves by
clicking the board (the bot answers over the Bot API, driven by this test, and resigns), and
watches the standings move on the tournament page without a reload as the last game ends; a
line written in the tournament's chat shows as text; an arena is made with the page's form (a
start too far ahead refused first, in the page's words); the tournaments page lists the Swiss
as finished with its winner and follows a player joining and a new tournament without a reload.
The pages are then drawn on a phone and in Japanese (a refusal in Japanese too); axe-core finds
nothing serious. Screenshots in docs/screenshots/: tournaments.png, tournaments-lobby.png,
tournaments-finished.png, tournaments-phone.png, tournaments-ja.png, tournaments-ja-phone.png,
tournament-ready.png, tournament-game.png, tournament.png, tournament-new-arena.png,
tournament-phone.png, tournament-ja.png, tournament-ja-phone.png."""

from __future__ import annotations

import random
import time
from typing import Any
from urllib.parse import quote

import httpcalls
import pytest
from accountcalls import RAPID
from botcalls import Bot, make_bot, sign_up
from browsing import SCREENSHOTS, click_a_move, wait_turn
from test_web_a11y import violations

from boardplay.web.accounts.service import COOKIE

pytestmark = pytest.mark.browser

GAME = "proteus"
CLICKED_MOVES = 2
"""The person's moves made by clicks before the bot resigns (a whole Proteus game by random
clicks would take minutes)."""


def view_of(server: str, tournament_id: str) -> Any:
    answer = httpcalls.get(f"{server}/api/tournament-pages/{tournament_id}", timeout=20)
    assert answer.status_code == 200, answer.text
    return answer.json()


def game_of(server: str, game_id: str) -> Any:
    return httpcalls.get(f"{server}/api/games/{game_id}", timeout=20).json()


def bot_moves(server: str, bot: Bot, game: Any, rng: random.Random) -> None:
    """The bot's random legal move (as a bot program would send it, over the Bot API)."""
    move = quote(rng.choice(game["legal"])["move"], safe="")
    answer = bot.post(server, f"/api/bot/game/{game['id']}/move/{move}")
    assert answer.status_code == 200, answer.text


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def signed_in_context(browser: Any, server: str, cookie: str, lang: str, phone: bool) -> Any:
    viewport = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": server}])
    context.add_init_script(f"localStorage.setItem('boardplay.lang', '{lang}');")
    return context


def sign_up_on_page(page: Any, server: str, name: str, lang: str | None = None) -> None:
    """A person signs up in the page (in ``lang`` if given), the walk-through already seen."""
    script = f"localStorage.setItem('boardplay.tutorials', JSON.stringify({{{GAME}: true}}));"
    if lang:
        script = f"localStorage.setItem('boardplay.lang', '{lang}');" + script
    page.context.add_init_script(script)
    page.goto(f"{server}/#/signin")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "correct horse battery")
    page.click("#signup-submit")
    page.wait_for_function(f"document.querySelector('#account-link')?.textContent === '{name}'")


def bots_swiss(server: str, organiser: Any, name: str) -> tuple[dict[str, Any], str]:
    """A one-round Swiss open to bots, starting in 12 s: its request body and its id."""
    body = {
        "name": name,
        "kind": "swiss",
        "game": GAME,
        "clock": RAPID,
        "bots": True,
        "starts": time.time() + 12,
        "rounds": 1,
    }
    made = organiser.post(server, "/api/tournaments", body)
    assert made.status_code == 201, made.text
    return body, made.json()["tournament"]["id"]


def play_then_bot_resigns(
    page: Any, server: str, game_id: str, me: str, opponent: Bot, rng: random.Random
) -> None:
    """The person clicks ``CLICKED_MOVES`` moves on the board, the bot answering over the Bot
    API, and then the bot resigns; the page shows the game over."""
    clicked = 0
    while True:
        game = game_of(server, game_id)
        assert not game["terminal"], game.get("result")
        if game["seats"][game["current_player"]]["name"] == me:
            wait_turn(page)
            click_a_move(page, rng)
            clicked += 1
        elif clicked >= CLICKED_MOVES:
            assert opponent.post(server, f"/api/bot/game/{game_id}/resign").status_code == 200
            break
        else:
            bot_moves(server, opponent, game, rng)
    page.wait_for_function("document.querySelector('#status')?.dataset.terminal === '1'")


def test_a_person_joins_a_swiss_plays_a_bot_and_sees_the_standings_move(
    page: Any, phone: Any, browser: Any, server: str
) -> None:
    rng = random.Random(49)
    bots = [make_bot(server, f"Robo_t{i}") for i in range(1, 5)]
    organiser = sign_up(server, "Orga_t")
    sign_up_on_page(page, server, "Hana_t")
    body, tid = bots_swiss(server, organiser, "Thursday bot Swiss")

    # The lobby lists it and links to the tournaments page; the header links there too.
    page.goto(f"{server}/#/")
    page.reload()  # the lobby was drawn on signing up, before the Swiss was made
    page.wait_for_selector(f"#lobby-tournaments [data-tournament='{tid}']")
    assert page.locator("nav a[href='#/tournaments']").inner_text() == "Tournaments"
    page.locator("#lobby-tournaments").screenshot(path=str(SCREENSHOTS / "tournaments-lobby.png"))
    page.click("#all-tournaments")
    page.wait_for_selector(f"#tournaments [data-tournament='{tid}']")
    row = page.locator(f"#tournaments [data-tournament='{tid}']").inner_text()
    assert "Thursday bot Swiss" in row and "Swiss" in row and "10+5" in row, row
    assert page.locator("#tournament-form").count() == 1  # signed in: the form to create one
    shot(page, "tournaments.png")
    found = violations(page, "tournaments")

    page.click(f"#tournaments [data-tournament='{tid}'] .tournament-link")
    page.wait_for_selector("#tournament-join")
    page.click("#tournament-join")
    page.wait_for_selector("#tournament-pause")  # in: Pause and Withdraw offered
    page.fill("#tournament-chat-input", "Good luck, <b>everyone</b>!")
    page.click("#tournament-chat-send")
    said = page.locator("#tournament-chat-log .chat-text")
    said.wait_for()
    assert said.inner_text() == "Good luck, <b>everyone</b>!"  # text, never HTML
    for bot in bots:  # after the person, so the bye goes to a bot
        assert bot.post(server, f"/api/swiss/{tid}/join").status_code == 200
    page.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 5")
    assert page.locator("#standings .bot-tag").count() == 4

    # The Swiss starts: the lobby socket takes the person to their game against a bot.
    page.wait_for_url("**/#/game/*", timeout=30_000)
    game_id = page.url.rsplit("/", 1)[-1]
    view = view_of(server, tid)
    (round_one,) = view["rounds"]
    assert len(round_one["tables"]) == 2 and len(round_one["byes"]) == 1
    mine = next(x for x in round_one["tables"] if "Hana_t" in x["players"])
    other = next(x for x in round_one["tables"] if "Hana_t" not in x["players"])
    assert mine["game"] == game_id
    by_name = {bot.name: bot for bot in bots}
    opponent = by_name[next(p for p in mine["players"] if p != "Hana_t")]

    # Back on the tournament page, the game is announced with a link to it.
    page.go_back()
    page.wait_for_selector("#game-ready:not([hidden]) #my-game")
    assert page.locator("#tournament-state").inner_text() == "Round 1 of 1"
    shot(page, "tournament-ready.png")
    page.click("#my-game")
    page.wait_for_selector("#status")
    assert page.locator("#tournament-of-game-link").inner_text() == "Thursday bot Swiss"
    shot(page, "tournament-game.png")

    play_then_bot_resigns(page, server, game_id, "Hana_t", opponent, rng)

    # The game page links back to its tournament: the person's win counted, the other game on.
    page.click("#tournament-of-game-link")
    page.wait_for_selector("#standings tr[data-player='Hana_t']")
    line = page.locator("#standings tr[data-player='Hana_t']")
    assert line.locator(".col-points").inner_text() == "1"
    assert line.locator(".col-rank").inner_text() == "1"
    assert page.locator(f"#rounds-box [data-game='{other['game']}'] .result").inner_text() == (
        "playing"
    )
    page.evaluate("window.stillThisPage = true")  # gone if the page were loaded again

    # The other game ends: the standings and the state move by themselves.
    loser, winner = (by_name[name] for name in other["players"])
    assert loser.post(server, f"/api/bot/game/{other['game']}/resign").status_code == 200
    page.wait_for_function(
        "document.querySelector('#tournament-state')?.dataset.status === 'finished'",
        timeout=20_000,
    )
    page.wait_for_function(
        "name => document.querySelector(`#standings tr[data-player='${name}'] .col-points`)"
        "?.textContent === '1'",
        arg=winner.name,
        timeout=10_000,
    )
    assert page.evaluate("window.stillThisPage") is True
    assert page.locator("#rounds-box .bye").count() == 1
    assert page.locator("#tournament-join").count() == 0  # over: nothing to join
    assert page.locator("#tournament-chat-log .chat-message").count() == 1
    shot(page, "tournament.png")
    found += violations(page, "tournament")

    # The person creates an arena with the page's form and lands on its page.
    page.click("nav a[href='#/tournaments']")
    page.fill("#tournament-name", "Evening arena")
    page.select_option("#tournament-kind", "arena")
    page.select_option("#tournament-game", GAME)
    assert page.locator("#tournament-rounds").is_hidden()
    page.fill("#tournament-minutes", "45")
    starts = page.input_value("#tournament-starts")
    page.fill("#tournament-starts", "2099-01-01T10:00")  # too far ahead: refused in words
    page.click("#tournament-create")
    page.wait_for_selector("#tournament-error:not([hidden])")
    assert page.locator("#tournament-error").inner_text() == (
        "Choose a start time from now on, and not too far ahead."
    )
    page.fill("#tournament-starts", starts)
    page.click("#tournament-create")
    page.wait_for_url("**/#/tournament/*")
    page.wait_for_selector("#tournament-join")
    assert page.locator("#tournament-title").inner_text() == "Evening arena"
    assert "Arena" in page.locator("#tournament-settings").inner_text()
    assert "45 minutes" in page.locator("#tournament-settings").inner_text()
    assert page.locator("#tournament-state").inner_text().startswith("Starts ")
    shot(page, "tournament-new-arena.png")
    arena_id = page.url.rsplit("/", 1)[-1]

    # The list: the Swiss among those finished, with its winner; it follows the server alone.
    winner_name = view_of(server, tid)["standings"][0]["name"]
    page.click("nav a[href='#/tournaments']")
    done = page.locator(f"#tournaments-finished [data-tournament='{tid}']")
    done.wait_for()
    assert done.locator(".winner").inner_text() == f"Winner: {winner_name}"
    arena_row = f"#tournaments [data-tournament='{arena_id}'] .players"
    assert page.locator(arena_row).inner_text() == "Players: 0"
    page.evaluate("window.stillThisPage = true")
    assert organiser.post(server, f"/api/tournaments/{arena_id}/join").status_code == 200
    later = organiser.post(
        server, "/api/tournaments", {**body, "name": "Late Swiss", "starts": time.time() + 600}
    )
    assert later.status_code == 201, later.text
    page.wait_for_function(
        "sel => document.querySelector(sel)?.textContent === 'Players: 1'",
        arg=arena_row,
        timeout=15_000,
    )
    page.wait_for_selector(f"#tournaments [data-tournament='{later.json()['tournament']['id']}']")
    assert page.evaluate("window.stillThisPage") is True
    shot(page, "tournaments-finished.png")
    found += violations(page, "tournaments, finished")

    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)
    phone.context.add_cookies([{"name": COOKIE, "value": cookie, "url": server}])
    phone.goto(f"{server}/#/tournament/{tid}")
    phone.wait_for_selector("#standings tr[data-player='Hana_t']")
    shot(phone, "tournament-phone.png")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.goto(f"{server}/#/tournaments")
    phone.wait_for_selector(f"#tournaments-finished [data-tournament='{tid}']")
    shot(phone, "tournaments-phone.png")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    for is_phone, suffix in ((False, ""), (True, "-phone")):
        context = signed_in_context(browser, server, cookie, "ja", is_phone)
        try:
            ja = context.new_page()
            ja.goto(f"{server}/#/tournament/{tid}")
            ja.wait_for_selector("#standings tr[data-player='Hana_t']")
            assert ja.locator("#standings-title").inner_text() == "順位表"
            winner = view_of(server, tid)["winner"]  # the page names it
            assert ja.locator("#tournament-state").inner_text() == f"終了 · ★ 優勝：{winner}"
            shot(ja, f"tournament-ja{suffix}.png")
            if is_phone:
                assert ja.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
                found += violations(ja, "tournament, Japanese phone")
            ja.goto(f"{server}/#/tournaments")
            ja.wait_for_selector("#tournament-form")
            assert ja.locator("#tournaments-title").inner_text() == "大会"
            winner = ja.locator(f"#tournaments-finished [data-tournament='{tid}'] .winner")
            assert winner.inner_text() == f"優勝：{winner_name}"
            ja.fill("#tournament-starts", "2099-01-01T10:00")
            ja.click("#tournament-create")
            ja.wait_for_selector("#tournament-error:not([hidden])")
            assert ja.locator("#tournament-error").inner_text() == (
                "開始時刻は今以降の、先すぎない日時を選んでください。"
            )
            shot(ja, f"tournaments-ja{suffix}.png")
            if is_phone:
                assert ja.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
                found += violations(ja, "tournaments, Japanese phone")
        finally:
            context.close()
    assert not found, found


@pytest.mark.soak
def test_on_a_phone_in_japanese_a_person_joins_plays_a_bot_by_clicks_and_sees_the_standings(
    phone: Any, server: str
) -> None:
    """The same journey, walked on a phone with the page in Japanese: sign up, join a Swiss of
    bots from the tournaments page, be taken to the round-1 game, click moves on the board,
    and watch the standings and the state move on the tournament page without a reload.
    make soak's (20 s): make test walks the journey above, a phone beside it, and opens the
    tournament pages on a phone in Japanese in test_web_tournament_next_game's ja-phone case."""
    rng = random.Random(50)
    bots = [make_bot(server, f"Robo_p{i}") for i in range(1, 4)]
    organiser = sign_up(server, "Orga_p")
    sign_up_on_page(phone, server, "Hana_p", lang="ja")
    _body, tid = bots_swiss(server, organiser, "スイス式の夕べ")

    phone.goto(f"{server}/#/tournaments")
    phone.click(f"#tournaments [data-tournament='{tid}'] .tournament-link")
    phone.wait_for_selector("#tournament-join")
    assert phone.locator("#tournament-join").inner_text() == "参加する"
    phone.click("#tournament-join")
    phone.wait_for_selector("#tournament-pause")
    for bot in bots:
        assert bot.post(server, f"/api/swiss/{tid}/join").status_code == 200
    phone.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 4")
    assert phone.locator("#standings-title").inner_text() == "順位表"
    found = violations(phone, "tournament before its start, Japanese phone")

    # Four players, no bye: the start takes the person to their game against a bot.
    phone.wait_for_url("**/#/game/*", timeout=30_000)
    game_id = phone.url.rsplit("/", 1)[-1]
    (round_one,) = view_of(server, tid)["rounds"]
    mine = next(x for x in round_one["tables"] if "Hana_p" in x["players"])
    other = next(x for x in round_one["tables"] if "Hana_p" not in x["players"])
    assert mine["game"] == game_id
    by_name = {bot.name: bot for bot in bots}
    opponent = by_name[next(p for p in mine["players"] if p != "Hana_p")]
    play_then_bot_resigns(phone, server, game_id, "Hana_p", opponent, rng)

    phone.click("#tournament-of-game-link")
    line = phone.locator("#standings tr[data-player='Hana_p']")
    line.wait_for()
    assert line.locator(".col-points").inner_text() == "1"
    phone.evaluate("window.stillThisPage = true")
    loser = by_name[other["players"][0]]
    assert loser.post(server, f"/api/bot/game/{other['game']}/resign").status_code == 200
    phone.wait_for_function(
        "document.querySelector('#tournament-state')?.dataset.status === 'finished'",
        timeout=20_000,
    )
    winner = view_of(server, tid)["winner"]  # the page names it
    assert phone.locator("#tournament-state").inner_text() == f"終了 · ★ 優勝：{winner}"
    assert phone.evaluate("window.stillThisPage") is True
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    found += violations(phone, "tournament finished, Japanese phone")
    assert not found, found
