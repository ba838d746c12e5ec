# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Named read/write access to a Montana kernel's fields, for the facade and position loading.

The facade (state.py) shows the kernel's C struct under the rulebook's names (``silver``,
``supply_goods``, ``hex_owner`` …) as plain ints and int sequences; this module maps each name
to its place in the struct. Hex fields are indexed by the local hex index of ``board.Board``
(ascending padded cell = sorted by row, then column). Cold code: every call is a Python call.
"""

from libc.stdint cimport intptr_t

from boardplay.games.montana.kernel cimport MontanaKernel, Pos
from boardplay.games.montana.tables cimport MAX_HEX, MAX_LINES, PAD, PW

cdef Pos _probe

cdef intptr_t _at(void* field) noexcept:
    return <intptr_t>field - <intptr_t>&_probe


SCALARS = {
    "stage": _at(&_probe.stage), "decider": _at(&_probe.decider), "main": _at(&_probe.main),
    "setup_seat": _at(&_probe.setup_seat), "setup_spin_no": _at(&_probe.setup_spin_no),
    "spin": _at(&_probe.spin), "push": _at(&_probe.push), "wilds": _at(&_probe.wilds),
    "excess": _at(&_probe.excess), "after_overflow": _at(&_probe.after_overflow),
    "prod_area": _at(&_probe.prod_area), "prod_space": _at(&_probe.prod_space),
    "builds_paid": _at(&_probe.builds_paid), "opp": _at(&_probe.opp),
    "chain": _at(&_probe.chain), "cursor": _at(&_probe.cursor),
    "start_player": _at(&_probe.start_player), "active": _at(&_probe.active),
    "turn_number": _at(&_probe.turn_number), "extra_turn": _at(&_probe.extra_turn),
    "trigger_by": _at(&_probe.trigger_by), "final_pending": _at(&_probe.final_pending),
    "won": _at(&_probe.won), "ended_by": _at(&_probe.ended_by),
    "supply_cattle": _at(&_probe.supply_cattle), "canteens_used": _at(&_probe.canteens_used),
    "canteens_box": _at(&_probe.canteens_box),
}
"""Byte offsets of the int fields of ``Pos``."""

# name: (byte offset, entries per seat (0: a fixed count), fixed count)
ARRAYS = {
    "received": (_at(&_probe.received), 0, 4),
    "out": (_at(&_probe.out), 1, 0),
    "regular_turns": (_at(&_probe.regular_turns), 1, 0),
    "supply_workers": (_at(&_probe.supply_workers), 0, 4),
    "supply_goods": (_at(&_probe.supply_goods), 0, 6),
    "aside_goods": (_at(&_probe.aside_goods), 0, 6),
    "silver": (_at(&_probe.silver), 1, 0),
    "goods": (_at(&_probe.goods), 6, 0),
    "cattle": (_at(&_probe.cattle), 1, 0),
    "canteens": (_at(&_probe.canteens), 1, 0),
    "workers": (_at(&_probe.workers), 4, 0),
    "tiles": (_at(&_probe.tiles), 1, 0),
    "contractor": (_at(&_probe.contractor), 1, 0),
}
HEXES = {
    "hex_owner": _at(&_probe.owner),
    "hex_tiles": _at(&_probe.hex_tiles),
    "hex_cattle": _at(&_probe.hex_cattle),
    "lake_canteen": _at(&_probe.canteen_on),
}


cdef int* _ints(MontanaKernel k, intptr_t offset) noexcept:
    return <int*>(<char*>&k.s + offset)


def get(MontanaKernel k, str name) -> int:
    """A scalar field."""
    return _ints(k, SCALARS[name])[0]


def put(MontanaKernel k, str name, int value) -> None:
    _ints(k, SCALARS[name])[0] = value


def length(MontanaKernel k, str name) -> int:
    """Entries of an array, slot-part or hex field."""
    if name == "slots":
        return k.t.num_slots
    if name in HEXES:
        return k.b.count
    _, per_seat, fixed = ARRAYS[name]
    return per_seat * k.t.n if per_seat else fixed


def read(MontanaKernel k, str name) -> list:
    """An array field as a list (``slots``: a list of 4-tuples, one per worker-board part)."""
    cdef int i, count = length(k, name)
    cdef int* values
    cdef signed char* cells
    if name == "slots":
        return [tuple(k.s.slots[i][c] for c in range(4)) for i in range(count)]
    if name in HEXES:
        cells = <signed char*>(<char*>&k.s + <intptr_t>HEXES[name])
        return [cells[k.b.cells[i]] for i in range(count)]
    values = _ints(k, ARRAYS[name][0])
    return [values[i] for i in range(count)]


def read_one(MontanaKernel k, str name, int index):
    """One entry of an array field (negative indices count from the end)."""
    cdef int count = length(k, name)
    if index < 0:
        index += count
    if not 0 <= index < count:
        raise IndexError(f"{name} index {index} out of range 0..{count - 1}")
    if name == "slots":
        return (k.s.slots[index][0], k.s.slots[index][1], k.s.slots[index][2],
                k.s.slots[index][3])
    if name in HEXES:
        return (<signed char*>(<char*>&k.s + <intptr_t>HEXES[name]))[k.b.cells[index]]
    return _ints(k, ARRAYS[name][0])[index]


def write(MontanaKernel k, str name, int index, value) -> None:
    """Set one entry (``slots``: a 4-sequence of worker counts)."""
    cdef int count = length(k, name)
    if not 0 <= index < count:
        raise IndexError(f"{name} index {index} out of range 0..{count - 1}")
    if name == "slots":
        for c in range(4):
            k.s.slots[index][c] = value[c]
    elif name in HEXES:
        (<signed char*>(<char*>&k.s + <intptr_t>HEXES[name]))[k.b.cells[index]] = value
    else:
        _ints(k, ARRAYS[name][0])[index] = value


def board_seed(MontanaKernel k) -> int:
    """The seed of the dealt landscape (-1 before the Board chance node)."""
    return k.b.seed if k.b.count else -1


def landscape(MontanaKernel k) -> list:
    """The dealt landscape hex by hex (local order): ``(q, r, kind, cost, double, cattle
    icon, canteen icon)`` with kind 1 plain, 2 mountain, 3 lake — to check against board.py."""
    out = []
    for i in range(k.b.count):
        c = k.b.cells[i]
        q, r = c % PW - PAD, c // PW - PAD
        cost = tuple(k.b.cost[c][g] if k.b.kind[c] == 1 else 0 for g in range(6))
        out.append((q, r, k.b.kind[c], cost, k.b.dbl[c], k.b.cattle[c], k.b.canteen[c]))
    return out


def placement(MontanaKernel k) -> tuple:
    """``(tile index, rotation)`` per layout position, and the attempts taken."""
    return [(k.b.tile[i], k.b.rot[i]) for i in range(k.t.nlayout)], k.b.attempts


def load_board(MontanaKernel k, int seed) -> bool:
    """Deal the landscape of ``seed`` with every hex empty (position loading fills the rest).
    False when the generator finds no valid board."""
    k.t.make_land(seed, &k.b)
    k._clear_hexes()
    return k.b.count > 0


def buildable(MontanaKernel k, int player, int h) -> bool:
    return k._buildable(player, k.b.cells[h])


def sites(MontanaKernel k, int player) -> list:
    """Local hexes ``player`` may build on now, goods aside (none with no tiles left)."""
    if k.s.tiles[player] == 0:
        return []
    return [k.b.local[k.b.plains[i]] for i in range(k.b.nplains)
            if k._buildable(player, k.b.plains[i])]


def tiebreak_two(MontanaKernel k, int player) -> int:
    return k._tiebreak_two(player)


def winners(MontanaKernel k) -> list:
    """The players who would win if the game ended now (spec §8)."""
    mask = k._winners()
    return [p for p in range(k.t.n) if (mask >> p) & 1]


cdef int[3] UP = [1, PW - 1, PW]
"""Padded-cell step along each axis towards higher cells (E, SW, SE)."""


def lines(MontanaKernel k, int player) -> list:
    """``player``'s rewarded lines in the order they were rewarded: ``(axis, local hexes)``."""
    out = []
    for i in range(k.s.nlines[player]):
        axis = k.s.line_axis[player][i]
        first = k.s.line_first[player][i]
        hexes = tuple(k.b.local[first + j * UP[axis]] for j in range(k.s.line_len[player][i]))
        out.append((axis, hexes))
    return out


def set_lines(MontanaKernel k, int player, list entries) -> str:
    """Replace ``player``'s rewarded lines by ``entries`` (``(axis, local hexes)``); returns
    why they cannot be (each must be an unbroken straight run on its axis, and lines on one
    axis must not share hexes), or "" when they are set."""
    cdef int i, c, bit
    for c in range(k.b.count):
        for bit in range(3):
            k.s.lined[k.b.cells[c]] &= ~(1 << (3 * player + bit))
    k.s.nlines[player] = 0
    for axis, hexes in entries:
        cells = sorted(k.b.cells[h] for h in hexes)
        if k.s.nlines[player] >= MAX_LINES or len(cells) > MAX_HEX:
            return "are too many"
        for i in range(1, len(cells)):
            if cells[i] - cells[i - 1] != UP[axis]:
                return "must be an unbroken straight run of hexes on the line's axis"
        bit = 1 << (3 * player + axis)
        if any(k.s.lined[c] & bit for c in cells):
            return "must not share hexes with another line on the same axis"
        k._record_line(player, axis, cells[0], len(cells))
    return ""
