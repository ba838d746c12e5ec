# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The MCTS loop in compiled code, over any game's ``Kernel`` (``MCTSAgent`` drives it).

One simulation copies the root position into a preallocated working kernel (``copy_from``),
descends the tree by UCT (max-n: the seat to act maximises its own mean return), samples chance
outcomes by their probabilities, expands one untried action, then either plays uniformly random
actions (``sample_legal``; with ``policy`` the kernel's ``playout_action``) for ``cutoff``
actions or to the end and backs up the evaluation
(``LeafEvaluation``, computed from ``features_into``) or the result. With ``decisive`` every
playout step, the evaluation's included, first looks for a *decisive move* (one that wins the
game for the seat to act at once) and plays it when there is one (Teytaud & Teytaud, "On the
huge benefit of decisive moves in Monte-Carlo tree search", 2010): a leaf whose mover can win
on the spot is then backed up as that win, not as the evaluation's guess. With ``repetition``
a simulation whose path through the tree comes back to a position already met, earlier in the
game (``set_history``) or earlier on the path, stops there and backs up a draw (with the
searching seat's contempt), what endless back-and-forth is worth under a turn cap: a search
that is not behind then looks for progress instead of shuffling pieces and tiles back and forth
(positions are compared by ``Kernel.position_key``). With ``finish_turn``
a leaf reached in the middle of a seat's turn (the seat to act made the last action too, as
after the first of a Potlatch player's two actions) is not evaluated there: the seat first
completes its turn, each remaining action the one whose result the evaluation rates best for
it, so every evaluated position stands at a turn boundary and values from different depths of
the tree compare like with like. Nothing in that loop touches a Python object.

The tree is the pool of nodes of ``tree.pyx``, with the run loop and the Python face that
``Puct`` shares. When a simulation first passes through a node, all its children are laid out as
one block (``legal_into`` or ``chance_into`` writes their actions); the first ``tried`` children
of a decision node have been visited, the rest are its untried actions. Most leaves are visited
once and never get a block. A node keeps the summed return of one seat only: the seat that chose
it (the seat to act at the nearest decision above), the only value UCT and the analysis read
there.
"""

from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from boardplay.core.kernel cimport (
    CHANCE, TERMINAL, Kernel, rng_below, rng_unit, sample_chance,
)
from boardplay.core.leaf cimport LeafEvaluation
from boardplay.ai.tactics cimport greedy_index, key_met, winning_index
from boardplay.ai.tree cimport MAX_SEATS, UNSEEN, Node, Tree, back_up, begin, blank, room

cdef extern from *:
    void prefetch "__builtin_prefetch" (const void* address) noexcept nogil

cdef enum:
    TABLE = 4096  # child visit counts below this read UCT's terms from tables
    LOG_TABLE = 65536  # parent visit counts below this too

include "uct.pxi"

MAX_NODES = 8_000_000
"""The tree stops growing here (192 MB); further simulations still run, from its leaves."""


cdef class Search(Tree):
    """A UCT tree over one game's kernels. ``c`` exploration, ``cutoff`` rollout actions before
    the evaluation (-1: to the end), ``contempt`` how much less than a draw a drawn end is worth
    to ``seat`` (the searching seat), ``decisive`` whether playouts play a move that wins at
    once when there is one, ``finish_turn`` whether a leaf reached mid-turn is evaluated only
    after its mover's best completion of the turn, ``policy`` whether playouts take the kernel's
    ``playout_action`` instead of uniform actions, ``normalize`` whether selection rescales the
    means by their range at each node, ``spread`` whether it scales each node's exploration term
    by the spread of its mover's returns (``select``); ``evaluation`` is needed unless
    ``cutoff`` is -1."""

    cdef LeafEvaluation evaluation
    cdef int* scratch
    cdef double* squares  # with ``spread``: each node's summed squared return; else NULL
    cdef public double c
    cdef public int cutoff
    cdef public bint finish_turn
    cdef public bint policy
    cdef public bint normalize
    cdef readonly bint spread

    def __cinit__(self, Kernel prototype, LeafEvaluation evaluation=None, *, double c=1.0,
                  int cutoff=-1, double contempt=0.0, bint decisive=False,
                  bint finish_turn=False, bint repetition=False, bint policy=False,
                  bint normalize=False, bint spread=False, unsigned long long seed=0,
                  int max_nodes=MAX_NODES):
        if cutoff >= 0 and evaluation is None:
            raise ValueError("a rollout cutoff needs an evaluation")
        self.pool(max_nodes)
        self.evaluation = evaluation
        self.c = c
        self.cutoff = cutoff
        self.contempt = contempt
        self.decisive = decisive
        self.repetition = repetition
        self.finish_turn = finish_turn
        self.policy = policy
        self.normalize = normalize
        self.spread = spread
        self.scratch = <int*>malloc(self.space * sizeof(int))
        if spread:
            self.squares = <double*>malloc(self.node_capacity * sizeof(double))
        if self.scratch == NULL or (spread and self.squares == NULL):
            raise MemoryError()
        self.reset(prototype)

    def __dealloc__(self):
        free(self.scratch)
        free(self.squares)

    # ----- the Python face --------------------------------------------------------------------
    def reset(self, Kernel position) -> None:
        """Forget the tree; the next search starts from ``position`` (copied)."""
        self.restart(position)
        if self.squares != NULL:
            self.squares[0] = 0.0

    def children(self, int node) -> list:
        """``(action, child node, visits)`` for every visited child of ``node``, most visited
        first."""
        out = self.listed(node, True)
        out.sort(key=lambda item: -item[2])
        return out

    # ----- the compiled loop ------------------------------------------------------------------
    cdef int grown(self, int capacity) except -1:
        if self.squares != NULL:
            self.squares = <double*>self.widened(self.squares, sizeof(double), capacity)
        return 0

    cdef int moved(self, const int* source, int count) except -1:
        if self.squares != NULL:
            self.squares = <double*>self.followed(self.squares, sizeof(double), source, count)
        return 0

    cdef bint list_children(self, int node) except -1:
        """Lay out ``node``'s children as one block from the working kernel (which stands at
        ``node``); False when the pool is full (the node then stays a leaf)."""
        cdef int count, i, pick, action
        if self.nodes[node].player == CHANCE:
            count = self.work.chance_into(self.outcomes, self.probabilities)
        else:
            count = self.work.legal_into(self.outcomes)
        if not room(self, count):
            return False
        if self.nodes[node].player != CHANCE:
            # Decision nodes try their actions in a uniformly random order (Fisher-Yates now,
            # while the block is in cache; expansion then takes the next untried in line).
            for i in range(count - 1, 0, -1):
                pick = rng_below(&self.rng, i + 1)
                action = self.outcomes[i]
                self.outcomes[i] = self.outcomes[pick]
                self.outcomes[pick] = action
        for i in range(count):
            blank(&self.nodes[self.node_count + i], self.outcomes[i])
            if self.squares != NULL:
                self.squares[self.node_count + i] = 0.0
        self.nodes[node].first_child = self.node_count
        self.nodes[node].count = count
        self.node_count += count
        return True

    cdef int select(self, int node) noexcept:
        """The visited child with the best mean return (for the seat acting at ``node``) plus
        the UCT bonus; with ``normalize`` the means rescaled by their range first (best 1, worst
        0), so that gaps of thousandths of a seat's win chance still steer its visits (without,
        three seats' trees spread them almost evenly: docs/journal/ai.md, "Three players: the
        exploration term's scale")."""
        cdef Node* n = &self.nodes[node]
        cdef double bonus = 0.0, best_score = -1e300, score, inverse, root_inverse, mean
        cdef double low = 1e300, high = -1e300, scale = 1.0, shift = 0.0
        cdef int best = -1, i, visits
        cdef Node* child
        if n.visits > 1:
            bonus = self.c * root_log(n.visits)
            if self.spread:
                bonus *= self.spread_at(n)
        if self.normalize:
            for i in range(n.first_child, n.first_child + n.tried):
                mean = self.nodes[i].value / self.nodes[i].visits
                low, high = min(low, mean), max(high, mean)
            if high - low > 1e-9:
                scale, shift = 1.0 / (high - low), low
        for i in range(n.first_child, n.first_child + n.tried):
            child = &self.nodes[i]
            visits = child.visits
            if visits < TABLE:
                inverse = INVERSE[visits]
                root_inverse = ROOT_INVERSE[visits]
            else:
                inverse = 1.0 / visits
                root_inverse = sqrt(inverse)
            score = child.value * inverse
            score = ((score - shift) * scale if self.normalize else score) + bonus * root_inverse
            if score > best_score:
                best_score = score
                best = i
        return best

    cdef double spread_at(self, Node* n) noexcept:
        """The spread of the returns of the seat acting at ``n`` over the simulations through
        its tried children, in units of 1/2, the widest spread a return in [0, 1] can have:
        with ``spread`` the UCT bonus is a confidence bound on means whose returns scatter this
        little, not over the whole [0, 1]. One pseudo-return at that widest spread keeps a young
        node near plain UCT (1 before any return, 0.71 after one) and a node whose returns all
        agree exploring (the term falls as 1/sqrt(simulations), never to 0). Why:
        with three players a seat's returns scatter by about a tenth (a seat far behind by
        thousandths), so c = 1 spreads its visits evenly (docs/journal/ai.md, "Montana: three
        players, the exploration term sized by the returns' spread")."""
        cdef double total = 0.0, squared = 0.0, count = 0.0, mean
        cdef int i
        for i in range(n.first_child, n.first_child + n.tried):
            total += self.nodes[i].value
            squared += self.squares[i]
            count += self.nodes[i].visits
        mean = total / count
        return 2.0 * sqrt(max(0.0, squared - total * mean + 0.25) / (count + 1.0))

    cdef int chance_child(self, int node) noexcept:
        """Sample an outcome of the chance node by its probabilities; its child's index."""
        cdef Node* n = &self.nodes[node]
        cdef int count = self.work.chance_into(self.outcomes, self.probabilities)
        cdef double point = rng_unit(&self.rng), total = 0.0
        cdef int i, pick = count - 1
        for i in range(count - 1):
            total += self.probabilities[i]
            if point < total:
                pick = i
                break
        if pick < n.count and self.nodes[n.first_child + pick].action == self.outcomes[pick]:
            return n.first_child + pick
        return self.find_child(node, self.outcomes[pick])  # outcomes listed in another order

    cdef int simulate(self) except -1:
        cdef Kernel k = self.work
        cdef int node = self.root, child, player, depth, i, steps
        cdef int owner = self.seat, last = CHANCE  # ``last``: the seat that made the last action
        cdef Node* n
        cdef double reward[MAX_SEATS]
        cdef bint leaf, repeated = False
        cdef uint64_t key
        depth = begin(self, owner)
        while True:
            player = self.nodes[node].player
            if player == TERMINAL:
                break
            if self.nodes[node].first_child < 0 and not self.list_children(node):
                break  # the pool is full: this node stays a leaf
            if player >= 0:
                owner = player
            n = &self.nodes[node]
            if player == CHANCE:
                child = self.chance_child(node)
                if child < 0:  # cannot occur: chance_into lists the same outcomes each time
                    break
            elif n.tried < n.count:
                child = n.first_child + n.tried  # the block was shuffled when it was listed
                n.tried += 1
            else:
                child = self.select(node)
                if child < 0:  # a decision node without actions cannot occur in the contract
                    break
            n = &self.nodes[child]
            if n.first_child >= 0:
                # The child's block is read next (selection scans its tried children, expansion
                # reads the first untried one): start loading it while the kernel plays.
                prefetch(&self.nodes[n.first_child])
                if n.tried < n.count:
                    prefetch(&self.nodes[n.first_child + n.tried])
            k.apply(n.action)
            last = player
            node = child
            depth = self.push(depth, node, owner)
            leaf = False
            if self.nodes[node].player == UNSEEN:
                self.nodes[node].player = k.to_move()
                leaf = player != CHANCE
            if self.repetition and self.nodes[node].player != TERMINAL:
                key = k.position_key()
                self.path_keys[depth - 1] = key
                if key_met(key, self.history, self.history_count, self.path_keys, depth - 1):
                    repeated = True  # back to a position met before: scored as a draw
                    break
            if leaf:
                break  # a new leaf: roll out from here (chance outcomes descend further)
        # Rollout: uniform actions for ``cutoff`` actions (or to the end), then the evaluation.
        steps = 0
        if repeated:
            self.drawn(reward)
        while not repeated:
            player = k.to_move()
            if player == TERMINAL:
                self.ended(k, reward)  # a drawn end, less the searching seat's contempt
                break
            if player != CHANCE and self.decisive:
                i = winning_index(k, self.probe, self.scratch, k.legal_into(self.scratch),
                                  player, self.players, reward)
                if i >= 0:
                    k.apply(self.scratch[i])
                    continue  # the game is over: the result is backed up
            if self.cutoff >= 0 and steps >= self.cutoff:
                if self.finish_turn and player == last and player >= 0:
                    # Complete the turn before evaluating: one ply of greedy play.
                    i = greedy_index(k, self.probe, self.evaluation, self.scratch,
                                     k.legal_into(self.scratch), player)
                    k.apply(self.scratch[i])
                    continue
                self.evaluation.evaluate(k, reward)
                break
            if player == CHANCE:
                k.apply(sample_chance(k, &self.rng, self.outcomes, self.probabilities))
            elif self.policy:
                k.apply(k.playout_action(&self.rng, self.scratch))
            else:
                k.apply(k.sample_legal(&self.rng, self.scratch))
            last = player
            steps += 1
        back_up(self, depth, reward)
        if self.squares != NULL:
            for i in range(depth):
                self.squares[self.path[i]] += reward[self.owners[i]] * reward[self.owners[i]]
        return 0
