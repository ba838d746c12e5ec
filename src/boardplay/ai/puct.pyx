# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""PUCT search steered by a policy/value network (``nets.Network``), over any game's ``Kernel``:
the AlphaZero search (Silver et al., 2018) in compiled code, with max-n values for 2-4 seats,
driven by ``AZAgent`` (``boardplay.ai.az``) and the self-play trainer (``ai.alphazero``).

A simulation copies the root position into a working kernel and descends: at a decision node
the seat to act takes the child maximising ``Q + c · P · sqrt(N) / (1 + n)``, where ``P`` is the
child's prior (the network's softmax over the legal actions, computed once when the node was
expanded), ``N`` the node's visits, ``n`` and ``Q`` the child's visits and mean return for that
seat. A child never visited has no mean yet: its ``Q`` is the *first-play urgency*, the
network's value of the parent for the seat to act there less ``fpu`` (0 by default: an untried
move is first assumed as good as the position, so a high prior decides which is tried first).
At a chance node an outcome is drawn by its probability. The descent stops at the first node not
yet expanded: its legal actions are listed as one block of children with their priors, and the
network's value head values it (no rollout); a terminal node is valued by its true returns. Every
node on the path adds the return of the seat that chose it (max-n backup, as ``search.pyx``).
Values are on the returns' scale: a network's tanh output ``v`` counts ``(v + 1) / 2``.
With ``decisive`` (the default) a node whose mover can win at once is valued as that win, its
prior all on that move (a young network misses one-move wins and replies, which decide Proteus);
with ``repetition`` a return to a position met before is a draw, as in ``search.pyx``; a draw is
worth ``contempt`` less to ``seat``, the searching seat (``tactics.pxd`` has both checks).

With an ``evaluation`` and ``mix`` > 0 a new leaf's value is a blend, as AlphaGo mixed its value
network with rollouts (Silver et al., 2016): ``(1 - mix)`` times the network's value plus ``mix``
times the game's compiled evaluation (the one ``search.pyx`` backs up), read after the mover has
finished its turn when ``finish_turn`` is set and the leaf stands mid-turn (each remaining action
the one the evaluation rates best, as ``search.pyx`` does), so a turn that cannot be completed
is seen as the loss it is. The network still gives the priors: a young network that misjudges
positions can then still steer the search where the game's evaluation judges well. With
``uniform`` every legal action gets the same prior and the pass skips the policy head: the
network adds its value alone (priors fitted to a search that the evaluation judges steered it
into that evaluation's blind spots in Potlatch).

Each expanded node costs one forward pass of the network (``Network.evaluate_legal``: the
kernel's observation, the trunk, the value head and the legal actions' logits only), done one
leaf at a time, allocating nothing. Self-play adds
Dirichlet noise to the root's priors (``noise``) after ``expand_root``. The pool of nodes, the
run loop, tree reuse (``advance``) and the Python face are ``tree.pyx``'s, shared with
``search.pyx``; a node's prior and first-play urgency lie beside the pool (``Guide``).
"""

from libc.math cimport expf, sqrt
from libc.stdlib cimport free, malloc

import numpy as np

from boardplay.ai.tactics cimport greedy_index, key_met, winning_index
from boardplay.core.leaf cimport LeafEvaluation
from boardplay.ai.nets cimport Network
from boardplay.ai.tree cimport UNSEEN, Node, back_up, begin, blank, room
from boardplay.core.kernel cimport CHANCE, TERMINAL, Kernel, rng_unit, sample_chance

cdef extern from *:
    void prefetch "__builtin_prefetch" (const void* address) noexcept nogil

cdef enum:
    CACHE_LINE = 64
    PREFETCHED = 16  # children whose nodes a descent starts loading before it reaches them

MAX_NODES = 4_000_000
"""The tree stops growing here (128 MB); further simulations end at its leaves."""


cdef class Puct(Tree):
    """A PUCT tree over one game's kernels guided by ``network``: ``c`` weighs the prior
    against the mean (c_puct), ``fpu`` is how much less than its parent an unvisited child is
    first assumed worth, ``mix`` the share of ``evaluation`` in a leaf's value,
    ``finish_turn`` whether a leaf mid-turn is judged after its mover's greedy completion of the
    turn and ``uniform`` whether every legal action gets the same prior (the network's value
    only; its fields are declared in ``puct.pxd``)."""

    def __cinit__(self, Kernel prototype, Network network, *, double c=1.5, double fpu=0.0,
                  bint decisive=True, bint repetition=False, double contempt=0.0,
                  LeafEvaluation evaluation=None, double mix=0.0, bint finish_turn=False,
                  bint uniform=False, unsigned long long seed=0, int max_nodes=MAX_NODES):
        if network.seats != prototype.num_players or network.actions != prototype.action_space:
            raise ValueError(
                f"the network is for {network.seats} seats and {network.actions} actions, the "
                f"game has {prototype.num_players} and {prototype.action_space}"
            )
        expected = prototype.compact_size if network.compact else prototype.observation_size
        if network.inputs != expected:
            raise ValueError(f"the network reads {network.inputs} floats, the game's "
                             f"{'compact row' if network.compact else 'observation'} {expected}")
        self.pool(max_nodes)
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix is a share of the leaf's value, from 0 to 1; got {mix}")
        if (mix > 0.0 or finish_turn) and evaluation is None:
            raise ValueError("mix and finish_turn need the game's evaluation")
        self.network = network
        self.evaluation = evaluation
        self.mix = mix
        self.finish_turn = finish_turn
        self.uniform = uniform
        self.scout = prototype.copy()
        self.decisive = decisive
        self.repetition = repetition
        self.contempt = contempt
        self.c = c
        self.fpu = fpu
        self.guides = <Guide*>malloc(self.node_capacity * sizeof(Guide))
        self.logits = <float*>malloc(prototype.action_space * sizeof(float))
        self.scratch = <int*>malloc(self.space * sizeof(int))
        if self.guides == NULL or self.logits == NULL or self.scratch == NULL:
            raise MemoryError()
        self.reset(prototype)

    def __dealloc__(self):
        free(self.guides)
        free(self.logits)
        free(self.scratch)

    # ----- the Python face --------------------------------------------------------------------
    def reset(self, Kernel position) -> None:
        """Forget the tree; the next search starts from ``position`` (copied)."""
        self.restart(position)
        self.guides[0].prior = 1.0
        self.guides[0].guess = 0.5

    def expand_root(self) -> None:
        """Expand the root now (a search does it at its first simulation), so ``noise`` has
        priors to mix; the root's visit counts its evaluation, as a first simulation would."""
        cdef double reward[MAX_SEATS]
        if self.nodes[self.root].first_child >= 0 or self.nodes[self.root].player < 0:
            return
        self.work.copy_from(self.root_kernel)
        self.expand(self.root, CHANCE, reward)
        self.nodes[self.root].visits += 1
        self.nodes[self.root].value += reward[self.nodes[self.root].player]

    def noise(self, weights, double epsilon) -> None:
        """Mix ``weights`` (one per root child, in the order of the root's legal actions, e.g.
        a Dirichlet draw) into the root's priors: ``(1 - epsilon) P + epsilon w`` (self-play
        only)."""
        cdef Node* n = &self.nodes[self.root]
        cdef const double[::1] w = np.ascontiguousarray(weights, dtype=np.float64)
        cdef int i
        if w.shape[0] != max(n.count, 0) or n.first_child < 0:
            raise ValueError(f"the root has {n.count} children, got {w.shape[0]} weights")
        for i in range(n.count):
            self.guides[n.first_child + i].prior = <float>(
                (1.0 - epsilon) * self.guides[n.first_child + i].prior + epsilon * w[i])

    def node_prior(self, int node) -> float:
        self.check(node)
        return self.guides[node].prior

    def children(self, int node) -> list:
        """``(action, child node, visits)`` for every child of ``node`` (visited or not), most
        visited first (the highest prior first among equals)."""
        out = self.listed(node, False)
        out.sort(key=lambda item: (-item[2], -self.guides[item[1]].prior))
        return out

    def visits_into(self, out) -> int:
        """Write the root's visit counts by action into ``out`` (a float32 array of
        ``action_space``, zeroed first); returns their sum."""
        cdef float[::1] target = out
        cdef Node* n = &self.nodes[self.root]
        cdef int i, total = 0
        target[:] = 0.0
        if n.first_child < 0:
            return 0
        for i in range(n.first_child, n.first_child + n.count):
            target[self.nodes[i].action] = self.nodes[i].visits
            total += self.nodes[i].visits
        return total

    # ----- the compiled loop ------------------------------------------------------------------
    cdef void lay(self, int node, int action, float prior) noexcept:
        """A node just laid out under ``action`` with its ``prior``."""
        blank(&self.nodes[node], action)
        self.guides[node].prior = prior
        self.guides[node].guess = 0.5

    cdef int grown(self, int capacity) except -1:
        self.guides = <Guide*>self.widened(self.guides, sizeof(Guide), capacity)
        return 0

    cdef int moved(self, const int* source, int count) except -1:
        self.guides = <Guide*>self.followed(self.guides, sizeof(Guide), source, count)
        return 0

    cdef int expand(self, int node, int last, double* reward) except -1:
        """Expand ``node`` (the working kernel stands there; ``last`` made the action that led
        here). A decision node is valued by the network (``reward``, per seat; blended with the
        evaluation by ``judge``) and its legal actions listed with their softmax priors;
        a chance node lists its outcomes with their probabilities (``reward`` untouched).
        A full pool lists nothing (the node stays a leaf)."""
        cdef Kernel k = self.work
        cdef int player = self.nodes[node].player, count, i, j
        cdef float top, total, weight
        if player == CHANCE:
            count = k.chance_into(self.outcomes, self.probabilities)
            if not room(self, count):
                return 0
            for i in range(count):
                self.lay(self.node_count + i, self.outcomes[i], <float>self.probabilities[i])
        else:
            count = k.legal_into(self.outcomes)
            if self.uniform:
                self.network.evaluate_value(k, player, self.values)
            else:
                self.network.evaluate_legal(k, player, self.outcomes, count, self.logits,
                                            self.values)
            for j in range(self.players):
                reward[(player + j) % self.players] = 0.5 * (self.values[j] + 1.0)
            if self.mix > 0.0:
                self.judge(last, reward)
            self.guides[node].guess = <float>reward[player]
            if not room(self, count):
                return 0
            top = -1e30
            if not self.uniform:
                for i in range(count):
                    top = max(top, self.logits[i])
            total = 0.0
            for i in range(count):
                weight = 1.0 if self.uniform else expf(self.logits[i] - top)
                self.lay(self.node_count + i, self.outcomes[i], weight)
                total += weight
            for i in range(count):
                self.guides[self.node_count + i].prior /= total
            if self.decisive:
                i = winning_index(k, self.probe, self.outcomes, count, player, self.players,
                                  reward)
                if i >= 0:  # a win at once: the node's true value, and the move to play
                    for j in range(count):
                        self.guides[self.node_count + j].prior = 1.0 if j == i else 0.0
                    self.guides[node].guess = <float>reward[player]
        self.nodes[node].first_child = self.node_count
        self.nodes[node].count = count
        self.node_count += count
        return 0

    cdef int select(self, int node) noexcept:
        """The child maximising Q + c · P · sqrt(N) / (1 + n) for the seat acting at ``node``."""
        cdef Node* n = &self.nodes[node]
        cdef Node* child
        cdef double scale = self.c * sqrt(<double>max(n.visits, 1))
        cdef double urgency = self.guides[node].guess - self.fpu, best_score = -1e300, score, q
        cdef int best = -1, i
        for i in range(n.first_child, n.first_child + n.count):
            child = &self.nodes[i]
            q = child.value / child.visits if child.visits else urgency
            score = q + scale * self.guides[i].prior / (1 + child.visits)
            if score > best_score:
                best_score = score
                best = i
        return best

    cdef int draw(self, int node) noexcept:
        """A chance child of ``node`` drawn by its probability."""
        cdef Node* n = &self.nodes[node]
        cdef double point = rng_unit(&self.rng), total = 0.0
        cdef int i
        for i in range(n.first_child, n.first_child + n.count - 1):
            total += self.guides[i].prior
            if point < total:
                return i
        return n.first_child + n.count - 1

    cdef void judge(self, int last, double* reward) noexcept:
        """Blend the evaluation into the network's ``reward`` for the working kernel's position
        (``mix`` of it), judged on ``scout`` after the mover's greedy completion of its turn
        with ``finish_turn`` (the mover made the ``last`` action too); a game that ends on the
        way is worth its returns, a drawn end ``contempt`` less to the searching seat."""
        cdef Kernel k = self.scout
        cdef int player, count, i
        cdef double judged[MAX_SEATS]
        k.copy_from(self.work)
        player = k.to_move()
        while self.finish_turn and player == last and player >= 0:
            count = k.legal_into(self.scratch)
            k.apply(self.scratch[greedy_index(k, self.probe, self.evaluation, self.scratch,
                                              count, player)])
            player = k.to_move()
        if player == TERMINAL:
            self.ended(k, judged)
        else:
            self.evaluation.evaluate(k, judged)
        for i in range(self.players):
            reward[i] = (1.0 - self.mix) * reward[i] + self.mix * judged[i]

    cdef void settle(self, int last, double* reward) noexcept:
        """Value the working kernel without the tree (the pool is full): chance outcomes are
        drawn until a seat acts or the game ends; then the network's value (blended as
        ``expand`` blends it) or the returns."""
        cdef Kernel k = self.work
        cdef int player = k.to_move(), j
        while player == CHANCE:
            k.apply(sample_chance(k, &self.rng, self.outcomes, self.probabilities))
            player = k.to_move()
            last = CHANCE
        if player == TERMINAL:
            k.returns_into(reward)
            return
        self.network.evaluate_value(k, player, self.values)
        for j in range(self.players):
            reward[(player + j) % self.players] = 0.5 * (self.values[j] + 1.0)
        if self.mix > 0.0:
            self.judge(last, reward)

    cdef int simulate(self) except -1:
        cdef Kernel k = self.work
        cdef int node = self.root, child, player, depth, last = CHANCE, first, span, offset
        cdef int owner = self.nodes[self.root].player
        cdef double reward[MAX_SEATS]
        depth = begin(self, owner)
        while True:
            player = self.nodes[node].player
            if player == TERMINAL:
                self.ended(k, reward)
                break
            if self.repetition and depth > 1:
                self.path_keys[depth - 1] = k.position_key()
                if key_met(self.path_keys[depth - 1], self.history, self.history_count,
                           self.path_keys, depth - 1):
                    self.drawn(reward)  # back to a position met: a draw
                    break
            if self.nodes[node].first_child < 0:
                self.expand(node, last, reward)
                if self.nodes[node].first_child < 0:
                    self.settle(last, reward)  # the pool is full: valued without children
                    break
                if player != CHANCE:
                    break  # a new leaf, valued by the network
            if player == CHANCE:
                child = self.draw(node)
            else:
                owner = player
                child = self.select(node)
            first = self.nodes[child].first_child
            if first >= 0:
                # The child's block is read next (selection scans its children's nodes and
                # guides, most of which lie outside the cache): start loading it while the
                # kernel plays, as ``search.pyx`` does.
                span = min(self.nodes[child].count, PREFETCHED) * <int>sizeof(Node)
                offset = 0
                while offset < span:
                    prefetch(<char*>&self.nodes[first] + offset)
                    offset += CACHE_LINE
                prefetch(&self.guides[first])
            k.apply(self.nodes[child].action)
            last = player
            node = child
            if self.nodes[node].player == UNSEEN:
                self.nodes[node].player = k.to_move()
            depth = self.push(depth, node, owner)
        back_up(self, depth, reward)
        return 0
