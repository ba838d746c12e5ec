"""The spec's §15 test scenarios, one test each (S1-S14)."""

from __future__ import annotations

import copy

import pytest
from passtally_fixtures import (
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
    load,
    play,
    probabilities,
    with_pile,
)

from boardplay.core.errors import IllegalActionError
from boardplay.core.game import CHANCE, TERMINAL
from boardplay.games.passtally.tables import CELL_NAMES, SLOT_CELL, vp_for_passes

FULL = {"XX": 7, "XNE": 7, "XNW": 7, "NENE": 7, "NWNW": 7, "NENW": 7}


def moves_from(state, slot: int) -> dict[str, int]:
    """Legal moves of the marker on ``slot`` -> destination slot."""
    out = {}
    for text in state.legal_moves():
        if text.startswith(f"m{slot}+") or text.startswith(f"m{slot}-"):
            after = state.clone()
            after.apply_move(text)
            (dest,) = [s for s in range(24) if after.ring[s] >= 0 and state.ring[s] < 0]
            out[text] = dest
    return out


def test_s1_bare_board_scores_zero() -> None:
    state = load(S1)
    assert state.trace(2) == (15, 0)
    assert [CELL_NAMES[c] for c in state.trace_cells(2)] == ["c1", "c2", "c3", "c4", "c5", "c6"]
    assert state.trace(7)[0] == 22 and state.ring[22] == -1
    assert state.trace(20)[0] == 9 and state.ring[9] == -1
    assert state.player_lines(0) == [(2, 15, 0)]
    assert state.turn_score(0) == 0
    play(state, "m7+1")
    assert state.ring[8] == 0 and state.actions_left == 1
    play(state, "m8-1")
    out = state.to_json()
    assert out["scores"] == [0, 0]
    assert out["to_move"] == 1 and out["actions_left"] == 2
    assert out["markers"] == S1["markers"]


def test_s2_single_tile() -> None:
    state = load(S1)
    play(state, "A:b3E")
    out = state.to_json()
    assert out["placements"] == [["XX", "b3", "E"]]
    assert out["piles"][0] == {"face_up": None, "hidden": 13}
    assert state.current_player() == CHANCE
    assert probabilities(state) == pytest.approx(
        with_pile("A", {"XX": 6, "XNE": 6, "XNW": 7, "NENE": 7, "NWNW": 7, "NENW": 6})
    )
    play(state, "A=NENW")
    assert state.to_json()["piles"][0] == {"face_up": "NENW", "hidden": 12}
    assert state.current_player() == 0 and state.actions_left == 1
    assert state.trace(2) == (15, 1)
    play(state, "m7-1")
    assert state.to_json() == {
        "players": 2,
        "placements": [["XX", "b3", "E"]],
        "markers": {"2": 0, "4": 1, "6": 0, "10": 1, "15": 0, "16": 1, "20": 0, "21": 1},
        "piles": [
            {"face_up": "NENW", "hidden": 12},
            {"face_up": "NENW", "hidden": 13},
            {"face_up": "XNE", "hidden": 13},
        ],
        "scores": [1, 0],
        "to_move": 1,
        "actions_left": 2,
    }


def test_s3_seam_counts_once() -> None:
    state = load(S3)
    assert state.trace(23) == (6, 1)
    assert [CELL_NAMES[c] for c in state.trace_cells(23)] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert state.player_lines(0) == [(6, 23, 1)]
    assert state.trace(2)[0] == 15 and state.ring[15] == -1
    play(state, "m2+1", "m3-1")
    assert state.to_json()["scores"] == [1, 0]
    assert state.to_json()["to_move"] == 1


def test_s4_sum_then_convert() -> None:
    state = load(S4)
    assert sorted(state.player_lines(0)) == [(6, 23, 2), (7, 22, 2)]
    assert state.turn_score(0) == 3  # VP(4), not VP(2) + VP(2) = 4
    play(state, "m7+1", "m8-1")
    assert state.to_json()["scores"] == [3, 0] and state.to_json()["to_move"] == 1


def test_s5_corner_curve() -> None:
    state = load(S5)
    assert state.trace(0) == (23, 1)
    assert state.trace_cells(0) == [SLOT_CELL[0]]
    assert state.player_lines(0) == [(0, 23, 1)]
    assert state.trace(8)[0] == 21 and state.trace(14)[0] == 3
    play(state, "m8+1", "m9-1")
    assert state.to_json()["scores"] == [1, 0] and state.to_json()["to_move"] == 1


def test_s6_support_rules() -> None:
    state = load(S6)
    for text in ["A:a1E", "A:b1W", "B:a1E", "A:a1S", "A:a2N", "C:a2N"]:
        before = state.to_json()
        assert text not in state.legal_moves()
        with pytest.raises(IllegalActionError):
            state.apply_move(text)
        assert state.to_json() == before
    play(state, "A:a2E")
    assert probabilities(state) == pytest.approx(
        with_pile("A", {"XX": 5, "XNE": 6, "XNW": 7, "NENE": 7, "NWNW": 7, "NENW": 6})
    )
    play(state, "A=XNW")
    legal = state.legal_moves()
    for text in ["B:a1S", "B:a2N", "B:b1S", "B:b2N"]:
        assert text in legal
    for text in ["B:a1E", "B:a2E", "B:b2W"]:
        assert text not in legal
        with pytest.raises(IllegalActionError, match="exactly on one tile"):
            state.clone().apply_move(text)
    play(state, "B:a1S")
    heights = {CELL_NAMES[c]: state.height[c] for c in range(36) if state.height[c]}
    assert heights == {"a1": 2, "a2": 2, "b1": 1, "b2": 1}
    assert state.placements[-1] == (5, 0, 1)  # NENW on a1-a2
    assert probabilities(state) == pytest.approx(
        with_pile("B", {"XX": 5, "XNE": 6, "XNW": 6, "NENE": 7, "NWNW": 7, "NENW": 6})
    )
    play(state, "B=NWNW")
    out = state.to_json()
    assert out["scores"] == [0, 0] and out["to_move"] == 1
    assert out["piles"] == [
        {"face_up": "XNW", "hidden": 11},
        {"face_up": "NWNW", "hidden": 12},
        {"face_up": "XNE", "hidden": 13},
    ]


def test_s7_off_the_board() -> None:
    state = load(S1)
    for text in ["A:f1E", "A:a1N", "A:a1W", "A:f6S", "B:f1E", "C:a6S"]:
        with pytest.raises(IllegalActionError, match="off the board"):
            state.clone().apply_move(text)
    legal = state.legal_moves()
    assert len([m for m in legal if m.startswith("A:")]) == 60
    assert len([m for m in legal if m.startswith("A:") and m.endswith("E")]) == 30
    assert len([m for m in legal if m.startswith("B:")]) == 120
    assert len([m for m in legal if m.startswith("C:")]) == 120
    assert len([m for m in legal if m.startswith("m")]) == 16
    assert len(legal) == 316


def test_s8_jumping_markers() -> None:
    state = load(S8)
    assert moves_from(state, 3) == {"m3+1": 5, "m3+2": 6, "m3-1": 2, "m3-2": 1}
    moved = copy.deepcopy(S8)
    moved["markers"] = {"3": 0, "4": 1, "6": 1, "11": 0, "14": 1, "15": 0, "18": 1, "19": 0}
    assert moves_from(load(moved), 3)["m3+2"] == 7
    stepping = load(S8, jump_counts_as_step=True)
    assert "m3+1" not in stepping.legal_moves()
    assert moves_from(stepping, 3)["m3+2"] == 5


def test_s9_round_the_corner() -> None:
    state = load(S9)
    assert moves_from(state, 5)["m5+1"] == 6
    assert moves_from(state, 5)["m5+2"] == 7
    assert moves_from(state, 0)["m0-1"] == 23
    assert moves_from(state, 0)["m0-2"] == 22
    cut = load(S9, ring_corners_continuous=False)
    for text in ["m5+1", "m5+2", "m0-1", "m0-2"]:
        assert text not in cut.legal_moves()
        with pytest.raises(IllegalActionError):
            cut.clone().apply_move(text)
    assert moves_from(cut, 5)["m5-1"] == 4
    assert moves_from(cut, 0)["m0+1"] == 1


def test_s10_one_pile_trigger() -> None:
    state = load(S10)
    play(state, "A:e5E")
    assert state.current_player() == 0  # no reveal: pile A had nothing face down
    assert state.to_json()["piles"][0] == {"face_up": None, "hidden": 0}
    play(state, "m9+1")
    out = state.to_json()
    assert out["final_round"] is True and out["to_move"] == 1 and out["scores"] == [2, 0]
    play(state, "m11+1", "m12-1")
    out = state.to_json()
    assert out["game_over"] is True and out["to_move"] is None and out["actions_left"] == 0
    assert out["scores"] == [2, 1]
    assert state.returns() == [1.0, 0.0]
    assert state.current_player() == TERMINAL


def test_s10_one_pile_trigger_on_last_seat() -> None:
    position = copy.deepcopy(S10)
    position["to_move"] = 1
    state = play(load(position), "A:e5E", "m11+1")
    out = state.to_json()
    assert out["game_over"] is True
    assert out["scores"] == [0, 1]
    assert state.returns() == [0.0, 1.0]


def test_s11_tie_two_players() -> None:
    state = load(S11_TWO)
    assert state.trace(8) == (13, 5)
    play(state, "m20+1", "m21-1")
    assert state.is_terminal()
    assert state.to_json()["scores"] == [48, 48]
    assert state.returns() == [1.0, 0.0]


def test_s11_tie_three_players() -> None:
    state = play(load(S11_THREE), "m20+1", "m21-1")
    assert state.is_terminal()
    assert state.to_json()["scores"] == [40, 47, 47]
    assert state.returns() == [0.0, 1.0, 0.0]


def test_s12_setup_order_three_players() -> None:
    state = load(S12_START)
    assert state.current_player() == CHANCE
    assert probabilities(state) == pytest.approx(with_pile("A", FULL))
    play(state, "A=XX")
    assert probabilities(state) == pytest.approx(with_pile("B", {**FULL, "XX": 6}))
    play(state, "B=NENW")
    assert probabilities(state) == pytest.approx(with_pile("C", {**FULL, "XX": 6, "NENW": 6}))
    play(state, "C=XNE")
    assert state.to_json()["piles"] == S12_END["piles"]
    placers = []

    def place(slot: str, seat: int, legal_count: int | None = None) -> None:
        assert state.current_player() == seat
        if legal_count is not None:
            assert len(state.legal_actions()) == legal_count
        placers.append(seat)
        play(state, slot)

    def rejected(slot: str) -> None:
        before = state.to_json()
        with pytest.raises(IllegalActionError):
            state.apply_move(slot)
        assert state.to_json() == before

    place("@1", 0, 24)
    rejected("@8")
    rejected("@1")
    place("@2", 1, 5)
    place("@4", 2, 4)
    place("@13", 2, 6)
    place("@14", 1)
    place("@16", 0)
    rejected("@3")
    place("@8", 0, 12)
    place("@9", 1)
    rejected("@9")
    place("@10", 2)
    place("@19", 2)
    place("@20", 1)
    place("@22", 0)
    assert state.to_json() == S12_END
    assert placers == [0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0]
    for seat in range(3):
        sides = sorted(s // 6 for s in range(24) if state.ring[s] == seat)
        assert sides == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("passes", "vp"),
    [
        (0, 0), (1, 1), (3, 2), (4, 3), (6, 3), (7, 4), (10, 4), (11, 5), (15, 5), (16, 6),
        (21, 6), (22, 7), (28, 7), (29, 8), (36, 8), (37, 9), (45, 9), (46, 10), (55, 10),
        (56, 15), (100, 15),
    ],
)  # fmt: skip
def test_s13_vp_table_boundaries(passes: int, vp: int) -> None:
    assert vp_for_passes(passes) == vp


def test_s13_rulebook_example() -> None:
    assert vp_for_passes(5 + 4) == 4


S14_LINES = [
    (0, 17, 5, "a1 a2 a3 b3 b4 a4 a5 a6"),
    (1, 22, 2, "b1 b2 a2"),
    (2, 14, 4, "c1 c2 c3 c4 d4 d5 d6"),
    (3, 23, 2, "d1 c1 b1 a1"),
    (4, 7, 6, "e1 f1 f2 e2 e3 e4 f4 f3 f2"),
    (5, 6, 1, "f1"),
    (8, 13, 4, "f3 e3 d3 d4 e4 e5 e6"),
    (9, 12, 1, "f4 f5 f6"),
    (10, 15, 3, "f5 e5 d5 c5 b5 b4 c4 c5 c6"),
    (11, 18, 0, "f6 e6 d6 c6 b6 a6"),
    (16, 19, 1, "b6 b5 a5"),
    (20, 21, 2, "a4 a3"),
]


def test_s14_traces_on_the_s10_board() -> None:
    state = load(S10)
    assert state.lines() == [(lo, hi, passes) for lo, hi, passes, _ in S14_LINES]
    for lo, hi, passes, cells in S14_LINES:
        assert " ".join(CELL_NAMES[c] for c in state.trace_cells(lo)) == cells
        assert state.trace(hi) == (lo, passes)
    play(state, "A:e5E")
    changed = {(lo, hi): p for lo, hi, p in state.lines()}
    for lo, hi, passes, _ in S14_LINES:
        expected = {(8, 13): 5, (9, 12): 2, (10, 15): 4}.get((lo, hi), passes)
        assert changed[(lo, hi)] == expected
    assert [c for lo, *_ in S14_LINES for c in state.trace_cells(lo)] == [
        c for lo, *_ in S14_LINES for c in load(S10).trace_cells(lo)
    ]


def test_s14_bare_board_pairs() -> None:
    state = load(S1)
    pairs = {(lo, hi) for lo, hi, _ in state.lines()}
    assert pairs == {(c, 17 - c) for c in range(6)} | {(6 + r, 23 - r) for r in range(6)}
    assert all(p == 0 for _, _, p in state.lines())
