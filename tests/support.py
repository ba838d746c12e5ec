"""Helpers shared by the test modules (importable as ``support``; see pytest ``pythonpath``)."""

from __future__ import annotations

import os
import random

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
