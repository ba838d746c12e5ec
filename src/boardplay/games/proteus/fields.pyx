# cython: language_level=3
"""The Proteus kernel's position fields, declared once (``FACE``, see ``core/face.pyx``): the
facade's read-only properties (``ProteusFields``), ``snapshot`` and ``load`` come from this
table. The per-cell reads (``tile_at``, ``piece_at`` …) stay methods of the kernel."""

from boardplay.core.face cimport BOOL, INT, NAMED, SCALAR, field
from boardplay.games.proteus.kernel cimport ProteusKernel

from boardplay.core.face import Face, check_whole
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

FIELDS = (*FACE.fields, "tiles", "pieces", "active", "met")
"""The names ``snapshot`` returns and ``load`` takes: the whole position (``met``: the
movement-phase positions met so far, which ``repetition="forbid"`` refuses to recreate)."""


def snapshot(ProteusKernel k) -> dict:
    """Every field of the position as plain Python values (see ``FIELDS``): the table's, and
    the board: the tile and the piece on each cell and the active tile of each colour (-1 for
    none)."""
    cdef int i
    values = FACE.snapshot(k)
    values["tiles"] = [k.b.tiles[i] for i in range(9)]
    values["pieces"] = [k.b.pieces[i] for i in range(9)]
    values["active"] = [k.b.active[i] for i in range(3)]
    values["met"] = sorted(k.save_rest())
    return values


def load(ProteusKernel k, values) -> None:
    """Set the whole position from ``values``, every name of ``FIELDS`` and no other (a
    ``snapshot``, or what the position loader read from the JSON): the board through
    ``set_position``, which derives where each tile and piece is and what is unplaced (a given
    ``unplaced`` that disagrees is refused), then the table's fields (the options, the mover,
    the counters and the outcome), then ``start``: a kadon player stuck at once has drawn
    (§5.4), and the repetition table holds the ``met`` positions (the position JSON has none,
    ``[]``: the table starts again from this position)."""
    check_whole(values, FIELDS, "ProteusKernel")
    k.set_position(values["tiles"], values["pieces"], values["active"], values["to_move"],
                   values["passes"])
    if values["unplaced"] != k.b.unplaced:
        raise ValueError(f"unplaced is {k.b.unplaced} on this board, not {values['unplaced']!r}")
    FACE.load(k, {name: values[name] for name in FACE.fields})
    k.start()
    if values["met"]:  # a snapshot's: exactly those (the position JSON's [] starts from here)
        k.restore_rest(values["met"])
