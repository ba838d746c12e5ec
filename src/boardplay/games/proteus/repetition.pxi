"""Proteus kernel, part: the set of positions met in the movement phase
(``repetition="forbid"``): a hash set of packed 64-bit keys in one C array, so a kernel copies it
with one memcpy and a lookup costs a multiply and a probe or two. It grows by doubling (the only
allocation, amortised); clearing keeps the memory for the next game. Included by
``kernel.pyx``; the ``KeySet`` struct is in ``kernel.pxd``, as the kernel holds one."""

cdef enum:
    FIRST_CAPACITY = 64


cdef inline uint64_t pack_key(const int* tiles, const int* where, const int* active,
                              int mover) noexcept nogil:
    """A movement-phase position (board, active tiles, side to move) in 63 bits plus a marker
    bit, so no key is 0. Every tile and piece is on the board then: the tiles of cells a1..c2
    (c3's follows), the cell of each piece, per colour which of its tiles is active, the mover.
    Placement-phase positions never equal a movement-phase one and are not stored."""
    cdef uint64_t key = (<uint64_t>1) << 63
    cdef int i
    for i in range(8):
        key |= (<uint64_t>tiles[i]) << (4 * i)
    for i in range(6):
        key |= (<uint64_t>where[i]) << (32 + 4 * i)
    for i in range(3):
        if active[i] >= 0:
            key |= (<uint64_t>(active[i] - 3 * i + 1)) << (56 + 2 * i)
    return key | (<uint64_t>mover) << 62


cdef inline uint64_t _slot_hash(uint64_t key) noexcept nogil:
    key ^= key >> 33
    key *= <uint64_t>0xFF51AFD7ED558CCD
    key ^= key >> 33
    return key


cdef bint keys_contain(const KeySet* keys, uint64_t key) noexcept nogil:
    if keys.count == 0:
        return False
    cdef uint64_t mask = keys.capacity - 1
    cdef uint64_t slot = _slot_hash(key) & mask
    while keys.slots[slot] != 0:
        if keys.slots[slot] == key:
            return True
        slot = (slot + 1) & mask
    return False


cdef void keys_add(KeySet* keys, uint64_t key) noexcept nogil:
    cdef uint64_t* old = keys.slots
    cdef int old_capacity = keys.capacity, i
    cdef uint64_t mask, slot
    if (keys.count + 1) * 2 > keys.capacity:
        keys.capacity = old_capacity * 2 if old_capacity else FIRST_CAPACITY
        keys.slots = <uint64_t*>malloc(keys.capacity * sizeof(uint64_t))
        if keys.slots == NULL:  # out of memory: keep the old table rather than crash
            keys.slots = old
            keys.capacity = old_capacity
            return
        memset(keys.slots, 0, keys.capacity * sizeof(uint64_t))
        keys.count = 0
        for i in range(old_capacity):
            if old[i] != 0:
                keys_add(keys, old[i])
        free(old)
    mask = keys.capacity - 1
    slot = _slot_hash(key) & mask
    while keys.slots[slot] != 0:
        if keys.slots[slot] == key:
            return
        slot = (slot + 1) & mask
    keys.slots[slot] = key
    keys.count += 1


cdef void keys_clear(KeySet* keys) noexcept nogil:
    if keys.count:
        memset(keys.slots, 0, keys.capacity * sizeof(uint64_t))
        keys.count = 0


cdef void keys_assign(KeySet* keys, const KeySet* other) noexcept nogil:
    """Become a copy of ``other``, reusing this table's memory when the sizes agree."""
    if other.count == 0:
        keys_clear(keys)
        return
    if keys.capacity != other.capacity:
        free(keys.slots)
        keys.slots = <uint64_t*>malloc(other.capacity * sizeof(uint64_t))
        if keys.slots == NULL:  # out of memory: an empty table rather than a crash
            keys.capacity = 0
            keys.count = 0
            return
        keys.capacity = other.capacity
    memcpy(keys.slots, other.slots, other.capacity * sizeof(uint64_t))
    keys.count = other.count


cdef void keys_free(KeySet* keys) noexcept nogil:
    free(keys.slots)
    keys.slots = NULL
    keys.capacity = 0
    keys.count = 0
