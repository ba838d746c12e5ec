"""Type stub for the compiled ``boardplay.games.passtally.layout`` (see ``layout.pxd``)."""

from enum import IntEnum
from typing import Final

SETUP_BASE: Final[int]
PLACE_BASE: Final[int]
PLACE_PER_PILE: Final[int]
MOVE_BASE: Final[int]
NUM_ACTIONS: Final[int]
END_NONE: Final[int]
END_NO_PLACEMENT: Final[int]
END_FINAL_ROUND: Final[int]
END_MAX_TURNS: Final[int]
OBSERVATION_SIZE: Final[int]

class Feature(IntEnum):
    VP_SEAT0 = 0
    VP_SEAT1 = 1
    VP_SEAT2 = 2
    LINE_VP_SEAT0 = 3
    LINE_VP_SEAT1 = 4
    LINE_VP_SEAT2 = 5
    TILES_PILE_A = 6
    TILES_PILE_B = 7
    TILES_PILE_C = 8
    PLAYERS = 9

FEATURE_NAMES: Final[tuple[str, ...]]
