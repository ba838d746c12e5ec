# cython: language_level=3
"""Passtally's numbered layouts, declared once (``cpdef enum``): the board and component
counts, the action id ranges, the end codes and the feature vector by index. ``kernel.pxd``
passes them on to the kernel and its parts, the compiled evaluation ``cimport``s them, and
``layout.pyx`` exports them to Python, where ``tables``, ``notation``, ``explain``, the facade
and the evaluation import them.
(A module of its own because ``tables.py``, which the kernel reads at import, builds its id
helpers from these numbers.)"""

cpdef enum:
    # The board and the components (spec §2): a SIZE x SIZE board ringed by 4 * SIZE slots;
    # NUM_DESIGNS tile designs, TILES_PER_DESIGN of each, dealt into NUM_PILES piles; a turn is
    # ACTIONS_PER_TURN actions; FINAL_ROUND_SCORE starts the final round; at most MAX_SEATS
    # players. CELL_PLANES: the observation's planes per cell (height, tile present, shape X,
    # shape NE, shape NW, same tile east, same tile south).
    SIZE = 6
    NUM_CELLS = 36
    NUM_SLOTS = 24
    NUM_PILES = 3
    NUM_DESIGNS = 6
    TOTAL_TILES = 42
    TILES_PER_DESIGN = 7
    TILES_PER_PILE = 14
    ACTIONS_PER_TURN = 2
    FINAL_ROUND_SCORE = 50
    MAX_SEATS = 3
    CELL_PLANES = 7
    # ``@s``: ids 0-23, one per ring slot.
    SETUP_BASE = 0
    # ``A:b3E``: ``PLACE_BASE + pile * PLACE_PER_PILE + anchor * 4 + orientation`` (ids 24-455).
    PLACE_BASE = 24
    PLACE_PER_PILE = 144
    # ``m7+2``: ``MOVE_BASE + slot * 4 + j``, j indexing ``tables.MOVE_STEPS`` (ids 456-551).
    MOVE_BASE = 456
    NUM_ACTIONS = 552
    # How the game ended (``Position.end``; ``END_NONE`` while it runs).
    END_NONE = 0
    END_NO_PLACEMENT = 1
    END_FINAL_ROUND = 2
    END_MAX_TURNS = 3
    # The observation tensor's floats (``observation.py`` documents them).
    OBSERVATION_SIZE = 372

cpdef enum Feature:
    # The feature vector (``Kernel.features_into``): VP per seat; the VP each seat's complete
    # lines would score if its turn ended now; the tiles left in each pile, face-up one
    # included; the number of players; the seat whose turn is under way (its reveals
    # included), -1 in setup and at the end. Seats the game does not have read 0.
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
    # One past the last feature: the vector's length (``Kernel.feature_size``), named nothing.
    FEATURE_SIZE
