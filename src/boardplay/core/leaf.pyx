# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A game's evaluation in C, for the compiled search: the shape every game's shares.

MCTS backs up an evaluation at almost every leaf (every game's measured cutoff is 0), so the
search cannot leave compiled code to compute one. Each game's evaluation is the same shape: a
per-seat strength from the kernel's feature vector (``Kernel.features_into``), turned into win
chances by a softmax. ``LeafEvaluation`` holds that shape, in ``core`` so that a game may keep
its evaluation in its own folder importing only ``core`` (docs/design.md §1); each game's
subclass, in its own module beside the game's Python evaluation (the shipped games':
``ai/evaluation/potlatch_leaf.pyx`` for ``potlatch.py``...), computes its strengths
(``strengths``) and is named by its heuristics (``Heuristics.compiled``,
``boardplay.core.heuristics``), so a game brings its own and nothing here lists the games. A
subclass reads every weight from the game's Python evaluation module when it is built (for
Montana and Passtally from the named weight set the module loads, ``weightsets``), so there is
one place to tune a number, and every feature index by its name in the game's ``layout.pxd``
(``cimport``ed, so a C constant), as the Python module reads it by name from ``FEATURE_NAMES``.
``tests/ai/test_ai_search.py`` checks that both give the same values on positions from real
games.
"""

from libc.math cimport exp

from boardplay.core.kernel cimport TERMINAL, Kernel


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


def hand_only(str game, str weights):
    """Refuse a weight set other than ``hand`` for a game whose numbers are not data."""
    if weights not in (None, "hand"):
        raise ValueError(f"{game} has only the 'hand' weights, not {weights!r}")


cdef inline void softmax(double* values, int n, double temperature, double* out) noexcept:
    """``boardplay.core.heuristics.softmax``: win chances from strengths."""
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
