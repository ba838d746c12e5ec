"""Position JSON (spec §12): exact round trips and every validation rule of §12.3, each
rejection naming the offending item."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from passtally_fixtures import (
    FULL_BOARD,
    LAST_TILE,
    PENDING_EXAMPLE,
    S1,
    S3,
    S4,
    S5,
    S6,
    S8,
    S9,
    S10,
    S11_THREE,
    S11_TWO,
    S12_END,
    S12_START,
    SPEC_12_EXAMPLE,
    game,
    load,
    play,
)
from passtally_invariants import check_state

from boardplay.core.errors import PositionError
from boardplay.core.game import CHANCE
from boardplay.core.playout import random_playout
from support import games

ALL = [S1, S3, S4, S5, S6, S8, S9, S10, S11_TWO, S11_THREE, S12_START, S12_END, SPEC_12_EXAMPLE,
       PENDING_EXAMPLE, LAST_TILE]  # fmt: skip


@pytest.mark.parametrize("position", ALL)
def test_canonical_positions_round_trip_exactly(position: dict[str, Any]) -> None:
    state = load(position)
    assert state.to_json() == position
    assert list(state.to_json()) == list(position)  # key order too
    assert game(players=position["players"]).state_from_json(state.to_json()) == state


def test_initial_state_is_the_spec_initial_position() -> None:
    assert game(players=3).new_initial_state().to_json() == S12_START


def test_pending_reveal_position_is_a_chance_node() -> None:
    state = load(PENDING_EXAMPLE)
    assert state.current_player() == CHANCE
    play(state, "A=XNE")
    assert state.current_player() == 0 and state.actions_left == 1


def test_spec_example_lines() -> None:
    state = load(SPEC_12_EXAMPLE)
    assert state.player_lines(0) == [(2, 15, 0)]
    assert state.player_lines(1) == [(7, 22, 2)]
    assert state.unrevealed == [4, 6, 7, 7, 7, 6]


def test_non_canonical_symmetric_placement_is_normalised() -> None:
    position = copy.deepcopy(S3)
    position["placements"] = [["XX", "b1", "W"]]
    assert load(position).to_json() == S3


def test_turns_field_only_with_max_turns() -> None:
    position = copy.deepcopy(S1)
    position["turns"] = 3
    with pytest.raises(PositionError, match="max_turns"):
        load(position)
    state = load(position, max_turns=10)
    assert state.turns == 3 and state.to_json()["turns"] == 3
    position["turns"] = 10
    with pytest.raises(PositionError, match="max_turns=10 game is over"):
        load(position, max_turns=10)


def rejects(position: dict[str, Any], pattern: str, **options: Any) -> None:
    with pytest.raises(PositionError, match=pattern):
        load(position, **options)


def changed(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    out.update(fields)
    return out


# ----- rule 1: form ---------------------------------------------------------------------------
def test_rejects_unknown_and_missing_fields() -> None:
    rejects(changed(S1, board=[]), "^board: unknown field")
    missing = copy.deepcopy(S1)
    del missing["piles"]
    rejects(missing, "^piles: is missing")
    with pytest.raises(
        PositionError, match=r"^players: expected 2, the players of this game \(players=2\), got 3"
    ):
        game(players=2).state_from_json(changed(S1, players=3))


def test_rejects_bad_names_and_ranges() -> None:
    rejects(
        changed(S3, placements=[["XY", "a1", "E"]]),
        r'^placements\[0\]\[0\]: expected a design name .*, got "XY"',
    )
    rejects(
        changed(S3, placements=[["XX", "g1", "E"]]),
        r'^placements\[0\]\[1\]: expected a cell a1-f6, got "g1"',
    )
    rejects(
        changed(S3, placements=[["XX", "a1", "Q"]]),
        r"^placements\[0\]\[2\]: expected an orientation",
    )
    rejects(changed(S1, markers={**S1["markers"], "24": 0}), r'^markers\["24"\]: is not a slot')
    rejects(changed(S1, markers={**S1["markers"], "05": 0}), r'^markers\["05"\]: is not a slot')
    rejects(
        changed(S1, markers={**S1["markers"], "0": 2}),
        r'^markers\["0"\]: expected an integer 0\.\.1, got 2',
    )
    rejects(changed(S1, scores=[0, -1]), r"scores\[1\]")
    rejects(changed(S1, to_move=2), "to_move")
    rejects(changed(S1, actions_left=3), "actions_left")
    rejects(changed(S1, setup="yes"), "^setup: expected true or false")
    rejects(changed(S1, piles=S1["piles"][:2]), "^piles: expected a list of 3 entries")
    rejects(
        changed(S1, piles=[{"face_up": "XQ", "hidden": 13}, *S1["piles"][1:]]),
        r"^piles\[0\]\.face_up: expected a design",
    )


# ----- rule 2: placements ---------------------------------------------------------------------
def test_rejects_a_placement_on_exactly_one_tile() -> None:
    position = changed(
        S3,
        placements=[["XX", "a1", "E"], ["XX", "a1", "E"]],
        piles=[{"face_up": "XX", "hidden": 11}, *S3["piles"][1:]],
    )
    rejects(position, r"^placements\[1\]: `XX a1E`: rests exactly on one tile")


def test_rejects_a_placement_on_different_heights() -> None:
    position = changed(
        S3,
        placements=[["XX", "a1", "E"], ["XX", "a1", "S"]],
        piles=[{"face_up": "XX", "hidden": 11}, *S3["piles"][1:]],
    )
    rejects(position, r"^placements\[1\]: `XX a1S`: different heights \(a1 is 1, a2 is 0\)")


def test_rejects_a_placement_off_the_board() -> None:
    rejects(
        changed(S3, placements=[["XX", "f1", "E"]]), r"^placements\[0\]: `XX f1E`: .*off the board"
    )


# ----- rules 3-5: counts ----------------------------------------------------------------------
def test_rejects_too_many_of_one_design() -> None:
    placements = [["XX", f"a{r}", "E"] for r in range(1, 7)] + [["XX", "c1", "E"]]
    position = changed(
        S1,
        placements=placements,
        piles=[{"face_up": "XX", "hidden": 6}, *S1["piles"][1:]],
    )
    rejects(position, "design XX: 7 placed \\+ 1 face up is more than the 7")


def test_rejects_a_wrong_total() -> None:
    rejects(
        changed(S1, piles=[{"face_up": "XX", "hidden": 12}, *S1["piles"][1:]]),
        "do not add up: .* = 41, not 42",
    )


def test_rejects_an_oversized_pile() -> None:
    position = changed(
        S1,
        piles=[
            {"face_up": "XX", "hidden": 14},
            {"face_up": "NENW", "hidden": 12},
            {"face_up": "XNE", "hidden": 13},
        ],
    )
    rejects(position, "pile A holds 15 tiles")


# ----- rule 6: pending reveals ----------------------------------------------------------------
def test_rejects_pending_reveals_out_of_order_in_setup() -> None:
    position = changed(
        S12_START,
        piles=[
            {"face_up": None, "hidden": 14},
            {"face_up": "XX", "hidden": 13},
            {"face_up": None, "hidden": 14},
        ],
    )
    rejects(position, "must be the last ones")


def test_rejects_two_pending_reveals_in_play() -> None:
    position = changed(
        PENDING_EXAMPLE,
        placements=[["XX", "b3", "E"], ["NENW", "b4", "E"]],
        piles=[
            {"face_up": None, "hidden": 13},
            {"face_up": None, "hidden": 13},
            {"face_up": "XNE", "hidden": 13},
        ],
        actions_left=0,
    )
    rejects(position, "only one pile can await a reveal")


def test_rejects_a_pending_reveal_at_the_start_of_a_turn() -> None:
    rejects(changed(PENDING_EXAMPLE, actions_left=2), "must be 0 or 1")


def test_rejects_actions_left_zero_without_a_reveal() -> None:
    rejects(changed(S1, actions_left=0), "only while a reveal is pending")


# ----- rules 7-8: markers and setup -----------------------------------------------------------
def test_rejects_wrong_marker_counts() -> None:
    markers = dict(S1["markers"])
    del markers["2"]
    rejects(changed(S1, markers=markers), "seat 0 has 3 markers")


def test_rejects_setup_markers_out_of_snake_order() -> None:
    start = changed(S12_START, piles=S12_END["piles"])
    load(changed(start, markers={"1": 0, "2": 1}, to_move=2))
    rejects(changed(start, markers={"1": 0, "8": 1}, to_move=2), "not a valid prefix")
    rejects(changed(start, markers={"1": 1}, to_move=1), "not a valid prefix")
    rejects(changed(start, markers={"1": 0, "2": 0}, to_move=2), "not a valid prefix")
    rejects(changed(start, markers={"1": 0, "2": 1}, to_move=0), "must be seat 2")
    # pass 2 on the side opposite pass 1, reverse order: P3 first
    load(changed(start, markers={"1": 0, "2": 1, "4": 2, "13": 2}, to_move=1))
    rejects(changed(start, markers={"1": 0, "2": 1, "4": 2, "13": 0}, to_move=1), "prefix")
    rejects(changed(start, markers={"1": 0, "2": 1, "4": 2, "8": 2}, to_move=1), "prefix")


def test_rejects_inconsistent_setup_flag() -> None:
    rejects(changed(S12_END, setup=True), "all 12 markers are placed")
    rejects(changed(S12_START, scores=[1, 0, 0]), "scores must be 0")
    rejects(changed(S12_START, final_round=True), "final_round")


# ----- rules 9-11: turn state and triggers ----------------------------------------------------
def test_rejects_inconsistent_game_over() -> None:
    rejects(changed(S1, game_over=True), "'to_move' must be null")
    rejects(changed(S1, to_move=None), "'to_move' must be a seat")


def test_rejects_final_round_with_seat_zero_to_move() -> None:
    rejects(changed(S1, final_round=True), "seat 0 to move")


def test_rejects_fifty_points_without_final_round() -> None:
    rejects(changed(S1, scores=[50, 0]), "seat 0 has 50 VP")


def test_rejects_an_exhausted_pile_without_final_round() -> None:
    rejects(changed(S11_TWO, final_round=False), "pile A is exhausted")


def test_rejects_a_live_turn_with_no_placement_left() -> None:
    position = changed(
        LAST_TILE,
        placements=FULL_BOARD,
        piles=[{"face_up": None, "hidden": 0}] * 3,
    )
    rejects(position, "no legal placement exists")
    over = changed(position, to_move=None, actions_left=0, game_over=True)
    state = load(over)
    assert state.is_terminal() and state.end_reason() == "no legal placement left"


def test_rejects_a_live_turn_without_any_action() -> None:
    blocked = {"0": 0, "1": 2, "2": 1, "3": 1, "4": 1, "5": 1, "6": 0, "7": 2, "8": 0, "9": 2,
               "10": 0, "11": 2}  # fmt: skip
    position = changed(
        LAST_TILE,
        placements=FULL_BOARD,
        piles=[{"face_up": None, "hidden": 0}] * 3,
        markers=blocked,
        actions_left=1,
    )
    rejects(position, "seat 1 has no legal action", jump_counts_as_step=True)
    assert load(position).legal_actions()  # by default the markers can jump


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=60),
    st.sampled_from(["XX", "a1", "E", "", "A", "23", "NENW"]),
    st.lists(st.integers(min_value=-1, max_value=3), max_size=4),
    st.just({"face_up": "XX", "hidden": 13}),
)


@settings(max_examples=games(150, 3000))
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([2, 3]),
    steps=st.integers(min_value=0, max_value=120),
    field=st.sampled_from(
        [
            "players",
            "placements",
            "markers",
            "piles",
            "scores",
            "to_move",
            "actions_left",
            "setup",
            "final_round",
            "game_over",
            "turns",
            "placement",
            "marker",
            "pile",
        ]
    ),
    junk=JUNK,
)
def test_mutated_positions_load_or_fail_cleanly(
    seed: int, players: int, steps: int, field: str, junk: Any
) -> None:
    """A position with one field replaced by junk either loads (and then round-trips) or is
    rejected with a PositionError - never another exception."""
    g = game(players=players)
    state = g.new_initial_state()
    random_playout(state, random.Random(seed), max_actions=steps)
    position = state.to_json()
    if field == "placement" and position["placements"]:
        index = seed % len(position["placements"])
        position["placements"][index] = [junk, "b3", "E"] if isinstance(junk, str) else junk
    elif field == "marker":
        position["markers"][str(seed % 30)] = junk
    elif field == "pile":
        position["piles"][seed % 3]["hidden" if seed % 2 else "face_up"] = junk
    else:
        position[field] = junk
    try:
        loaded = g.state_from_json(position)
    except PositionError as exc:
        assert str(exc)
        return
    assert g.state_from_json(loaded.to_json()) == loaded
    check_state(loaded)
