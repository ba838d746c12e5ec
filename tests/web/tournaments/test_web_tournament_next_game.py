"""A tournament's next game in a real Chromium: a Swiss of two people (each on a page of their
own) and a bot (driven here over the Bot API). Round 1 pairs the two people; one clicks a move,
the other resigns on their page. Round 2 is paired as that game ends, and the winner's page,
still on the finished game, keeps it on screen at least 3 s (its result and who they beat) with
a notice counting down ("Next game in 3…", Go now, Stay here), then takes them on. Meanwhile the
new game's clock is held: nothing runs while the winner is away, nor once they are at the board
while the bot has not come ("Waiting for … to come to the board"); when the bot opens its game
stream the clock runs from then, with every seat's whole time. The bot resigns; the Swiss is
over and its page names its winner. Desktop and phone, English and Japanese; screenshots in
docs/screenshots/: tournament-next-game-*.png, tournament-held-clock-*.png,
tournament-winner-*.png."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from botcalls import Bot, Person, make_bot, sign_up
from browsing import SCREENSHOTS, click_a_move, wait_turn
from test_web_tournament_browser import game_of, signed_in_context, view_of

pytestmark = pytest.mark.browser

GAME = "proteus"
CLOCK = {"base": 300, "increment": 3}
READ_AT_LEAST = 3.0


def opened(browser: Any, server: str, who: Person, lang: str, phone: bool) -> Any:
    """``who``'s page on the site, signed in, in ``lang``, the walk-through already seen."""
    context = signed_in_context(browser, server, who.cookie, lang, phone)
    context.add_init_script(f"localStorage.setItem('boardplay.tutorials', '{{\"{GAME}\": true}}');")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the resignation's confirm
    return page


def game_id(page: Any) -> str:
    return str(page.url.rsplit("/", 1)[-1])


def terminal(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('#status')?.dataset.terminal === '1'"))


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_finished_game_stays_and_the_next_clock_waits_for_its_player(
    browser: Any, server: str, lang: str, phone: bool
) -> None:
    rng = random.Random(65)
    device = "phone" if phone else "desktop"
    tag = f"{lang}{device[0]}"
    people = [sign_up(server, f"Ann_{tag}"), sign_up(server, f"Ben_{tag}")]
    robo: Bot = make_bot(server, f"Robo_{tag}")
    body = {
        "name": f"Next game Swiss {tag}",
        "kind": "swiss",
        "game": GAME,
        "clock": CLOCK,
        "bots": True,
        "starts": time.time() + 6,
        "rounds": 2,
    }
    made = people[0].post(server, "/api/tournaments", body)
    assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    for person in people:  # the people first: the bye of round 1 goes to the bot
        assert person.post(server, f"/api/tournaments/{tid}/join").status_code == 200
    assert robo.post(server, f"/api/swiss/{tid}/join").status_code == 200
    pages = {p.name: opened(browser, server, p, lang, phone) for p in people}
    for page in pages.values():
        page.goto(f"{server}/#/tournament/{tid}")
        page.wait_for_selector("#tournament-state")

    # Round 1: the two people, each taken to the game by the lobby's socket.
    for page in pages.values():
        page.wait_for_url("**/#/game/*", timeout=30_000)
    (table,) = view_of(server, tid)["rounds"][0]["tables"]
    assert sorted(table["players"]) == sorted(pages)
    first = table["game"]
    assert all(game_id(page) == first for page in pages.values())
    view = game_of(server, first)
    mover = view["seats"][view["current_player"]]["name"]
    other = next(name for name in pages if name != mover)
    wait_turn(pages[mover])
    click_a_move(pages[mover], rng)
    pages[other].wait_for_function(
        "() => document.querySelector('#status')?.dataset.yourTurn === '1'"
    )
    pages[other].click("#resign")
    ended_at = {}
    for name, page in pages.items():
        page.wait_for_function("document.querySelector('#status')?.dataset.terminal === '1'")
        ended_at[name] = (time.monotonic(), time.time())

    # Round 2 is paired at once: the winner meets the bot, the loser sits out with a bye. The
    # winner's page says so over the finished game, which stays on screen.
    winner = pages[mover]
    notice = winner.wait_for_selector("#next-game:not([hidden])", timeout=15_000)
    words = winner.inner_text("#next-game-words")
    assert words.startswith("Next game in" if lang == "en" else "次の対局まで"), words
    assert game_id(winner) == first and terminal(winner)
    follow = notice.get_attribute("data-game")
    assert follow and follow != first
    (round_two,) = view_of(server, tid)["rounds"][1]["tables"]
    assert round_two["game"] == follow
    assert sorted(round_two["players"]) == sorted([mover, robo.name])
    assert winner.locator("#status").inner_text()  # the result still reads there
    winner.screenshot(path=str(SCREENSHOTS / f"tournament-next-game-{lang}-{device}.png"))
    held = game_of(server, follow)["clock"]
    assert held["running"] is None and len(held["waiting"]) == 2  # nobody has come yet

    winner.wait_for_url(f"**/#/game/{follow}", timeout=15_000)
    left_at, left_wall = time.monotonic(), time.time()
    stayed = left_at - ended_at[mover][0]
    assert READ_AT_LEAST <= stayed < 12, f"the finished game stayed {stayed:.2f} s"

    # At the board: the clock still waits, now for the bot alone, and says so.
    winner.wait_for_selector("#clock-held")
    seat_of = {s["name"]: s["seat"] for s in game_of(server, follow)["seats"]}
    deadline = time.monotonic() + 10
    while game_of(server, follow)["clock"].get("waiting") != [seat_of[robo.name]]:
        assert time.monotonic() < deadline, game_of(server, follow)["clock"]
        time.sleep(0.1)
    said = winner.inner_text("#clock-held")
    assert robo.name in said, said
    winner.screenshot(path=str(SCREENSHOTS / f"tournament-held-clock-{lang}-{device}.png"))

    # The bot comes (its game stream): the clock runs from then, every seat's time whole.
    stream = robo.stream(server, f"/api/bot/game/stream/{follow}")
    try:
        assert stream.next()["type"] == "gameFull"
        running = game_of(server, follow)["clock"]
        assert "waiting" not in running and running["running"] is not None
        assert running["left"] == [CLOCK["base"], CLOCK["base"]]
        assert running["since"] >= left_wall  # nothing ran while the winner was away
        assert running["since"] >= ended_at[mover][1] + READ_AT_LEAST
        winner.wait_for_selector("#clock-held", state="detached")
        # The bot resigns: the Swiss is over and its page names the winner.
        gone = robo.post(server, f"/api/bot/game/{follow}/resign")
        assert gone.status_code == 200, gone.text
    finally:
        stream.close()
    winner.wait_for_function("document.querySelector('#status')?.dataset.terminal === '1'")
    winner.goto(f"{server}/#/tournament/{tid}")
    named = winner.wait_for_selector("#tournament-winner", timeout=20_000)
    assert mover in named.inner_text()
    assert view_of(server, tid)["winner"] == mover
    shot = SCREENSHOTS / f"tournament-winner-{lang}-{device}.png"
    winner.screenshot(path=str(shot), full_page=True)
    for page in pages.values():
        page.context.close()
