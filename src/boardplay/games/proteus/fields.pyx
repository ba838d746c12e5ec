# cython: language_level=3
"""The Proteus kernel's position fields, declared once (``FACE``, see ``core/face.pyx``): the
facade's read-only properties (``ProteusFields``), ``snapshot`` and ``load`` come from this
table. The per-cell reads (``tile_at``, ``piece_at`` …) stay methods of the kernel."""

from boardplay.core.face cimport BOOL, INT, NAMED, SCALAR, field
from boardplay.games.proteus.kernel cimport ProteusKernel

from boardplay.core.face import Face
from boardplay.games.proteus.tables import OUTCOMES as _OUTCOMES

cdef ProteusKernel _k = ProteusKernel.__new__(ProteusKernel)

FACE = Face(_k, [
    field(_k, "to_move", &_k.b.mover, INT, SCALAR,
          "The seat whose turn it is (kept at the last mover once the game is over)."),
    field(_k, "passes", &_k.b.passes, INT, SCALAR, "Consecutive passes (two end the game)."),
    field(_k, "turns", &_k.b.turns, INT, SCALAR,
          "Turns played since the start or the loaded position (the ``max_turns`` counter)."),
    field(_k, "unplaced", &_k.b.unplaced, INT, SCALAR,
          "U: pool tiles plus pieces in both hands; the placement phase lasts while U > 0."),
    field(_k, "outcome", &_k.b.outcome, NAMED, SCALAR,
          "``ongoing``, ``black-wins``, ``white-wins`` or ``draw`` (the scenario vocabulary).",
          (*_OUTCOMES[3:], *_OUTCOMES[:3]), -1),  # OUTCOMES lists -1 (ongoing) last
    field(_k, "kadon", <void*>&_k.kadon, BOOL, SCALAR, "Option ``rules=kadon``."),
    field(_k, "forbid", <void*>&_k.forbid, BOOL, SCALAR, "Option ``repetition=forbid``."),
    field(_k, "max_turns", &_k.max_turns, INT, SCALAR,
          "Option ``max_turns``: the turn cap, 0 for none."),
])
ProteusFields = FACE.mixin("ProteusFields")
