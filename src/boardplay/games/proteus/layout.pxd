# cython: language_level=3
"""Proteus's numbered layouts, declared once (``cpdef enum``): the action id ranges, the
kernel's outcome values, the observation's size, the colours and rules of the tiles, and the
feature vector by index. The kernel, the encoders and the
compiled evaluation ``cimport`` them as C constants; ``layout.pyx`` exports them to Python,
where ``tables``, ``notation``, ``explain``, the facade and the evaluation import them. (A module
of its own because ``tables.py``, which the kernel reads at import, builds its id tables from
these numbers.)"""

cpdef enum:
    # Ascending ids list tile placements, piece placements, moves, trades and pass, each in
    # canonical cell order.
    TILE_BASE = 0        # tile * 9 + cell: 81 tile placements
    PIECE_BASE = 81      # shape * 9 + cell: 27 piece placements
    MOVE_BASE = 108      # 72 moves (from, to), from != to
    TRADE_BASE = 180     # 36 unordered cell pairs
    PASS = 216
    NUM_ACTIONS = 217
    # ``ProteusKernel.outcome`` besides a winning seat (0 Black, 1 White).
    ONGOING = -1
    DRAW = 2
    # The observation tensor's floats (``observation.py`` documents them).
    OBSERVATION_SIZE = 165
    # A tile is colour * 3 + shape; its colour says its kind of rule (red MOVE, blue TRADE,
    # yellow GOAL). NONE marks an empty cell, a vacant tile, a pool tile's cell or a missing
    # colour.
    NONE = -1
    RED = 0
    BLUE = 1
    YELLOW = 2
    # The nine rules, one per tile id (spec §6.1; ``tables.RULE_NAMES`` names them).
    KING = 0
    ROOK = 1
    BISHOP_KNIGHT = 2
    POLARITY = 3
    COLOR_TRADE = 4
    SHAPE_TRADE = 5
    THREE_IN_LINE = 6
    COLOR_GOAL = 7
    SHAPE_GOAL = 8

cpdef enum Feature:
    # The feature vector (``Kernel.features_into``). ``<seat>_<goal>``: the seat's closeness to
    # the goal's best target triple of cells (its pieces on the triple minus half a point per
    # opponent piece there, at least 0) for 3-IN-LINE (the eight lines), COLOR (the three tiles
    # of one colour, once all are on the board) and SHAPE (likewise by shape); ``active_goal``:
    # 0 3-IN-LINE, 1 COLOR, 2 SHAPE, -1 none active; ``to_move``: the seat whose turn it is
    # (the last mover once over).
    BLACK_LINE = 0
    BLACK_COLOR = 1
    BLACK_SHAPE = 2
    WHITE_LINE = 3
    WHITE_COLOR = 4
    WHITE_SHAPE = 5
    ACTIVE_GOAL = 6
    TO_MOVE = 7
    # One past the last feature: the vector's length (``Kernel.feature_size``), named nothing.
    FEATURE_SIZE
