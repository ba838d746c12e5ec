"""Type stub for the compiled ``boardplay.games.proteus.layout`` (see ``layout.pxd``)."""

from enum import IntEnum
from typing import Final

TILE_BASE: Final[int]
PIECE_BASE: Final[int]
MOVE_BASE: Final[int]
TRADE_BASE: Final[int]
PASS: Final[int]
NUM_ACTIONS: Final[int]
ONGOING: Final[int]
DRAW: Final[int]
OBSERVATION_SIZE: Final[int]
NONE: Final[int]
RED: Final[int]
BLUE: Final[int]
YELLOW: Final[int]
KING: Final[int]
ROOK: Final[int]
BISHOP_KNIGHT: Final[int]
POLARITY: Final[int]
COLOR_TRADE: Final[int]
SHAPE_TRADE: Final[int]
THREE_IN_LINE: Final[int]
COLOR_GOAL: Final[int]
SHAPE_GOAL: Final[int]

class Feature(IntEnum):
    BLACK_LINE = 0
    BLACK_COLOR = 1
    BLACK_SHAPE = 2
    WHITE_LINE = 3
    WHITE_COLOR = 4
    WHITE_SHAPE = 5
    ACTIVE_GOAL = 6
    TO_MOVE = 7
    FEATURE_SIZE = 8

FEATURE_NAMES: Final[tuple[str, ...]]
