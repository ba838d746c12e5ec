"""The set of positions met in the movement phase, for ``repetition="forbid"`` (spec §10.6)."""

from libc.stdint cimport uint64_t


cdef struct KeySet:
    # Open addressing with linear probing; 0 marks an empty slot (no key is 0). ``capacity`` is
    # a power of two, at least twice ``count`` (0 before the first key).
    uint64_t* slots
    int capacity
    int count


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


cdef bint keys_contain(const KeySet* keys, uint64_t key) noexcept nogil
cdef void keys_add(KeySet* keys, uint64_t key) noexcept nogil
cdef void keys_clear(KeySet* keys) noexcept nogil
cdef void keys_assign(KeySet* keys, const KeySet* other) noexcept nogil
cdef void keys_free(KeySet* keys) noexcept nogil
