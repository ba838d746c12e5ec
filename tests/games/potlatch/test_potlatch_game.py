"""The game object (options, layouts, bounds), notation, render and observation tensor."""

from __future__ import annotations

import math
import random

import pytest
from potlatch_util import game, load

import boardplay
from boardplay.core.errors import IllegalActionError, OptionError
from boardplay.core.playout import random_playout
from boardplay.games.potlatch.game import PotlatchGame
from boardplay.games.potlatch.notation import (
    ACTION_NAMES,
    hex_distance,
    hex_text,
    pack,
    parse_hex,
    unpack,
)
from boardplay.games.potlatch.observation import OBSERVATION_SHAPE, PLANES, SIDE


def test_registry_loads_the_game_with_options() -> None:
    g = boardplay.load("potlatch(actions=3,layout=l4)")
    assert isinstance(g, PotlatchGame)
    assert g.options["actions"] == 3 and g.options["layout"] == "L4"
    assert str(g) == "potlatch(actions=3,layout=L4)"
    assert g.name == "potlatch" and g.title == "Potlatch Klone"
    assert g.seat_names == ("Red", "Blue")
    assert g.num_distinct_actions == 12
    assert g.num_players == 2
    assert boardplay.load("potlatch-klone") == boardplay.load("potlatch")


@pytest.mark.parametrize(
    "bad",
    [
        {"actions": 4},
        {"layout": "L5"},
        {"first_player": 2},
        {"filter_dead_ends": "maybe"},
        {"turn_limit": 0},
        {"colour": "red"},
    ],
)
def test_bad_options_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        boardplay.load("potlatch", **bad)


def test_bench_option_sets_cover_actions_by_layout() -> None:
    sets = {(s["actions"], s["layout"]) for s in PotlatchGame.bench_option_sets}
    assert sets == {(2, "L3"), (2, "L4"), (3, "L3"), (3, "L4")}


@pytest.mark.parametrize(
    ("layout", "actions", "expected"),
    [
        (
            "L3",
            2,
            {
                "tiles": {"-1,0": "", "0,0": "", "1,0": ""},
                "stock": 6,
                "pawns": ["-1,0", "1,0"],
                "to_move": 0,
                "actions": 2,
            },
        ),
        (
            "L3",
            3,
            {
                "tiles": {"-1,0": "", "0,0": "", "1,0": ""},
                "stock": 9,
                "pawns": ["-1,0", "1,0"],
                "to_move": 0,
                "actions": 3,
            },
        ),
        (
            "L4",
            2,
            {
                "tiles": {"1,-1": "", "0,0": "", "1,0": "", "0,1": ""},
                "stock": 5,
                "pawns": ["1,-1", "0,1"],
                "to_move": 0,
                "actions": 2,
            },
        ),
        (
            "L4",
            3,
            {
                "tiles": {"1,-1": "", "0,0": "", "1,0": "", "0,1": ""},
                "stock": 8,
                "pawns": ["1,-1", "0,1"],
                "to_move": 0,
                "actions": 3,
            },
        ),
    ],
)
def test_initial_positions_of_section_3_4(layout: str, actions: int, expected: dict) -> None:
    state = game(layout=layout, actions=actions).new_initial_state()
    assert state.to_json() == expected
    assert state.current_player() == 0


def test_max_game_length_is_the_turn_limit_times_actions() -> None:
    assert game().max_game_length == 2000
    assert game(actions=3, turn_limit=10).max_game_length == 30


def test_notation_ids_and_hex_packing() -> None:
    assert ACTION_NAMES == (
        "P-E",
        "P-NE",
        "P-NW",
        "P-W",
        "P-SW",
        "P-SE",
        "C-E",
        "C-NE",
        "C-NW",
        "C-W",
        "C-SW",
        "C-SE",
    )
    state = game().new_initial_state()
    assert [state.action_to_string(a) for a in range(12)] == list(ACTION_NAMES)
    with pytest.raises(IllegalActionError, match=r"ids are 0\.\.11"):
        state.action_to_string(12)
    for q, r in [(0, 0), (-1, 0), (5, -7), (-10000, 10000), (10000, -10000)]:
        assert unpack(pack(q, r)) == (q, r)
        assert parse_hex(hex_text(pack(q, r))) == pack(q, r)
    for bad in ["0, 0", "+1,0", "-0,0", "01,0", "1,0,0", "a,b", "", 3, "10001,0"]:
        assert parse_hex(bad) is None
    assert hex_distance(pack(-1, 0), pack(1, 0)) == 2
    assert hex_distance(pack(1, -1), pack(0, 1)) == 2


def test_legal_mask_matches_legal_actions() -> None:
    state = game().new_initial_state()
    mask = state.legal_actions_mask()
    assert len(mask) == 12
    assert [i for i, m in enumerate(mask) if m] == state.legal_actions()


def test_render_shows_chips_pawns_blanks_stock_supply_turn_and_result() -> None:
    state = load(
        {
            "tiles": {"0,0": "NN", "1,0": "NNR", "5,5": ""},
            "stock": 2,
            "pawns": ["0,0", "5,5"],
            "to_move": 0,
        }
    )
    text = state.render()
    assert "R[NN-]" in text
    assert "[NNR]" in text
    assert "B[---]" in text
    assert "Stock: 2 tiles" in text
    assert "Supply: N 32, R 4, B 5" in text
    assert "Red to move: action 1 of 2 (2 left this turn)" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    start = game().new_initial_state()
    assert start.render().count(".") == 5  # blanks next to Red's pawn (stock 6)
    over = load(
        {"tiles": {"0,0": "", "1,0": ""}, "stock": 0, "pawns": ["0,0", "1,0"], "to_move": 0}
    )
    assert "Game over: Blue wins (condition 2: the mover could not" in over.render()
    assert "Legal: none" in over.render(detail=True)


def test_render_of_a_full_board_fits_80_columns() -> None:
    for seed in range(30):
        state = game(actions=3).new_initial_state()
        random_playout(state, random.Random(seed))
        lines = state.render(detail=True).splitlines()
        assert max(len(line) for line in lines) <= 80


def test_observation_tensor_shape_and_planes() -> None:
    g = game(layout="L4")
    assert g.observation_shape() == OBSERVATION_SHAPE == (17, 23, 23)
    state = g.new_initial_state()
    red = state.observation_tensor(0)
    blue = state.observation_tensor(1)
    assert len(red) == math.prod(OBSERVATION_SHAPE)
    cells = SIDE * SIDE

    def plane(tensor: list[float], name: str) -> list[float]:
        i = PLANES.index(name)
        return tensor[i * cells : (i + 1) * cells]

    assert sum(plane(red, "tile")) == 4
    # By the layout's 180° symmetry, each seat sees its own pawn in the same cell.
    assert plane(red, "own pawn") == plane(blue, "own pawn")
    assert plane(red, "opponent pawn") == plane(blue, "opponent pawn")
    assert plane(red, "own turn") == [1.0] * cells
    assert plane(blue, "own turn") == [0.0] * cells
    assert plane(red, "neutral supply/36") == [1.0] * cells
    with pytest.raises(ValueError):
        state.observation_tensor(2)


def test_observation_marks_own_and_opponent_stacks() -> None:
    state = load(
        {
            "tiles": {"0,0": "", "1,0": "NNR", "-1,0": "NNB", "2,0": ""},
            "stock": 0,
            "pawns": ["0,0", "2,0"],
            "to_move": 0,
        }
    )
    cells = SIDE * SIDE
    red = state.observation_tensor(0)
    blue = state.observation_tensor(1)
    own = PLANES.index("own stack")
    opp = PLANES.index("opponent stack")
    assert sum(red[own * cells : (own + 1) * cells]) == 1
    assert sum(blue[opp * cells : (opp + 1) * cells]) == 1
    # The position is symmetric under L3's rotation, so both seats see the same planes,
    # with their own stack at q=1, r=0 (row 11, column 12).
    assert red[own * cells : (own + 1) * cells] == blue[own * cells : (own + 1) * cells]
    assert red[own * cells + 11 * SIDE + 12] == 1.0


def test_numpy_integer_action_ids_are_accepted() -> None:
    numpy = pytest.importorskip("numpy")
    state = game().new_initial_state()
    state.apply_action(numpy.int64(0))
    assert state.history() == [0]
    assert type(state.history()[0]) is int
    with pytest.raises(IllegalActionError):
        state.apply_action(True)
    with pytest.raises(IllegalActionError):
        state.apply_action("0")  # type: ignore[arg-type]
