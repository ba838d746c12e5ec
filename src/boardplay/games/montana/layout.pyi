"""Type stub for the compiled ``boardplay.games.montana.layout`` (see ``layout.pxd``)."""

from enum import IntEnum
from typing import Final

MAX_BANK_SPACES: Final[int]
MAX_BANK_WORKERS: Final[int]
MAX_AREA_SPACES: Final[int]
MAX_ROWS: Final[int]
MAX_COLUMNS: Final[int]
MAX_UPGRADES: Final[int]
MAX_PICKS: Final[int]
MAX_WHEEL: Final[int]
MAX_SYMBOLS: Final[int]
GRID_RADIUS: Final[int]
GRID_WIDTH: Final[int]
GRID_CELLS: Final[int]
MAX_SLOTS: Final[int]
GRAIN_GOOD: Final[int]
PUMPKIN_GOOD: Final[int]
WORKER_SET_COUNT: Final[int]
PART_SET_COUNT: Final[int]
PICK_SET_COUNT: Final[int]
UPGRADE_PAIR_COUNT: Final[int]
TRADE_KINDS: Final[int]
RECRUIT: Final[int]
CITY: Final[int]
STOP: Final[int]
PASS: Final[int]
CANTEEN: Final[int]
END: Final[int]
RIGHT_NONE: Final[int]
PUSH: Final[int]
TRADE: Final[int]
WILD: Final[int]
RETURN: Final[int]
RIGHT: Final[int]
PLACE: Final[int]
REWARD_UP: Final[int]
REWARD_PICK: Final[int]
WORK_BANK: Final[int]
WORK_PROD: Final[int]
BUILD: Final[int]
NUM_ACTIONS: Final[int]
TRADE_SILVER: Final[int]
CHANCE_SPIN: Final[int]
CHANCE_START: Final[int]
CHANCE_BOARD: Final[int]
BOARD_OUTCOMES: Final[int]
BOARD_SEED_MAX: Final[int]
BOARD_ATTEMPTS: Final[int]
TURN_END: Final[int]
HOME: Final[int]
SEAT_FEATURES: Final[int]

class Stage(IntEnum):
    BOARD = 0
    SETUP_SPIN = 1
    START = 2
    SPIN = 3
    SETUP_WILD = 4
    MAIN = 5
    PUSH_STAGE = 6
    WILD_STAGE = 7
    OVERFLOW = 8
    RIGHT_STAGE = 9
    PLACE_STAGE = 10
    REWARD = 11
    BUILD_NEXT = 12
    END_STAGE = 13
    OVER = 14

class Feature(IntEnum):
    F_SETTLEMENTS_LEFT = 0
    F_GOODS = 1
    F_SILVER = 2
    F_WORKERS = 3
    F_CATTLE = 4
    F_CANTEENS = 5
    F_READY = 6
    F_PARTIAL_HAVE = 7
    F_PARTIAL_COST = 8
    F_NEXT_MAIN_SEAT = 36
    F_SETTLEMENTS = 37
    FEATURE_SIZE = 38

class MainAction(IntEnum):
    M_NONE = 0
    M_RECRUIT = 1
    M_BANK = 2
    M_PRODUCTION = 3
    M_CITY = 4
    M_BUILD = 5

class EndReason(IntEnum):
    NOT_ENDED = 0
    BY_TRIGGER = 1
    BY_MAX_TURNS = 2

HEX_FEATURES: Final[int]
PLAYER_FEATURES: Final[int]
CONTRACTOR_FEATURES: Final[int]
STAGE_FEATURES: Final[int]
GLOBAL_FEATURES: Final[int]
OBSERVATION_SIZE: Final[int]

STAGE_NAMES: Final[tuple[str, ...]]
MAIN_ACTIONS: Final[tuple[str, ...]]
END_REASONS: Final[tuple[str, ...]]
CHANCE_STAGES: Final[tuple[int, ...]]
TRADE_STAGES: Final[tuple[int, ...]]
FEATURE_NAMES: Final[tuple[str, ...]]
