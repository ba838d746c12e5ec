# ruff: noqa: E501  (the scenario blocks are copied verbatim from the spec, one line each)
"""Every test scenario of the Proteus spec (§13), one test each, run under the ruleset(s) it
names. Where the spec says "the kadon result is the same", the seed block is replayed with
``rules=kadon`` too. The blocks are copied verbatim from the spec; ``run_block`` interprets the
§13.1 line format."""

from __future__ import annotations

import json

import pytest

import boardplay
from boardplay.core.errors import PositionError
from boardplay.games.proteus.state import ProteusState

BOTH = ["seed", "kadon"]


def run_block(block: str, rules: str | None = None) -> ProteusState | None:
    """Play one scenario block; ``rules`` overrides the block's ``rules=`` option."""
    options: dict[str, str] = {}
    state: ProteusState | None = None
    rejected: PositionError | None = None
    for raw in block.strip().splitlines():
        key, _, value = raw.partition(": ")
        if key == "options":
            options = dict(item.split("=") for item in value.split())
            if rules is not None:
                options["rules"] = rules
        elif key == "position":
            game = boardplay.load("proteus", **options)
            try:
                loaded = game.state_from_json(json.loads(value))
            except PositionError as exc:
                rejected = exc
                continue
            assert isinstance(loaded, ProteusState)
            state = loaded
        elif key == "load":
            assert value == "rejected" and rejected is not None, "position should be rejected"
            return None
        else:
            assert state is not None, f"no state for line {raw!r}"
            check(state, key, value)
    return state


def check(state: ProteusState, key: str, value: str) -> None:
    legal = state.legal_moves()
    if key == "legal":
        assert sorted(legal) == sorted(value.split())
    elif key == "legal-count":
        assert len(legal) == int(value), legal
    elif key == "includes":
        assert set(value.split()) <= set(legal)
    elif key == "excludes":
        assert not set(value.split()) & set(legal)
    elif key == "play":
        state.apply_move(value)
    elif key == "expect":
        assert state.to_json() == json.loads(value)
    elif key == "expect-board":
        assert state.to_json()["board"] == json.loads(value)
    elif key == "result":
        assert state.outcome == value
    elif key == "all-results":
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            assert child.outcome == value, state.action_to_string(action)
    else:
        raise AssertionError(f"unknown scenario line {key!r}")


S1_0 = """
options: rules=seed
position: {"board": {}, "to_move": 0}
legal-count: 81
includes: Rc@a1 Yt@c3
excludes: c@a1 pass
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s1_opening_only_tile_placements(rules: str) -> None:
    """S1 — Opening: only tile placements"""
    run_block(S1_0, rules)


S2_0 = """
options: rules=seed
position: {"board": {"a1": "Rc", "b2": "BsXc"}, "to_move": 1}
legal-count: 52
includes: c@a1 s@a1 t@a1 Rs@a2 Yt@c3
excludes: s@c3 c@b2 Yc@a1 Yc@b2
play: c@a1
expect: {"board": {"a1": "Rc*Oc", "b2": "BsXc"}, "to_move": 0}
result: ongoing
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s2_piece_and_tile_placement_targets(rules: str) -> None:
    """S2 — Piece and tile placement targets"""
    run_block(S2_0, rules)


S3_0 = """
options: rules=seed
position: {"board": {"a1": "Rc", "b1": "Rs"}, "to_move": 0}
legal-count: 55
play: c@a1
expect: {"board": {"a1": "Rc*Xc", "b1": "Rs"}, "to_move": 1}
result: ongoing
legal-count: 52
includes: c@b1 s@b1 t@b1
play: s@b1
expect: {"board": {"a1": "Rc*Xc", "b1": "RsOs"}, "to_move": 0}
result: ongoing
"""

S3_1 = """
options: rules=kadon
position: {"board": {"a1": "Rc", "b1": "Rs"}, "to_move": 0}
legal-count: 55
play: c@a1
expect: {"board": {"a1": "Rc*Xc", "b1": "Rs"}, "to_move": 1}
result: ongoing
legal-count: 51
includes: c@b1 t@b1
excludes: s@b1
"""


def test_s3_placement_activation_then_second_match() -> None:
    """S3 — Placement activation, then a second matching placement on the same colour"""
    run_block(S3_0)
    run_block(S3_1)


S4_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "BcXs", "b3": "Yc", "c1": "Rt", "c2": "BtOc", "c3": "Ys"}, "to_move": 0}
legal: pass
play: pass
expect: {"board": {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "BcXs", "b3": "Yc", "c1": "Rt", "c2": "BtOc", "c3": "Ys"}, "to_move": 1, "passes": 1}
result: ongoing
legal: t@b1 t@b3 t@c1 t@c3
play: t@c1
expect: {"board": {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "BcXs", "b3": "Yc", "c1": "RtOt", "c2": "BtOc", "c3": "Ys"}, "to_move": 0}
result: ongoing
"""

S4_1 = """
options: rules=kadon
position: {"board": {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "BcXs", "b3": "Yc", "c1": "Rt", "c2": "BtOc", "c3": "Ys"}, "to_move": 0}
legal: pass
play: pass
expect: {"board": {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "Rs", "b2": "BcXs", "b3": "Yc", "c1": "Rt", "c2": "BtOc", "c3": "Ys"}, "to_move": 1, "passes": 1}
result: ongoing
legal: t@b1 t@b3 t@c3
play: t@b1
expect: {"board": {"a1": "Rc*Xc", "a2": "Bs*Os", "a3": "Yt*Xt", "b1": "RsOt", "b2": "BcXs", "b3": "Yc", "c1": "Rt", "c2": "BtOc", "c3": "Ys"}, "to_move": 0}
result: ongoing
"""


def test_s4_forced_pass_in_placement() -> None:
    """S4 — Forced pass in the placement phase"""
    run_block(S4_0)
    run_block(S4_1)


S5_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtXs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 0}
legal: b2-a3 b2-c2 b2-c3 c1-c2 a1~a2 a1~b1 a1~b3 a2~b2 a2~c1 b1~b2 b1~c1 b2~b3 b3~c1
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s5_legal_action_count_in_p0(rules: str) -> None:
    """S5 — Legal action count in P0"""
    run_block(S5_0, rules)


S6_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtXs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 0}
play: b2-a3
expect: {"board": {"a1": "RcXc", "a2": "BsOt", "a3": "Rs*Xs", "b1": "Bc*Oc", "b2": "Rt", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 1}
result: ongoing
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s6_deactivation_while_old_tile_occupied(rules: str) -> None:
    """S6 — Deactivation while the old tile is still occupied (P0)"""
    run_block(S6_0, rules)


S7_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtXs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 0}
play: a2~b2
expect: {"board": {"a1": "RcXc", "a2": "Rt*Ot", "a3": "Rs", "b1": "BcOc", "b2": "Bs*Xs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 1}
result: ongoing
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s7_two_activations_of_different_colours(rules: str) -> None:
    """S7 — Two activations of different colours in one trade (P0)"""
    run_block(S7_0, rules)


S8_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "Yc", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtOs", "b3": "BsOt", "c1": "Yt*Xt", "c2": "Ys", "c3": "BtXs"}, "to_move": 0}
legal: a1-a2 c1-c2 c3-c2 a1~b1 a1~b2 a1~b3 b1~c1 b1~c3 b2~c1 b2~c3 b3~c1 b3~c3
play: a1-a2
expect-board: {"a1": "Rc*", "a2": "Yc*Xc", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtOs", "b3": "BsOt", "c1": "YtXt", "c2": "Ys", "c3": "BtXs"}
result: white-wins
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s8_mover_hands_win_to_opponent(rules: str) -> None:
    """S8 — The mover hands the win to the opponent"""
    run_block(S8_0, rules)


S9_0 = """
options: rules=seed
position: {"board": {"a1": "Rc", "a2": "Yc*Xs", "a3": "Rs", "b1": "BcXt", "b2": "Rt*Oc", "b3": "Bs*Ot", "c1": "YtOs", "c2": "YsXc", "c3": "Bt"}, "to_move": 0}
legal: a2-c3 b1-a3 b1-c3 c2-a1 c2-a3 a1~a3 a1~b2 a2~c1 a2~c2 a3~b2 b1~b3 b1~c3 b3~c3 c1~c2
excludes: a1~b1
"""

S9_1 = """
options: rules=seed
position: {"board": {"a1": "Rc", "a2": "Yc*Xs", "a3": "Rs", "b1": "BcXt", "b2": "Rt*Oc", "b3": "BsOt", "c1": "YtOs", "c2": "YsXc", "c3": "Bt*"}, "to_move": 0}
legal: a2-c3 b1-a3 b1-c3 c2-a1 c2-a3 a1~a2 a1~b1 a2~b1 a3~b3 a3~c2 b2~c1 b2~c3 b3~c2 c1~c3
"""

S9_2 = """
options: rules=seed
position: {"board": {"a1": "Rc", "a2": "Yc*Xs", "a3": "Rs", "b1": "Bc*Xt", "b2": "Rt*Oc", "b3": "BsOt", "c1": "YtOs", "c2": "YsXc", "c3": "Bt"}, "to_move": 0}
legal: a2-c3 b1-a3 b1-c3 c2-a1 c2-a3 a2~b2 a2~b3 a2~c1 b1~b2 b1~b3 b1~c1 b2~c2 b3~c2 c1~c2
excludes: a2~b1 a1~b2
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s9_trade_legality_under_three_trade_rules(rules: str) -> None:
    """S9 — Trade legality under the three TRADE rules"""
    run_block(S9_0, rules)
    run_block(S9_1, rules)
    run_block(S9_2, rules)


S10_0 = """
options: rules=seed
position: {"board": {"a1": "RcXt", "a2": "YcOs", "a3": "Rs*", "b1": "Bc", "b2": "RtXs", "b3": "Bs*Oc", "c1": "Yt", "c2": "Ys*Ot", "c3": "BtXc"}, "to_move": 0}
legal: a1-a3 a1-b1 a1-c1 b2-b1 c3-a3 c3-c1 a1~a3 a1~b2 a2~c1 a2~c2 a3~b2 b1~b3 b1~c3 b3~c3 c1~c2
"""

S10_1 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xt", "a2": "YcOs", "a3": "Rs", "b1": "Bc", "b2": "RtXs", "b3": "Bs*Oc", "c1": "Yt", "c2": "Ys*Ot", "c3": "BtXc"}, "to_move": 0}
legal: a1-b1 b2-a3 b2-b1 b2-c1 a1~a3 a1~b2 a2~c1 a2~c2 a3~b2 b1~b3 b1~c3 b3~c3 c1~c2
excludes: a1-a3
"""

S10_2 = """
options: rules=seed
position: {"board": {"a1": "RcXt", "a2": "YcOs", "a3": "Rs", "b1": "Bc", "b2": "Rt*Xs", "b3": "Bs*Oc", "c1": "Yt", "c2": "Ys*Ot", "c3": "BtXc"}, "to_move": 0}
legal: b2-a3 b2-c1 c3-b1 a1~a3 a1~b2 a2~c1 a2~c2 a3~b2 b1~b3 b1~c3 b3~c3 c1~c2
"""

S10_3 = """
options: rules=seed
position: {"board": {"a1": "RcOt", "a2": "Yc", "a3": "RsXt", "b1": "BcXs", "b2": "Rt*Xc", "b3": "Bs*Oc", "c1": "YtOs", "c2": "Ys*", "c3": "Bt"}, "to_move": 0}
legal: a3-c2 b1-a2 b1-c2 b1-c3 b2-c3 a1~a3 a1~b2 a2~c1 a2~c2 a3~b2 b1~b3 b1~c3 b3~c3 c1~c2
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s10_move_geometry(rules: str) -> None:
    """S10 — Move geometry: KING never leaps; ROOK and BISHOP/KNIGHT may"""
    run_block(S10_0, rules)
    run_block(S10_1, rules)
    run_block(S10_2, rules)
    run_block(S10_3, rules)


S11_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "RsOt", "b1": "Bs", "b2": "BcXt", "c2": "Ys"}, "to_move": 0}
legal: Rt@a3 Rt@b3 Rt@c1 Rt@c3 Bt@a3 Bt@b3 Bt@c1 Bt@c3 Yc@a3 Yc@b3 Yc@c1 Yc@c3 Yt@a3 Yt@b3 Yt@c1 Yt@c3 s@b1 s@c2
play: Yt@c1
expect: {"board": {"a1": "Rc*Xc", "a2": "RsOt", "b1": "Bs", "b2": "BcXt", "c1": "Yt", "c2": "Ys"}, "to_move": 1}
result: ongoing
legal: s@b1 s@c2
play: s@c2
expect: {"board": {"a1": "Rc*Xc", "a2": "RsOt", "b1": "Bs", "b2": "BcXt", "c1": "Yt", "c2": "Ys*Os"}, "to_move": 0}
result: ongoing
"""

S11_1 = """
options: rules=kadon
position: {"board": {"a1": "Rc*Xc", "a2": "RsOt", "b1": "Bs", "b2": "BcXt", "c2": "Ys"}, "to_move": 0}
legal-count: 18
play: Yt@c1
expect: {"board": {"a1": "Rc*Xc", "a2": "RsOt", "b1": "Bs", "b2": "BcXt", "c1": "Yt", "c2": "Ys"}, "to_move": 1}
result: ongoing
legal: Rt@a3 Rt@b3 Rt@c3 Bt@a3 Bt@b3 Bt@c3 Yc@a3 Yc@b3 Yc@c3 c@c1 s@c1 s@b1 s@c2
"""


def test_s11_forcing_window_in_placement() -> None:
    """S11 — Forcing window in the placement phase (seed)"""
    run_block(S11_0)
    run_block(S11_1)


S12_0 = """
options: rules=seed
position: {"board": {"a1": "Yc*Xc", "a2": "YsOc", "b1": "Rs", "b2": "RtXs", "c3": "Bc"}, "to_move": 0}
legal: Rc@a3 Rc@b3 Rc@c1 Rc@c2 Bs@a3 Bs@b3 Bs@c1 Bs@c2 Bt@a3 Bt@b3 Bt@c1 Bt@c2 Yt@a3 Yt@b3 Yt@c1 Yt@c2 t@b1 t@c3
play: t@c3
expect: {"board": {"a1": "Yc*Xc", "a2": "YsOc", "b1": "Rs", "b2": "RtXs", "c3": "BcXt"}, "to_move": 1}
result: ongoing
legal: s@b1
play: s@b1
expect: {"board": {"a1": "Yc*Xc", "a2": "YsOc", "b1": "Rs*Os", "b2": "RtXs", "c3": "BcXt"}, "to_move": 0}
result: ongoing
"""

S12_1 = """
options: rules=kadon
position: {"board": {"a1": "Yc*Xc", "a2": "YsOc", "b1": "Rs", "b2": "RtXs", "c3": "Bc"}, "to_move": 0}
legal: Rc@a3 Rc@b3 Rc@c1 Rc@c2 Bs@a3 Bs@b3 Bs@c1 Bs@c2 Bt@a3 Bt@b3 Bt@c1 Bt@c2 Yt@a3 Yt@b3 Yt@c1 Yt@c2 t@c3
play: t@c3
expect-board: {"a1": "Yc*Xc", "a2": "YsOc", "b1": "Rs", "b2": "RtXs", "c3": "BcXt"}
result: black-wins
"""


def test_s12_no_win_during_placement_seed() -> None:
    """S12 — No win during placement (seed); the same move wins under kadon"""
    run_block(S12_0)
    run_block(S12_1)


S13_0 = """
options: rules=seed
position: {"board": {"a1": "Rc", "a2": "YcXt", "a3": "Rs*Xs", "b1": "BcOs", "b2": "RtXc", "b3": "Bs", "c1": "Yt*Ot", "c2": "YsOc", "c3": "Bt"}, "to_move": 1}
legal: b1-b3 c1-c3
play: c1-c3
expect: {"board": {"a1": "Rc", "a2": "YcXt", "a3": "Rs*Xs", "b1": "BcOs", "b2": "RtXc", "b3": "Bs", "c1": "Yt*", "c2": "YsOc", "c3": "Bt*Ot"}, "to_move": 0}
result: ongoing
"""

S13_1 = """
options: rules=kadon
position: {"board": {"a1": "Rc", "a2": "YcXt", "a3": "Rs*Xs", "b1": "BcOs", "b2": "RtXc", "b3": "Bs", "c1": "Yt*Ot", "c2": "YsOc", "c3": "Bt"}, "to_move": 1}
legal: b1-a1 b1-b3 c1-a1 c1-c3 c2-c3
"""


def test_s13_forcing_in_movement() -> None:
    """S13 — Forcing in the movement phase (seed)"""
    run_block(S13_0)
    run_block(S13_1)


S14_0 = """
options: rules=seed
position: {"board": {"a1": "RcOt", "a2": "Yc*Xc", "a3": "RsOc", "b1": "BcOs", "b2": "RtXs", "b3": "BsXt", "c1": "Yt", "c2": "Ys", "c3": "Bt"}, "to_move": 1}
legal: pass
play: pass
expect: {"board": {"a1": "RcOt", "a2": "Yc*Xc", "a3": "RsOc", "b1": "BcOs", "b2": "RtXs", "b3": "BsXt", "c1": "Yt", "c2": "Ys", "c3": "Bt"}, "to_move": 0, "passes": 1}
result: ongoing
legal: pass
play: pass
expect-board: {"a1": "RcOt", "a2": "Yc*Xc", "a3": "RsOc", "b1": "BcOs", "b2": "RtXs", "b3": "BsXt", "c1": "Yt", "c2": "Ys", "c3": "Bt"}
result: draw
"""

S14_1 = """
options: rules=kadon
position: {"board": {"a1": "RcOt", "a2": "Yc*Xc", "a3": "RsOc", "b1": "BcOs", "b2": "RtXs", "b3": "BsXt", "c1": "Yt", "c2": "Ys", "c3": "Bt"}, "to_move": 1}
result: draw
"""


def test_s14_pass_and_double_pass_draw() -> None:
    """S14 — Pass and draw by double pass (seed)"""
    run_block(S14_0)
    run_block(S14_1)


S15_0 = """
options: rules=seed
position: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtXs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 0}
play: b2~b3
expect: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "YcXs", "b3": "RtOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 1}
result: ongoing
legal-count: 14
includes: b2~b3
"""

S15_1 = """
options: rules=seed repetition=forbid
position: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtXs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 0}
play: b2~b3
expect: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "YcXs", "b3": "RtOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 1}
result: ongoing
legal-count: 13
excludes: b2~b3
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s15_repetition_forbid(rules: str) -> None:
    """S15 — Option repetition=forbid."""
    run_block(S15_0, rules)
    run_block(S15_1, rules)


S16_0 = """
options: rules=seed max_turns=1
position: {"board": {"a1": "Rc*Xc", "a2": "BsOt", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtXs", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}, "to_move": 0}
play: b2-a3
expect-board: {"a1": "RcXc", "a2": "BsOt", "a3": "Rs*Xs", "b1": "Bc*Oc", "b2": "Rt", "b3": "YcOs", "c1": "Yt*Xt", "c2": "Ys", "c3": "Bt"}
result: draw
"""

S16_1 = """
options: rules=seed max_turns=1
position: {"board": {"a1": "Rc*Xc", "a2": "Yc", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtOs", "b3": "BsOt", "c1": "Yt*Xt", "c2": "Ys", "c3": "BtXs"}, "to_move": 0}
play: a1-a2
expect-board: {"a1": "Rc*", "a2": "Yc*Xc", "a3": "Rs", "b1": "Bc*Oc", "b2": "RtOs", "b3": "BsOt", "c1": "YtXt", "c2": "Ys", "c3": "BtXs"}
result: white-wins
"""


@pytest.mark.parametrize("rules", BOTH)
def test_s16_max_turns(rules: str) -> None:
    """S16 — Option max_turns"""
    run_block(S16_0, rules)
    run_block(S16_1, rules)
