"""One test per rule of the spec (§4-§8), on small hand-made positions. ``"5,5"`` is a
detached parking tile for the idle pawn, as in the spec's scenarios."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from potlatch_util import game, legal, load

from boardplay.core.errors import IllegalActionError
from boardplay.games.potlatch.state import PotlatchState


def position(tiles: dict[str, str], **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"tiles": tiles, "stock": 0, "pawns": ["0,0", "5,5"], "to_move": 0}
    base.update(fields)
    return base


# ----- §5 Pawn Move --------------------------------------------------------------------------


def test_height_rule_allows_steps_of_at_most_one_down() -> None:
    # From 3 high: E is 2 (-1, legal), NE is 1 (-2), NW is 0 (-3), W is 3 (0, legal).
    state = load(
        position({"0,0": "NNN", "1,0": "NN", "1,-1": "N", "0,-1": "", "-1,0": "NNB", "5,5": ""})
    )
    pawn_moves = [m for m in legal(state) if m.startswith("P-")]
    assert pawn_moves == ["P-E", "P-W"]
    with pytest.raises(IllegalActionError, match="height difference to 1,-1 is -2"):
        state.apply_move("P-NE")


def test_no_reentry_including_the_start_hex_and_across_chip_moves() -> None:
    # 3-action: P-E, then C-E (a chip move does not reset the memory), then P-W is still
    # forbidden (0,0 is the start hex), and so is re-entering any hex of the run.
    state = load(position({"0,0": "", "1,0": "", "2,0": "", "5,5": ""}, actions=3))
    state.apply_move("P-E")
    assert "P-W" not in legal(state)
    state.apply_move("C-E")
    assert "P-W" not in legal(state)
    with pytest.raises(IllegalActionError, match="already been on 0,0 this turn"):
        state.apply_move("P-W")


def test_visited_start_hex_is_forbidden_even_in_a_two_step_loop() -> None:
    # Triangle 0,0 - 1,0 - 0,1 (all empty): after P-E, P-SW reaches 0,1; the start hex 0,0
    # (NW of 0,1) cannot be entered in the same turn.
    state = load(position({"0,0": "", "1,0": "", "0,1": "", "5,5": ""}, actions=3))
    state.apply_move("P-E")
    state.apply_move("P-SW")
    assert "P-NW" not in legal(state)  # 0,1 + NW = 0,0, the start hex


def test_pawn_may_not_enter_the_opponents_hex_but_a_chip_may() -> None:
    state = load(position({"0,0": "N", "1,0": "N", "5,5": ""}, pawns=["0,0", "1,0"]))
    assert legal(state) == ["C-E"]
    with pytest.raises(IllegalActionError, match="opponent's pawn"):
        state.apply_move("P-E")
    state.apply_move("C-E")
    assert state.to_json()["tiles"]["1,0"] == "NN"


def test_pawn_may_step_onto_any_colour_stack_within_the_height_rule() -> None:
    state = load(position({"0,0": "NN", "1,0": "NNR", "-1,0": "NNB", "0,1": "NNN", "5,5": ""}))
    assert [m for m in legal(state) if m.startswith("P-")] == ["P-E", "P-W", "P-SE"]


@pytest.mark.parametrize("height", [0, 1, 2, 3])
@pytest.mark.parametrize("ignore", [False, True])
def test_blank_entry_needs_stock_and_the_height_rule_unless_the_option(
    height: int, ignore: bool
) -> None:
    chips = "N" * height
    options = {"blank_entry_ignores_height": ignore}
    state = load(position({"0,0": chips, "5,5": ""}, stock=1), **options)
    pawn_moves = [m for m in legal(state) if m.startswith("P-")]
    assert pawn_moves == (
        ["P-E", "P-NE", "P-NW", "P-W", "P-SW", "P-SE"] if ignore or height <= 1 else []
    )
    empty = load(position({"0,0": chips, "5,5": ""}, stock=0), **options)
    assert [m for m in legal(empty) if m.startswith("P-")] == []


def test_entering_a_blank_places_a_tile_from_the_stock() -> None:
    state = load(position({"0,0": "", "5,5": ""}, stock=2))
    state.apply_move("P-E")
    assert state.stock == 1
    assert state.to_json()["tiles"]["1,0"] == ""
    assert state.to_json()["pawns"][0] == "1,0"


# ----- §6 Chip Move --------------------------------------------------------------------------


def test_chip_move_takes_the_top_chip_and_destination_may_not_be_3_high() -> None:
    state = load(position({"0,0": "NN", "1,0": "NNN", "-1,0": "N", "5,5": ""}))
    assert [m for m in legal(state) if m.startswith("C-")] == ["C-W"]
    with pytest.raises(IllegalActionError, match="1,0 is already 3 high"):
        state.apply_move("C-E")
    state.apply_move("C-W")
    assert state.to_json()["tiles"] == {"0,0": "N", "1,0": "NNN", "-1,0": "NN", "5,5": ""}


def test_chip_move_needs_a_chip_on_the_pawns_hex() -> None:
    state = load(position({"0,0": "", "1,0": "", "5,5": ""}))
    with pytest.raises(IllegalActionError, match="no chip to move"):
        state.apply_move("C-E")


def test_chip_move_into_a_blank_places_a_tile_and_ignores_height() -> None:
    state = load(position({"0,0": "NNN", "5,5": ""}, stock=1))
    assert legal(state) == ["C-E", "C-NE", "C-NW", "C-W", "C-SW", "C-SE"]
    state.apply_move("C-NW")
    assert state.to_json()["tiles"] == {"0,0": "NN", "5,5": "", "0,-1": "N"}
    assert state.stock == 0


def test_chip_move_onto_a_2_high_stack_makes_a_neutral_stack() -> None:
    state = load(position({"0,0": "N", "1,0": "NN", "5,5": ""}))
    state.apply_move("C-E")
    assert state.to_json()["tiles"]["1,0"] == "NNN"
    assert state.own_stacks(0) == state.own_stacks(1) == 0


@pytest.mark.parametrize(("top", "seat"), [("R", 0), ("B", 1)])
@pytest.mark.parametrize("mover", [0, 1])
def test_colour_exchange_returns_the_chip_to_its_owner(top: str, seat: int, mover: int) -> None:
    pawns = ["0,0", "5,5"] if mover == 0 else ["5,5", "0,0"]
    state = load(position({"0,0": "NN" + top, "1,0": "", "5,5": ""}, pawns=pawns, to_move=mover))
    before = state.supplies()
    state.apply_move("C-E")
    after = state.supplies()
    assert state.to_json()["tiles"]["0,0"] == "NN"
    assert state.to_json()["tiles"]["1,0"] == "N"  # the chip that travels is neutral
    assert after[1 + seat] == before[1 + seat] + 1  # back to its owner, whoever moved it
    assert after[2 - seat] == before[2 - seat]
    assert after[0] == before[0] - 1


# ----- §7 Chip Increase ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chips", "mover", "expected"),
    [
        ("", 0, "N"),
        ("N", 0, "NN"),
        ("NN", 0, "NNR"),
        ("NN", 1, "NNB"),
        ("NNN", 0, "NNN"),
        ("NNR", 1, "NNR"),
        ("NNB", 0, "NNB"),
    ],
)
def test_increase_table(chips: str, mover: int, expected: str) -> None:
    # Last action of a 3-action turn: a Pawn Move onto "1,0" from a hex one chip lower (or
    # level); the turn ends with the run open, so the increase lands on 1,0.
    start = "N" * max(len(chips) - 1, 0)
    pawns = ["0,0", "5,5"] if mover == 0 else ["5,5", "0,0"]
    tiles = {"0,0": start, "1,0": chips, "5,5": "", "6,5": ""}
    state = load(position(tiles, pawns=pawns, to_move=mover, actions=3, done=2, visited=["0,0"]))
    state.apply_move("P-E")
    assert state.to_json()["tiles"]["1,0"] == expected
    assert state.to_json()["tiles"]["0,0"] == start
    assert state.to_move == 1 - mover


def test_increase_is_pending_until_the_run_ends_and_precedes_a_chip_move() -> None:
    state = load(position({"0,0": "N", "1,0": "NN", "2,0": "N", "5,5": ""}, actions=3))
    state.apply_move("P-E")
    assert state.to_json()["tiles"]["1,0"] == "NN"  # pending: not on the board yet
    assert state.to_json()["run_open"] is True
    state.apply_move("C-E")  # increase first (NNR), then its top chip R is exchanged
    tiles = state.to_json()["tiles"]
    assert tiles["1,0"] == "NN"
    assert tiles["2,0"] == "NN"
    assert state.supplies() == (36 - 5, 5, 5)
    assert state.to_json()["run_open"] is False


def _runs(kinds: str) -> int:
    """Runs of P in a P/C pattern: the number of increases the spec's table gives."""
    return sum(1 for k, _ in itertools.groupby(kinds) if k == "P")


INCREASE_TABLE = {
    "PP": 1,
    "PC": 1,
    "CP": 1,
    "CC": 0,
    "PCP": 2,
    "PPP": 1,
    "PPC": 1,
    "CPP": 1,
    "PCC": 1,
    "CCP": 1,
    "CPC": 1,
    "CCC": 0,
}


def _find_turn(state: PotlatchState, kinds: str) -> PotlatchState | None:
    """Depth-first: a way to play the P/C pattern ``kinds`` as one whole turn."""
    if not kinds:
        return state
    want_pawn = kinds[0] == "P"
    for action in state.legal_actions():
        if (action < 6) == want_pawn:
            child = state.clone()
            child.apply_action(action)
            found = _find_turn(child, kinds[1:])
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("kinds", sorted(INCREASE_TABLE))
def test_increases_per_turn_for_every_action_sequence(kinds: str) -> None:
    assert INCREASE_TABLE[kinds] == _runs(kinds)
    actions = len(kinds)
    # Pawn on a 3-high stack ringed by 2-high stacks: every P/C pattern can be played.
    ring = {"1,0": "NN", "1,-1": "NN", "0,-1": "NN", "-1,0": "NN", "-1,1": "NN", "0,1": "NN"}
    start = load(position({"0,0": "NNN", **ring, "5,5": ""}, actions=actions))
    after = _find_turn(start, kinds)
    assert after is not None, f"pattern {kinds} not playable"
    # Replay the found line alone and count the increases it resolves (the engine counts each
    # ended run, also on a 3-high hex where nothing is added).
    line = after.history()
    replay = start.clone()
    before = replay.increases
    for action in line:
        replay.apply_action(action)
    calls = replay.increases - before
    assert calls == INCREASE_TABLE[kinds]
    assert replay.turns_played == 1


# ----- §8 End of game ------------------------------------------------------------------------

CONDITION_1_TILES = {
    "0,0": "NN",
    "-1,0": "",
    "1,0": "NN",
    "2,0": "NNR",
    "3,0": "NNR",
    "4,0": "",
    "5,5": "",
    "6,5": "",
    "6,4": "",
}


def test_condition_1_fires_only_at_the_start_of_the_owners_own_turn() -> None:
    state = load(position(CONDITION_1_TILES))
    state.apply_move("C-W")
    state.apply_move("P-E")  # the run ends with the turn: 1,0 becomes Red's 3rd stack
    assert state.own_stacks(0) == 3
    assert not state.is_terminal()  # not at the end of Red's turn, not at Blue's turn start
    assert state.to_move == 1
    state.apply_move("P-E")
    state.apply_move("P-NW")
    assert state.result == (0, 1)
    assert state.returns() == [1.0, 0.0]


def test_condition_1_gives_the_opponent_one_turn_to_dismantle() -> None:
    state = load(position(CONDITION_1_TILES, pawns=["0,0", "3,0"]))
    state.apply_move("C-W")
    state.apply_move("P-E")
    assert state.own_stacks(0) == 3
    state.apply_move("C-E")  # Blue stands on Red's stack 3,0 and takes its top chip
    state.apply_move("P-E")
    assert state.own_stacks(0) == 2
    assert not state.is_terminal()
    assert state.to_move == 0


def test_condition_1_is_checked_before_condition_2() -> None:
    tiles = {"0,0": "", "1,0": "NNR", "2,0": "NNR", "3,0": "NNR", "5,5": ""}
    state = load(position(tiles, pawns=["5,5", "0,0"]))  # Red parked, no legal action
    assert state.result == (0, 1)


TRIANGLES = {"0,0": "NNN", "1,0": "NNN", "0,1": "NNN", "5,5": "NNN", "6,5": "NNN", "5,6": "NNN"}
SHUFFLE = ["P-E", "P-SW"]  # around a triangle of 3-high stacks: stacks never change


@pytest.mark.parametrize(
    ("colours", "result"),
    [
        ({}, (None, 3)),
        ({"1,0": "NNR", "5,6": "NNB", "6,5": "NNB"}, (1, 3)),
        ({"1,0": "NNR", "0,1": "NNR", "5,6": "NNB"}, (0, 3)),
    ],
)
def test_condition_3_compares_with_the_players_own_previous_turn_start(
    colours: dict[str, str], result: tuple[int | None, int]
) -> None:
    state = load(position({**TRIANGLES, **colours}, pawns=["0,0", "5,5"]))
    state.apply_move("P-E")
    state.apply_move("P-SW")
    assert not state.is_terminal()  # Blue's first turn start: no reference snapshot yet
    state.apply_move("P-E")
    state.apply_move("P-SW")
    assert state.result == result  # Red's 2nd turn start: stacks as at Red's 1st
    expected = {None: [0.5, 0.5], 0: [1.0, 0.0], 1: [0.0, 1.0]}[result[0]]
    assert state.returns() == expected


def test_condition_3_full_state_also_compares_pawns() -> None:
    state = load(position(TRIANGLES), repetition_compares_full_state=True)
    for move in SHUFFLE * 2:
        state.apply_move(move)
    assert not state.is_terminal()  # Red's pawn is on 0,1 now, it was on 0,0
    for move in ["P-NE", "P-W", "P-NE", "P-W"]:
        state.apply_move(move)
    assert not state.is_terminal()


def test_condition_3_on_load_with_a_reference_snapshot() -> None:
    stacks = {"0,0": "NNN", "1,0": "NNR"}
    tiles = {**stacks, "2,0": "", "5,5": ""}
    pos = position(tiles, stock=1, snapshots=[stacks, None])
    assert load(pos).result == (0, 3)
    assert load({**pos, "to_move": 1, "pawns": ["5,5", "0,0"]}).result is None  # Blue: none
    changed = position(tiles, stock=1, snapshots=[{"0,0": "NNN", "1,0": "NNB"}, None])
    assert load(changed).result is None

    full = {"repetition_compares_full_state": True}
    same = {"tiles": tiles, "pawns": ["0,0", "5,5"]}
    assert load(position(tiles, stock=1, snapshots=[same, None]), **full).result == (0, 3)
    moved = {"tiles": tiles, "pawns": ["2,0", "5,5"]}
    assert load(position(tiles, stock=1, snapshots=[moved, None]), **full).result is None


def test_condition_3_is_checked_before_condition_2() -> None:
    tiles = {"0,0": "NNN", "5,5": ""}
    state = load(position(tiles, snapshots=[{"0,0": "NNN"}, None]))
    assert state.result == (None, 3)
    assert load(position(tiles)).result == (1, 2)


DEAD_END_START = {"0,0": "NNN", "1,0": "NNN", "5,5": ""}
DEAD_END_CHOICE = {"0,0": "NNN", "1,0": "NN", "-1,0": "NNN", "-2,0": "NNN", "5,5": ""}


def test_condition_2_mid_turn_under_the_literal_rule() -> None:
    state = load(position(DEAD_END_START))
    assert legal(state) == ["P-E"]
    state.apply_move("P-E")
    assert state.result == (1, 2)
    assert state.done == 1
    assert state.to_json()["done"] == 1

    state = load(position(DEAD_END_CHOICE))
    assert legal(state) == ["P-E", "P-W", "C-E"]
    state.apply_move("P-E")
    assert state.result == (1, 2)


def test_filter_dead_ends_removes_actions_that_cannot_complete_the_turn() -> None:
    state = load(position(DEAD_END_CHOICE), filter_dead_ends=True)
    assert legal(state) == ["P-W", "C-E"]
    with pytest.raises(IllegalActionError, match="filter_dead_ends"):
        state.apply_move("P-E")
    state.apply_move("P-W")
    assert legal(state) == ["P-W"]


def test_filter_dead_ends_loses_at_turn_start_without_a_complete_turn() -> None:
    state = load(position(DEAD_END_START), filter_dead_ends=True)
    assert state.result == (1, 2)
    assert state.done == 0
    assert legal(state) == []


def test_turn_limit_guard_ends_an_endless_game_scored_like_repetition() -> None:
    g = game(turn_limit=4, repetition_compares_full_state=True)
    assert g.max_game_length == 8
    state = g.state_from_json(position({**TRIANGLES, "1,0": "NNR"}))
    for move in SHUFFLE * 2 + ["P-NE", "P-W"]:
        state.apply_move(move)
    assert not state.is_terminal()
    state.apply_move("P-NE")
    state.apply_move("P-W")
    assert state.turns_played == 4
    assert state.result == (0, 4)
    assert state.to_json()["result"] == {"winner": 0, "condition": 4}
    again = g.state_from_json(state.to_json())
    assert again.result == (0, 4)


# ----- rejected actions ----------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, 2, 4, 7, 8, 9, 10, 12, -1, 99])
def test_illegal_action_raises_and_changes_nothing(bad: int) -> None:
    # S2's position: every kind of illegal action (height, blank with empty stock, chip onto
    # 3-high, out of range) is tried.
    state = load(
        position({"0,0": "NN", "1,0": "", "0,1": "N", "-1,0": "NNR", "1,-1": "NNN", "5,5": ""})
    )
    assert bad not in state.legal_actions()
    before = (state.to_json(), state.legal_actions(), state.history(), state.render())
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(bad)
    assert str(info.value)
    assert (state.to_json(), state.legal_actions(), state.history(), state.render()) == before


def test_illegal_notation_and_finished_game_are_rejected() -> None:
    state = load(position({"0,0": "", "1,0": "", "5,5": ""}))
    with pytest.raises(IllegalActionError, match="legal moves: P-E"):
        state.apply_move("P-X")
    with pytest.raises(IllegalActionError, match=r"C-E is not legal here: .*no chip"):
        state.apply_move("C-E")
    over = load(position(DEAD_END_START))
    over.apply_move("P-E")
    before = over.to_json()
    with pytest.raises(IllegalActionError, match="game is over"):
        over.apply_action(0)
    assert over.to_json() == before


def test_the_rules_allow_endless_games_which_the_turn_limit_ends() -> None:
    # Red moves a chip back and forth between two stacks and follows it with its pawn; Blue
    # walks around a triangle of 3-high stacks. The stacks alternate between two states, so
    # they never equal those of the same player's previous turn start: condition 3 never
    # fires, nobody gets 3 stacks, nobody is stuck.
    tiles = {"0,0": "NNN", "1,0": "NN", "5,5": "NNN", "6,5": "NNN", "5,6": "NNN"}
    red = [["C-E", "P-E"], ["C-W", "P-W"]]
    blue = [["P-E", "P-SW"], ["P-NE", "P-W"]]
    for limit, turns in ((1000, 300), (40, 20)):
        state = load(position(tiles), turn_limit=limit)
        for turn in range(turns):
            for move in red[turn % 2] + blue[turn % 2]:
                state.apply_move(move)
        if limit == 1000:
            assert not state.is_terminal()
            assert state.turns_played == 600
        else:
            assert state.result == (None, 4)  # 0 stacks each: a draw
            assert state.turns_played == 40
