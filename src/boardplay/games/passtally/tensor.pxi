"""Passtally kernel, part: the observation tensor, written from a ``Position``. Included by
``kernel.pyx``; ``inline``, since ``observe_into`` is its one caller. A part of its own because it
alone knows the tensor's layout (docs/formats/passtally.md)."""


cdef inline void write_observation(Position* p, int n, int player, float* out) noexcept:
    """The tensor documented in docs/formats/passtally.md ("Observation tensor"): the whole
    position (everything is public), seats rotated so the observer is seat 0."""
    cdef int i, cell, h, t, slot, seat, pile, d, base
    for i in range(OBSERVATION_SIZE):
        out[i] = 0.0
    for cell in range(NUM_CELLS):
        h = p.height[cell]
        out[cell] = h
        if h > 0:
            out[NUM_CELLS + cell] = 1.0
        out[(2 + p.shape[cell]) * NUM_CELLS + cell] = 1.0
        t = p.tid[cell]
        if t >= 0:
            if cell % SIZE < SIZE - 1 and p.tid[cell + 1] == t:
                out[5 * NUM_CELLS + cell] = 1.0
            if p.tid[cell + SIZE] == t:  # (the padding row reads -1)
                out[6 * NUM_CELLS + cell] = 1.0
    base = CELL_PLANES * NUM_CELLS
    for slot in range(NUM_SLOTS):
        seat = p.ring[slot]
        if seat >= 0:
            out[base + ((seat - player + n) % n) * NUM_SLOTS + slot] = 1.0
    base += MAX_SEATS * NUM_SLOTS
    for pile in range(NUM_PILES):
        d = p.face_up[pile]
        if d >= 0:
            out[base + d] = 1.0
        out[base + NUM_DESIGNS] = p.hidden[pile]
        base += NUM_DESIGNS + 1
    if p.pending >= 0 and not p.game_over:
        out[base + p.pending] = 1.0
    base += NUM_PILES
    for d in range(NUM_DESIGNS):
        out[base + d] = p.unrevealed[d]
    base += NUM_DESIGNS
    for seat in range(n):
        out[base + (seat - player + n) % n] = p.points[seat]
    base += MAX_SEATS
    if not p.game_over:
        out[base + (p.to_move - player + n) % n] = 1.0
    base += MAX_SEATS
    out[base] = p.actions_left
    base += 1
    out[base] = p.setup
    out[base + 1] = p.final_round
    out[base + 2] = p.game_over
    base += 3
    if p.side1 >= 0:
        out[base + p.side1] = 1.0
    base += 4
    if p.side3 >= 0:
        out[base + p.side3] = 1.0
