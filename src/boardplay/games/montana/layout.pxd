# cython: language_level=3
"""Montana's numbered layouts, declared once (``cpdef enum``): the action and chance id ranges,
the stages (spec §10) and the feature vector by index. The kernel and the compiled evaluation
``cimport`` them as C constants; ``layout.pyx`` exports them to Python, where ``notation`` (the
action ids), the facade (the stages) and the evaluation import them. The ranges are bounded by
the data limits of ``data.py`` (so every valid data file uses the same space), and
``tests/games/montana/test_montana_layout.py`` checks each range against them."""

cpdef enum:
    # Action ids. Single actions, then ranges: a range's base plus the index of the choice
    # (spin segment, trade kind, worker multiset, part set, contractor cell, upgrade pair, pick
    # set, bank space x workers, area x space x part set, build cell; notation.py spells them).
    RECRUIT = 0
    CITY = 1
    STOP = 2
    PASS = 3
    CANTEEN = 4
    END = 5
    RIGHT_NONE = 6
    PUSH = 7             # + wheel segment (MAX_WHEEL)
    TRADE = 23           # + trade kind (11: TRADE_SILVER is silver)
    WILD = 34            # + worker multiset (WORKER_SETS)
    RETURN = 103         # + worker multiset
    RIGHT = 172          # + production part set (PART_SETS)
    PLACE = 186          # + contractor cell (MAX_ROWS x MAX_COLUMNS)
    REWARD_UP = 222      # + upgrade pair (UPGRADE_PAIRS)
    REWARD_PICK = 250    # + pick multiset (PICK_SETS)
    WORK_BANK = 333      # + bank space x worker multiset
    WORK_PROD = 885      # + (area x space) x part set
    BUILD = 1221         # + build cell (GRID_CELLS)
    NUM_ACTIONS = 1446
    TRADE_SILVER = 6     # the trade kind that is silver (0..5 goods, 7..10 worker colours)
    # Chance outcome ids: spin segments, start seats, board seeds.
    CHANCE_SPIN = 0
    CHANCE_START = 16
    CHANCE_BOARD = 20
    BOARD_OUTCOMES = 4096
    # ``Pos.after_overflow``: the overflow ends the recruit, so the turn ends next.
    TURN_END = -1
    # ``Pos.contractor``: the contractor at home, on no cell of the contractor board.
    HOME = -1
    # The per-seat block of the feature vector (``Feature``), repeated for seats 0..3.
    SEAT_FEATURES = 9

cpdef enum Stage:
    # Spec §10, in the kernel's numbering; the first four are chance nodes. (``_STAGE`` tells a
    # stage from the action of the same name.)
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

cpdef enum Feature:
    # The feature vector (``Kernel.features_into``): per seat 0..3 a block of SEAT_FEATURES
    # (seat p's at ``SEAT_FEATURES * p``; zeros for a seat the table does not have): settlements
    # left to place, goods, silver, workers, cattle, canteens, the settlements the goods in hand
    # pay for (cattle as jokers, at most three), the goods in hand toward the cheapest site not
    # yet paid for and that site's whole cost (0 when none is partly paid). Then the active
    # seat while its main action is still to come (stage MAIN), else -1, and the settlements
    # each player starts with (the data file's count for this table).
    F_SETTLEMENTS_LEFT = 0
    F_GOODS = 1
    F_SILVER = 2
    F_WORKERS = 3
    F_CATTLE = 4
    F_CANTEENS = 5
    F_READY = 6
    F_PARTIAL_HAVE = 7
    F_PARTIAL_COST = 8
    F_MAIN_SEAT = 36
    F_SETTLEMENTS = 37
