"""Proteus's ending (issue 29): ``describe_end`` over random playouts and the rarer ends. Every
finished game's mark names its end code; the pieces it rings meet the goal it names, checked
from the position JSON (``proteus_helpers``), not by the engine: a 3-IN-LINE line is one of the
eight lines, a COLOR or SHAPE goal has the three tiles under the pieces of one colour or shape;
the goal tile it rings is the active yellow tile; the tiles of a missing colour are face down."""

from __future__ import annotations

import random
from typing import Any

import pytest
from proteus_helpers import LINES, goal_met, load, parse_board

import boardplay
from boardplay.games.proteus.ending import describe_end
from boardplay.games.proteus.state import ProteusState
from boardplay.i18n.phrase import Sentence

NAMES = ["Black", "White"]

OPTION_SETS: list[tuple[dict[str, Any], set[str]]] = [
    # options, the ends 250 random games of them reach
    ({}, {"goal", "two_passes"}),
    ({"rules": "kadon"}, {"goal"}),
    ({"repetition": "forbid"}, {"goal"}),
    ({"rules": "kadon", "repetition": "forbid"}, {"goal"}),
    ({"max_turns": 14}, {"turn_limit"}),
    ({"max_turns": 16}, {"goal", "turn_limit"}),
    ({"rules": "kadon", "max_turns": 20}, {"goal", "turn_limit"}),
]

# The moves of tests/web/pages/test_web_endings.py's no-action game (rules=kadon,
# repetition=forbid).
_STUCK = (
    "Bt@b2 Ys@c1 Rc@a3 Bc@c2 s@c2 t@b2 Bs@b1 Yc@a2 t@b1 Rt@c3 Yt@b3 s@c3 Rs@a1 c@a3 c@a2 "
    "b2-b3 b1-b2 a2~a3 a1~c1 a2~a3 b2~c3 a2~a3 a1~c1 a2~a3 b3~c3 a1~c1 b2~b3 b2~c3 a2~c2 b2~b3 "
    "a3~c2 a3~c2 a3~c2 a2~a3 b2~c3 b1~c1 b2~c3 a3~c2 a1~b1 a1~c1 a1~b1"
)
STUCK = _STUCK.split()


def play(state: ProteusState, pick: Any) -> tuple[dict[str, Any], int, ProteusState]:
    """Play ``state`` to its end, ``pick`` choosing each action; the position before the last
    turn, who made it, and the final state."""
    before, seat = state.to_json(), -1
    while not state.is_terminal():
        before, seat = state.to_json(), state.current_player()
        state.apply_action(pick(state))
    return before, seat, state


def playout(options: dict[str, Any], seed: int) -> tuple[dict[str, Any], int, ProteusState]:
    state = boardplay.load("proteus", **options).new_initial_state()
    assert isinstance(state, ProteusState)
    rng = random.Random(seed)
    return play(state, lambda s: rng.choice(s.legal_actions()))


def check(before: dict[str, Any], seat: int, state: ProteusState) -> tuple[dict, Sentence]:
    """``describe_end`` of a finished game, with the checks every ending passes."""
    mark, sentence = describe_end(before, state, seat, NAMES)
    code = state.end_code()
    assert mark["kind"] == code and mark["mover"] == seat
    board = parse_board(state)
    active = {tile[0]: (cell, tile) for cell, (tile, up, _) in board.items() if up}
    assert mark["goal"] == active.get("Y", (None, None))[1]
    words = str(sentence)
    assert words and "{" not in words and "}" not in words
    assert [part["t"] for part in sentence.to_json()] == [p.template for p in sentence.parts]
    owner = {cell: "XO".index(piece[0]) for cell, (_, _, piece) in board.items() if piece}
    for tile in mark["tiles"]:
        kind, up = board[tile["at"]][0], board[tile["at"]][1]
        if tile["why"] == "goal":
            assert (tile["at"], kind) == active["Y"]
        elif tile["why"] == "missing":
            assert not up and kind[0] not in active
        else:
            assert tile["why"] == "blocked" and (tile["at"], kind) == active["R"]
    for line in mark["lines"]:
        assert set(line) in LINES and mark["goal"] == "Yc"
        (c0, r0), (c1, r1), (c2, r2) = (("abc".index(c[0]), int(c[1])) for c in line)
        assert (c0 + c2, r0 + r2) == (2 * c1, 2 * r1)  # end to end: the middle cell between
    if code == "goal":
        winner = state.winners()[0]
        assert mark["seat"] == winner
        assert sorted(mark["pieces"]) == sorted(c for c, p in owner.items() if p == winner)
        assert goal_met(state, winner) and not goal_met(state, 1 - winner)
        cells = set(mark["pieces"])
        if mark["goal"] == "Yc":
            assert cells in LINES and [set(line) for line in mark["lines"]] == [cells]
        else:
            feature = 0 if mark["goal"] == "Ys" else 1
            assert len({board[c][0][feature] for c in cells}) == 1
            assert mark["lines"] == []
        assert words.startswith(f"{NAMES[winner]} has ")
        assert f"so {NAMES[winner]} wins." in words
        assert (f"{NAMES[seat]}'s own turn gave" in words) == (winner != seat)
    elif code == "turn_limit":
        meeting = [p for p in (0, 1) if goal_met(state, p)]
        assert sorted(mark["pieces"]) == sorted(c for c, p in owner.items() if p in meeting)
        assert len(mark["lines"]) == (len(meeting) if mark["goal"] == "Yc" else 0)
        assert words.startswith("The game reached its limit of")
    else:
        assert mark["lines"] == []
        for colour in "RB":
            if colour not in active:
                tiles = {t["at"] for t in mark["tiles"] if t["why"] == "missing"}
                assert {c for c, (tile, _, _) in board.items() if tile[0] == colour} <= tiles
        if code == "no_action":
            stuck = state.to_move
            assert mark["seat"] == stuck != seat
            boxed = any(t["why"] == "blocked" for t in mark["tiles"])
            mine = sorted(c for c, p in owner.items() if p == stuck)
            assert sorted(mark["pieces"]) == (mine if boxed else [])
            assert words.startswith(f"{NAMES[stuck]} has no legal action")
        else:
            assert code == "two_passes" and mark["pieces"] == []
    return mark, sentence


@pytest.mark.parametrize(("options", "reached"), OPTION_SETS, ids=[str(o) for o, _ in OPTION_SETS])
def test_every_random_ending_is_marked_where_it_happened(
    options: dict[str, Any], reached: set[str]
) -> None:
    codes: set[str] = set()
    for seed in range(250):
        mark, _ = check(*playout(options, seed))
        codes.add(mark["kind"])
    assert reached <= codes


# The seeds of tests/web/pages/test_web_endings.py, each with what its words must say.
WEB_CASES = [
    ({}, 59, "goal", "three pieces in a line, the middle column (ringed)"),
    ({}, 0, "goal", "all three pieces on yellow tiles (ringed)"),
    ({}, 12, "goal", "all three pieces on circle tiles (ringed)"),
    ({}, 17, "goal", "White turned that goal tile face up this turn."),
    ({}, 28, "goal", "already met it when the board was complete"),
    ({"rules": "kadon"}, 36, "goal", "Under the Kadon rules a goal counts from the very first"),
    ({}, 195, "two_passes", "No red tile is face up (the red tiles are ringed)"),
    ({"max_turns": 16}, 277, "turn_limit", "Both players meet the goal in force, 3-IN-LINE"),
    ({"max_turns": 14}, 5, "turn_limit", "but under the Japanese rules a goal counts only"),
]


@pytest.mark.parametrize(("options", "seed", "code", "words"), WEB_CASES)
def test_the_browser_tests_endings(
    options: dict[str, Any], seed: int, code: str, words: str
) -> None:
    mark, sentence = check(*playout(options, seed))
    assert mark["kind"] == code and words in str(sentence)


def test_no_legal_action_after_every_swap_repeats() -> None:
    state = boardplay.load("proteus", rules="kadon", repetition="forbid").new_initial_state()
    assert isinstance(state, ProteusState)
    moves = iter(STUCK)
    mark, sentence = check(*play(state, lambda s: s.string_to_action(next(moves))))
    assert mark["kind"] == "no_action" and mark["seat"] == 1
    assert mark["tiles"] == [{"at": "a3", "why": "blocked"}]  # KING leaves White no free cell
    assert str(sentence).endswith(
        " The move rule in force, KING (ringed), gives White's pieces (ringed) no free cell to "
        "go to. Every swap left would repeat an earlier position, which this game's options "
        "forbid."
    )


def test_no_legal_action_in_a_loaded_position_names_the_missing_colour() -> None:
    # KING is in force and no blue tile is face up: Black's a2-b3 boxes White's column in.
    board = {
        "a1": "Ys",
        "a2": "Rc*Xc",
        "a3": "Yt",
        "b1": "BcXs",
        "b2": "RsXt",
        "b3": "Bt",
        "c1": "RtOc",
        "c2": "YcOs",
        "c3": "BsOt",
    }
    state = load(board, to_move=0, rules="kadon")
    mark, sentence = check(*play(state, lambda s: s.string_to_action("a2-b3")))
    assert mark["kind"] == "no_action" and mark["goal"] is None
    assert {t["why"] for t in mark["tiles"]} == {"blocked", "missing"}
    assert "No blue tile is face up (the blue tiles are ringed)" in str(sentence)
    assert "repeat" not in str(sentence)
