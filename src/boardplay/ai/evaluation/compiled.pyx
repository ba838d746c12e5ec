# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The per-game evaluations of ``boardplay.ai.evaluation``, computed in C.

MCTS backs up an evaluation at almost every leaf (every game's measured cutoff is 0), so the
search cannot leave compiled code to compute one. Each game's evaluation is the same shape: a
per-seat strength from the kernel's feature vector (``Kernel.features_into``), turned into win
chances by a softmax. The shape of each strength lives here; every weight is read from the game's
Python evaluation module when a ``LeafEvaluation`` is built (for Montana and Passtally from the
named weight set the module loads, ``weightsets``), so there is one place to tune a number,
and ``tests/ai/test_ai_search.py`` checks that both give the same values on positions
from real games.
"""

from libc.math cimport exp, sqrt

from boardplay.core.kernel cimport TERMINAL, Kernel

from boardplay.ai.evaluation import montana, passtally, potlatch, proteus, weightsets

cdef enum:
    NONE = 0
    POTLATCH = 1
    PROTEUS = 2
    PASSTALLY = 3
    MONTANA = 4

_KINDS = {"potlatch": POTLATCH, "proteus": PROTEUS, "passtally": PASSTALLY, "montana": MONTANA}


def has_compiled_evaluation(str game_name) -> bool:
    """True when ``game_name`` has an evaluation the compiled search can compute."""
    return game_name in _KINDS


cdef class LeafEvaluation:
    """One game's evaluation for a ``players``-seat table; ``values(kernel)`` is the Python face
    (tests compare it with the Python evaluation), ``evaluate`` the one the search calls."""

    def __init__(self, str game_name, int players, str weights=None):
        """``weights`` names the weight set (Montana, Passtally; default: the module's
        ``DEFAULT_WEIGHTS``); the other games know only ``hand``."""
        if game_name not in _KINDS:
            raise ValueError(f"no compiled evaluation for {game_name!r}; known: {', '.join(_KINDS)}")
        if not 2 <= players <= 4:
            raise ValueError(f"the compiled evaluations take 2 to 4 players, not {players}")
        self.kind = _KINDS[game_name]
        self.players = players
        cdef list values
        if self.kind in (POTLATCH, PROTEUS) and weights not in (None, "hand"):
            raise ValueError(f"{game_name} has only the 'hand' weights, not {weights!r}")
        if self.kind == POTLATCH:
            values = [potlatch.TEMPERATURE]
        elif self.kind == PROTEUS:
            values = [proteus.TEMPERATURE, proteus.OTHER_GOAL_WEIGHT, proteus.TEMPO,
                       proteus.ACTIVE_GOAL, proteus.TO_MOVE]
        elif self.kind == PASSTALLY:
            chosen = weightsets.load("passtally", weights or passtally.DEFAULT_WEIGHTS)
            values = [chosen.shaped("temperature_per_sqrt_turn"), chosen.shaped("line_turns"),
                      passtally._POINTS, passtally._LINES, passtally._PILES, passtally._PLAYERS,
                      chosen.shaped("temperature"), *chosen.vector(passtally.TERMS)]
        else:
            chosen = weightsets.load("montana", weights or montana.DEFAULT_WEIGHTS)
            values = [chosen.shaped("temperature"), montana.F_SETTLEMENTS,
                      *chosen.vector(montana.TERMS), montana.SEAT_FEATURES, montana.F_READY,
                      montana.F_PARTIAL_HAVE, montana.F_PARTIAL_COST, montana.F_MAIN_SEAT]
        assert len(values) <= 32
        for i, weight in enumerate(values):
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
        cdef double temperature
        if self.kind == POTLATCH:
            temperature = self._potlatch()
        elif self.kind == PROTEUS:
            temperature = self._proteus()
        elif self.kind == PASSTALLY:
            temperature = self._passtally()
        else:
            temperature = self._montana()
        softmax(self.strength, self.players, temperature, out)

    cdef double _potlatch(self) noexcept:
        cdef double* f = self.features
        cdef int seat
        cdef double own
        for seat in range(2):
            own = f[1 + 3 * seat]
            self.strength[seat] = own + 0.35 * min(f[2 + 3 * seat], 2.0) + 0.25 * min(f[3 + 3 * seat], 1.0)
            if f[0] == seat:
                self.strength[seat] += 0.25
            elif own >= 3:
                self.strength[seat] += 0.8
        return self.weights[0]

    cdef double _proteus(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int seat, goal
        cdef double value
        for seat in range(2):
            value = 0.0
            for goal in range(3):
                value += (1.0 if goal == f[<int>w[3]] else w[1]) * f[3 * seat + goal]
            if f[<int>w[4]] == seat:
                value += w[2]
            self.strength[seat] = value
        return w[0]

    cdef double _passtally(self) noexcept:
        cdef double* f = self.features
        cdef double* w = self.weights
        cdef int points = <int>w[2], lines = <int>w[3], piles = <int>w[4]
        cdef int players = <int>f[<int>w[5]], seat, p, line_vp
        cdef int left = <int>f[piles]
        for p in range(1, 3):
            left = min(left, <int>f[piles + p])
        cdef double turns = max(1.0, 2.0 * left / players)
        cdef double pays = min(w[1], turns)
        cdef double value
        for seat in range(players):
            line_vp = <int>f[lines + seat]
            # The hand set's sum first, in its order; terms weighing 0 then add exactly 0.
            value = w[7] * f[points + seat] + w[8] * (pays * line_vp)
            value += w[9] * line_vp + w[10] * (line_vp * turns)
            self.strength[seat] = value
        return w[6] + w[0] * sqrt(turns)

    cdef double _montana(self) noexcept:
        cdef double* f
        cdef double* w = self.weights
        cdef double total = self.features[<int>w[1]]  # the data file's count
        cdef int stride = <int>w[16], ready = <int>w[17], have = <int>w[18], cost = <int>w[19]
        cdef int p, main
        cdef double value, placed
        cdef double phase = self.features[0]
        for p in range(1, self.players):
            phase = min(phase, self.features[stride * p])
        phase /= total
        for p in range(self.players):
            f = self.features + stride * p
            placed = total - f[0]
            # The hand set's sum first, in its order; terms weighing 0 then add exactly 0.
            value = w[2] * placed + w[3] * f[ready]
            if f[cost]:
                value += w[4] * f[have] / f[cost]
            value += w[5] * f[1] + w[6] * f[2] + w[7] * f[3] + w[8] * (f[4] + f[5])
            value += phase * (w[10] * placed + w[11] * f[ready] + w[12] * f[1] + w[13] * f[2]
                              + w[14] * f[3] + w[15] * (f[4] + f[5]))
            self.strength[p] = value
        main = <int>self.features[<int>w[20]]
        if main >= 0:
            self.strength[main] += w[9]
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
