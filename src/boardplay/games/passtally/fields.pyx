# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The kernel's cold Python face: its position as plain Python values (``snapshot``,
``restore``) and the queries the facade, the position loader, the explanations and the tests
ask (``line``, ``score_now``, ``marker_slots``...), as functions of a ``PasstallyKernel`` that
read its C fields and methods directly. None of it runs in a playout."""

from boardplay.core.kernel cimport Rng
from boardplay.games.passtally.board cimport (
    MAX_SEATS,
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_DESIGNS,
    NUM_OFFSETS,
    NUM_PILES,
    NUM_SLOTS,
    SIZE,
    TOTAL_TILES,
    Position,
)
from boardplay.games.passtally.kernel cimport PasstallyKernel
from boardplay.games.passtally.ring cimport destination, setup_slots_into

FIELDS = (
    "height", "tid", "shape", "ring", "placements", "face_up", "hidden", "unrevealed",
    "points", "pending", "to_move", "actions_left", "turns", "side1", "side3", "end",
    "setup", "final_round", "game_over",
)
"""The names ``snapshot`` returns and ``restore`` takes (see ``Position``)."""


cdef list _chars(const signed char* values, int count):
    return [values[i] for i in range(count)]


cdef list _ints(const int* values, int count):
    return [values[i] for i in range(count)]


def field(PasstallyKernel kernel, str name):
    """One field of ``snapshot()``, read alone (the facade's properties ask for one at a time:
    building the whole snapshot for it cost 2 us a read)."""
    cdef Position* p = &kernel.p
    cdef int i
    if name == "height":
        return _chars(p.height, NUM_CELLS)
    if name == "tid":
        return _chars(p.tid, NUM_CELLS)
    if name == "shape":
        return _chars(p.shape, NUM_CELLS)
    if name == "ring":
        return _chars(p.ring, NUM_SLOTS)
    if name == "placements":
        return [(p.placed_design[i], p.placed_anchor[i], p.placed_orientation[i])
                for i in range(p.placed)]
    if name == "face_up":
        return _ints(p.face_up, NUM_PILES)
    if name == "hidden":
        return _ints(p.hidden, NUM_PILES)
    if name == "unrevealed":
        return _ints(p.unrevealed, NUM_DESIGNS)
    if name == "points":
        return _ints(p.points, kernel.n)
    scalars = {
        "pending": p.pending, "to_move": p.to_move, "actions_left": p.actions_left,
        "turns": p.turns, "side1": p.side1, "side3": p.side3, "end": p.end,
        "setup": bool(p.setup), "final_round": bool(p.final_round),
        "game_over": bool(p.game_over),
    }
    if name in scalars:
        return scalars[name]
    raise KeyError(f"no position field {name!r}; fields: {', '.join(FIELDS)}")


def snapshot(PasstallyKernel kernel) -> dict:
    """Every field of the position as plain Python values (see ``FIELDS``)."""
    return {name: field(kernel, name) for name in FIELDS}


def restore(PasstallyKernel kernel, fields) -> None:
    """Set the position from ``fields`` (every name in ``FIELDS``). The caller (the position
    loader) has validated them; only the array sizes and value ranges are checked here."""
    cdef int i
    missing = [name for name in FIELDS if name not in fields]
    if missing:
        raise ValueError(f"restore needs every field; missing: {', '.join(missing)}")
    placements = list(fields["placements"])
    if len(placements) > TOTAL_TILES:
        raise ValueError(f"at most {TOTAL_TILES} placements")
    for name, size in (("height", NUM_CELLS), ("tid", NUM_CELLS), ("shape", NUM_CELLS),
                       ("ring", NUM_SLOTS), ("face_up", NUM_PILES), ("hidden", NUM_PILES),
                       ("unrevealed", NUM_DESIGNS), ("points", kernel.n)):
        if len(fields[name]) != size:
            raise ValueError(f"{name} needs {size} values")
    for i in range(NUM_CELLS):
        kernel.p.height[i] = fields["height"][i]
        kernel.p.tid[i] = fields["tid"][i]
        kernel.p.shape[i] = fields["shape"][i]
    for i in range(NUM_CELLS, NUM_CELLS + SIZE):
        kernel.p.height[i] = 0
        kernel.p.tid[i] = -1
    kernel.p.markers = 0
    for i in range(NUM_SLOTS):
        kernel.p.ring[i] = fields["ring"][i]
        if kernel.p.ring[i] >= 0:
            kernel.p.markers += 1
    kernel.p.placed = len(placements)
    for i, (design, anchor, orientation) in enumerate(placements):
        kernel.p.placed_design[i] = design
        kernel.p.placed_anchor[i] = anchor
        kernel.p.placed_orientation[i] = orientation
    for i in range(NUM_PILES):
        kernel.p.face_up[i] = fields["face_up"][i]
        kernel.p.hidden[i] = fields["hidden"][i]
    for i in range(NUM_DESIGNS):
        kernel.p.unrevealed[i] = fields["unrevealed"][i]
    for i in range(MAX_SEATS):
        kernel.p.points[i] = fields["points"][i] if i < kernel.n else 0
    kernel.p.pending = fields["pending"]
    kernel.p.to_move = fields["to_move"]
    kernel.p.actions_left = fields["actions_left"]
    kernel.p.turns = fields["turns"]
    kernel.p.side1 = fields["side1"]
    kernel.p.side3 = fields["side3"]
    kernel.p.end = fields["end"]
    kernel.p.setup = fields["setup"]
    kernel.p.final_round = fields["final_round"]
    kernel.p.game_over = fields["game_over"]
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


def set_pending(PasstallyKernel kernel, int pile) -> None:
    """Make ``pile``'s reveal the current chance node, or none with -1 (tests use it)."""
    if not -1 <= pile < NUM_PILES:
        raise ValueError(f"pile must be -1..{NUM_PILES - 1}, not {pile}")
    kernel.p.pending = pile


def line(PasstallyKernel kernel, int slot) -> tuple:
    """(end slot, passes) of the line entering at ``slot``."""
    if not 0 <= slot < NUM_SLOTS:
        raise ValueError(f"slot must be 0-{NUM_SLOTS - 1}, not {slot}")
    cdef int passes = 0
    cdef signed char marks[NUM_OFFSETS]
    cdef int end = kernel.trace(slot, &passes, marks)
    return end, passes


def score_now(PasstallyKernel kernel, int seat) -> int:
    """``turn_score``: the VP ``seat``'s complete lines would convert to now."""
    if not 0 <= seat < kernel.n:
        raise ValueError(f"seat must be 0-{kernel.n - 1}, not {seat}")
    return kernel.turn_score(seat)


def marker_destination(PasstallyKernel kernel, int slot, int j) -> int:
    """Where the marker on ``slot`` lands with move kind j (0-3), or -1."""
    if not (0 <= slot < NUM_SLOTS and 0 <= j < 4):
        raise ValueError("slot must be 0-23 and j 0-3")
    return destination(&kernel.p, slot, j, kernel.jump_step, kernel.continuous)


def placement_possible(PasstallyKernel kernel) -> bool:
    """Whether any legal placement exists (§8.3's immediate-end test)."""
    return kernel.any_placement()


def marker_slots(PasstallyKernel kernel) -> list:
    """The legal slots for the next setup marker."""
    cdef int buffer[NUM_SLOTS]
    cdef int count = setup_slots_into(&kernel.p, kernel.n, buffer)
    return [buffer[i] for i in range(count)]
