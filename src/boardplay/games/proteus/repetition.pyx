# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The set of positions met in the movement phase (``repetition="forbid"``): a hash set of
packed 64-bit keys in one C array, so a kernel copies it with one memcpy and a lookup costs a
multiply and a probe or two. It grows by doubling (the only allocation, amortised); clearing
keeps the memory for the next game."""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

cdef enum:
    FIRST_CAPACITY = 64


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
