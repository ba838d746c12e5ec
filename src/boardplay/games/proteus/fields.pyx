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
          "The seat whose turn it is; once the game is over, the seat whose turn it was when "
          "it ended (the last mover, or the kadon player left without an action)."),
    field(_k, "passes", &_k.b.passes, INT, SCALAR, "Consecutive passes (two end the game)."),
    field(_k, "turns", &_k.b.turns, INT, SCALAR,
          "Turns played since the start or the loaded position (the ``max_turns`` counter)."),
    field(_k, "unplaced", &_k.b.unplaced, INT, SCALAR,
          "U: pool tiles plus pieces in both hands; the placement phase lasts while U > 0."),
    field(_k, "outcome", &_k.b.outcome, NAMED, SCALAR,
          "``ongoing``, ``black-wins``, ``white-wins`` or ``draw`` (the scenario vocabulary; "
          "the contract's ``winners()`` and ``end_code()`` say the same).",
          (*_OUTCOMES[3:], *_OUTCOMES[:3]), -1),  # OUTCOMES lists -1 (ongoing) last
    field(_k, "kadon", &_k.b.kadon, BOOL, SCALAR, "Option ``rules=kadon``."),
    field(_k, "forbid", &_k.b.forbid, BOOL, SCALAR, "Option ``repetition=forbid``."),
    field(_k, "max_turns", &_k.b.max_turns, INT, SCALAR,
          "Option ``max_turns``: the turn cap, 0 for none."),
])
ProteusFields = FACE.mixin("ProteusFields")

FIELDS = (*FACE.fields, "tiles", "pieces", "active")
"""The names ``snapshot`` returns and ``load`` takes: the whole position."""


def snapshot(ProteusKernel k) -> dict:
    """Every field of the position as plain Python values (see ``FIELDS``): the table's, and
    the board: the tile and the piece on each cell and the active tile of each colour (-1 for
    none)."""
    cdef int i
    values = FACE.snapshot(k)
    values["tiles"] = [k.b.tiles[i] for i in range(9)]
    values["pieces"] = [k.b.pieces[i] for i in range(9)]
    values["active"] = [k.b.active[i] for i in range(3)]
    return values


def load(ProteusKernel k, values) -> None:
    """Set the position from ``values`` (a ``snapshot``, or the position JSON's board, mover
    and passes): the board through ``set_position``, which derives where each tile and piece
    is and what is unplaced, then ``start`` (the repetition table starts again from this
    position, and a kadon player stuck at once has drawn, §5.4), then the counters ``turns``
    and ``outcome`` if ``values`` has them (position JSON has neither: its turns count from 0
    and its outcome is what ``start`` finds)."""
    k.set_position(values["tiles"], values["pieces"], values["active"], values["to_move"],
                   values["passes"])
    k.start()
    FACE.load(k, {name: values[name] for name in ("turns", "outcome") if name in values})
