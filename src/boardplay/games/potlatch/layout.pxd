# cython: language_level=3
"""Potlatch Klone's numbered layouts, declared once (``cpdef enum``): the action ids, the
observation's window and the feature vector by index. The kernel and the compiled evaluation ``cimport`` them as C constants;
``layout.pyx`` exports them to Python, where ``notation``, ``explain``, the game and the
evaluation import them."""

cpdef enum:
    # Ids 0..5 are Pawn Moves and 6..11 Chip Moves, each toward ``DIRECTION_NAMES[id % 6]``
    # (E, NE, NW, W, SW, SE).
    PAWN_MOVES = 6
    NUM_ACTIONS = 12

cpdef enum:
    # The observation tensor (docs/formats/potlatch.md): NUM_PLANES planes over a SIDE x SIDE
    # window of axial coordinates q, r in -RADIUS..RADIUS, which holds every hex a game from
    # either layout can reach (observation.py says why); the compact form is one byte per
    # cell plus COMPACT_EXTRA scalars.
    RADIUS = 11
    SIDE = 2 * RADIUS + 1
    CELLS = SIDE * SIDE
    NUM_PLANES = 17
    OBSERVATION_SIZE = NUM_PLANES * CELLS
    COMPACT_EXTRA = 8

cpdef enum Feature:
    # The feature vector (``Kernel.features_into``): the seat to move, then per seat (Red, Blue)
    # its own-colour stacks, its *crowns* (2-high stacks next to its pawn, counted only when
    # the pawn stands on at least 1 chip, so a run could end there and crown it) and its
    # *breaks* (opponent stacks next to its pawn, counted only when the pawn stands 2 or more
    # high, so it could step on and dismantle one).
    TO_MOVE = 0
    RED_STACKS = 1
    RED_CROWNS = 2
    RED_BREAKS = 3
    BLUE_STACKS = 4
    BLUE_CROWNS = 5
    BLUE_BREAKS = 6
    # One past the last feature: the vector's length (``Kernel.feature_size``), named nothing.
    FEATURE_SIZE
