# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The per-game evaluations of ``boardplay.ai.evaluation``, computed in C: one class per game.

MCTS backs up an evaluation at almost every leaf (every game's measured cutoff is 0), so the
search cannot leave compiled code to compute one. Each game's evaluation is the same shape: a
per-seat strength from the kernel's feature vector (``Kernel.features_into``), turned into win
chances by a softmax. ``LeafEvaluation`` holds that shape; each game's subclass computes its
strengths (``strengths``) and is named by its heuristics (``Heuristics.compiled``), so a game
brings its own and nothing here lists the games. Every weight is read from the game's Python
evaluation module when an evaluation is built (for Montana and Passtally from the named weight
set the module loads, ``weightsets``), so there is one place to tune a number; every feature
index is the game's own name for it in its ``layout.pxd`` (``cimport``ed, so a C constant), as
the Python module reads it by name from ``FEATURE_NAMES``. ``tests/ai/test_ai_search.py``
checks that both give the same values on positions from real games.
"""

from libc.math cimport exp, sqrt

from boardplay.core.kernel cimport TERMINAL, Kernel
cimport boardplay.games.montana.layout as montana_layout
cimport boardplay.games.passtally.layout as passtally_layout
cimport boardplay.games.potlatch.layout as potlatch_layout
cimport boardplay.games.proteus.layout as proteus_layout

from boardplay.ai.evaluation import montana, passtally, potlatch, proteus, weightsets


cdef class LeafEvaluation:
    """A game's evaluation for a ``players``-seat table; ``values(kernel)`` is the Python face
    (tests compare it with the Python evaluation), ``evaluate`` the one the search calls."""

    def __init__(self, int players, list weights):
        if not 2 <= players <= 4:
            raise ValueError(f"the compiled evaluations take 2 to 4 players, not {players}")
        assert len(weights) <= 32
        self.players = players
        for i, weight in enumerate(weights):
            self.weights[i] = weight

    def values(self, Kernel k) -> list:
        """The per-seat win chances ``evaluate`` writes for ``k``."""
        if k.num_players != self.players or k.feature_size > 64:
            raise ValueError("this evaluation was built for another table")
        cdef double out[4]
        self.evaluate(k, out)
        return [out[i] for i in range(self.players)]

    cdef void evaluate(self, Kernel k, double* out) noexcept:
        """Per-seat win chances of ``k``: the result at the end, else the softmax of the game's
        strengths (the Python module's ``evaluate``)."""
        if k.to_move() == TERMINAL:
            k.returns_into(out)
            return
        k.features_into(self.features)
        softmax(self.strength, self.players, self.strengths(), out)

    cdef double strengths(self) noexcept:
        """Write each seat's strength into ``strength`` from ``features``; return the softmax
        temperature. Each game's subclass has its own."""
        return 1.0


def _hand_only(str game, str weights):
    if weights not in (None, "hand"):
        raise ValueError(f"{game} has only the 'hand' weights, not {weights!r}")


cdef class PotlatchEvaluation(LeafEvaluation):
    """``ai/evaluation/potlatch.py`` in C."""

    def __init__(self, int players, str weights=None):
        _hand_only("potlatch", weights)
        LeafEvaluation.__init__(self, players, [
            potlatch.TEMPERATURE, potlatch.CROWN, potlatch.MAX_CROWNS, potlatch.BREAK,
            potlatch.TEMPO, potlatch.THREE_STACKS,
        ])

    cdef double strengths(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int seat, at
        cdef double own
        for seat in range(2):
            at = (potlatch_layout.BLUE_STACKS - potlatch_layout.RED_STACKS) * seat
            own = f[potlatch_layout.RED_STACKS + at]
            self.strength[seat] = (own + w[1] * min(f[potlatch_layout.RED_CROWNS + at], w[2])
                                   + w[3] * min(f[potlatch_layout.RED_BREAKS + at], 1.0))
            if f[<int>potlatch_layout.TO_MOVE] == seat:
                self.strength[seat] += w[4]
            elif own >= 3:
                self.strength[seat] += w[5]
        return w[0]


cdef class ProteusEvaluation(LeafEvaluation):
    """``ai/evaluation/proteus.py`` in C."""

    def __init__(self, int players, str weights=None):
        _hand_only("proteus", weights)
        LeafEvaluation.__init__(self, players, [
            proteus.TEMPERATURE, proteus.OTHER_GOAL_WEIGHT, proteus.TEMPO,
        ])

    cdef double strengths(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int seat, goal, at
        cdef double value
        for seat in range(2):
            # The seat's closeness to 3-IN-LINE, COLOR and SHAPE, in a row from its LINE.
            at = proteus_layout.BLACK_LINE + (proteus_layout.WHITE_LINE - proteus_layout.BLACK_LINE) * seat
            value = 0.0
            for goal in range(3):
                value += (1.0 if goal == f[<int>proteus_layout.ACTIVE_GOAL] else w[1]) * f[at + goal]
            if f[<int>proteus_layout.TO_MOVE] == seat:
                value += w[2]
            self.strength[seat] = value
        return w[0]


cdef class PasstallyEvaluation(LeafEvaluation):
    """``ai/evaluation/passtally.py`` in C, with the named weight set (default: the module's)."""

    def __init__(self, int players, str weights=None):
        chosen = weightsets.load("passtally", weights or passtally.DEFAULT_WEIGHTS)
        LeafEvaluation.__init__(self, players, [
            chosen.shaped("temperature_per_sqrt_turn"), chosen.shaped("line_turns"),
            chosen.shaped("temperature"), *chosen.vector(passtally.TERMS),
        ])

    cdef double strengths(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int players = <int>f[<int>passtally_layout.PLAYERS], seat, line_vp
        cdef int left = <int>f[<int>passtally_layout.TILES_PILE_A]
        left = min(left, <int>f[<int>passtally_layout.TILES_PILE_B])
        left = min(left, <int>f[<int>passtally_layout.TILES_PILE_C])
        cdef double turns = max(1.0, 2.0 * left / players)
        cdef double pays = min(w[1], turns)
        cdef double value
        for seat in range(players):
            line_vp = <int>f[passtally_layout.LINE_VP_SEAT0 + seat]
            # The hand set's sum first, in its order; terms weighing 0 then add exactly 0.
            value = w[3] * f[passtally_layout.VP_SEAT0 + seat] + w[4] * (pays * line_vp)
            value += w[5] * line_vp + w[6] * (line_vp * turns)
            self.strength[seat] = value
        return w[2] + w[0] * sqrt(turns)


cdef class MontanaEvaluation(LeafEvaluation):
    """``ai/evaluation/montana.py`` in C, with the named weight set (default: the module's)."""

    def __init__(self, int players, str weights=None):
        chosen = weightsets.load("montana", weights or montana.DEFAULT_WEIGHTS)
        LeafEvaluation.__init__(self, players, [
            chosen.shaped("temperature"), *chosen.vector(montana.TERMS),
        ])

    cdef double strengths(self) noexcept:
        cdef double* f
        cdef double* w = self.weights
        cdef double total = self.features[<int>montana_layout.F_SETTLEMENTS]  # from the data
        cdef int stride = montana_layout.SEAT_FEATURES
        cdef int left = montana_layout.F_SETTLEMENTS_LEFT, ready = montana_layout.F_READY
        cdef int have = montana_layout.F_PARTIAL_HAVE, cost = montana_layout.F_PARTIAL_COST
        cdef int goods = montana_layout.F_GOODS, silver = montana_layout.F_SILVER
        cdef int workers = montana_layout.F_WORKERS, cattle = montana_layout.F_CATTLE
        cdef int canteens = montana_layout.F_CANTEENS
        cdef int p, main
        cdef double value, placed
        cdef double phase = self.features[left]
        for p in range(1, self.players):
            phase = min(phase, self.features[left + stride * p])
        phase /= total
        for p in range(self.players):
            f = self.features + stride * p
            placed = total - f[left]
            # The hand set's sum first, in its order; terms weighing 0 then add exactly 0.
            value = w[1] * placed + w[2] * f[ready]
            if f[cost]:
                value += w[3] * f[have] / f[cost]
            value += (w[4] * f[goods] + w[5] * f[silver] + w[6] * f[workers]
                      + w[7] * (f[cattle] + f[canteens]))
            value += phase * (w[9] * placed + w[10] * f[ready] + w[11] * f[goods]
                              + w[12] * f[silver] + w[13] * f[workers]
                              + w[14] * (f[cattle] + f[canteens]))
            self.strength[p] = value
        main = <int>self.features[<int>montana_layout.F_MAIN_SEAT]
        if main >= 0:
            self.strength[main] += w[8]
        return w[0]


cdef inline void softmax(double* values, int n, double temperature, double* out) noexcept:
    """``boardplay.ai.evaluation.softmax``: win chances from strengths."""
    cdef double top = values[0], total = 0.0
    cdef int i
    for i in range(1, n):
        if values[i] > top:
            top = values[i]
    for i in range(n):
        out[i] = exp((values[i] - top) / temperature)
        total += out[i]
    for i in range(n):
        out[i] /= total
