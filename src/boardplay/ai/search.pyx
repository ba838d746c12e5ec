# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The MCTS loop in compiled code, over any game's ``Kernel`` (``MCTSAgent`` drives it).

One simulation copies the root position into a preallocated working kernel (``copy_from``),
descends the tree by UCT (max-n: the seat to act maximises its own mean return), samples chance
outcomes by their probabilities, expands one untried action, then either plays uniformly random
actions (``sample_legal``) for ``cutoff`` actions or to the end and backs up the evaluation
(``LeafEvaluation``, computed from ``features_into``) or the result. Nothing in that loop
touches a Python object.

The tree is a pool of ``Node`` structs addressed by index (so the pool can grow by ``realloc``);
a node's children form a linked list in the order they were tried, and a decision node's untried
actions are the tail of its slice of the ``moves`` pool, which ``legal_into`` fills when the node
is first descended through (most leaves are visited once and never need theirs). Tree reuse
keeps the subtree under the actions actually played (``advance``) and copies it to the front of
the pools, so a long game does not grow them without end.
"""

from libc.math cimport log, sqrt
from libc.stdlib cimport free, malloc, realloc
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from boardplay.core.kernel cimport CHANCE, TERMINAL, Kernel, Rng, rng_below, sample_chance
from boardplay.ai.evaluation.compiled cimport LeafEvaluation

cdef enum:
    MAX_SEATS = 4
    CHECK_EVERY = 32  # simulations between two checks whether the search may stop early
    TIME_EVERY = 8  # simulations between two looks at the clock

MAX_NODES = 4_000_000
"""The tree stops growing here (about 260 MB); further simulations still run, from leaves."""

ctypedef struct Node:
    int action          # the action or chance outcome that leads here (-1 at a root)
    int player          # the seat to act here, CHANCE or TERMINAL
    int first_child     # -1: no child yet
    int next_sibling    # -1: the last child of its parent
    int moves_at        # start of this node's legal actions in the moves pool; -1 until listed
    int count           # legal actions listed at moves_at
    int tried           # of those, the ones with a child (the first ``tried`` entries)
    int visits
    double value[MAX_SEATS]   # summed returns per seat over ``visits`` simulations


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef class Search:
    """A UCT tree over one game's kernels. ``c`` exploration, ``cutoff`` rollout actions before
    the evaluation (-1: to the end), ``contempt`` how much less than a draw a drawn end is worth
    to ``seat``; ``evaluation`` is needed whenever ``cutoff`` is not -1."""

    cdef Kernel root_kernel
    cdef Kernel work
    cdef LeafEvaluation evaluation
    cdef Node* nodes
    cdef int node_count
    cdef int node_capacity
    cdef int* moves
    cdef int move_count
    cdef int move_capacity
    cdef int* path
    cdef int path_capacity
    cdef int* scratch
    cdef int* outcomes
    cdef double* probabilities
    cdef int players
    cdef int space
    cdef int max_nodes
    cdef Rng rng
    cdef public double c
    cdef public int cutoff
    cdef public double contempt
    cdef public int seat
    cdef readonly int root

    def __cinit__(self, Kernel prototype, LeafEvaluation evaluation=None, *, double c=1.0,
                  int cutoff=-1, double contempt=0.0, unsigned long long seed=0,
                  int max_nodes=MAX_NODES):
        if prototype.num_players > MAX_SEATS:
            raise ValueError(f"the compiled search takes at most {MAX_SEATS} seats")
        if cutoff >= 0 and evaluation is None:
            raise ValueError("a rollout cutoff needs an evaluation")
        if max_nodes < 2:
            raise ValueError("the tree needs room for at least two nodes")
        self.root_kernel = prototype.copy()
        self.work = prototype.copy()
        self.evaluation = evaluation
        self.players = prototype.num_players
        self.space = max(prototype.action_space, prototype.chance_space, 1)
        self.max_nodes = max_nodes
        self.c = c
        self.cutoff = cutoff
        self.contempt = contempt
        self.rng.state = seed
        self.node_capacity = min(4096, max_nodes)
        self.move_capacity = 4 * self.space + 4096
        self.path_capacity = 256
        self.nodes = <Node*>malloc(self.node_capacity * sizeof(Node))
        self.moves = <int*>malloc(self.move_capacity * sizeof(int))
        self.path = <int*>malloc(self.path_capacity * sizeof(int))
        self.scratch = <int*>malloc(self.space * sizeof(int))
        self.outcomes = <int*>malloc(self.space * sizeof(int))
        self.probabilities = <double*>malloc(self.space * sizeof(double))
        if (self.nodes == NULL or self.moves == NULL or self.path == NULL
                or self.scratch == NULL or self.outcomes == NULL or self.probabilities == NULL):
            raise MemoryError()
        self.reset(prototype)

    def __dealloc__(self):
        free(self.nodes)
        free(self.moves)
        free(self.path)
        free(self.scratch)
        free(self.outcomes)
        free(self.probabilities)

    # ----- the Python face --------------------------------------------------------------------
    def reset(self, Kernel position) -> None:
        """Forget the tree; the next search starts from ``position`` (copied)."""
        self.root_kernel.copy_from(position)
        self.node_count = 0
        self.move_count = 0
        self.root = self.new_node(-1, position.to_move())

    def set_position(self, Kernel position) -> None:
        """Keep the tree but search from ``position``, which must be the one the root stands
        for (the caller checked it: it followed the played actions with ``advance``)."""
        self.root_kernel.copy_from(position)

    def seed(self, unsigned long long seed) -> None:
        self.rng.state = seed

    def advance(self, int action) -> bool:
        """Make the root's child under ``action`` the new root (False, tree unchanged, when the
        search never tried it), and move that subtree to the front of the pools."""
        cdef int child = self.find_child(self.root, action)
        if child < 0:
            return False
        self.compact(child)
        return True

    def run(self, long iterations, double seconds, bint early_stop) -> tuple:
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
        self.check(node)
        return self.nodes[node].player

    def node_visits(self, int node) -> int:
        self.check(node)
        return self.nodes[node].visits

    def node_value(self, int node, int seat) -> float:
        """The mean return of ``seat`` over the node's simulations (0 before any)."""
        self.check(node)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat}")
        cdef Node* n = &self.nodes[node]
        return n.value[seat] / n.visits if n.visits else 0.0

    def children(self, int node) -> list:
        """``(action, child node, visits)`` for every child of ``node``, most visited first."""
        self.check(node)
        out = []
        cdef int child = self.nodes[node].first_child
        while child >= 0:
            out.append((self.nodes[child].action, child, self.nodes[child].visits))
            child = self.nodes[child].next_sibling
        out.sort(key=lambda item: -item[2])
        return out

    @property
    def size(self) -> int:
        """Nodes in the tree."""
        return self.node_count

    # ----- the compiled loop ------------------------------------------------------------------
    cdef void check(self, int node) except *:
        if not 0 <= node < self.node_count:
            raise IndexError(f"no node {node} in a tree of {self.node_count}")

    cdef int new_node(self, int action, int player) except -1:
        """Append a node; -2 with the tree full (the caller then stops expanding)."""
        cdef Node* grown
        cdef int i
        if self.node_count >= self.node_capacity:
            if self.node_capacity >= self.max_nodes:
                return -2
            grown = <Node*>realloc(self.nodes, min(2 * self.node_capacity, self.max_nodes) * sizeof(Node))
            if grown == NULL:
                return -2
            self.nodes = grown
            self.node_capacity = min(2 * self.node_capacity, self.max_nodes)
        cdef Node* n = &self.nodes[self.node_count]
        n.action = action
        n.player = player
        n.first_child = -1
        n.next_sibling = -1
        n.moves_at = -1
        n.count = 0
        n.tried = 0
        n.visits = 0
        for i in range(MAX_SEATS):
            n.value[i] = 0.0
        self.node_count += 1
        return self.node_count - 1

    cdef int find_child(self, int node, int action) noexcept:
        cdef int child = self.nodes[node].first_child
        while child >= 0 and self.nodes[child].action != action:
            child = self.nodes[child].next_sibling
        return child

    cdef int list_moves(self, int node) except -1:
        """Fill ``node``'s untried actions from the working kernel (which stands at ``node``)."""
        cdef int* grown
        cdef int capacity
        if self.move_count + self.space > self.move_capacity:
            capacity = 2 * self.move_capacity + self.space
            grown = <int*>realloc(self.moves, capacity * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.moves = grown
            self.move_capacity = capacity
        cdef Node* n = &self.nodes[node]
        n.moves_at = self.move_count
        n.count = self.work.legal_into(self.moves + self.move_count)
        self.move_count += n.count
        return 0

    cdef int push(self, int depth, int node) except -1:
        cdef int* grown
        if depth >= self.path_capacity:
            grown = <int*>realloc(self.path, 2 * self.path_capacity * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.path = grown
            self.path_capacity *= 2
        self.path[depth] = node
        return depth + 1

    cdef int select(self, int node, int player) noexcept:
        """The child maximising ``player``'s mean return plus the UCT bonus."""
        cdef double log_n = log(self.nodes[node].visits) if self.nodes[node].visits > 0 else 0.0
        cdef double best_score = -1e300, score
        cdef int best = -1
        cdef int child = self.nodes[node].first_child
        cdef Node* n
        while child >= 0:
            n = &self.nodes[child]
            score = n.value[player] / n.visits + self.c * sqrt(log_n / n.visits)
            if score > best_score:
                best_score = score
                best = child
            child = n.next_sibling
        return best

    cdef int simulate(self) except -1:
        cdef Kernel k = self.work
        cdef int node = self.root, child, player, pick, action, depth = 0, i, steps
        cdef Node* n
        cdef double reward[MAX_SEATS]
        cdef double top, bottom
        k.copy_from(self.root_kernel)
        depth = self.push(depth, node)
        while True:
            player = self.nodes[node].player
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = sample_chance(k, &self.rng, self.outcomes, self.probabilities)
                k.apply(action)
                child = self.find_child(node, action)
                if child < 0:
                    child = self.new_node(action, k.to_move())
                    if child < 0:  # the tree is full: roll out from here
                        break
                    self.nodes[child].next_sibling = self.nodes[node].first_child
                    self.nodes[node].first_child = child
                node = child
                depth = self.push(depth, node)
                continue
            if self.nodes[node].moves_at < 0:
                self.list_moves(node)
            n = &self.nodes[node]
            if n.tried < n.count:
                # A uniformly random untried action, swapped to the end of the tried ones.
                pick = n.moves_at + n.tried + rng_below(&self.rng, n.count - n.tried)
                action = self.moves[pick]
                self.moves[pick] = self.moves[n.moves_at + n.tried]
                self.moves[n.moves_at + n.tried] = action
                k.apply(action)
                child = self.new_node(action, k.to_move())
                if child < 0:
                    break
                n = &self.nodes[node]  # new_node may have moved the pool
                n.tried += 1
                self.nodes[child].next_sibling = n.first_child
                n.first_child = child
                depth = self.push(depth, child)
                break
            child = self.select(node, player)
            if child < 0:  # a decision node without actions cannot occur in the contract
                break
            k.apply(self.nodes[child].action)
            node = child
            depth = self.push(depth, node)
        # Rollout: uniform actions for ``cutoff`` actions (or to the end), then the evaluation.
        steps = 0
        while True:
            player = k.to_move()
            if player == TERMINAL:
                k.returns_into(reward)
                if self.contempt > 0:
                    top = bottom = reward[0]
                    for i in range(1, self.players):
                        top = max(top, reward[i])
                        bottom = min(bottom, reward[i])
                    if top - bottom < 1e-9:
                        # A drawn end is worth a little less than a draw to the searching seat
                        # only, so it plays on for a win (the opponents have no contempt).
                        reward[self.seat] -= self.contempt
                break
            if self.cutoff >= 0 and steps >= self.cutoff:
                self.evaluation.evaluate(k, reward)
                break
            if player == CHANCE:
                k.apply(sample_chance(k, &self.rng, self.outcomes, self.probabilities))
            else:
                k.apply(k.sample_legal(&self.rng, self.scratch))
            steps += 1
        for i in range(depth):
            n = &self.nodes[self.path[i]]
            n.visits += 1
            for pick in range(self.players):
                n.value[pick] += reward[pick]
        return 0

    cdef int lead(self) noexcept:
        """The root's most visited child's visits minus the runner-up's."""
        cdef int first = 0, second = 0, visits
        cdef int child = self.nodes[self.root].first_child
        while child >= 0:
            visits = self.nodes[child].visits
            if visits > first:
                first, second = visits, first
            elif visits > second:
                second = visits
            child = self.nodes[child].next_sibling
        return first - second

    cdef void compact(self, int top) except *:
        """Copy the subtree under ``top`` into fresh pools (``top`` becomes node 0)."""
        cdef Node* nodes = <Node*>malloc(self.node_capacity * sizeof(Node))
        cdef int* moves = <int*>malloc(self.move_capacity * sizeof(int))
        cdef int* stack = <int*>malloc(self.node_capacity * sizeof(int))
        if nodes == NULL or moves == NULL or stack == NULL:
            free(nodes)
            free(moves)
            free(stack)
            raise MemoryError()
        # Breadth-first: each copied node's children are copied next to each other, and a copy's
        # old index waits on the stack beside its new one.
        cdef int count = 1, move_count = 0, head = 0, old, new, child, previous, copy
        nodes[0] = self.nodes[top]
        nodes[0].next_sibling = -1
        stack[0] = top
        while head < count:
            new = head
            old = stack[head]
            head += 1
            if nodes[new].moves_at >= 0:
                for child in range(nodes[new].count):
                    moves[move_count + child] = self.moves[nodes[new].moves_at + child]
                nodes[new].moves_at = move_count
                move_count += nodes[new].count
            previous = -1
            child = self.nodes[old].first_child
            nodes[new].first_child = -1
            while child >= 0:
                copy = count
                count += 1
                nodes[copy] = self.nodes[child]
                nodes[copy].next_sibling = -1
                stack[copy] = child
                if previous < 0:
                    nodes[new].first_child = copy
                else:
                    nodes[previous].next_sibling = copy
                previous = copy
                child = self.nodes[child].next_sibling
        free(stack)
        free(self.nodes)
        free(self.moves)
        self.nodes = nodes
        self.moves = moves
        self.node_count = count
        self.move_count = move_count
        self.root = 0
