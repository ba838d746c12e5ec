"""The C layout of one Proteus position, shared by the kernel and the encoders."""


cdef struct Board:
    # cell -> tile id (-1 empty), cell -> piece id (-1 none), tile -> cell (-1 in the pool),
    # piece -> cell (-1 in its owner's hand), colour -> active tile id (-1 missing). The
    # active flag is kept per colour as a tile id, not per cell, so it travels with its tile
    # when a trade moves it (spec §5.1, I21).
    int tiles[9]
    int pieces[9]
    int tile_cell[9]
    int where[6]
    int active[3]
    # The seat whose turn it is (kept at the last mover once the game is over, as the position
    # JSON's to_move); the pass counter; turns since the start or the loaded position; U = pool
    # tiles plus pieces in hand (placement lasts while U > 0); -1 ongoing, 0 or 1 the winner,
    # 2 a draw.
    int mover
    int passes
    int turns
    int unplaced
    int outcome
