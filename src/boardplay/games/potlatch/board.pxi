"""Potlatch Klone kernel, part: the board's rules (spec §4-§7) over the ``Board`` struct: slots
and their neighbour table, tiles joining from the stock, the actions §5 and §6 allow, their
effects, and the dead-end search. Included by ``kernel.pyx``; every function reads or writes one
``Board`` and nothing else, a direct C call."""


cdef int HEIGHT[6]
HEIGHT[:] = [0, 1, 2, 3, 3, 3]
cdef int DQ[6]
DQ[:] = [1, 1, 0, -1, -1, 0]
cdef int DR[6]
DR[:] = [0, -1, -1, 0, 1, 1]
# Direction index of the offset (dq, dr) at (dq + 1) * 3 + (dr + 1); -1: not neighbours.
cdef int DIRECTION_OF[9]
DIRECTION_OF[:] = [-1, 3, 4, 2, -1, 5, 1, 0, -1]


cdef inline int find_slot(Board* b, int q, int r) noexcept nogil:
    cdef int s
    for s in range(b.nslots):
        if b.q[s] == q and b.r[s] == r:
            return s
    return -1


cdef inline int new_slot(Board* b, int q, int r) noexcept nogil:
    cdef int s = b.nslots
    b.nslots += 1
    b.q[s] = q
    b.r[s] = r
    b.code[s] = 0
    memset(b.nb[s], -1, 6)
    return s


cdef int OPPOSITE[6]
OPPOSITE[:] = [3, 4, 5, 0, 1, 2]


cdef int make_tile(Board* b, int s) noexcept nogil:
    """Turn slot ``s`` into a tile and link it with its tile neighbours. Where each tile lies is
    a coin toss to the CPU, so the scan has no branch: every tile is written to ``at`` at its
    direction from ``s`` (past the end, ``at[0]``, when it is no neighbour), then each of the
    six directions is linked both ways (a missing one writes into ``s``'s own row, which is
    written last)."""
    cdef int t, dq, dr, near, d
    cdef int qs = b.q[s] - 1, rs = b.r[s] - 1
    cdef int at[7]  # at[d + 1]: the tile toward direction d, -1 for none
    cdef unsigned int rest = b.tiles
    for d in range(7):
        at[d] = -1
    while rest:
        t = __builtin_ctz(rest)
        rest &= rest - 1
        dq = b.q[t] - qs  # 0..2 for a neighbour
        dr = b.r[t] - rs
        near = -((<unsigned int>dq <= 2) & (<unsigned int>dr <= 2))  # all ones when near
        at[DIRECTION_OF[4 + ((dq * 3 + dr - 4) & near)] + 1] = t  # 4: the centre, none
    for d in range(6):
        t = at[d + 1]
        t += (s - t) & (t >> 31)
        b.nb[t][OPPOSITE[d]] = s
    for d in range(6):
        b.nb[s][d] = at[d + 1]
    b.tiles |= 1u << s
    b.order[b.ntiles] = s
    b.ntiles += 1
    return s


cdef int place_tile(Board* b, int here, int direction) noexcept nogil:
    """Take a tile from the stock and put it on the blank space next to ``here``."""
    cdef int q = b.q[here] + DQ[direction]
    cdef int r = b.r[here] + DR[direction]
    cdef int s = -1
    if b.nslots > b.ntiles:  # only a phantom slot (see the module docstring) can be blank
        s = find_slot(b, q, r)
    if s < 0:
        s = new_slot(b, q, r)
    b.stock -= 1
    return make_tile(b, s)


cdef unsigned int STEP_CODES[4]
"""``STEP_CODES[h]``: bit mask of the chip codes whose height is within one of ``h``."""
cdef int _h, _c
for _h in range(4):
    STEP_CODES[_h] = 0
    for _c in range(6):
        if -1 <= HEIGHT[_c] - _h <= 1:
            STEP_CODES[_h] |= 1u << _c


cdef int rule_actions(Board* b, int* out) noexcept nogil:
    """Every action §5 and §6 allow now, in id order (no dead-end filtering). Written without
    branches: whether a neighbour is a blank edge, visited or a step too high is a coin toss
    to the CPU in a random game, so every direction is written and counted only when legal
    (``out`` has room for all twelve). Each neighbour is one *kind*, its chip code (0..5) or,
    for a blank edge, 8 and up, and a move is legal when its kind is in a mask of the kinds
    allowed now: for a Pawn Move the codes within one step of the pawn's height
    (``STEP_CODES``) and the blank kinds when a tile may be placed, its slot also not among the
    visited hexes and the other pawn's (a blank edge reads bit 63, never set); for a Chip Move
    the codes below 3 and the blank kinds when the stock has a tile."""
    cdef int here = b.pawn[b.mover]
    cdef int h_here = HEIGHT[b.code[here]]
    cdef unsigned int stock_left = -(b.stock > 0)  # all ones or none
    cdef unsigned int blank_ok = stock_left & -(b.blank_free | (h_here <= 1))
    cdef unsigned int pawn_kinds = STEP_CODES[h_here] | (blank_ok & 0xFF00u)
    cdef unsigned int chip_kinds = 7u | (stock_left & 0xFF00u)
    cdef unsigned long long barred = b.visited | 1u << b.pawn[1 - b.mover]
    cdef int n = 0, i, d, kind
    for i in range(6):
        d = b.nb[here][i]
        kind = b.code[d & 31] + ((<unsigned int>d >> 31) << 3)  # d & 31: any slot for -1
        out[n] = i
        n += (pawn_kinds >> kind) & ~(barred >> (d & 63)) & 1
    # Chip Moves are judged after the pending increase (§4.2): it makes h(here) >= 1.
    if h_here >= 1 or b.run_open:
        for i in range(6):
            d = b.nb[here][i]
            kind = b.code[d & 31] + ((<unsigned int>d >> 31) << 3)
            out[n] = PAWN_MOVES + i
            n += (chip_kinds >> kind) & 1
    return n


cdef inline void increase(Board* b) noexcept nogil:
    """The chip increase at the end of a run (§7): N on 0 or 1, the mover's colour on 2,
    nothing on 3."""
    cdef int here = b.pawn[b.mover]
    cdef int code = b.code[here]
    b.increases += 1
    if code < 2:
        b.code[here] = code + 1
    elif code == 2:
        b.code[here] = 4 + b.mover
        b.colour[b.mover] += 1


cdef void raw_apply(Board* b, int action) noexcept nogil:
    """The effects of one legal action (§5, §6), without turn bookkeeping."""
    cdef int here = b.pawn[b.mover]
    cdef int d, code
    if action < PAWN_MOVES:
        d = b.nb[here][action]
        if d < 0:
            d = place_tile(b, here, action)
        b.pawn[b.mover] = d
        b.visited |= 1u << d
        b.path[b.npath] = d
        b.npath += 1
        b.run_open = 1
        return
    if b.run_open:
        increase(b)
        b.run_open = 0
    # The top chip leaves; a colour chip goes home and a neutral chip travels instead.
    code = b.code[here]
    if code < 3:
        b.code[here] = code - 1
    else:
        b.code[here] = 2
        if code > 3:
            b.colour[code - 4] -= 1
    d = b.nb[here][action - PAWN_MOVES]
    if d < 0:
        d = place_tile(b, here, action - PAWN_MOVES)
    b.code[d] += 1  # 0->N, N->NN, NN->NNN: a Chip Move never makes a colour stack


cdef int can_finish(Board* b, int remaining) noexcept nogil:
    """Whether ``remaining`` more actions can be made from here (``filter_dead_ends``)."""
    cdef int actions[NUM_ACTIONS]
    cdef int n = rule_actions(b, actions)
    cdef int i
    cdef Board child
    if remaining == 1 or n == 0:
        return n > 0
    for i in range(n):
        child = b[0]
        raw_apply(&child, actions[i])
        if can_finish(&child, remaining - 1):
            return 1
    return 0
