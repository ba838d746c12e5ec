# cython: language_level=3
"""Checks both compiled searches make (``search.pyx``'s UCT in its playouts, ``puct.pyx``
beside its network): a move that wins at once, whether a position's key
(``Kernel.position_key``) was met before, in the game or earlier on the search's path, and the
move the evaluation rates best (one ply of greedy play, to finish a turn before judging it)."""

from libc.stdint cimport uint64_t

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.core.kernel cimport TERMINAL, Kernel


cdef inline bint key_met(uint64_t key, const uint64_t* history, int count, const uint64_t* path,
                         int depth) noexcept nogil:
    """Whether ``key`` is in ``history`` (``count`` keys, sorted: a binary search) or among the
    first ``depth`` keys of ``path``; a zero key (a position that cannot recur) never is."""
    cdef int low = 0, high = count - 1, middle, i
    if key == 0:
        return False
    while low <= high:
        middle = (low + high) >> 1
        if history[middle] == key:
            return True
        if history[middle] < key:
            low = middle + 1
        else:
            high = middle - 1
    for i in range(depth):
        if path[i] == key:
            return True
    return False


cdef inline int winning_index(Kernel k, Kernel probe, const int* actions, int count, int player,
                              int players, double* reward) noexcept:
    """The index in ``actions`` (the ``count`` legal actions of ``player``, to act in ``k``) of
    a move that ends the game with ``player`` ahead of every other seat, its returns written
    into ``reward``; -1 when there is none. Each move is tried on ``probe``."""
    cdef int i, seat
    cdef double result[4]
    cdef bint ahead
    for i in range(count):
        probe.copy_from(k)
        probe.apply(actions[i])
        if probe.to_move() != TERMINAL:
            continue
        probe.returns_into(result)
        ahead = True
        for seat in range(players):
            if seat != player and result[seat] >= result[player]:
                ahead = False
        if ahead:
            for seat in range(players):
                reward[seat] = result[seat]
            return i
    return -1


cdef inline int greedy_index(Kernel k, Kernel probe, LeafEvaluation evaluation,
                             const int* actions, int count, int player) noexcept:
    """The index in ``actions`` (the ``count`` legal actions of ``player``, to act in ``k``) of
    the one whose result ``evaluation`` rates best for ``player`` (the first among equals).
    Each move is tried on ``probe``."""
    cdef int i, best = 0
    cdef double result[4]
    cdef double top = -1.0
    for i in range(count):
        probe.copy_from(k)
        probe.apply(actions[i])
        evaluation.evaluate(probe, result)
        if result[player] > top:
            top = result[player]
            best = i
    return best
