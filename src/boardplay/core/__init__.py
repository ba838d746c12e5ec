"""The shared contract: games, states, options, records and errors."""

from boardplay.core.errors import (
    BoardplayError,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
)
from boardplay.core.game import CHANCE, TERMINAL, Game, State, sample_chance
from boardplay.core.registry import available, load

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BoardplayError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PositionError",
    "RecordError",
    "State",
    "available",
    "load",
    "sample_chance",
]
