"""The whole-game walk-throughs of Proteus and Passtally (issue 29, build 1), in a real Chromium at
desktop and phone sizes, in English and Japanese. Nothing is left to luck: the test holds both
seats of an online game, plays the other seat over the API with that seat's token, and plays the
walk-through's seat by clicking the board (select, then target), along a line of play fixed in
advance (Proteus has no chance; Passtally's game is reproducible from a seed) that reaches every
phase. At each of the player's turns it checks the card (its key, its words in the page's language)
and the part of the board the card lights up; each card is shot into docs/screenshots/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpcalls
import pytest
from browsing import SCREENSHOTS, status, wait_turn

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
CASES = [(size, lang) for size in SIZES for lang in ("en", "ja")]


def online_game(server: str, game: str, **create: Any) -> tuple[str, str, str]:
    """A two-seat game: seat 0 for the browser, seat 1 joined over the API; its id and the two
    seats' tokens."""
    made = httpcalls.post(
        f"{server}/api/games",
        json={"game": game, "seats": [{"kind": "me"}, {"kind": "open"}], **create},
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    join: dict[str, Any] = {"seat": 1, "name": "Hana"}
    if create.get("reproducible"):
        join["accept_reproducible"] = True
    joined = httpcalls.post(f"{server}/api/games/{game_id}/join", json=join)
    assert joined.status_code == 200, joined.text
    return game_id, made.json()["token"], joined.json()["token"]


def play_api(server: str, game_id: str, token: str, move: str, ply: int) -> None:
    """The other seat's move (notation), made over the API."""
    answer = httpcalls.post(
        f"{server}/api/games/{game_id}/actions",
        json={"action": move, "ply": ply},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200, answer.text


@pytest.fixture(params=CASES, ids=[f"{size}-{lang}" for size, lang in CASES])
def learner(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, str, str]]:
    """A fresh browser (no walk-through seen) reading ``lang``; any script error fails the test.
    The page is opened on a game by ``open_as``."""
    size, lang = request.param
    context = browser.new_context(viewport=SIZES[size], has_touch=False)
    context.add_init_script(f"localStorage.setItem('boardplay.lang', '{lang}');")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page, size, lang
    context.close()
    assert not errors, errors


def open_as(page: Any, server: str, game_id: str, token: str) -> None:
    """Open the game page holding seat 0's token, as the browser that created the game would."""
    tokens = json.dumps({game_id: token})
    page.goto(f"{server}/#/")
    page.evaluate(f"localStorage.setItem('boardplay.tokens', {json.dumps(tokens)})")
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#status[data-ply]")


def shoot(page: Any, name: str) -> None:
    """A screenshot once the last move's animation has ended (the glows go on for ever)."""
    page.wait_for_function(
        "document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect.getComputedTiming().iterations === Infinity)"
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def card(page: Any, key: str) -> str:
    """Wait for the card ``key`` on the player's turn; its text."""
    page.wait_for_selector(f"#tutorial[data-key='{key}'] #tutorial-text")
    text: str = page.inner_text("#tutorial-text")
    return text


def lit(page: Any) -> list[str]:
    """What the card lights up: each lit part's class, data-rule or data-cell/slot."""
    found: list[str] = page.eval_on_selector_all(
        "#board .tutor-part",
        "els => els.map((e) => e.dataset.cell ? `cell:${e.dataset.cell}`"
        " : e.dataset.slot ? `slot:${e.dataset.slot}`"
        " : e.dataset.rule ? `rule:${e.dataset.rule}` : e.getAttribute('class').split(' ')[0])",
    )
    return sorted(found)


def click(page: Any, selector: str) -> None:
    page.locator(f"#board {selector}").first.click()


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_function(
        "p => document.querySelector('#status').dataset.ply === String(p)", arg=ply, timeout=60_000
    )


# ----- Proteus ------------------------------------------------------------------------------------
# A whole first game (rules spec §4-§7; the browser is Black, the API White). Black's first piece
# turns ROOK face up and White's the COLOR goal and the SHAPE trade, so every colour has a rule in
# force when the board is full and no forcing rule narrows the movement phase; then Black's circle
# moves by ROOK onto the KING tile (KING replaces ROOK), and Black trades two circle tiles by
# SHAPE trade. No goal is met on the way.
PROTEUS = [
    *("Rs@a1", "Ys@c1", "s@a1", "s@c1", "Bt@b2", "t@b2", "Rc@c3", "Yc@a2", "Rt@b1", "Bc@b3"),
    *("Bs@c2", "Yt@a3", "c@a3", "c@c2", "t@a2", "c1-b1", "a3-c3", "b2-b3", "a2~b3"),
]

# What Black's clicks are for each of Black's moves: (what to select, the cell to click).
PROTEUS_CLICKS = {
    "Rs@a1": ("tile:Rs", "a1"),
    "s@a1": ("hand:s", "a1"),
    "Bt@b2": ("tile:Bt", "b2"),
    "Rc@c3": ("tile:Rc", "c3"),
    "Rt@b1": ("tile:Rt", "b1"),
    "Bs@c2": ("tile:Bs", "c2"),
    "c@a3": ("hand:c", "a3"),
    "t@a2": ("hand:t", "a2"),
    "a3-c3": ("cell:a3", "c3"),
    "a2~b3": ("cell:b3", "a2"),  # the vacant cell first: it offers only trades
}

# Words each card must say (English, Japanese).
PROTEUS_WORDS = {
    "tiles": ("nine tiles", "タイル9枚"),
    "pieces": ("your three pieces", "ゲームピース"),
    "active": ("face-up tile", "表向き"),
    "goal": ("three tiles of one colour", "同じ色のタイル3枚"),
    "move": ("ROOK", "ROOK"),
    "trade": ("same shape", "同じ形"),
    "replaced": ("KING", "KING"),
    "end": ("a rule replaced", "入れ替わる"),
}


def proteus_card(page: Any, lang: str, name: str, parts: list[str]) -> None:
    text = card(page, f"tutorial.proteus.{name}")
    assert PROTEUS_WORDS[name][lang == "ja"] in text, (name, text)
    assert lit(page) == sorted(parts), (name, lit(page))


def test_the_proteus_walk_through_teaches_a_whole_first_game(
    learner: tuple[Any, str, str], server: str
) -> None:
    """Building the board, a tile turned face up, then with everything placed the goal in force,
    a move by the red rule, which rule replaced which, and a trade by the blue rule; each card
    lights up the pool, the hands, or the rule's line in the list and its face-up tile."""
    page, size, lang = learner
    game_id, black, white = online_game(server, "proteus")
    open_as(page, server, game_id, black)
    text = card(page, "tutorial.proteus.tiles")
    assert PROTEUS_WORDS["tiles"][lang == "ja"] in text
    assert lit(page) == ["pr-pool"]
    page.click("#tutorial-next")
    card(page, "tutorial.proteus.colours")
    assert lit(page) == ["pr-rules"]
    shoot(page, f"tutorial-proteus-{size}-{lang}")
    page.click("#tutorial-next")
    card(page, "tutorial.proteus.build")
    assert page.query_selector_all("#board .tutor-target")
    shots = {"active", "move", "trade"}  # goal and replaced: shot before their Next
    for ply, move in enumerate(PROTEUS):
        if ply % 2:  # White's
            play_api(server, game_id, white, move, ply)
            continue
        wait_ply(page, ply)
        wait_turn(page)
        if ply == 2:
            proteus_card(page, lang, "pieces", ["pr-hands"])
        elif ply == 4:  # ROOK and the COLOR goal are face up on a1 and c1
            proteus_card(page, lang, "active", ["pr-rules", "cell:a1", "cell:c1"])
        elif 6 <= ply <= 14:  # and the SHAPE trade on b2
            proteus_card(page, lang, "active", ["pr-rules", "cell:a1", "cell:b2", "cell:c1"])
        elif ply == 16:  # everything placed: the goal first, then a move
            proteus_card(page, lang, "goal", ["rule:Y", "cell:c1"])
            shoot(page, f"tutorial-goal-proteus-{size}-{lang}")
            page.click("#tutorial-next")
            proteus_card(page, lang, "move", ["rule:R", "cell:a1"])
        elif ply == 18:  # Black's move turned KING face up in place of ROOK
            proteus_card(page, lang, "replaced", ["rule:R", "cell:c3"])
            assert "ROOK" in page.inner_text("#tutorial-text")
            shoot(page, f"tutorial-replaced-proteus-{size}-{lang}")
            page.click("#tutorial-next")
            proteus_card(page, lang, "trade", ["rule:B", "cell:b2"])
        name = page.get_attribute("#tutorial", "data-key").rsplit(".", 1)[1]
        if name in shots:
            shots.discard(name)
            shoot(page, f"tutorial-{name}-proteus-{size}-{lang}")
        select, cell = PROTEUS_CLICKS[move]
        click(page, f"[data-select='{select}']")
        page.wait_for_function(
            "key => document.querySelector('#board').dataset.selected === key", arg=select
        )
        assert page.query_selector(f"#board [data-cell='{cell}'].tutor-target[data-moves]")
        click(page, f"[data-cell='{cell}'][data-moves]")
        wait_ply(page, ply + 1)
    assert not shots, shots
    # A move and a trade made: the walk is over, and says what was seen.
    page.wait_for_selector("#tutorial[data-step='end']")
    assert PROTEUS_WORDS["end"][lang == "ja"] in page.inner_text("#tutorial-text")
    assert status(page)["terminal"] != "1"
    page.click("#tutorial-finish")
    page.wait_for_selector("#tutorial", state="hidden")
    assert page.query_selector_all("#board .tutor-target, #board .tutor-part") == []


# ----- Passtally ----------------------------------------------------------------------------------
PASSTALLY_SEED = 1
"""The seed of the reproducible game: the start player and every tile revealed follow it."""
PLAN = (2, 15, 8, 21)
"""The player's setup: the top and bottom spaces of column c and the right and left spaces of row 3
(rules spec §2.2: slot c on the top edge, 6 + r on the right, 12 + 5 - c at the bottom, 18 + 5 - r
on the left), so two lines cross the bare board between the player's own markers."""

PASSTALLY_WORDS = {
    "goal": ("four markers", "4つのプレイヤーマーカー"),
    "setup": ("Setup first", "まず準備"),
    "place": ("Lay a tile", "タイルを置く"),
    "marker": ("move one of your markers", "プレイヤーマーカーを1つ"),
    "scored": ("Points from your last turn", "前の手番の得点"),
    "again": ("Your turn again", "もう一度"),
}


def view(server: str, game_id: str, token: str) -> dict[str, Any]:
    answer = httpcalls.get(
        f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    game: dict[str, Any] = answer.json()
    return game


PLAYED = ("place", "marker")


def passes(struct: dict[str, Any]) -> int:
    return sum(line["passes"] for line in struct.get("lines", []))


def players_move(legal: list[dict[str, Any]], done: int) -> dict[str, Any]:
    """The walk-through seat's move: its planned setup space; a tile that puts the most passes on
    its lines; then a marker move that keeps the most points; then any tile, then any move."""
    setup = [m for m in legal if m["struct"]["kind"] == "setup"]
    if setup:
        return next((m for m in setup if m["struct"]["slot"] in PLAN), setup[0])
    kind = "place" if done % 2 == 0 else "marker"
    if done == 0:
        return max(
            (m for m in legal if m["struct"]["kind"] == kind), key=lambda m: passes(m["struct"])
        )
    if done == 1:
        return max(
            (m for m in legal if m["struct"]["kind"] == kind), key=lambda m: m["struct"]["scored"]
        )
    return next(m for m in legal if m["struct"]["kind"] == kind)


def others_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The other seat's move: a setup space the player does not plan to take; a tile away from
    column c and row 3 (the player's lines)."""
    setup = [m for m in legal if m["struct"]["kind"] == "setup" and m["struct"]["slot"] not in PLAN]
    if setup:
        return setup[0]
    away = [
        m
        for m in legal
        if m["struct"]["kind"] == "place"
        and not any(c[0] == "c" or c[1] == "3" for c in m["struct"]["cells"])
    ]
    return away[0]


def lay(page: Any, move: dict[str, Any]) -> None:
    """Make the player's move by clicks: a setup space; a pile turned to the move's orientation
    (the Rotate button holds the next one), then the cell; a marker, then its new space."""
    struct = move["struct"]
    if struct["kind"] == "place":
        select = f"pile:{struct['pile']}"
        target = f".place-target[data-cell='{struct['anchor']}']"
    elif struct["kind"] == "marker":
        select, target = f"marker:{struct['from']}", f"[data-slot='{struct['to']}']"
    else:
        select, target = None, f"[data-slot='{struct['slot']}']"
    if select:
        click(page, f"[data-select='{select}']")
        page.wait_for_function(
            "key => document.querySelector('#board').dataset.selected === key", arg=select
        )
    rotate = "#board .turn-buttons [data-view]"
    for _ in range(4):
        if struct["kind"] != "place":
            break
        following = page.eval_on_selector(rotate, "b => JSON.parse(b.dataset.view).orient")
        if {"E": "S", "S": "W", "W": "N", "N": "E"}[struct["orient"]] == following:
            break
        page.click(rotate)
        page.wait_for_function(
            "([sel, was]) => document.querySelector(sel).dataset.view !== was",
            arg=[rotate, json.dumps({"orient": following})],
        )
    assert page.get_attribute(f"#board {target}", "data-moves") == f"[{move['id']}]", move
    click(page, f"{target}[data-moves]")


def scored_page(page: Any, game: dict[str, Any], lang: str) -> None:
    """The page on how the player's first turn scored: the lines of the struct of its second
    action (which ended the turn), each with its end spaces and passes, and the turn's points;
    the end markers of those lines and the scores lit."""
    played = [m for m in game["moves"] if m["player"] == 0 and m["struct"]["kind"] in PLAYED]
    ended = played[1]["struct"]
    lines = [line for line in ended["lines"] if line["passes"] > 0]
    assert ended["scored"] > 0 and lines, ended
    text = card(page, "tutorial.passtally.scored")
    assert PASSTALLY_WORDS["scored"][lang == "ja"] in text, text
    for line in lines:
        ends, passes = (line["from"], line["to"]), line["passes"]
        said = (
            f"スペース{ends[0]}〜{ends[1]}のライン（通過数{passes}）"
            if lang == "ja"
            else f"from space {ends[0]} to space {ends[1]} (passes: {passes})"
        )
        assert said in text, (said, text)
    assert str(ended["scored"]) in text
    parts = ["pt-scores"] + [f"slot:{line[end]}" for line in lines for end in ("from", "to")]
    assert lit(page) == sorted(parts), lit(page)


def test_the_passtally_walk_through_teaches_setup_the_two_actions_and_scoring(
    learner: tuple[Any, str, str], server: str
) -> None:
    """From the first marker to the second turn of play: the goal (a page framing the board), the
    setup, laying a tile (the piles lit), moving a marker (the player's markers lit), then how the
    first turn scored: its lines with their passes and points, their end markers and the scores
    lit."""
    page, size, lang = learner
    game_id, me, other = online_game(server, "passtally", reproducible=True, seed=PASSTALLY_SEED)
    open_as(page, server, game_id, me)
    done = 0  # the player's actions after the setup
    seen: list[str] = []
    while done < 4:
        game = view(server, game_id, me)
        assert not game["terminal"], "the game ended before the walk did"
        if not game["your_turn"]:
            theirs = view(server, game_id, other)
            play_api(server, game_id, other, others_move(theirs["legal"])["move"], theirs["ply"])
            continue
        wait_ply(page, game["ply"])
        wait_turn(page)
        if not seen:
            text = card(page, "tutorial.passtally.goal")
            assert PASSTALLY_WORDS["goal"][lang == "ja"] in text
            assert lit(page) == ["pt-board"]
            shoot(page, f"tutorial-goal-passtally-{size}-{lang}")
            page.click("#tutorial-next")
        setup = any(m["struct"]["kind"] == "setup" for m in game["legal"])
        mine = sorted(f"slot:{s}" for s, seat in game["position"]["markers"].items() if seat == 0)
        if done == 2:  # the first turn was scored: a page says how, then the second turn
            scored_page(page, game, lang)
            seen.append("scored")
            shoot(page, f"tutorial-scored-passtally-{size}-{lang}")
            page.click("#tutorial-next")
        cards = {0: ("place", ["pt-piles"]), 1: ("marker", mine)}
        name, parts = ("setup", []) if setup else cards.get(done, ("again", ["pt-piles", *mine]))
        text = card(page, f"tutorial.passtally.{name}")
        assert PASSTALLY_WORDS[name][lang == "ja"] in text, (name, text)
        assert lit(page) == sorted(parts), (name, lit(page))
        if name not in seen:
            seen.append(name)
            if name != "setup":
                shoot(page, f"tutorial-{name}-passtally-{size}-{lang}")
        move = players_move(game["legal"], done)
        lay(page, move)
        page.wait_for_function(  # one move, or two where a tile laid turns up the next
            "p => document.querySelector('#status').dataset.ply !== String(p)", arg=game["ply"]
        )
        done += move["struct"]["kind"] != "setup"
    assert seen == ["setup", "place", "marker", "scored", "again"], seen
    page.wait_for_selector("#tutorial[data-step='end']")
    page.click("#tutorial-finish")
    page.wait_for_selector("#tutorial", state="hidden")
