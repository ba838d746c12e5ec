"""Passtally kernel, part: the ring of 24 slots (spec §3, §6). Where a marker lands, a seat's
marker moves, and the setup placements. Move kind j is ``MOVE_STEPS[j]`` of ``tables.py``: +1,
+2, -1, -2 slots. Included by ``kernel.pyx``. The functions take the ``Position`` and the rule
options, not the kernel, and are ``inline`` because ``legal_into``, ``playout_action`` and
``move_marker`` call them on every turn; the cold face (``fields.pyx``) reaches them through the
kernel's ``move_destination`` and ``setup_slots``."""


cdef inline int empty_step(const Position* p, int slot, int j) noexcept:
    """``destination`` under the default rules: the d-th empty slot from ``slot`` that way,
    found in the ring's empty slots as a 24-bit set turned so that the slots next to
    ``slot`` come first (forward: from bit 0 up; backward: from bit 23 down), then its lowest
    or highest set bit, once or twice; -1 where there are not d empty slots. Without a walk:
    how far a marker jumps is a coin toss to the CPU."""
    cdef unsigned int ring_mask = (1u << NUM_SLOTS) - 1
    cdef unsigned int empty = ~(p.seat_slots[0] | p.seat_slots[1] | p.seat_slots[2]) & ring_mask
    cdef unsigned int ahead = ((empty >> (slot + 1)) | (empty << (NUM_SLOTS - 1 - slot))) & ring_mask
    cdef unsigned int behind = ((empty << (NUM_SLOTS - slot)) | (empty >> slot)) & ring_mask
    cdef unsigned int jump = <unsigned int>j & 1, found
    cdef int back, fore
    ahead &= ahead - jump  # a jump of two passes the nearest empty slot
    behind &= ~(jump << (31 - clz(behind | 1)))
    fore = (slot + 1 + ctz(ahead | 0x80000000u)) % NUM_SLOTS
    back = (slot + 31 - clz(behind | 1)) % NUM_SLOTS
    found = behind if j >= 2 else ahead
    fore = back if j >= 2 else fore
    return fore if found else -1


cdef inline int destination(Position* p, int slot, int j, bint jump_step,
                            bint continuous) noexcept:
    """Where the marker on ``slot`` lands with move kind j, or -1. Default: the d-th *empty*
    slot that way, occupied ones jumped for free (§6.1; ``empty_step``); with
    ``jump_counts_as_step`` every slot counts (§6.2); without continuous corners the walk may
    not leave the slot's side (§6.3)."""
    cdef int step = 1 if j < 2 else -1, left = 1 + (j & 1), pos = slot, nxt, i
    if not jump_step and continuous:
        return empty_step(p, slot, j)
    if jump_step:
        for i in range(left):
            nxt = (pos + step + NUM_SLOTS) % NUM_SLOTS
            if not continuous and nxt // SIZE != pos // SIZE:
                return -1
            pos = nxt
        return pos if p.ring[pos] < 0 else -1
    for i in range(NUM_SLOTS - 1):
        nxt = (pos + step + NUM_SLOTS) % NUM_SLOTS
        if not continuous and nxt // SIZE != pos // SIZE:
            return -1
        pos = nxt
        if p.ring[pos] < 0:
            left -= 1
            if left == 0:
                return pos
    return -1


cdef inline int moves_into(Position* p, int seat, int* out, bint jump_step,
                           bint continuous) noexcept:
    """The seat's marker moves in id order. Under the default rules at least 12 of the 24 slots
    are empty, so every marker reaches 4 different empty slots (spec §14 item 8)."""
    cdef int s, j, count = 0
    cdef unsigned int left = p.seat_slots[seat]
    cdef bint always = not jump_step and continuous
    while left:
        s = ctz(left)
        left &= left - 1
        for j in range(4):
            if always or destination(p, s, j, jump_step, continuous) >= 0:
                out[count] = MOVE_BASE + s * 4 + j
                count += 1
    return count


cdef inline bint has_move(Position* p, int seat, bint jump_step, bint continuous) noexcept:
    cdef int buffer[4 * NUM_SLOTS]
    return moves_into(p, seat, buffer, jump_step, continuous) > 0


cdef inline int setup_placer(int placed, int n) noexcept:
    """The seat placing marker number ``placed``: turn order, then reversed (snake)."""
    cdef int pass_index = placed // n, k = placed % n
    return k if pass_index % 2 == 0 else n - 1 - k


cdef inline unsigned int side_slots(int side) noexcept:
    """The slots of one side of the ring, as bits."""
    return ((1u << SIZE) - 1) << (side * SIZE)


cdef inline int setup_slots_into(Position* p, int n, int* out) noexcept:
    """Legal slots for the next setup marker (§3 'Setup placements in the engine')."""
    cdef int pass_index = p.markers // n, k = p.markers % n, count = 0
    cdef unsigned int free
    if pass_index == 0:
        free = side_slots(p.side1) if k else (1u << NUM_SLOTS) - 1
    elif pass_index == 1:
        free = side_slots((p.side1 + 2) % 4)
    elif pass_index == 2:
        if k:
            free = side_slots(p.side3)
        else:
            free = side_slots((p.side1 + 1) % 4) | side_slots((p.side1 + 3) % 4)
    else:
        free = side_slots((p.side3 + 2) % 4)
    free &= ~(p.seat_slots[0] | p.seat_slots[1] | p.seat_slots[2])
    while free:
        out[count] = ctz(free)
        free &= free - 1
        count += 1
    return count
