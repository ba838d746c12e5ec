"""The rules spec's scenarios S1-S11 (§14), each with its exact legal lists. S12 (random
playouts) is ``test_potlatch_properties.py::test_s12_random_playouts_keep_invariants``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from potlatch_util import game, legal, load, normal, play, same_position

VARIANTS: list[dict[str, Any]] = [
    dict(
        zip(
            ("blank_entry_ignores_height", "repetition_compares_full_state", "filter_dead_ends"),
            values,
            strict=True,
        )
    )
    for values in itertools.product((False, True), repeat=3)
]
"""Every combination of the three boolean options (scenarios that "no variant changes")."""

ALL_PAWN = ["P-E", "P-NE", "P-NW", "P-W", "P-SW", "P-SE"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s1_height_rule_only_differences_of_0_or_1(variant: dict[str, Any]) -> None:
    position = {
        "tiles": {"0,0": "", "1,0": "N", "0,1": "NN", "-1,0": "NNN", "5,5": ""},
        "stock": 0,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    assert legal(load(position, **variant)) == ["P-E"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s2_pawn_and_chip_moves_from_a_2_high_stack(variant: dict[str, Any]) -> None:
    position = {
        "tiles": {"0,0": "NN", "1,0": "", "0,1": "N", "-1,0": "NNR", "1,-1": "NNN", "5,5": ""},
        "stock": 0,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    assert legal(load(position, **variant)) == ["P-NE", "P-W", "P-SE", "C-E", "C-SE"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s3_blank_spaces_and_the_stock(variant: dict[str, Any]) -> None:
    position_a = {
        "tiles": {"0,0": "", "5,5": ""},
        "stock": 1,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    assert legal(load(position_a, **variant)) == ALL_PAWN

    position_b = {
        "tiles": {"0,0": "NN", "1,0": "NNN", "5,5": ""},
        "stock": 3,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    chips = ["C-NE", "C-NW", "C-W", "C-SW", "C-SE"]
    if variant["blank_entry_ignores_height"]:
        assert legal(load(position_b, **variant)) == ALL_PAWN + chips
    else:
        assert legal(load(position_b, **variant)) == ["P-E", *chips]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s4_no_legal_action_at_turn_start(variant: dict[str, Any]) -> None:
    position = {"tiles": {"0,0": "", "1,0": ""}, "stock": 0, "pawns": ["0,0", "1,0"], "to_move": 0}
    state = load(position, **variant)
    assert state.is_terminal()
    assert state.result == (1, 2)
    assert state.returns() == [0.0, 1.0]
    assert legal(state) == []


S5_START = {
    "tiles": {"0,0": "", "1,0": "", "2,0": "", "5,5": ""},
    "stock": 0,
    "pawns": ["0,0", "5,5"],
    "to_move": 0,
    "actions": 3,
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_s5_start_hex_visited_and_chip_move_after_pawn_move(variant: dict[str, Any]) -> None:
    state = load(S5_START, **variant)
    assert legal(state) == ["P-E"]
    state.apply_move("P-E")
    expected = {
        "tiles": {"0,0": "", "1,0": "", "2,0": "", "5,5": ""},
        "stock": 0,
        "pawns": ["1,0", "5,5"],
        "to_move": 0,
        "actions": 3,
        "done": 1,
        "visited": ["0,0", "1,0"],
        "run_open": True,
    }
    exported = state.to_json()
    assert same_position(exported, expected)
    assert exported["visited"] == ["0,0", "1,0"]
    assert legal(state) == ["P-E", "C-E", "C-W"]
    assert legal(load(expected, **variant)) == ["P-E", "C-E", "C-W"]

    state.apply_move("C-E")
    exported = state.to_json()
    assert exported["tiles"] == {"0,0": "", "1,0": "", "2,0": "N", "5,5": ""}
    assert exported["done"] == 2
    assert exported["run_open"] is False
    assert legal(state) == ["P-E"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s6_a_run_of_two_pawn_moves_gets_exactly_one_increase(variant: dict[str, Any]) -> None:
    state = load({**S5_START, "actions": 2}, **variant)
    state.apply_move("P-E")
    assert legal(state) == ["P-E", "C-E", "C-W"]
    state.apply_move("P-E")
    expected = {
        "tiles": {"0,0": "", "1,0": "", "2,0": "N", "5,5": ""},
        "stock": 0,
        "pawns": ["2,0", "5,5"],
        "to_move": 1,
    }
    assert same_position(state.to_json(), expected)
    assert state.result == (0, 2)
    assert state.returns() == [1.0, 0.0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s7_faq_q2_pawn_chip_pawn_gives_two_increases(variant: dict[str, Any]) -> None:
    state = load(S5_START, **variant)
    state.apply_move("P-E")
    assert state.to_json()["tiles"] == S5_START["tiles"]  # increase still pending
    state.apply_move("C-E")
    assert state.to_json()["tiles"] == {"0,0": "", "1,0": "", "2,0": "N", "5,5": ""}
    state.apply_move("P-E")
    expected = {
        "tiles": {"0,0": "", "1,0": "", "2,0": "NN", "5,5": ""},
        "stock": 0,
        "pawns": ["2,0", "5,5"],
        "to_move": 1,
        "actions": 3,
    }
    assert normal(state.to_json()) == normal(expected, 3)
    assert state.supplies() == (34, 5, 5)
    assert state.result == (0, 2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_s8_dismantling_a_colour_stack_returns_the_colour_chip(variant: dict[str, Any]) -> None:
    position = {
        "tiles": {"0,0": "NNB", "1,0": "N", "5,5": ""},
        "stock": 0,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    state = load(position, **variant)
    assert state.supplies() == (33, 5, 4)
    assert legal(state) == ["C-E"]
    state.apply_move("C-E")
    assert state.to_json()["tiles"] == {"0,0": "NN", "1,0": "NN", "5,5": ""}
    assert state.supplies() == (32, 5, 5)
    assert state.own_stacks(1) == 0
    assert legal(state) == ["P-E", "C-E"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s9_condition_1_checks_only_the_movers_stacks(variant: dict[str, Any]) -> None:
    board = {"0,0": "", "1,0": "NNR", "2,0": "NNR", "3,0": "NNR", "5,5": ""}
    position_a = {"tiles": board, "stock": 1, "pawns": ["0,0", "5,5"], "to_move": 0}
    state = load(position_a, **variant)
    assert state.result == (0, 1)
    assert legal(state) == []

    position_b = {**position_a, "to_move": 1}
    state = load(position_b, **variant)
    assert not state.is_terminal()
    assert legal(state) == ALL_PAWN

    position_c = {**position_b, "stock": 0}
    state = load(position_c, **variant)
    assert state.result == (0, 2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_s10_layout_l3_opening(variant: dict[str, Any]) -> None:
    state = game(**variant).new_initial_state()
    assert state.to_json() == {
        "tiles": {"-1,0": "", "0,0": "", "1,0": ""},
        "stock": 6,
        "pawns": ["-1,0", "1,0"],
        "to_move": 0,
        "actions": 2,
    }
    assert legal(state) == ALL_PAWN
    state.apply_move("P-E")
    assert legal(state) == [
        "P-NE",
        "P-NW",
        "P-SW",
        "P-SE",
        "C-E",
        "C-NE",
        "C-NW",
        "C-W",
        "C-SW",
        "C-SE",
    ]

    three = game(actions=3, **variant).new_initial_state()
    assert three.stock == 9
    assert three.stock + len(three.tiles) == 12
    blue_first = game(first_player=1, **variant).new_initial_state()
    assert blue_first.to_json()["to_move"] == 1
    assert blue_first.current_player() == 1
    assert legal(blue_first) == ALL_PAWN


def test_s11_stack_snapshot() -> None:
    position_a = {
        "tiles": {"0,0": "", "1,0": "NNR", "2,0": "N", "5,5": ""},
        "stock": 1,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    position_b = {
        "tiles": {"0,0": "", "1,0": "NNR", "2,0": "N", "3,0": "", "5,5": ""},
        "stock": 0,
        "pawns": ["2,0", "0,0"],
        "to_move": 0,
    }
    position_c = {
        "tiles": {"0,0": "", "1,0": "NNB", "2,0": "N", "5,5": ""},
        "stock": 1,
        "pawns": ["0,0", "5,5"],
        "to_move": 0,
    }
    a, b, c = (load(p) for p in (position_a, position_b, position_c))
    assert a.stack_snapshot() == b.stack_snapshot() == {"1,0": "NNR", "2,0": "N"}
    assert c.stack_snapshot() == {"1,0": "NNB", "2,0": "N"}
    assert a.stack_snapshot() != c.stack_snapshot()

    full = {"repetition_compares_full_state": True}
    a, b, c = (load(p, **full) for p in (position_a, position_b, position_c))
    assert a.stack_snapshot() != b.stack_snapshot()
    assert a.stack_snapshot() != c.stack_snapshot()
    assert a.stack_snapshot() == {
        "tiles": {"0,0": "", "1,0": "NNR", "2,0": "N", "5,5": ""},
        "pawns": ["0,0", "5,5"],
    }


def test_sequences_span_turns() -> None:
    """Sequences may span turns; the turn passes after the N-th action (§10)."""
    state = play(game().new_initial_state(), ["P-E", "P-NE", "P-W"])
    assert state.to_move == 1
    assert state.done == 1
