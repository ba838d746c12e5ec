# cython: language_level=3
"""The Potlatch Klone kernel's position fields, declared once (``FACE``, see ``core/face.pyx``):
the facade's read-only properties (``PotlatchFields``), ``snapshot`` and ``load`` come from this
table. The hex-shaped reads (tiles, pawns, the visited path, repetition snapshots) repack the
kernel's slots, so they stay methods of the kernel (``kernel.pyx``)."""

from boardplay.core.face cimport BOOL, INT, SCALAR, field
from boardplay.games.potlatch.kernel cimport PotlatchKernel

from boardplay.core.face import Face, check_whole

cdef PotlatchKernel _k = PotlatchKernel.__new__(PotlatchKernel)

FACE = Face(_k, [
    field(_k, "to_move", &_k.s.b.mover, INT, SCALAR,
          "The seat whose turn it is; once the game is over, the seat whose turn it was when "
          "it ended (conditions 1, 3 and 4 end it at the start of a turn: that turn's seat)."),
    field(_k, "stock", &_k.s.b.stock, INT, SCALAR, "Unused base tiles (shared)."),
    field(_k, "n_actions", &_k.s.n_actions, INT, SCALAR,
          "Actions per turn (the position's, which may differ from the option)."),
    field(_k, "done", &_k.s.done, INT, SCALAR, "Actions already taken this turn."),
    field(_k, "run_open", &_k.s.b.run_open, BOOL, SCALAR,
          "The last action was a Pawn Move whose chip increase is still pending."),
    field(_k, "turns_played", &_k.s.turns_played, INT, SCALAR,
          "Completed turns since setup; used only by the ``turn_limit`` guard."),
    field(_k, "increases", &_k.s.b.increases, INT, SCALAR,
          "Chip increases resolved since setup or loading, one per ended run (§7), counting "
          "those on a 3-high hex that add nothing."),
    field(_k, "blank_free", &_k.s.b.blank_free, BOOL, SCALAR,
          "Option ``blank_entry_ignores_height``."),
    field(_k, "full_snapshots", &_k.s.full, BOOL, SCALAR,
          "Option ``repetition_compares_full_state``: snapshots hold every tile and the pawns."),
])
PotlatchFields = FACE.mixin("PotlatchFields")

FIELDS = (*FACE.fields, "tiles", "pawns", "visited", "snapshots")
"""The names ``snapshot`` returns and ``load`` takes: the whole position."""


def snapshot(PotlatchKernel k) -> dict:
    """Every field of the position as plain Python values (see ``FIELDS``): the table's, the
    tiles ``(q, r, code)`` in the order they appeared, the pawns' and the visited hexes
    ``(q, r)``, and the two seats' repetition snapshots as ``setup`` takes them, the mover's
    being the turn's start once the turn is under way (as the position JSON keeps them)."""
    values = FACE.snapshot(k)
    values["tiles"] = k.tiles()
    values["pawns"] = k.pawns()
    values["visited"] = k.visited()
    snapshots = [k.snapshot(0), k.snapshot(1)]
    if k.s.done >= 1:
        snapshots[k.s.b.mover] = k.snapshot(2)
    values["snapshots"] = snapshots
    return values


def load(PotlatchKernel k, values) -> None:
    """Set the whole position from ``values``, every name of ``FIELDS`` and no other (a
    ``snapshot``, or what the position loader read from the JSON): the table's fields first (the
    options, actions per turn and counters), then the board through ``setup``, which derives
    the rest (the start-of-turn checks, the legal list, the result), then the count of chip
    increases, which ``setup`` starts again at 0."""
    check_whole(values, FIELDS, "PotlatchKernel")
    FACE.load(k, {name: values[name] for name in FACE.fields})
    k.setup(values["tiles"], values["stock"], values["pawns"], values["to_move"],
            values["turns_played"], values["snapshots"], values["done"], values["visited"],
            values["run_open"])
    k.s.b.increases = values["increases"]
