# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Montana's component tables as C ints, built once per game, and the landscape generator.

``Tables`` flattens the parsed data file (``data.Components``, spec §14) and the options (§11)
into fixed C arrays that every kernel of a game shares, so the rules never touch a Python object.
``make_land`` is the board generator of spec §2.10 in C: the same SplitMix64 stream, shuffle,
rotations and validity checks as ``board.generate`` (the Python reference the tests compare it
with), because the Board chance node deals a new landscape in every random game.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from boardplay.core.kernel cimport Rng, rng_next
from boardplay.games.montana.layout cimport BOARD_ATTEMPTS, BOARD_OUTCOMES

from boardplay.core.errors import OptionError
from boardplay.games.montana import board
from boardplay.games.montana import data as montana_data


cdef class Tables:
    """Every component value and option of one game (players fixed) as C ints."""

    def __init__(self, data, int players, options):
        """``data``: parsed ``Components``; ``options``: the game's option values."""
        cdef int i, k, a, s, t
        self.args = (data, players, dict(options))
        n = players
        self.n = n
        for i, (dq, dr) in enumerate(board.DIRS):
            self.step[i] = dq + dr * PW
        self.settlements = data.settlements[n]
        self.worker_cap = data.worker_cap
        self.per_colour = data.workers_per_colour
        self.start_cattle = data.start_cattle
        self.cattle_total = data.cattle_total
        self.canteens_total = data.canteens_total
        for i in range(4):
            self.start_silver[i] = data.start_silver[i]
        for k in range(6):
            self.goods_supply[k] = data.goods_supply[n][k]
            self.start_goods[k] = data.start_goods[k]
            self.goods_box[k] = data.goods_box[k]
        self.nbank = len(data.bank)
        for i, space in enumerate(data.bank):
            self.bank_workers[i] = space.workers
            self.bank_silver[i] = space.silver
        slot = self.nbank
        for a, area in enumerate(data.areas):
            self.area_colour[a] = area.colour
            self.area_good[a] = area.good
            self.area_right[a] = area.right_bonus
            self.area_n[a] = len(area.spaces)
            self.area_slot[a] = slot
            slot += 2 * len(area.spaces)
            for s, prod in enumerate(area.spaces):
                self.space_cost[a][s] = prod.cost
                self.space_yield[a][s] = prod.yield_
        self.num_slots = slot
        self.ncols = len(data.column_cost)
        for i, cost in enumerate(data.column_cost):
            self.column_cost[i] = cost
        self.nrows = len(data.rows)
        for i, row in enumerate(data.rows):
            self.row_cattle[i] = row.cattle
            self.row_silver[i] = row.silver
            self.row_upgrades[i] = row.upgrades
            self.row_picks[i] = row.picks
            for k in range(6):
                self.row_pick_from[i][k] = 1 if k in row.pick_from else 0
        self.nup = len(data.upgrades)
        for i, (small, large) in enumerate(data.upgrades):
            self.up_small[i] = small
            self.up_large[i] = large
        self.wheel_n = len(data.wheel)
        for i, segment in enumerate(data.wheel):
            for k in range(4):
                self.wheel_fixed[i][k] = 0
            self.wheel_wilds[i] = 0
            for symbol in segment:
                if symbol == montana_data.WILD:
                    self.wheel_wilds[i] += 1
                else:
                    self.wheel_fixed[i][symbol] += 1
        self.max_push = data.max_arrow_push
        self.grain_per_push = data.grain_per_push_step
        self.setup_spins = data.setup_spins
        self.trade_silver = data.cattle_trade_silver
        trades = sorted(data.cattle_trade_goods)  # the legal list is sorted; repeats stay
        if len(trades) > MAX_TRADES:
            raise OptionError(f"Montana data: at most {MAX_TRADES} cattle trade goods")
        self.ntrade = len(trades)
        for i, g in enumerate(trades):
            self.trade_goods[i] = g
        self.max_builds = data.max_builds_per_action
        self.silver_per_skip = data.silver_per_skipped_build
        self.line_length = data.line_length
        if 3 * (max(data.settlements.values()) // data.line_length) > MAX_LINES:
            raise OptionError(
                f"Montana data: settlements / line_length allows more than {MAX_LINES} lines"
            )
        if len(data.tiles) > MAX_TILES or len(data.layouts[n]) > MAX_LAYOUT:
            raise OptionError(f"Montana data: at most {MAX_TILES} tiles, {MAX_LAYOUT} in play")
        self.ntiles = len(data.tiles)
        kinds = {"plain": K_PLAIN, "mountain": K_MOUNTAIN, "lake": K_LAKE}
        for t, tile in enumerate(data.tiles):
            for i, spec in enumerate(tile):
                self.tile_kind[t][i] = kinds[spec.kind]
                for k in range(6):
                    if not 0 <= spec.cost[k] <= 127:  # the build test packs costs in bytes
                        raise OptionError(f"Montana data: costs are 0..127, not {spec.cost[k]}")
                    self.tile_cost[t][i][k] = spec.cost[k]
                self.tile_flag[t][i] = spec.double | (spec.cattle << 1) | (spec.canteen << 2)
        self.nlayout = len(data.layouts[n])
        for i, (li, lj) in enumerate(data.layouts[n]):
            self.layout_q[i] = 2 * li - lj
            self.layout_r[i] = li + 3 * lj
        self.min_plain = data.min_start_plain_neighbours
        self.adjacent_any = bool(options["build_adjacent_any"])
        self.additional = options["recruit_grain"] == "additional"
        self.canteen_after_final = bool(options["canteen_after_final"])
        self.coins = options["tiebreak_money"] == "coins"
        self.max_turns = options["max_turns"]
        seed = options["board_seed"]
        self.fixed_seed = seed if isinstance(seed, int) else -1
        start = options["start_player"]
        self.fixed_start = start if isinstance(start, int) else -1

    def __dealloc__(self):
        free(self.deals)

    @property
    def data(self):
        """The parsed data file (``data.Components``) these tables were built from."""
        return self.args[0]

    @property
    def area_slots(self) -> tuple:
        """Per production area, the worker-board part (``slots`` index) of its first space's
        left part: the bank spaces come first, then two parts per production space."""
        return tuple(self.area_slot[a] for a in range(len(self.args[0].areas)))

    def __reduce__(self):
        """Pickled as the arguments it was built from (the tables are rebuilt: a few thousand
        C ints derived from the component data, never edited after ``__init__``)."""
        return (Tables, self.args)

    cdef void make_land(self, int seed, Land* land) noexcept:
        """Deal the landscape of ``seed`` (spec §2.10): shuffle the tiles, turn each one, and
        retry until every plain is reachable from the start hex, no canteen lake touches it
        and enough of its neighbours are plains. Gives up (``count`` 0) after BOARD_ATTEMPTS
        tries, like the reference generator, which raises then."""
        cdef Rng rng
        cdef int order[MAX_TILES]
        cdef short stack[MAX_HEX]
        cdef signed char seen[PCELLS]
        cdef int attempt = 0, i, j, k, t, rot, centre, cell, top, c, nb, plains, reached, near
        cdef bint ok
        cdef int start = PAD * PW + PAD
        cdef uint64_t began
        cdef Deal* known = NULL
        cdef bint again = False
        rng.state = <unsigned long long>seed
        if 0 <= seed < BOARD_OUTCOMES:
            if self.deals == NULL:
                self.deals = <Deal*>calloc(BOARD_OUTCOMES, sizeof(Deal))
            if self.deals != NULL:
                known = &self.deals[seed]
                if known.attempts > 0:
                    # the same deal again, from where the accepted one began: it passes
                    rng.state = known.state
                    attempt = known.attempts - 1
                    again = True
        while True:
            began = rng.state
            attempt += 1
            memset(land.kind, 0, sizeof(land.kind))
            for i in range(self.ntiles):
                order[i] = i
            for i in range(self.ntiles - 1, 0, -1):
                j = <int>(rng_next(&rng) % <unsigned long long>(i + 1))
                order[i], order[j] = order[j], order[i]
            for i in range(self.nlayout):
                rot = <int>(rng_next(&rng) % 6)
                t = order[i]
                land.tile[i] = t
                land.rot[i] = rot
                centre = (self.layout_r[i] + PAD) * PW + self.layout_q[i] + PAD
                for k in range(7):
                    cell = centre if k == 0 else centre + self.step[(k - 1 + rot) % 6]
                    land.kind[cell] = self.tile_kind[t][k]
                    land.dbl[cell] = self.tile_flag[t][k] & 1
                    land.cattle[cell] = (self.tile_flag[t][k] >> 1) & 1
                    land.canteen[cell] = (self.tile_flag[t][k] >> 2) & 1
                    for c in range(6):
                        land.cost[cell][c] = self.tile_cost[t][k][c]
            if again:
                break
            # (a) every plain reachable from the start hex through plains
            memset(seen, 0, sizeof(seen))
            seen[start] = 1
            stack[0] = start
            top = 1
            reached = 0
            while top > 0:
                top -= 1
                c = stack[top]
                for k in range(6):
                    nb = c + self.step[k]
                    if land.kind[nb] == K_PLAIN and not seen[nb]:
                        seen[nb] = 1
                        reached += 1
                        stack[top] = nb
                        top += 1
            plains = 0
            for c in range(PCELLS):
                if land.kind[c] == K_PLAIN:
                    plains += 1
            ok = land.kind[start] == K_PLAIN and reached + 1 == plains
            # (b) no canteen lake next to the start hex, (c) enough plain neighbours
            near = 0
            for k in range(6):
                nb = start + self.step[k]
                if land.kind[nb] == K_LAKE and land.canteen[nb]:
                    ok = False
                if land.kind[nb] == K_PLAIN:
                    near += 1
            if ok and near >= self.min_plain:
                break
            if attempt > BOARD_ATTEMPTS:
                land.count = 0
                land.seed = -1
                return
        if known != NULL:
            known.state = began
            known.attempts = attempt
        land.seed = seed
        land.attempts = attempt
        land.start = start
        land.count = land.nplains = land.ncattle = land.nlakes = 0
        for c in range(PCELLS):
            land.local[c] = -1
            if land.kind[c] == K_NONE:
                continue
            land.local[c] = land.count
            land.cells[land.count] = c
            land.count += 1
            if land.kind[c] == K_PLAIN:
                if c != start:
                    land.plains[land.nplains] = c
                    land.nplains += 1
                land.canteen[c] = 0
                land.ncattle += land.cattle[c]
            else:
                land.cattle[c] = 0
                land.dbl[c] = 0
                if land.kind[c] == K_LAKE:
                    land.nlakes += land.canteen[c]
                else:
                    land.canteen[c] = 0
        _afford_sets(land, self.step)


cdef void _afford_sets(Land* land, const int* step) noexcept:
    """``Land.afford``, ``near``, ``near_start`` and ``quick`` (tables.pxd), from the plains'
    costs and places (``step``: the padded-cell offset of each direction)."""
    cdef int i, j, d, g, v, cost
    cdef signed char* plain = land.pindex
    memset(land.pindex, -1, sizeof(land.pindex))
    memset(land.afford, 0, sizeof(land.afford))
    memset(land.near, 0, sizeof(land.near))
    land.near_start = 0
    land.quick = land.nplains <= 64
    if not land.quick:
        return
    for i in range(land.nplains):
        plain[land.plains[i]] = i
    for d in range(6):
        j = plain[land.start + step[d]]
        if j >= 0:
            land.near_start |= <uint64_t>1 << j
    for i in range(land.nplains):
        for d in range(6):
            j = plain[land.plains[i] + step[d]]
            if j >= 0:
                land.near[i] |= <uint64_t>1 << j
    for i in range(land.nplains):
        for g in range(6):
            cost = land.cost[land.plains[i]][g]
            if cost < 0 or cost >= AFFORD_LEVELS:
                land.quick = 0
                return
            land.afford[g][cost] |= <uint64_t>1 << i  # what costs exactly ``cost``, then
    for g in range(6):
        for v in range(1, AFFORD_LEVELS):
            land.afford[g][v] |= land.afford[g][v - 1]  # what costs at most ``v``
