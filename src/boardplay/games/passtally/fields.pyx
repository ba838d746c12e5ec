# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The kernel's cold Python face: its position's fields, declared once (``FACE``, the table
every game keeps in its ``fields.pyx``, see ``core/face.pyx``), as plain Python values
(``snapshot``, ``load``) and as the facade's read-only properties (``PasstallyFields``), and the
queries the facade, the position loader, the explanations and the tests ask (``line``,
``score_now``, ``marker_slots``...), as functions of a ``PasstallyKernel`` that read its C fields
and methods directly. None of it runs in a playout."""

from boardplay.core.face cimport BOOL, INT, PER_SEAT, SCALAR, SCHAR, field
from boardplay.core.kernel cimport Rng
from boardplay.games.passtally.kernel cimport NUM_OFFSETS, PasstallyKernel
from boardplay.games.passtally.layout cimport (
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_DESIGNS,
    NUM_PILES,
    NUM_SLOTS,
    SIZE,
    TOTAL_TILES,
)
from libc.stdint cimport uint64_t

from boardplay.core.face import Face, check_whole

cdef PasstallyKernel _k = PasstallyKernel.__new__(PasstallyKernel)

FACE = Face(_k, [
    field(_k, "height", &_k.p.height[0], SCHAR, NUM_CELLS,
          "Stack height per cell (0-35, ``row * 6 + col``)."),
    field(_k, "tid", &_k.p.tid[0], SCHAR, NUM_CELLS,
          "The top tile's index in ``placements`` per cell, -1 on the bare board."),
    field(_k, "shape", &_k.p.shape[0], SCHAR, NUM_CELLS,
          "The top half's shape per cell (X=0, NE=1, NW=2, rotation applied; X when bare)."),
    field(_k, "ring", &_k.p.ring[0], SCHAR, NUM_SLOTS,
          "The seat whose marker stands on each of the 24 slots, or -1."),
    field(_k, "face_up", &_k.p.face_up[0], INT, NUM_PILES,
          "The face-up design of each pile, or -1."),
    field(_k, "hidden", &_k.p.hidden[0], INT, NUM_PILES, "Face-down tiles per pile."),
    field(_k, "unrevealed", &_k.p.unrevealed[0], INT, NUM_DESIGNS,
          "Tiles of each design neither placed nor face up."),
    field(_k, "points", &_k.p.points[0], INT, PER_SEAT, "VP per seat."),
    field(_k, "pending", &_k.p.pending, INT, SCALAR,
          "The pile whose reveal is the current chance node, or -1."),
    field(_k, "to_move", &_k.p.to_move, INT, SCALAR,
          "The seat whose turn it is (also during its reveals); once the game is over, the "
          "seat whose turn it was when it ended."),
    field(_k, "actions_left", &_k.p.actions_left, INT, SCALAR, "Actions left in this turn."),
    field(_k, "turns", &_k.p.turns, INT, SCALAR,
          "Completed turns since setup (only the ``max_turns`` guard consults it)."),
    field(_k, "side1", &_k.p.side1, INT, SCALAR, "The side chosen in setup pass 1, or -1."),
    field(_k, "side3", &_k.p.side3, INT, SCALAR, "The side chosen in setup pass 3, or -1."),
    field(_k, "end", &_k.p.end, INT, SCALAR,
          "Why the game ended (``state.END_*``), 0 while it runs."),
    field(_k, "setup", <void*>&_k.p.setup, BOOL, SCALAR,
          "Whether the setup placements are still going on."),
    field(_k, "final_round", <void*>&_k.p.final_round, BOOL, SCALAR,
          "Whether the final round has begun."),
    field(_k, "game_over", <void*>&_k.p.game_over, BOOL, SCALAR,
          "Whether the game has ended (the position JSON's flag; ``is_terminal()``)."),
])
PasstallyFields = FACE.mixin("PasstallyFields")

FIELDS = (*FACE.fields, "placements")
"""The names ``snapshot`` returns and ``load`` takes: the table's and the placement list."""


def placements(PasstallyKernel kernel) -> list:
    """(design, anchor, orientation) per tile in placement order (the tile ids)."""
    cdef int i
    return [(kernel.p.placed_design[i], kernel.p.placed_anchor[i], kernel.p.placed_orientation[i])
            for i in range(kernel.p.placed)]


def snapshot(PasstallyKernel kernel) -> dict:
    """Every field of the position as plain Python values (see ``FIELDS``)."""
    values = FACE.snapshot(kernel)
    values["placements"] = placements(kernel)
    return values


def load(PasstallyKernel kernel, fields) -> None:
    """Set the whole position from ``fields``, every name of ``FIELDS`` and no other. The
    caller (the position loader) has validated them; only the array sizes and value ranges are
    checked here."""
    cdef int i
    check_whole(fields, FIELDS, "PasstallyKernel")
    placed = list(fields["placements"])
    if len(placed) > TOTAL_TILES:
        raise ValueError(f"at most {TOTAL_TILES} placements")
    FACE.load(kernel, {name: fields[name] for name in FACE.fields})
    for i in range(NUM_CELLS, NUM_CELLS + SIZE):
        kernel.p.height[i] = 0
        kernel.p.tid[i] = -1
    kernel.p.markers = 0
    for i in range(NUM_SLOTS):
        if kernel.p.ring[i] >= 0:
            kernel.p.markers += 1
    kernel.p.placed = len(placed)
    for i, (design, anchor, orientation) in enumerate(placed):
        kernel.p.placed_design[i] = design
        kernel.p.placed_anchor[i] = anchor
        kernel.p.placed_orientation[i] = orientation
    kernel._derive()


cdef int _in_play(PasstallyKernel kernel, str query) except -1:
    """Refuse ``query`` outside play: in setup, at a reveal or after the end."""
    if kernel.p.setup or kernel.p.pending >= 0 or kernel.p.game_over:
        raise ValueError(f"{query} is for a seat in play")
    return 0


def legal_at(PasstallyKernel kernel, int r) -> int:
    """What ``sample_legal`` returns when its draw is ``r`` (tests compare it with
    ``legal_actions()[r]``); only in play, not in setup, at chance or at the end."""
    cdef int per_pile[NUM_PILES]
    cdef int scratch[NUM_ACTIONS]
    _in_play(kernel, "legal_at")
    cdef int count = kernel.count_legal(per_pile, scratch)
    if not 0 <= r < count:
        raise ValueError(f"r must be 0-{count - 1}, not {r}")
    return kernel.nth_legal(r, per_pile, scratch)


def playout_action(PasstallyKernel kernel, unsigned long long seed) -> int:
    """What ``playout_action`` (the playout policy) plays with a generator seeded ``seed``; only
    for a seat in play."""
    cdef int scratch[NUM_ACTIONS]
    cdef Rng rng
    _in_play(kernel, "playout_action")
    rng.state = seed
    return kernel.playout_action(&rng, scratch)


def line(PasstallyKernel kernel, int slot) -> tuple:
    """(end slot, passes) of the line entering at ``slot``."""
    if not 0 <= slot < NUM_SLOTS:
        raise ValueError(f"slot must be 0-{NUM_SLOTS - 1}, not {slot}")
    cdef int passes = 0
    cdef uint64_t cells = 0
    cdef signed char marks[NUM_OFFSETS]
    cdef int end = kernel.trace(slot, &passes, &cells, marks)
    return end, passes


def score_now(PasstallyKernel kernel, int seat) -> int:
    """``turn_score``: the VP ``seat``'s complete lines would convert to now."""
    if not 0 <= seat < kernel.p.n:
        raise ValueError(f"seat must be 0-{kernel.p.n - 1}, not {seat}")
    return kernel.turn_score(seat)


def marker_destination(PasstallyKernel kernel, int slot, int j) -> int:
    """Where the marker on ``slot`` lands with move kind j (0-3), or -1."""
    if not (0 <= slot < NUM_SLOTS and 0 <= j < 4):
        raise ValueError("slot must be 0-23 and j 0-3")
    return kernel.move_destination(slot, j)


def placement_possible(PasstallyKernel kernel) -> bool:
    """Whether any legal placement exists (§8.3's immediate-end test)."""
    return kernel.any_placement()


def marker_slots(PasstallyKernel kernel) -> list:
    """The legal slots for the next setup marker."""
    cdef int buffer[NUM_SLOTS]
    cdef int count = kernel.setup_slots(buffer)
    return [buffer[i] for i in range(count)]
