# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Montana kernel's position fields, declared once (``FACE``, see ``core/face.pyx``), and
the cold queries the facade and the position loader ask of a ``MontanaKernel``.

The facade (state.py) inherits the table as read-only properties (``MontanaFields``) under the
rulebook's names (``silver``, ``supply_goods`` …): scalars as ints, bools and texts, arrays as
lists. The hex fields are indexed by the local hex index of ``board.Board`` (ascending padded
cell = sorted by row, then column), so they and the worker-board parts (``slots``) are read by
``hexes`` / ``slots`` here rather than by the table. ``snapshot`` / ``load`` carry all of them:
the position loader's one way to write a position. Cold code: every call is a Python call.
"""

from boardplay.core.face cimport BOOL, INT, NAMED, PER_SEAT, SCALAR, field
from boardplay.games.montana.kernel cimport MontanaKernel
from boardplay.games.montana.tables cimport MAX_HEX, MAX_LINES, PAD, PW, Tables

from boardplay.core.face import Face, check_whole
from boardplay.games.montana import layout as L


cdef MontanaKernel _k = MontanaKernel.__new__(MontanaKernel)


cdef _int(str name, int* address, str doc):
    return field(_k, name, address, INT, SCALAR, doc)


cdef _bool(str name, int* address, str doc):
    return field(_k, name, address, BOOL, SCALAR, doc)


cdef _ints(str name, int* address, int count, str doc):
    return field(_k, name, address, INT, count, doc)


FACE = Face(_k, [
    _int("stage", &_k.s.stage, "The pending decision's stage (``layout.Stage``)."),
    _int("to_move", &_k.s.decider, "The seat to decide (the position JSON's "
         "``stage.decider``; in an auction not always the active player), -1 at chance; once "
         "over, the seat whose turn it was (the active player's, whose turn ended the game)."),
    field(_k, "main", &_k.s.main, NAMED, SCALAR, "The active player's main action this turn.",
          L.MAIN_ACTIONS),
    _int("setup_seat", &_k.s.setup_seat, "The seat placing its setup settlement."),
    _int("setup_spin_no", &_k.s.setup_spin_no, "The setup spin being resolved."),
    _int("spin", &_k.s.spin, "The pending spin's wheel index, -1 for none."),
    _int("push", &_k.s.push, "The pending arrow push, -1 for none."),
    _int("wilds", &_k.s.wilds, "Wild workers still to choose."),
    _int("excess", &_k.s.excess, "Workers over the limit still to return."),
    _int("after_overflow", &_k.s.after_overflow,
         "The stage after an overflow, or -1 (``TURN_END``): the turn ends next."),
    _int("prod_area", &_k.s.prod_area, "The production area in use, -1 for none."),
    _int("prod_space", &_k.s.prod_space, "The production space in use, -1 for none."),
    _int("builds_paid", &_k.s.builds_paid, "Settlements paid for in this build action."),
    _int("opp", &_k.s.opp, "The City auction's opportunity count."),
    _bool("chain", &_k.s.chain, "Whether the City auction is a chain."),
    _int("cursor", &_k.s.cursor, "The City auction's cursor."),
    _int("start_player", &_k.s.start_player, "The start player, -1 in setup."),
    _int("active", &_k.s.active, "The active player, -1 in setup."),
    _int("turn_number", &_k.s.turn_number, "Turns begun (the ``max_turns`` counter)."),
    _bool("extra_turn", &_k.s.extra_turn, "Whether this is an extra turn."),
    _int("trigger_by", &_k.s.trigger_by, "Who triggered the final round, -1 for nobody."),
    _bool("final_pending", &_k.s.final_pending, "Whether the final round is still to come."),
    _int("won_mask", &_k.s.won, "The winners as a bit set (0: a draw), -1 while running."),
    field(_k, "ended_by", &_k.s.ended_by, NAMED, SCALAR, "Why the game ended.", L.END_REASONS),
    _int("supply_cattle", &_k.s.supply_cattle, "Cattle in the general supply."),
    _int("canteens_used", &_k.s.canteens_used, "Canteens taken off the lakes."),
    _int("canteens_box", &_k.s.canteens_box, "Canteens left in the box."),
    _ints("received", &_k.s.received[0], 4, "Workers received by the pending recruit."),
    _ints("out", &_k.s.out[0], PER_SEAT, "Per seat: out of the City auction."),
    _ints("regular_turns", &_k.s.regular_turns[0], PER_SEAT, "Per seat: regular turns."),
    _ints("supply_workers", &_k.s.supply_workers[0], 4, "Workers in the supply (Cu, St, Gr, Pu)."),
    _ints("supply_goods", &_k.s.supply_goods[0], 6, "Goods in the supply, by kind and size."),
    _ints("aside_goods", &_k.s.aside_goods[0], 6, "Goods set aside."),
    _ints("silver", &_k.s.silver[0], PER_SEAT, "Per seat: silver."),
    _ints("goods", &_k.s.goods[0][0], 6 * PER_SEAT, "Per seat: six goods counts."),
    _ints("cattle", &_k.s.cattle[0], PER_SEAT, "Per seat: cattle."),
    _ints("canteens", &_k.s.canteens[0], PER_SEAT, "Per seat: canteens."),
    _ints("workers", &_k.s.workers[0][0], 4 * PER_SEAT, "Per seat: four worker counts."),
    _ints("tiles", &_k.s.tiles[0], PER_SEAT, "Per seat: settlement tiles left to place."),
    _ints("contractor", &_k.s.contractor[0], PER_SEAT,
          "Per seat: the contractor's store spot, -1 (``HOME``) at home."),
])
MontanaFields = FACE.mixin("MontanaFields")

HEX_FIELDS = ("hex_owner", "hex_tiles", "hex_cattle", "lake_canteen")
"""Per landscape hex (local index): the settlement's owner (-1 none) and tiles, whether the
cattle and the lake's canteen are still there."""
FIELDS = (*FACE.fields, *HEX_FIELDS, "slots", "board_seed", "lines")
"""The names ``snapshot`` returns and ``load`` takes: the whole position."""


cdef signed char* _hex_field(MontanaKernel k, str name) except NULL:
    if name == "hex_owner":
        return k.s.owner
    if name == "hex_tiles":
        return k.s.hex_tiles
    if name == "hex_cattle":
        return k.s.hex_cattle
    if name == "lake_canteen":
        return k.s.canteen_on
    raise KeyError(f"no hex field {name!r}; hex fields: {', '.join(HEX_FIELDS)}")


def hexes(MontanaKernel k, str name) -> list:
    """A hex field as a list by local hex index (empty before the board is dealt)."""
    cdef signed char* cells = _hex_field(k, name)
    cdef int i
    return [cells[k.b.cells[i]] for i in range(k.b.count)]


def slots(MontanaKernel k) -> list:
    """The worker-board parts (bank spaces, then left/right of each production space) as
    4-tuples of worker counts (Cu, St, Gr, Pu)."""
    cdef int i
    return [tuple(k.s.slots[i][c] for c in range(4)) for i in range(k.t.num_slots)]


def snapshot(MontanaKernel k) -> dict:
    """Every field of the position as plain Python values (see ``FIELDS``): the table's, the
    hexes', the worker board's, the dealt board's seed and each player's rewarded lines."""
    values = FACE.snapshot(k)
    for name in HEX_FIELDS:
        values[name] = hexes(k, name)
    values["slots"] = slots(k)
    values["board_seed"] = board_seed(k)
    values["lines"] = [lines(k, p) for p in range(k.t.n)]
    return values


def load(MontanaKernel k, values) -> None:
    """Write the whole position ``values``, every name of ``FIELDS`` and no other, into ``k``:
    the position loader's and tests' one way to set a position outside play. The board of
    ``board_seed`` is dealt first (unless ``k`` holds it already; -1: none yet), as the hexes
    are its. Sizes and value ranges are checked, the rules are not (the loader validates
    first)."""
    cdef signed char* cells
    cdef int i, c
    check_whole(values, FIELDS, "MontanaKernel")
    seed = values["board_seed"]
    if seed < 0:
        k.b.seed = -1
        k.b.count = 0
        k._clear_hexes()
    elif seed != board_seed(k) and not load_board(k, seed):
        raise ValueError(f"no board can be dealt from seed {seed}")
    rest = {name: values[name] for name in (*HEX_FIELDS, "slots")}
    for name, value in rest.items():
        if name == "slots":
            entries = [tuple(entry) for entry in value]
            if len(entries) != k.t.num_slots or any(len(e) != 4 for e in entries):
                raise ValueError(f"slots needs {k.t.num_slots} 4-tuples of worker counts")
        elif len(value) != k.b.count:
            raise ValueError(f"{name} needs {k.b.count} values, one per hex")
    if len(values["lines"]) != k.t.n:
        raise ValueError(f"lines needs {k.t.n} lists, one per player")
    FACE.load(k, {name: values[name] for name in FACE.fields})
    for name, value in rest.items():
        if name == "slots":
            for i, entry in enumerate(value):
                for c in range(4):
                    k.s.slots[i][c] = entry[c]
        else:
            cells = _hex_field(k, name)
            for i in range(k.b.count):
                cells[k.b.cells[i]] = value[i]
    k._settle_masks()
    for p, entries in enumerate(values["lines"]):
        problem = set_lines(k, p, entries)
        if problem:
            raise ValueError(f"player {p}'s lines {problem}")


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


def tables(MontanaKernel k) -> Tables:
    """The component tables the kernel plays with (its data file and options)."""
    return k.t


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


def set_lines(MontanaKernel k, int player, entries) -> str:
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
