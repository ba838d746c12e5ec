"""Invariant checks of the spec's §14, shared by the Passtally property tests."""

from __future__ import annotations

import random

import pytest

from boardplay.core.game import CHANCE, TERMINAL
from boardplay.games.passtally.layout import MOVE_BASE, NUM_DESIGNS, PLACE_BASE, PLACE_PER_PILE
from boardplay.games.passtally.state import PasstallyState
from boardplay.games.passtally.tables import (
    FOOTPRINTS,
    OTHER_CELL,
    PLACED_SHAPES,
    SYMMETRIC,
    vp_for_passes,
)


def check_state(state: PasstallyState) -> None:
    """Invariants that hold in every reachable state (§14 items 1-9, 12, 13, 15, 17)."""
    n = state.num_players
    placed = [0] * NUM_DESIGNS
    for design, _, _ in state.placements:
        placed[design] += 1
    face = [0] * NUM_DESIGNS
    for design in state.face_up:
        if design >= 0:
            face[design] += 1
    # 1. tile conservation: 42 = placed + face-up + hidden; 7 per design.
    assert len(state.placements) + sum(face) + sum(state.hidden) == 42
    for d in range(NUM_DESIGNS):
        assert placed[d] + face[d] + state.unrevealed[d] == 7 and state.unrevealed[d] >= 0
    assert sum(state.unrevealed) == sum(state.hidden)
    # 2. pile sizes; a face-up tile is missing only while awaiting a reveal or when exhausted.
    initial_reveals = state.setup and state.markers_placed() == 0
    for p in range(3):
        assert state.hidden[p] + (state.face_up[p] >= 0) <= 14
        if state.face_up[p] < 0 and state.hidden[p] > 0:
            assert state.pending == p or (initial_reveals and state.pending >= 0)
    # 3-4. heights and top tiles: rebuild the board from the placement list.
    height, tid, shape = [0] * 36, [-1] * 36, [0] * 36
    for index, (design, anchor, k) in enumerate(state.placements):
        other = OTHER_CELL[anchor * 4 + k]
        assert other >= 0 and height[anchor] == height[other]
        assert height[anchor] == 0 or tid[anchor] != tid[other]
        assert not (SYMMETRIC[design] and k >= 2)  # canonical spelling only
        for cell, half in zip((anchor, other), PLACED_SHAPES[design * 4 + k], strict=True):
            height[cell] += 1
            tid[cell] = index
            shape[cell] = half
    assert (height, tid, shape) == (state.height, state.tid, state.shape)
    assert sum(state.height) == 2 * len(state.placements)
    # 5-6. the 24 slots pair into 12 lines, same passes from both ends; passes = tile runs.
    ends = set()
    for s in range(24):
        t, passes = state.trace(s)
        assert t != s and state.trace(t) == (s, passes)
        ends.add(frozenset((s, t)))
        cells = state.trace_cells(s)
        runs, prev = 0, -1
        for cell in cells:
            if state.tid[cell] >= 0 and state.tid[cell] != prev:
                runs += state.height[cell]
            prev = state.tid[cell]
        assert passes == runs >= 0
    assert len(ends) == 12
    # 7. markers: 4 per seat in play.
    if not state.setup:
        assert all(state.ring.count(seat) == 4 for seat in range(n))
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    player = state.current_player()
    if player == CHANCE:
        # 12. chance outcomes: positive, sum 1, the unrevealed composition.
        outcomes = state.chance_outcomes()
        total = sum(state.unrevealed)
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        for a, p in outcomes:
            assert p == pytest.approx(state.unrevealed[a] / total)
        assert state.face_up[state.pending] < 0 and state.hidden[state.pending] > 0
    elif player == TERMINAL:
        # 15. no legal actions and exactly one winner, the earliest of the top scores.
        assert legal == []
        returns = state.returns()
        assert sorted(returns) == [0.0] * (n - 1) + [1.0]
        winner = returns.index(1.0)
        assert state.points[winner] == max(state.points)
        assert all(state.points[s] < state.points[winner] for s in range(winner))
    elif not state.setup:
        assert 0 <= player < n and state.actions_left in (1, 2)
        # 13. while the final round runs, seat 0 never moves.
        assert not state.final_round or player != 0
        opts = state.game.options
        moves = [a for a in legal if a >= MOVE_BASE]
        if not opts["jump_counts_as_step"] and opts["ring_corners_continuous"]:
            # 8. each of the mover's 4 markers has 4 moves to 4 different slots.
            assert len(moves) == 16
            for slot in (s for s in range(24) if state.ring[s] == player):
                assert len({state.destination(slot, j) for j in range(4)}) == 4
        # 9. placement legality is design-blind.
        footprints = len([fp for fp in FOOTPRINTS if state.footprint_legal(fp[0], fp[1])])
        for p in range(3):
            base = PLACE_BASE + p * PLACE_PER_PILE
            count = sum(1 for a in legal if base <= a < base + PLACE_PER_PILE)
            if state.face_up[p] < 0:
                assert count == 0
            else:
                assert count == footprints * (1 if SYMMETRIC[state.face_up[p]] else 2)


def check_round_trips(state: PasstallyState, rng: random.Random, every_action: bool) -> None:
    """16-17. Position JSON and notation round trips; the export passes validation."""
    exported = state.to_json()
    loaded = state.game.state_from_json(exported)
    assert loaded == state and loaded.to_json() == exported
    assert loaded.legal_actions() == state.legal_actions()
    legal = state.legal_actions()
    if not legal:
        return
    sample = legal if every_action else [legal[rng.randrange(len(legal))]]
    for action in sample:
        assert state.string_to_action(state.action_to_string(action)) == action


class Tracker:
    """Transition invariants (§14 items 2, 3, 10, 11, 13, 14) between consecutive states."""

    def __init__(self, state: PasstallyState) -> None:
        self.turn_actions = 0
        self.turns_since_flag = 0
        self.setup_seen = state.setup

    def step(self, before: PasstallyState, action: int, after: PasstallyState) -> None:
        n = after.num_players
        assert all(a <= b for a, b in zip(after.hidden, before.hidden, strict=True))
        assert all(a >= b for a, b in zip(after.height, before.height, strict=True))
        assert all(a >= b for a, b in zip(after.points, before.points, strict=True))
        assert after.final_round or not before.final_round
        assert len(after.hist) == len(before.hist) + 1 and after.hist[-1] == action
        if before.setup:
            if not after.setup:  # setup just ended: one marker per seat per side
                for seat in range(n):
                    sides = sorted(s // 6 for s in range(24) if after.ring[s] == seat)
                    assert sides == [0, 1, 2, 3]
                assert after.current_player() == 0 and after.actions_left == 2
            assert after.points == before.points
            return
        mover = before.to_move
        if before.current_player() != CHANCE:
            self.turn_actions += 1
        turn_over = after.game_over or after.to_move != mover
        changed = [s for s in range(n) if after.points[s] != before.points[s]]
        if not turn_over:
            assert changed == [] and after.to_move == mover
            return
        # 10. only the mover scores, by VP(sum of passes of their lines on the final board)
        assert set(changed) <= {mover}
        gained = after.points[mover] - before.points[mover]
        lines = after.player_lines(mover)
        assert len(lines) <= 2
        expected = vp_for_passes(sum(line[2] for line in lines))
        cut_short = after.game_over and not after.game.options["finish_turn_on_immediate_end"]
        if cut_short and self.turn_actions < 2:
            assert gained in (0, expected)
        else:
            assert gained == expected
        # 11. two actions per turn, unless forfeited or cut short (variants only).
        opts = after.game.options
        if (
            not opts["jump_counts_as_step"]
            and opts["ring_corners_continuous"]
            and opts["finish_turn_on_immediate_end"]
        ):
            assert self.turn_actions == 2
        else:
            assert self.turn_actions in (1, 2)
        self.turn_actions = 0
        # 14. never past the end of a turn with no legal placement.
        if not after.any_placement():
            assert after.game_over
        # 13. the final round ends at most N-1 turns after the flag is set.
        if before.final_round:
            self.turns_since_flag += 1
            assert self.turns_since_flag <= n - 1 or after.game_over
        if after.final_round and not after.game_over:
            assert after.to_move != 0
