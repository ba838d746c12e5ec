"""A recorded game with a planted blunder, shared by the review tests (library, CLI, web, browser).

Potlatch has no chance, so a game is its action list. The game is played by a seeded random
player that never walks into a dead end, until a position comes where one move loses on the
spot (a dead end: the mover's pawn cannot go on) while several others keep the game going; there
the mover plays the losing move. That move throws the game away, so any review worth having must
flag it, and the better move it offers must be one of the safe ones."""

from __future__ import annotations

import random
from dataclasses import dataclass

from boardplay.core.game import Game, State
from boardplay.core.records import Player, Record
from boardplay.core.registry import load


@dataclass(frozen=True)
class Planted:
    record: Record
    ply: int
    """The index of the blunder in the record's moves."""
    seat: int
    """Who played it (and lost)."""
    safe: frozenset[str]
    """The moves that did not lose on the spot there (notation)."""


def _split(state: State) -> tuple[list[int], list[int]]:
    seat = state.current_player()
    losing, safe = [], []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        (losing if child.is_terminal() and child.returns()[seat] < 0.5 else safe).append(action)
    return losing, safe


def planted_blunder(seed: int = 0, after: int = 10) -> Planted:
    """A finished Potlatch game whose last move is a blunder planted after ``after`` moves."""
    game: Game = load("potlatch")
    for attempt in range(seed, seed + 100):
        rng = random.Random(attempt)
        state = game.new_initial_state()
        record = Record.begin(game, [Player("Red"), Player("Blue")])
        while not state.is_terminal():
            losing, safe = _split(state)
            if losing and len(safe) >= 2 and len(record.moves) >= after:
                ply, seat = len(record.moves), state.current_player()
                names = frozenset(state.action_to_string(a) for a in safe)
                record.play(state, losing[0])
                assert state.is_terminal() and state.returns()[seat] < 0.5
                record.finish(state)
                return Planted(record, ply, seat, names)
            record.play(state, rng.choice(safe or state.legal_actions()))
    raise AssertionError("no position with a blunder to plant was found")
