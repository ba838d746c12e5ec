"""Montana's id ranges (declared once, in layout.pxd) against the data limits that bound them.

The action space is fixed so that every valid data file uses the same ids: each range holds one
id per choice the largest table the data limits allow can offer. The numbers are written once,
as C constants; this test is where they meet the limits and the choice tables of notation.py.
"""

from __future__ import annotations

from boardplay.games.montana import layout as L
from boardplay.games.montana import notation as N
from boardplay.games.montana.data import (
    GOODS,
    MAX_AREA_SPACES,
    MAX_BANK_SPACES,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_WHEEL,
)
from boardplay.games.montana.layout import GRID_CELLS


def test_each_action_range_holds_one_id_per_choice_the_data_limits_allow() -> None:
    singles = [L.RECRUIT, L.CITY, L.STOP, L.PASS, L.CANTEEN, L.END, L.RIGHT_NONE]
    assert singles == list(range(L.PUSH))
    ranges = [
        (L.PUSH, MAX_WHEEL),
        (L.TRADE, len(GOODS) + 1 + 4),  # the goods, silver, the four worker colours
        (L.WILD, len(N.WORKER_SETS)),
        (L.RETURN, len(N.WORKER_SETS)),
        (L.RIGHT, len(N.PART_SETS)),
        (L.PLACE, MAX_ROWS * MAX_COLUMNS),
        (L.REWARD_UP, len(N.UPGRADE_PAIRS)),
        (L.REWARD_PICK, len(N.PICK_SETS)),
        (L.WORK_BANK, MAX_BANK_SPACES * len(N.WORKER_SETS)),
        (L.WORK_PROD, 4 * MAX_AREA_SPACES * len(N.PART_SETS)),
        (L.BUILD, GRID_CELLS),
    ]
    ends = [base + size for base, size in ranges]
    assert [base for base, _ in ranges[1:]] + [L.NUM_ACTIONS] == ends
    assert len(GOODS) == L.TRADE_SILVER  # trade kinds: the goods, then silver


def test_chance_ids_are_spins_then_start_seats_then_boards() -> None:
    assert (L.CHANCE_SPIN, L.CHANCE_START, L.CHANCE_BOARD) == (0, MAX_WHEEL, MAX_WHEEL + 4)
    assert N.NUM_CHANCE == L.CHANCE_BOARD + L.BOARD_OUTCOMES


def test_stage_and_feature_names_come_from_the_layout() -> None:
    assert L.STAGE_NAMES[L.Stage.PUSH_STAGE] == "PUSH"
    assert L.STAGE_NAMES[L.Stage.OVER] == "OVER" and len(L.STAGE_NAMES) == len(L.Stage)
    assert L.FEATURE_NAMES[L.Feature.F_READY + 2 * L.SEAT_FEATURES] == "ready_seat2"
    assert L.FEATURE_NAMES[L.Feature.F_SETTLEMENTS] == "settlements"
