"""One test per rule of the spec (§2-§10), beyond the §15 scenarios."""

from __future__ import annotations

import copy
import random

import pytest
from passtally_fixtures import (
    FULL_BOARD,
    LAST_TILE,
    S1,
    S3,
    S6,
    game,
    load,
    play,
    probabilities,
)

import boardplay
from boardplay.core.errors import IllegalActionError, OptionError
from boardplay.core.game import CHANCE
from boardplay.games.passtally.fields import FACE
from boardplay.games.passtally.layout import NUM_ACTIONS
from boardplay.games.passtally.tables import (
    CELL_INDEX,
    DESIGNS,
    EDGE_SLOT,
    PARTNER,
    SLOT_CELL,
    SLOT_FACE,
    SYMMETRIC,
    vp_for_passes,
)


def after_setup(players: int, seed: int = 0, **options: object):
    """A state right after random reveals and a legal random setup."""
    state = game(players=players, **options).new_initial_state()
    rng = random.Random(seed)
    while state.setup:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


# ----- §2 components and geometry ------------------------------------------------------------
def test_every_half_shape_is_a_perfect_matching() -> None:
    for shape in range(3):
        pairs = [PARTNER[shape * 4 + f] for f in range(4)]
        assert sorted(pairs) == [0, 1, 2, 3]
        assert all(PARTNER[shape * 4 + pairs[f]] == f and pairs[f] != f for f in range(4))


def test_slots_match_the_spec_table() -> None:
    expected = {0: "a1N", 5: "f1N", 6: "f1E", 11: "f6E", 12: "f6S", 17: "a6S", 18: "a6W", 23: "a1W"}
    for slot, text in expected.items():
        assert SLOT_CELL[slot] == CELL_INDEX[text[:2]]
        assert "NESW"[SLOT_FACE[slot]] == text[2]
        assert EDGE_SLOT[SLOT_CELL[slot] * 4 + SLOT_FACE[slot]] == slot


def test_strands_of_each_design_match_the_spec() -> None:
    """Follow every outer port of each design laid alone on b3 E through the tile (across the
    seam at most once) and compare the strands with the table of §2.3."""
    b3, c3 = CELL_INDEX["b3"], CELL_INDEX["c3"]
    ports = {1: (b3, 0), 2: (c3, 0), 3: (c3, 1), 4: (c3, 2), 5: (b3, 2), 6: (b3, 3)}
    port_of = {cell_face: port for port, cell_face in ports.items()}
    strands = {
        "XX": {(1, 5), (2, 4), (3, 6)},
        "XNE": {(1, 5), (4, 6), (2, 3)},
        "XNW": {(1, 5), (2, 6), (3, 4)},
        "NENE": {(1, 4), (5, 6), (2, 3)},
        "NWNW": {(1, 6), (2, 5), (3, 4)},
        "NENW": {(1, 2), (5, 6), (3, 4)},
    }
    for design, expected in strands.items():
        position = copy.deepcopy(S1)
        position["placements"] = [[design, "b3", "E"]]
        position["piles"] = [{"face_up": "XX", "hidden": 12}, *S1["piles"][1:]]
        state = load(position)
        found = set()
        for port, (cell, face) in ports.items():
            out = PARTNER[state.shape[cell] * 4 + face]
            if (cell, out) in ((b3, 1), (c3, 3)):  # across the seam into the other half
                cell = c3 if cell == b3 else b3
                out = PARTNER[state.shape[cell] * 4 + (out ^ 2)]
            found.add(tuple(sorted((port, port_of[(cell, out)]))))
        assert found == expected, design


def test_symmetric_designs_are_xx_nene_nwnw() -> None:
    assert [d for d, sym in zip(DESIGNS, SYMMETRIC, strict=True) if sym] == ["XX", "NENE", "NWNW"]


# ----- §3 setup -------------------------------------------------------------------------------
def test_initial_reveals_come_first_in_pile_order() -> None:
    state = game().new_initial_state()
    for pile in "ABC":
        assert state.current_player() == CHANCE
        assert all(t.startswith(f"{pile}=") for t in state.legal_moves())
        state.apply_move(f"{pile}=XX")
    assert state.current_player() == 0 and state.setup
    assert len(state.legal_actions()) == 24


def test_setup_snake_order_two_players() -> None:
    state = play(game().new_initial_state(), "A=XX", "B=XX", "C=XX")
    placers = []
    for slot in ["@0", "@1", "@12", "@13", "@6", "@7", "@18", "@19"]:
        placers.append(state.current_player())
        state.apply_move(slot)
    assert placers == [0, 1, 1, 0, 0, 1, 1, 0]
    assert not state.setup and state.current_player() == 0 and state.actions_left == 2


def test_setup_second_pass_uses_the_opposite_side() -> None:
    state = play(game().new_initial_state(), "A=XX", "B=XX", "C=XX", "@8", "@9")
    assert state.legal_actions() == list(range(18, 24))
    with pytest.raises(IllegalActionError, match="W side"):
        state.apply_move("@3")


def test_setup_third_pass_offers_both_unused_sides() -> None:
    state = play(game().new_initial_state(), "A=XX", "B=XX", "C=XX", "@8", "@9", "@20", "@21")
    assert state.legal_actions() == list(range(0, 6)) + list(range(12, 18))
    play(state, "@14")
    assert state.legal_actions() == [12, 13, 15, 16, 17]


def test_setup_gives_each_player_one_marker_per_side() -> None:
    for players in (2, 3):
        state = after_setup(players, seed=players)
        for seat in range(players):
            assert sorted(s // 6 for s in range(24) if state.ring[s] == seat) == [0, 1, 2, 3]


# ----- §4 turn --------------------------------------------------------------------------------
def test_a_turn_is_exactly_two_actions() -> None:
    state = load(S1)
    play(state, "m2+1")
    assert state.current_player() == 0 and state.actions_left == 1
    play(state, "m3+1")
    assert state.current_player() == 1 and state.actions_left == 2


def test_the_same_marker_may_move_twice() -> None:
    state = play(load(S1), "m2+1", "m3+1")
    assert state.ring[5] == 0 and state.ring[2] == -1


def test_the_freshly_revealed_tile_may_be_taken_at_once() -> None:
    state = play(load(S1), "A:a1E", "A=NWNW")
    assert "A:a3E" in state.legal_moves()
    play(state, "A:a3E")
    assert state.placements[-1][0] == DESIGNS.index("NWNW")


def test_reveal_keeps_the_placing_player_to_move() -> None:
    state = play(load(S1), "m2+1", "A:b3E")
    assert state.current_player() == CHANCE
    assert state.to_json()["to_move"] == 0 and state.to_json()["actions_left"] == 0
    play(state, "A=XX")
    assert state.current_player() == 1  # the turn ended after the reveal


# ----- §5 placement ---------------------------------------------------------------------------
def test_no_height_cap_and_no_adjacency_needed() -> None:
    state = load(S6)  # XX on a1-b1
    play(state, "A:e5E", "A=XX", "m2+1")  # far from the other tile: fine
    play(state, "A:a2E", "A=XX", "A:a1S", "A=XX")  # P2: level 2 on a1-a2 across two tiles
    play(state, "A:b1S", "A=XX")  # P1: level 2 on b1-b2
    play(state, "A:a1E", "A=XX")  # level 3 across the two level-2 tiles
    assert state.height[CELL_INDEX["a1"]] == 3 and state.height[CELL_INDEX["b1"]] == 3
    assert state.height[CELL_INDEX["e5"]] == 1


def test_placement_actions_per_footprint_depend_on_symmetry() -> None:
    state = load(S1)  # piles show XX (symmetric), NENW and XNE (asymmetric)
    footprints = len(state.legal_footprints())
    legal = state.legal_moves()
    assert sum(m.startswith("A:") for m in legal) == footprints
    assert sum(m.startswith("B:") for m in legal) == 2 * footprints
    assert "B:c3W" in legal and "B:b3E" in legal  # different boards for NENW


def test_symmetric_other_spelling_is_normalised() -> None:
    state = load(S1)
    assert state.string_to_action("A:c3W") == state.string_to_action("A:b3E")
    assert state.string_to_action("A:b4N") == state.string_to_action("A:b3S")
    non_canonical = state.string_to_action("B:c3W") + 0  # asymmetric: its own action
    assert state.action_to_string(non_canonical) == "B:c3W"
    from boardplay.games.passtally.tables import place_id

    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"written A:b3E"):
        state.apply_action(place_id(0, CELL_INDEX["c3"], 2))
    assert state.to_json() == before


def test_placement_sets_level_shapes_and_top_tile() -> None:
    state = play(load(S6), "B:c1S")  # NENW vertical on c1-c2 over bare cells
    b1, b2 = CELL_INDEX["c1"], CELL_INDEX["c2"]
    assert state.height[b1] == state.height[b2] == 1
    assert state.tid[b1] == state.tid[b2] == 1
    assert (state.shape[b1], state.shape[b2]) == (2, 1)  # NW, NE after a quarter turn


def test_empty_pile_cannot_be_used() -> None:
    state = play(load(S1), "A:b3E")
    clone = state.clone()
    # Pretend the reveal did not happen: pile A has no face-up tile.
    FACE.load(clone.kernel, {**FACE.snapshot(clone.kernel), "pending": -1})
    with pytest.raises(IllegalActionError, match="no face-up tile"):
        clone.apply_move("A:e5E")


# ----- §6 markers -----------------------------------------------------------------------------
def test_cannot_move_an_opponents_marker() -> None:
    state = load(S1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="only their own markers"):
        state.apply_action(state.string_to_action("m2+1") + 4 * 2)  # m4+1: P2's marker
    with pytest.raises(IllegalActionError, match="no marker"):
        state.apply_move("m0+1")
    assert state.to_json() == before


def test_default_moves_are_four_per_marker() -> None:
    state = after_setup(3, seed=5)
    moves = [m for m in state.legal_moves() if m.startswith("m")]
    assert len(moves) == 16


def test_jump_counts_as_step_can_block_a_marker() -> None:
    position = copy.deepcopy(S1)
    position["markers"] = {"0": 0, "1": 1, "2": 0, "3": 1, "4": 0, "5": 1, "6": 0, "7": 1}
    state = load(position, jump_counts_as_step=True)
    assert [m for m in state.legal_moves() if m.startswith("m")] == [
        "m0-1", "m0-2", "m6+2"
    ]  # fmt: skip
    assert len([m for m in load(position).legal_moves() if m.startswith("m")]) == 16


# ----- §7 scoring -----------------------------------------------------------------------------
def test_re_entering_a_tile_counts_again() -> None:
    position = copy.deepcopy(S1)
    position["placements"] = [["XX", "b2", "S"], ["NENW", "c3", "N"]]
    position["piles"] = [{"face_up": "XX", "hidden": 11}, *S1["piles"][1:]]
    state = load(position)
    # 22 -> a2 b2 (tile 0) c2 c3 (tile 1, one seam) b3 (tile 0 again) a3 -> 21
    assert state.trace(22) == (21, 3)


def test_both_strands_of_a_tile_on_one_line() -> None:
    position = copy.deepcopy(S1)
    position["placements"] = [["XNE", "b2", "N"], ["NENW", "c2", "N"]]
    position["piles"] = [{"face_up": "XX", "hidden": 11}, *S1["piles"][1:]]
    state = load(position)
    # 22 -> a2 b2 (tile 0) c2 c1 (tile 1) b1 (tile 0 again) b2 (seam: same tile) ... b6 -> 16
    assert state.trace(22) == (16, 3)
    cells = state.trace_cells(22)
    assert cells.count(CELL_INDEX["b2"]) == 2


def test_only_the_active_player_scores() -> None:
    position = copy.deepcopy(S3)
    position["to_move"] = 1  # P1 owns the complete line 23-6, but P2 is moving
    state = play(load(position), "m4+1", "m5-1")
    assert state.to_json()["scores"] == [0, 0]


def test_complete_lines_score_again_every_turn() -> None:
    state = play(load(S3), "m2+1", "m3-1", "m4+1", "m5-1", "m2+1", "m3-1")
    assert state.to_json()["scores"] == [2, 0]


def test_line_to_an_opponents_marker_scores_nothing() -> None:
    position = copy.deepcopy(S3)
    position["markers"] = {"2": 0, "4": 1, "6": 1, "10": 0, "16": 1, "20": 0, "21": 1, "23": 0}
    assert load(position).player_lines(0) == []


# ----- §8 end ---------------------------------------------------------------------------------
def test_fifty_points_triggers_the_final_round() -> None:
    position = copy.deepcopy(S3)
    position["scores"] = [49, 0]
    state = play(load(position), "m2+1", "m3-1")
    out = state.to_json()
    assert out["scores"] == [50, 0] and out.get("final_round") is True and out["to_move"] == 1
    play(state, "m4+1", "m5-1")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_final_round_ends_with_the_last_seat() -> None:
    position = copy.deepcopy(S3)
    position["players"] = 3
    position["markers"] = {**S3["markers"], "8": 2, "12": 2, "14": 2, "18": 2}
    position["scores"] = [49, 0, 0]
    state = play(load(position), "m2+1", "m3-1")  # P1 reaches 50
    assert state.final_round and state.current_player() == 1
    play(state, "m4+1", "m5-1")
    assert not state.is_terminal() and state.current_player() == 2
    play(state, "m8+1", "m9-1")
    assert state.is_terminal()


def test_no_placement_left_ends_the_game_at_once_after_the_turn() -> None:
    state = load(LAST_TILE)
    last = FULL_BOARD[41]
    play(state, f"A:{last[1]}{last[2]}")
    assert not state.any_placement() and state.current_player() == 1  # finishes the turn
    assert all(m.startswith("m") for m in state.legal_moves())
    play(state, "m1+1")
    assert state.is_terminal()  # P3 never moves: immediate end, not the final round
    assert state.end_reason() == "no legal placement left"


def _last_tile_with_a_p2_line() -> tuple[dict[str, object], str, int]:
    """LAST_TILE with P2's markers on both ends of the best line once the last tile is down
    (and on slots 22, 23, off that line); returns the position, the last placement and the
    VP that line is worth."""
    last = FULL_BOARD[41]
    move = f"A:{last[1]}{last[2]}"
    board = play(load(LAST_TILE), move)
    lo, hi, passes = max(board.lines(), key=lambda line: line[2])
    assert passes > 0
    others = [s for s in range(24) if s not in (lo, hi)]
    markers = {str(lo): 1, str(hi): 1}
    for index, slot in enumerate(others[:10]):
        markers[str(slot)] = (1, 1, 0, 0, 0, 0, 2, 2, 2, 2)[index]
    position = copy.deepcopy(LAST_TILE)
    position["markers"] = markers
    return position, move, vp_for_passes(passes)


def test_no_placement_left_without_finishing_the_turn() -> None:
    position, move, vp = _last_tile_with_a_p2_line()
    state = play(load(position, finish_turn_on_immediate_end=False), move)
    assert state.is_terminal()
    assert state.turn_score(1) >= vp > 0  # P2 would have scored...
    assert state.to_json()["scores"] == [0, 0, 0]  # ...but the game ended at the placement
    # By default P2 finishes the turn with a marker move and scores, then the game ends.
    finished = play(load(position), move)
    assert not finished.is_terminal() and finished.current_player() == 1
    keep_line = next(
        m
        for m in finished.legal_moves()
        if finished.player_lines(1) == play(finished.clone(), m).player_lines(1)
    )
    expected = finished.turn_score(1)
    play(finished, keep_line)
    assert finished.is_terminal()
    assert finished.to_json()["scores"] == [0, expected, 0]


def test_forfeit_when_no_action_is_left() -> None:
    position = copy.deepcopy(LAST_TILE)
    # P2 (seat 1) owns slots 2-5 inside a run of 12 occupied slots: every jump lands on a marker
    position["markers"] = {"0": 0, "1": 2, "2": 1, "3": 1, "4": 1, "5": 1, "6": 0, "7": 2,
                           "8": 0, "9": 2, "10": 0, "11": 2}  # fmt: skip
    state = load(position, jump_counts_as_step=True)
    last = FULL_BOARD[41]
    play(state, f"A:{last[1]}{last[2]}")
    assert state.is_terminal()  # the rest of the turn is forfeited, then the game ends


def test_max_turns_guard_ends_and_ranks_by_score() -> None:
    position = copy.deepcopy(S3)
    position["turns"] = 0
    state = play(load(position, max_turns=1), "m2+1", "m3-1")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    assert state.end_reason() == "turn limit (max_turns) reached"
    assert state.to_json()["turns"] == 1


def test_max_turns_none_plays_on() -> None:
    state = load(S1)
    for _ in range(30):
        play(state, next(m for m in state.legal_moves() if m.startswith("m")))
    assert not state.is_terminal()
    assert game().max_game_length >= 2**31 - 1


# ----- §9 chance ------------------------------------------------------------------------------
def test_impossible_reveal_is_illegal() -> None:
    position = copy.deepcopy(S1)
    position["placements"] = [["XX", "a1", "E"], ["XX", "a2", "E"], ["XX", "a3", "E"],
                              ["XX", "a4", "E"], ["XX", "a5", "E"], ["XX", "a6", "E"]]  # fmt: skip
    position["piles"] = [{"face_up": "XX", "hidden": 7}, *S1["piles"][1:]]
    state = play(load(position), "A:c1E")
    assert "A=XX" not in probabilities(state)
    assert sum(probabilities(state).values()) == pytest.approx(1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="no XX tile is left"):
        state.apply_move("A=XX")
    assert state.to_json() == before


# ----- §10 options ----------------------------------------------------------------------------
def test_options_and_errors() -> None:
    assert game().options == {
        "players": 2,
        "jump_counts_as_step": False,
        "ring_corners_continuous": True,
        "finish_turn_on_immediate_end": True,
        "turn_time_limit_s": None,
        "max_turns": None,
    }
    assert boardplay.load("passtally(players=3,max_turns=50)").num_players == 3
    with pytest.raises(OptionError, match="allowed: 2, 3"):
        boardplay.load("passtally", players=4)
    with pytest.raises(OptionError, match="its options are"):
        boardplay.load("passtally", board=7)
    with pytest.raises(OptionError):
        boardplay.load("passtally", turn_time_limit_s=0)


def test_turn_time_limit_has_no_rules_effect() -> None:
    timed = load(S1, turn_time_limit_s=60)
    assert timed.game.options["turn_time_limit_s"] == 60
    assert timed.legal_actions() == load(S1).legal_actions()


def test_action_space_and_game_attributes() -> None:
    g = game(players=3)
    assert g.num_distinct_actions == NUM_ACTIONS == 552
    assert g.max_chance_outcomes == 6
    assert (g.min_players, g.max_players) == (2, 3)
    assert g.bench_option_sets == ({"players": 2}, {"players": 3})
    assert game(max_turns=10).max_game_length == 42 + 8 + 20
    assert "Passtally" in g.rules_text()
