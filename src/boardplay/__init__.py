"""boardplay: exact engines for Potlatch Klone, Proteus, Passtally and Montana.

>>> import boardplay
>>> game = boardplay.load("potlatch(actions=3,layout=L4)")
>>> state = game.new_initial_state()
>>> state.legal_moves()[:3]
['P-E', 'P-NE', 'P-NW']
"""

from boardplay.core import (
    CHANCE,
    TERMINAL,
    BoardplayError,
    Game,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    State,
    available,
    load,
    sample_chance,
)
from boardplay.core.records import Record

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BoardplayError",
    "Game",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "PositionError",
    "Record",
    "RecordError",
    "State",
    "available",
    "load",
    "sample_chance",
]
