"""The kernel's shortcuts against the plain way: ``sample_legal`` (the r-th legal action found
without listing) against ``legal_actions()[r]`` for every r, the compiled random playouts
against the same games replayed in Python through the legal list, and the kept footprints and
known lines against a kernel that derives them afresh."""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

import boardplay
from boardplay.core.kernel import random_playouts
from boardplay.games.passtally import access
from boardplay.games.passtally.access import FIELDS
from boardplay.games.passtally.kernel import PasstallyKernel
from boardplay.games.passtally.state import PasstallyState
from boardplay.games.passtally.tables import NUM_SLOTS
from support import games

OPTION_SETS: list[dict[str, Any]] = [
    {
        "players": players,
        "jump_counts_as_step": jump,
        "ring_corners_continuous": continuous,
        "finish_turn_on_immediate_end": finish,
    }
    for players, jump, continuous, finish in product(
        (2, 3), (False, True), (True, False), (True, False)
    )
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) for o in OPTION_SETS]

MASK = (1 << 64) - 1


class SplitMix:
    """``Rng`` of ``core/kernel.pxd`` in Python: ``rng_next``, ``rng_below``, ``rng_unit``."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32

    def unit(self) -> float:
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)


def new_state(options: dict[str, Any]) -> PasstallyState:
    state = boardplay.load("passtally", **options).new_initial_state()
    assert isinstance(state, PasstallyState)
    return state


def fresh_copy(kernel: PasstallyKernel, players: int, options: dict[str, Any]) -> PasstallyKernel:
    """A kernel restored from ``kernel``'s snapshot: its derived fields computed from scratch."""
    other = PasstallyKernel(
        players,
        options.get("jump_counts_as_step", False),
        options.get("ring_corners_continuous", True),
        options.get("finish_turn_on_immediate_end", True),
    )
    snapshot = access.snapshot(kernel)
    access.restore(other, {name: snapshot[name] for name in FIELDS})
    return other


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_every_draw_picks_the_listed_action(options: dict[str, Any]) -> None:
    rng = random.Random(17)
    decisions = 0
    for _ in range(games(4, 200)):
        state = new_state(options)
        kernel = state.kernel
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node() or access.field(kernel, "setup"):
                with pytest.raises(ValueError):
                    access.legal_at(kernel, 0)
            else:
                assert [access.legal_at(kernel, r) for r in range(len(legal))] == legal
                with pytest.raises(ValueError):
                    access.legal_at(kernel, len(legal))
                decisions += 1
            state.apply_action(legal[rng.randrange(len(legal))])
    assert decisions > 100


@pytest.mark.parametrize("options", OPTION_SETS, ids=IDS)
def test_kept_footprints_and_lines_equal_fresh_ones(options: dict[str, Any]) -> None:
    rng = random.Random(23)
    players = options["players"]
    for _ in range(games(3, 100)):
        state = new_state(options)
        kernel = state.kernel
        while not state.is_terminal():
            if rng.random() < 0.3:
                fresh = fresh_copy(kernel, players, options)
                assert fresh.legal_actions() == state.legal_actions()
                assert access.placement_possible(fresh) == access.placement_possible(kernel)
                for seat in range(players):
                    assert access.score_now(kernel, seat) == access.score_now(fresh, seat)
                for slot in range(NUM_SLOTS):
                    end, passes = access.line(kernel, slot)
                    assert access.line(kernel, end) == (slot, passes)  # one line, read both ways
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("options", OPTION_SETS[:2] + OPTION_SETS[8:10], ids=IDS[:2] + IDS[8:10])
def test_compiled_playouts_play_the_listed_games(options: dict[str, Any]) -> None:
    """``random_playouts`` (through ``sample_legal``) plays the very games a Python loop over
    ``legal_actions()`` plays with the same generator: the same actions and winners."""
    start = new_state(options).kernel
    count, seed = games(6, 60), 20261122
    actions, wins, draws, unfinished = random_playouts(start, count, seed)
    rng = SplitMix(seed)
    replay_actions = 0
    replay_wins = [0] * start.num_players
    for _ in range(count):
        kernel = start.clone()
        while kernel.current_player() != -4:
            if kernel.current_player() == -1:
                outcomes = kernel.chance_outcomes()
                point, total, action = rng.unit(), 0.0, outcomes[-1][0]
                for outcome, probability in outcomes[:-1]:
                    total += probability
                    if point < total:
                        action = outcome
                        break
            else:
                legal = kernel.legal_actions()
                action = legal[rng.below(len(legal))]
            kernel.step(action)
            replay_actions += 1
        returns = kernel.returns()
        replay_wins[returns.index(max(returns))] += 1
    assert (actions, wins, draws, unfinished) == (replay_actions, replay_wins, 0, 0)
