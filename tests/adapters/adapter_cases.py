"""Game cases for the adapter tests: the tiny Dice Race game (chance at the start and after each
turn, two-decision turns, 2 and 3 players, every option kind) and every engine present, so an
engine that lands is covered without touching these tests."""

from __future__ import annotations

from collections.abc import Callable

from dicerace import DiceRaceGame

import boardplay
from boardplay.core.game import Game

GameFactory = Callable[[], Game]

TINY_CASES: dict[str, GameFactory] = {
    "dicerace": lambda: DiceRaceGame(),
    "dicerace-3p": lambda: DiceRaceGame(
        {"players": 3, "max_turns": 4, "bonus": False, "steps": "long", "start_player": 1}
    ),
}
ENGINE_CASES: dict[str, GameFactory] = {
    name: (lambda name=name: boardplay.load(name)) for name in boardplay.available()
}
CASES: dict[str, GameFactory] = {**TINY_CASES, **ENGINE_CASES}
