# cython: language_level=3
"""Montana's numbered layouts, declared once (``cpdef enum``): the data limits, the action and
chance id ranges, the stages (spec §10), the main actions and end reasons, the feature vector by
index and the observation tensor's size. The kernel, its tables and the compiled evaluation
``cimport`` them as C constants (C array sizes must be known when compiling); ``layout.pyx``
exports them to Python, where ``data`` (the limits), ``notation`` (the action ids), ``explain``
and the facade (the stages) and the evaluation import them. The action ranges are sums of the
data limits and the choice counts, so every valid data file uses the same space;
``tests/games/montana/test_montana_layout.py`` checks each range against notation's choices."""

cpdef enum:
    # The data limits: a data file must fit in them (data.py checks it when loading), so the
    # action space and the kernel's arrays are the same for every valid file.
    MAX_BANK_SPACES = 8
    MAX_BANK_WORKERS = 4
    MAX_AREA_SPACES = 6
    MAX_ROWS = 6
    MAX_COLUMNS = 6
    MAX_UPGRADES = 6
    MAX_PICKS = 3
    MAX_WHEEL = 16
    MAX_SYMBOLS = 2
    # Hexes lie in the axial window -GRID_RADIUS..GRID_RADIUS squared (the build action space).
    GRID_RADIUS = 7
    GRID_WIDTH = 2 * GRID_RADIUS + 1
    GRID_CELLS = GRID_WIDTH * GRID_WIDTH
    # The worker board's parts: each bank space, then two parts per production space.
    MAX_SLOTS = MAX_BANK_SPACES + 4 * 2 * MAX_AREA_SPACES
    # The goods kinds the rules name (data.GOODS order): grain pays the arrow push, pumpkins
    # the contractor spots.
    GRAIN_GOOD = 4
    PUMPKIN_GOOD = 5
    # The choice tables of notation.py, counted: worker multisets of size 1..MAX_BANK_WORKERS,
    # the production part sets (those of size 1..2, the first ones), pick multisets of 6 goods
    # of size 1..MAX_PICKS, upgrade pairs (a, b) with a + b <= MAX_UPGRADES. The kernel checks
    # notation's lists against them when it is imported.
    WORKER_SET_COUNT = 69
    PART_SET_COUNT = 14
    PICK_SET_COUNT = 83
    UPGRADE_PAIR_COUNT = 28
    # Cattle trade kinds: the 6 goods (data.GOODS order), silver, the 4 worker colours.
    TRADE_SILVER = 6
    TRADE_KINDS = TRADE_SILVER + 1 + 4
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
    PUSH = RIGHT_NONE + 1                           # + wheel segment
    TRADE = PUSH + MAX_WHEEL                        # + trade kind
    WILD = TRADE + TRADE_KINDS                      # + worker multiset
    RETURN = WILD + WORKER_SET_COUNT                # + worker multiset
    RIGHT = RETURN + WORKER_SET_COUNT               # + production part set
    PLACE = RIGHT + PART_SET_COUNT                  # + contractor cell (row x column)
    REWARD_UP = PLACE + MAX_ROWS * MAX_COLUMNS      # + upgrade pair
    REWARD_PICK = REWARD_UP + UPGRADE_PAIR_COUNT    # + pick multiset
    WORK_BANK = REWARD_PICK + PICK_SET_COUNT        # + bank space x worker multiset
    WORK_PROD = WORK_BANK + MAX_BANK_SPACES * WORKER_SET_COUNT  # + (area x space) x part set
    BUILD = WORK_PROD + 4 * MAX_AREA_SPACES * PART_SET_COUNT    # + build cell
    NUM_ACTIONS = BUILD + GRID_CELLS
    # Chance outcome ids: spin segments, start seats, board seeds.
    CHANCE_SPIN = 0
    CHANCE_START = CHANCE_SPIN + MAX_WHEEL
    CHANCE_BOARD = CHANCE_START + 4
    BOARD_OUTCOMES = 4096
    # Board seeds (the board_seed option, the position JSON's board.seed): 0..BOARD_SEED_MAX.
    BOARD_SEED_MAX = 2147483647
    # The board generator (board.py's reference, tables.pyx's C) gives up after this many deals.
    BOARD_ATTEMPTS = 100000
    # ``Position.after_overflow``: the overflow ends the recruit, so the turn ends next.
    TURN_END = -1
    # ``Position.contractor``: the contractor at home, on no cell of the contractor board.
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
    # yet paid for and that site's whole cost (0 when none is partly paid). Then the seat whose
    # main action comes next (the active seat until it takes its main action, then the next
    # seat; -1 in setup, at the end and after the last turn's main action), and the
    # settlements each player starts with (the data file's count for this table).
    F_SETTLEMENTS_LEFT = 0
    F_GOODS = 1
    F_SILVER = 2
    F_WORKERS = 3
    F_CATTLE = 4
    F_CANTEENS = 5
    F_READY = 6
    F_PARTIAL_HAVE = 7
    F_PARTIAL_COST = 8
    F_NEXT_MAIN_SEAT = 4 * SEAT_FEATURES
    F_SETTLEMENTS
    # One past the last feature: the vector's length (``Kernel.feature_size``), named nothing.
    FEATURE_SIZE

cpdef enum MainAction:
    # ``Position.main``: the main action the active player chose this turn (none yet: M_NONE);
    # the position JSON's ``stage.main`` spells it as ``MAIN_ACTIONS`` (layout.pyx).
    M_NONE = 0
    M_RECRUIT = 1
    M_BANK = 2
    M_PRODUCTION = 3
    M_CITY = 4
    M_BUILD = 5

cpdef enum EndReason:
    # ``Position.ended_by``: why the game ended (NOT_ENDED while it runs); ``END_REASONS``
    # spells it.
    NOT_ENDED = 0
    BY_TRIGGER = 1
    BY_MAX_TURNS = 2

cpdef enum:
    # The observation tensor's blocks (docs/formats/montana.md; seats relative to the observer).
    # Per grid cell: the owner's seat, tiles, kind (plain, mountain, lake), start hex, double,
    # cattle, canteen, the cost per good.
    HEX_FEATURES = 4 + 1 + 3 + 1 + 1 + 1 + 1 + 6
    # Per seat: silver, goods per kind, cattle, canteens, workers per colour, settlements left,
    # regular turns, present.
    PLAYER_FEATURES = 1 + 6 + 1 + 1 + 4 + 1 + 1 + 1
    # Per seat: its contractor's cell (row x column) or home. (Per worker-board part: the
    # workers per colour, 4 x MAX_SLOTS.)
    CONTRACTOR_FEATURES = MAX_ROWS * MAX_COLUMNS + 1
    # The stage, the decider's and the active player's seats, the spin, then push, wilds,
    # excess, builds paid, extra turn, final round triggered, turn number and chain.
    STAGE_FEATURES = OVER + 1 + 4 + 4 + MAX_WHEEL + 8
    # Supply workers per colour and goods per kind, supply cattle, canteens used, canteens on
    # lakes, the start player's seat, whether the observer triggered the final round.
    GLOBAL_FEATURES = 4 + 6 + 1 + 1 + 1 + 1 + 1
    OBSERVATION_SIZE = (GRID_CELLS * HEX_FEATURES + 4 * PLAYER_FEATURES + MAX_SLOTS * 4
                        + 4 * CONTRACTOR_FEATURES + STAGE_FEATURES + GLOBAL_FEATURES)
