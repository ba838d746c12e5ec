"""Type stub for the compiled ``boardplay.games.potlatch.layout`` (see ``layout.pxd``)."""

from enum import IntEnum
from typing import Final

PAWN_MOVES: Final[int]
NUM_ACTIONS: Final[int]
RADIUS: Final[int]
SIDE: Final[int]
CELLS: Final[int]
NUM_PLANES: Final[int]
OBSERVATION_SIZE: Final[int]
COMPACT_EXTRA: Final[int]

class Feature(IntEnum):
    TO_MOVE = 0
    RED_STACKS = 1
    RED_CROWNS = 2
    RED_BREAKS = 3
    BLUE_STACKS = 4
    BLUE_CROWNS = 5
    BLUE_BREAKS = 6
    FEATURE_SIZE = 7

FEATURE_NAMES: Final[tuple[str, ...]]
