# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Montana's evaluation in C (``montana.py``'s, with a named weight set), a ``LeafEvaluation``
(``core/leaf.pyx``) that ``montana.HEURISTICS`` names for the compiled search."""

from boardplay.core.leaf cimport LeafEvaluation
from boardplay.games.montana.layout cimport (
    F_CANTEENS, F_CATTLE, F_GOODS, F_NEXT_MAIN_SEAT, F_PARTIAL_COST, F_PARTIAL_HAVE, F_READY,
    F_SETTLEMENTS, F_SETTLEMENTS_LEFT, F_SILVER, F_WORKERS, SEAT_FEATURES,
)

from boardplay.ai.evaluation import montana, weightsets


cdef inline double tempo_share(int p, int tempo, int n) noexcept:
    """``montana.tempo_share`` in C."""
    return <double>(n - 1 - (p - tempo + n) % n) / (n - 1)


cdef class MontanaEvaluation(LeafEvaluation):
    """``ai/evaluation/montana.py`` in C, with the named weight set (default: the module's for
    this table, ``montana.default_weights``)."""

    def __init__(self, int players, str weights=None):
        chosen = weightsets.load("montana", weights or montana.default_weights(players))
        LeafEvaluation.__init__(self, players, [
            chosen.shaped("temperature"), *chosen.vector(montana.TERMS),
        ])

    cdef double strengths(self) noexcept:
        cdef double* f
        cdef double* w = self.weights
        cdef double total = self.features[<int>F_SETTLEMENTS]  # from the data
        cdef int stride = SEAT_FEATURES
        cdef int left = F_SETTLEMENTS_LEFT, ready = F_READY
        cdef int have = F_PARTIAL_HAVE, cost = F_PARTIAL_COST
        cdef int goods = F_GOODS, silver = F_SILVER
        cdef int workers = F_WORKERS, cattle = F_CATTLE
        cdef int canteens = F_CANTEENS
        cdef int p, tempo, n = self.players
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
        tempo = <int>self.features[<int>F_NEXT_MAIN_SEAT]
        if tempo >= 0:
            for p in range(n):
                self.strength[p] += w[8] * tempo_share(p, tempo, n)
        return w[0]
