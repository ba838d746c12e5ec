"""Helpers shared by the test modules (importable as ``support``; see pytest ``pythonpath``)."""

from __future__ import annotations

import os
import random
from typing import Any

import boardplay
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.records import Player, Record

SOAK = os.environ.get("BOARDPLAY_SOAK", "") not in ("", "0")


def games(default: int, soak: int) -> int:
    """How many random games a property test plays: ``default`` normally, ``soak`` under
    ``make soak`` (BOARDPLAY_SOAK=1)."""
    return soak if SOAK else default


def random_record(game: Game | str, seed: int, limit: int = 400) -> tuple[Record, State]:
    """A record of a random game (chance by its probabilities) of up to ``limit`` actions,
    finished, and the state it reached."""
    if isinstance(game, str):
        game = boardplay.load(game)
    state = game.new_initial_state()
    record = Record.begin(game, [Player(game.seat_name(s)) for s in range(game.num_players)])
    rng = random.Random(seed)
    while not state.is_terminal() and len(record.moves) < limit:
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        record.play(state, action)
    record.finish(state)
    return record, state


def uniform_record(game: Game, seed: int) -> tuple[Record, State, dict[str, Any], int]:
    """A random game played to its end by ``random.Random(seed)`` choosing uniformly among the
    legal actions and among chance outcomes (not by their probabilities, so a seed picks the
    same game whatever the odds), as a finished record; its final state; and the position
    before the last action with the seat that took it (what ``describe_end`` reads)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = Record.begin(game)
    before, seat = state.to_json(), -1
    while not state.is_terminal():
        before, seat = state.to_json(), state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            record.play(state, outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            record.play(state, legal[rng.randrange(len(legal))])
    record.finish(state)
    return record, state, before, seat


def walk(game: Game | str, seed: int, limit: int = 2000) -> list[State]:
    """Every position of one random game (chance by its probabilities) of up to ``limit``
    actions, the start and the end included: clones, so a test may read any of them."""
    if isinstance(game, str):
        game = boardplay.load(game)
    state = game.new_initial_state()
    rng = random.Random(seed)
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) <= limit:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


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


def replayed_playouts(start: Any, count: int, seed: int) -> tuple[int, list[int], int, int]:
    """``random_playouts(start, count, seed)`` played again in Python through
    ``legal_actions()`` and ``chance_outcomes()`` with the same generator: its actions, wins per
    seat, draws and unfinished games (none), counted as the kernel counts them (a win is a seat
    at 1.0 or more, the lowest such seat among equals)."""
    rng = SplitMix(seed)
    actions, draws = 0, 0
    wins = [0] * start.num_players
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
            actions += 1
        returns = kernel.returns()
        best = max(range(len(returns)), key=lambda seat: (returns[seat], -seat))
        if returns[best] >= 1.0:
            wins[best] += 1
        else:
            draws += 1
    return actions, wins, draws, 0
