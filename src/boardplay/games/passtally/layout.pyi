"""Type stub for the compiled ``boardplay.games.passtally.layout`` (see ``layout.pxd``)."""

from enum import IntEnum
from typing import Final

SIZE: Final[int]
NUM_CELLS: Final[int]
NUM_SLOTS: Final[int]
NUM_PILES: Final[int]
NUM_DESIGNS: Final[int]
TOTAL_TILES: Final[int]
TILES_PER_DESIGN: Final[int]
TILES_PER_PILE: Final[int]
ACTIONS_PER_TURN: Final[int]
FINAL_ROUND_SCORE: Final[int]
MAX_SEATS: Final[int]
CELL_PLANES: Final[int]
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
    TURN_SEAT = 10
    FEATURE_SIZE = 11

FEATURE_NAMES: Final[tuple[str, ...]]
