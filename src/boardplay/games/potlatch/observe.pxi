"""Potlatch Klone kernel, part: the observation tensor and its compact form (documented in
``observation.py`` and ``docs/adapters.md``). Included by ``kernel.pyx``; the kernel's
``observe_into`` / ``compact_into`` / ``expand_into`` call these."""


cdef void _observe(PotlatchKernel k, int player, float* out) noexcept:
    """The tensor documented in ``observation.py`` (17 planes over a 23 x 23 window)."""
    cdef int turn = player == 1
    cdef int own_code = 4 + player, opp_code = 5 - player
    cdef int i, s, c, code, height, neutral = 0
    cdef unsigned int rest = k.s.b.tiles
    cdef double scalars[8]
    memset(out, 0, OBSERVATION_SIZE * sizeof(float))
    for i in range(k.s.b.ntiles):
        s = k.s.b.order[i]
        code = k.s.b.code[s]
        neutral += code if code <= 3 else 2
        c = k.cell(s, turn)
        if c < 0:
            continue
        out[c] = 1.0
        height = HEIGHT[code]
        if height >= 1:
            out[CELLS + c] = 1.0
        if height >= 2:
            out[2 * CELLS + c] = 1.0
        if height == 3:
            out[3 * CELLS + c] = 1.0
        if code == own_code:
            out[4 * CELLS + c] = 1.0
        elif code == opp_code:
            out[5 * CELLS + c] = 1.0
    c = k.cell(k.s.b.pawn[player], turn)
    if c >= 0:
        out[6 * CELLS + c] = 1.0
    c = k.cell(k.s.b.pawn[1 - player], turn)
    if c >= 0:
        out[7 * CELLS + c] = 1.0
    if k.s.condition == 0:
        for i in range(k.s.b.npath):
            c = k.cell(k.s.b.path[i], turn)
            if c >= 0:
                out[8 * CELLS + c] = 1.0
    scalars[0] = 1.0 if k.s.condition == 0 and k.s.b.mover == player else 0.0
    scalars[1] = <double>k.s.done / k.s.n_actions
    scalars[2] = 1.0 if k.s.b.run_open else 0.0
    scalars[3] = 1.0 if k.s.n_actions == 3 else 0.0
    scalars[4] = <double>k.s.b.stock / 12
    scalars[5] = <double>k.s.b.colour[player] / 3
    scalars[6] = <double>k.s.b.colour[1 - player] / 3
    scalars[7] = <double>(36 - neutral) / 36
    for i in range(8):
        if scalars[i] != 0.0:
            for c in range((9 + i) * CELLS, (10 + i) * CELLS):
                out[c] = <float>scalars[i]


cdef void _compact(PotlatchKernel k, int player, unsigned char* out) noexcept:
    """The tensor's information in ``CELLS + COMPACT_EXTRA`` bytes (expanded by
    ``observation.expand_compact``): one byte per window cell, bit 0 tile, bits 1-2 height,
    3 own stack, 4 opponent stack, 5 own pawn, 6 opponent pawn, 7 visited this turn; then
    the eight scalar planes as the integers they are made of (own turn, actions done,
    actions per turn, run open, stock, own stacks, opponent stacks, neutral supply)."""
    cdef int turn = player == 1
    cdef int own_code = 4 + player, opp_code = 5 - player
    cdef int i, s, c, code, neutral = 0
    memset(out, 0, CELLS)
    for i in range(k.s.b.ntiles):
        s = k.s.b.order[i]
        code = k.s.b.code[s]
        neutral += code if code <= 3 else 2
        c = k.cell(s, turn)
        if c < 0:
            continue
        out[c] = 1 | (HEIGHT[code] << 1)
        if code == own_code:
            out[c] |= 8
        elif code == opp_code:
            out[c] |= 16
    c = k.cell(k.s.b.pawn[player], turn)
    if c >= 0:
        out[c] |= 32
    c = k.cell(k.s.b.pawn[1 - player], turn)
    if c >= 0:
        out[c] |= 64
    if k.s.condition == 0:
        for i in range(k.s.b.npath):
            c = k.cell(k.s.b.path[i], turn)
            if c >= 0:
                out[c] |= 128
    out[CELLS] = k.s.condition == 0 and k.s.b.mover == player
    out[CELLS + 1] = k.s.done
    out[CELLS + 2] = k.s.n_actions
    out[CELLS + 3] = k.s.b.run_open != 0
    out[CELLS + 4] = k.s.b.stock
    out[CELLS + 5] = k.s.b.colour[player]
    out[CELLS + 6] = k.s.b.colour[1 - player]
    out[CELLS + 7] = 36 - neutral


cdef void _expand(PotlatchKernel k, const unsigned char* compact, float* out) noexcept:
    """The inverse of ``compact_into``: exactly the floats ``observe_into`` writes."""
    cdef int c, bits, height, i
    cdef const unsigned char* s = compact + CELLS
    cdef double scalars[8]
    memset(out, 0, OBSERVATION_SIZE * sizeof(float))
    for c in range(CELLS):
        bits = compact[c]
        if bits == 0:
            continue
        height = (bits >> 1) & 3
        out[c] = bits & 1
        out[CELLS + c] = height >= 1
        out[2 * CELLS + c] = height >= 2
        out[3 * CELLS + c] = height == 3
        for i in range(3, 8):
            out[(i + 1) * CELLS + c] = (bits >> i) & 1
    scalars[0] = s[0]
    scalars[1] = <double>s[1] / s[2] if s[2] else 0.0
    scalars[2] = s[3]
    scalars[3] = s[2] == 3
    scalars[4] = <double>s[4] / 12
    scalars[5] = <double>s[5] / 3
    scalars[6] = <double>s[6] / 3
    scalars[7] = <double>s[7] / 36
    for i in range(8):
        if scalars[i] != 0.0:
            for c in range((9 + i) * CELLS, (10 + i) * CELLS):
                out[c] = <float>scalars[i]
