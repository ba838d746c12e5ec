# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The base both compiled searches share (``Search``, UCT, and ``Puct``, PUCT): everything a
simulation needs but the nodes themselves. A base class rather than a C struct of buffers
because its Python face (``set_position``, ``set_history``, ``seed``) and its fields' owners
(``seat``, ``contempt``, the exact checks' switches) are the same in both; each search adds its
pool of nodes, whose layouts differ, and the loop over them."""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc

from boardplay.core.kernel cimport Kernel


cdef class Tree:
    """Allocates the path, the chance buffers and the working kernels for ``prototype``'s game
    (a search's ``__cinit__`` receives the same arguments and runs after this one)."""

    def __cinit__(self, Kernel prototype, *args, unsigned long long seed=0, **kwargs):
        if prototype.num_players > MAX_SEATS:
            raise ValueError(f"a compiled search takes at most {MAX_SEATS} seats")
        self.space = max(prototype.action_space, prototype.chance_space, 1)
        if self.space > MAX_SPACE:
            raise ValueError(f"a compiled search takes at most {MAX_SPACE} actions")
        self.root_kernel = prototype.copy()
        self.work = prototype.copy()
        self.probe = prototype.copy()
        self.players = prototype.num_players
        self.rng.state = seed
        self.path_capacity = 256
        self.path = <int*>malloc(self.path_capacity * sizeof(int))
        self.owners = <int*>malloc(self.path_capacity * sizeof(int))
        self.path_keys = <uint64_t*>malloc(self.path_capacity * sizeof(uint64_t))
        self.history = NULL
        self.history_count = 0
        self.outcomes = <int*>malloc(self.space * sizeof(int))
        self.probabilities = <double*>malloc(self.space * sizeof(double))
        if (self.path == NULL or self.owners == NULL or self.path_keys == NULL
                or self.outcomes == NULL or self.probabilities == NULL):
            raise MemoryError()

    def __dealloc__(self):
        free(self.path)
        free(self.owners)
        free(self.path_keys)
        free(self.history)
        free(self.outcomes)
        free(self.probabilities)

    def set_position(self, Kernel position) -> None:
        """Keep the tree but search from ``position``, which must be the one the root stands
        for (the caller checked it: it followed the played actions with ``advance``)."""
        self.root_kernel.copy_from(position)

    def set_history(self, keys) -> None:
        """The position keys met so far in the game (``Kernel.position_key``; zeros are
        ignored), against which ``repetition`` checks every position a simulation reaches."""
        values = sorted({int(key) for key in keys} - {0})
        cdef uint64_t* table = <uint64_t*>malloc(max(len(values), 1) * sizeof(uint64_t))
        cdef int i
        if table == NULL:
            raise MemoryError()
        for i in range(len(values)):
            table[i] = <uint64_t>values[i]
        free(self.history)
        self.history = table
        self.history_count = len(values)

    def seed(self, unsigned long long seed) -> None:
        self.rng.state = seed

    cdef int push(self, int depth, int node, int owner) except -1:
        """Put ``node`` (whose return is ``owner``'s) at index ``depth`` of the path, growing
        it when full; returns the path's new length."""
        cdef int* grown
        cdef uint64_t* keys
        if depth >= self.path_capacity:
            keys = <uint64_t*>realloc(self.path_keys, 2 * self.path_capacity * sizeof(uint64_t))
            if keys == NULL:
                raise MemoryError()
            self.path_keys = keys
            grown = <int*>realloc(self.path, 2 * self.path_capacity * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.path = grown
            grown = <int*>realloc(self.owners, 2 * self.path_capacity * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.owners = grown
            self.path_capacity *= 2
        self.path[depth] = node
        self.owners[depth] = owner
        return depth + 1

    cdef void drawn(self, double* reward) noexcept:
        """A draw's returns, less ``contempt`` for the searching seat (the opponents are
        modelled without contempt)."""
        cdef int i
        for i in range(self.players):
            reward[i] = 1.0 / self.players
        reward[self.seat] -= self.contempt

    cdef void ended(self, Kernel k, double* reward) noexcept:
        """The returns of the finished game in ``k``; a drawn end (every seat alike) is worth
        ``contempt`` less to the searching seat, as in ``drawn``, so it plays on for a win."""
        cdef double top, bottom
        cdef int i
        k.returns_into(reward)
        top = bottom = reward[0]
        for i in range(1, self.players):
            top = max(top, reward[i])
            bottom = min(bottom, reward[i])
        if top - bottom < 1e-9:
            reward[self.seat] -= self.contempt
