# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The base both compiled searches share (``Search``, UCT, and ``Puct``, PUCT): the pool of
nodes, the run loop and everything a simulation needs but its steps. A base class rather than a
C struct of buffers because its Python face (``run``, ``advance``, ``node_visits`` ...,
``set_position``, ``set_history``, ``seed``) and its fields' owners (``seat``, ``contempt``, the
exact checks' switches) are the same in both; each search adds its simulation (``simulate``,
called through the class, as a ``cdef`` method always is) and the arrays it keeps beside the
pool, which follow the pool when it grows (``grown``) and when a subtree moves to its front
(``moved``).

The pool is one array of 24-byte ``Node`` structs addressed by index (so it can grow by
``realloc``). A node's children are laid out as one block when a simulation first passes
through it, so selection reads neighbouring memory instead of chasing pointers across the pool.
Tree reuse keeps the subtree under the actions actually played (``advance``) and copies it to
the front of the pool, so a long game does not grow it without end."""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from boardplay.core.kernel cimport Kernel


cdef inline double now() noexcept nogil:
    """Seconds on the monotonic clock (the searches' time budgets)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


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
        free(self.nodes)
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

    def advance(self, int action) -> bool:
        """Make the root's child under ``action`` the new root (False, tree unchanged, when no
        simulation went there), and move that subtree to the front of the pool."""
        cdef int child = self.find_child(self.root, action)
        if child < 0 or self.nodes[child].visits == 0:
            return False
        self.compact(child)
        return True

    def run(self, long iterations, double seconds, bint early_stop=False) -> tuple:
        """Simulate until ``iterations`` (0: no limit) or ``seconds`` (0: no limit) run out, or,
        with ``early_stop``, until the rest could not change the most visited root move.
        Returns ``(simulations, seconds)``."""
        if iterations <= 0 and seconds <= 0:
            raise ValueError("a search needs an iteration or a time budget")
        cdef double start = now(), elapsed = 0.0, rate, remaining
        cdef long done = 0
        while True:
            if iterations > 0 and done >= iterations:
                break
            if seconds > 0 and done > 0 and done % TIME_EVERY == 0:
                elapsed = now() - start
                if elapsed >= seconds:
                    break
            if early_stop and done > 0 and done % CHECK_EVERY == 0:
                remaining = 1e300 if iterations <= 0 else <double>(iterations - done)
                if seconds > 0:
                    elapsed = now() - start
                    rate = done / elapsed if elapsed > 0 else 1e300
                    remaining = min(remaining, rate * max(0.0, seconds - elapsed))
                if self.lead() > remaining:
                    break
            self.simulate()
            done += 1
        return done, now() - start

    def node_player(self, int node) -> int:
        """The seat to act at ``node`` (CHANCE -1, TERMINAL -4; -99 before any visit)."""
        self.check(node)
        return self.nodes[node].player

    def node_visits(self, int node) -> int:
        self.check(node)
        return self.nodes[node].visits

    def node_value(self, int node) -> float:
        """The mean return, over the node's simulations, of the seat that chose it (for the
        root: the searching seat); 0 before any."""
        self.check(node)
        cdef Node* n = &self.nodes[node]
        return n.value / n.visits if n.visits else 0.0

    @property
    def size(self) -> int:
        """Nodes in the pool (listed children included)."""
        return self.node_count

    # ----- the pool ---------------------------------------------------------------------------
    cdef int pool(self, int max_nodes) except -1:
        """Allocate the pool (a search's ``__cinit__`` calls this): room for 8,192 nodes or four
        of the longest blocks, growing by doubling up to ``max_nodes``."""
        if max_nodes < 1 + self.space:
            raise ValueError(f"the tree needs room for at least {1 + self.space} nodes")
        self.max_nodes = max_nodes
        self.node_capacity = min(max(8192, 4 * self.space), max_nodes)
        self.nodes = <Node*>malloc(self.node_capacity * sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()
        return 0

    cdef void restart(self, Kernel position) noexcept:
        """Forget the tree: the root alone, standing for ``position`` (copied)."""
        self.root_kernel.copy_from(position)
        self.node_count = 1
        self.root = 0
        blank(&self.nodes[0], -1)
        self.nodes[0].player = position.to_move()

    cdef list listed(self, int node, bint visited):
        """``(action, child node, visits)`` for every child of ``node`` (with ``visited``: only
        those a simulation went to), in the block's order (each search's ``children`` sorts
        them)."""
        self.check(node)
        cdef Node* n = &self.nodes[node]
        cdef int i
        if n.first_child < 0:
            return []
        return [
            (self.nodes[i].action, i, self.nodes[i].visits)
            for i in range(n.first_child, n.first_child + n.count)
            if not visited or self.nodes[i].visits > 0
        ]

    cdef void check(self, int node) except *:
        if not 0 <= node < self.node_count:
            raise IndexError(f"no node {node} in a tree of {self.node_count}")

    cdef int find_child(self, int node, int action) noexcept:
        cdef Node* n = &self.nodes[node]
        cdef int i
        if n.first_child < 0:
            return -1
        for i in range(n.first_child, n.first_child + n.count):
            if self.nodes[i].action == action:
                return i
        return -1

    cdef bint reserve(self, int count) except -1:
        """Room for ``count`` more nodes (the pool doubles up to ``max_nodes``, the search's
        arrays beside it with it); False when the tree is full."""
        cdef int capacity
        cdef Node* grown
        if self.node_count + count <= self.node_capacity:
            return True
        if self.node_count + count > self.max_nodes:
            return False
        capacity = min(max(2 * self.node_capacity, self.node_count + count), self.max_nodes)
        grown = <Node*>realloc(self.nodes, capacity * sizeof(Node))
        if grown == NULL:
            raise MemoryError()
        self.nodes = grown
        self.grown(capacity)
        self.node_capacity = capacity
        return True

    cdef int grown(self, int capacity) except -1:
        """The pool now holds ``capacity`` nodes: grow the search's arrays beside it (none
        here)."""
        return 0

    cdef void compact(self, int top) except *:
        """Copy the subtree under ``top`` into a fresh pool (``top`` becomes node 0), breadth
        first: each copied node's children block is copied whole, right after the last."""
        cdef Node* nodes = <Node*>malloc(self.node_capacity * sizeof(Node))
        cdef int* source = <int*>malloc(self.node_capacity * sizeof(int))
        cdef int count = 1, head = 0, i, block
        if nodes == NULL or source == NULL:
            free(nodes)
            free(source)
            raise MemoryError()
        nodes[0] = self.nodes[top]
        nodes[0].action = -1
        source[0] = top
        while head < count:
            block = self.nodes[source[head]].first_child
            if block >= 0:
                for i in range(nodes[head].count):
                    nodes[count + i] = self.nodes[block + i]
                    source[count + i] = block + i
                nodes[head].first_child = count
                count += nodes[head].count
            head += 1
        try:
            self.moved(source, count)
        except MemoryError:
            free(nodes)
            raise
        finally:
            free(source)
        free(self.nodes)
        self.nodes = nodes
        self.node_count = count
        self.root = 0

    cdef int moved(self, const int* source, int count) except -1:
        """The pool's first ``count`` nodes are now the old ``source[i]``: move the search's
        arrays beside it the same way (none here)."""
        return 0

    cdef void* widened(self, void* array, size_t size, int capacity) except NULL:
        """``array`` (of ``size``-byte items, one per node) reallocated for ``capacity`` nodes:
        ``grown``'s step for each array beside the pool."""
        cdef void* grown = realloc(array, capacity * size)
        if grown == NULL:
            raise MemoryError()
        return grown

    cdef void* followed(self, void* array, size_t size, const int* source,
                        int count) except NULL:
        """A fresh ``array`` (of ``size``-byte items, one per node) whose first ``count`` items
        are the old ``source[i]``; the old one is freed: ``moved``'s step for each array beside
        the pool."""
        cdef char* fresh = <char*>malloc(self.node_capacity * size)
        cdef int i
        if fresh == NULL:
            raise MemoryError()
        for i in range(count):
            memcpy(fresh + i * size, <char*>array + source[i] * size, size)
        free(array)
        return fresh

    cdef int lead(self) noexcept:
        """The root's most visited child's visits minus the runner-up's."""
        cdef int first = 0, second = 0, visits, i
        cdef Node* n = &self.nodes[self.root]
        if n.first_child < 0:
            return 0
        for i in range(n.first_child, n.first_child + n.count):
            visits = self.nodes[i].visits
            if visits > first:
                first, second = visits, first
            elif visits > second:
                second = visits
        return first - second

    cdef int simulate(self) except -1:
        """One simulation: each search's own."""
        raise NotImplementedError

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
