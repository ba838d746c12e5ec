# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Montana's rules as a typed kernel (rules spec §3–§10): the whole game over fixed C fields.

The mutable position is one C struct (``Position``), so ``copy_from`` copies it as one block;
the landscape is a second struct (``Land``, see tables.pyx) dealt in C from the board seed and
copied only when the other kernel holds another board. Hexes live in a padded 17x17 axial
window, so a neighbour is ``cell + step[d]`` and the border (kind NONE, never owned) ends every
walk.
Automatic steps (payments, shortage returns, cleanup, auction payment, build effects,
compensation) happen inside the transition that causes them, never as extra decisions.

The module is split by job into parts compiled into this one extension (Cython ``include``, so
every call stays a direct C call the compiler may inline): ``work.pxi`` (holdings and the
legal-move enumerators, the main decision's draw without its list), ``turns.pxi`` (setup spins,
turns, the end), ``actions.pxi`` (the main actions: recruit, trade, production, the city auction,
building) and ``observe.pxi`` (the tensor and the build readiness behind the feature vector).
This file keeps the ``Kernel`` interface and the static tables.

Action ids, stages and the feature vector are declared in ``layout.pxd`` (shared with
``notation.py``, the facade and the evaluation). The Python methods at the end serve the facade's
typed accessors and position loading; no hot loop calls them.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from boardplay.core.kernel cimport (
    CHANCE, TERMINAL, Kernel, Rng, raw_bytes, raw_load, rng_below,
)
from boardplay.games.montana.layout cimport (
    F_CANTEENS, F_CATTLE, F_GOODS, F_NEXT_MAIN_SEAT, F_PARTIAL_COST, F_PARTIAL_HAVE, F_READY,
    F_SETTLEMENTS, F_SETTLEMENTS_LEFT, F_SILVER, F_WORKERS, FEATURE_SIZE,
    BOARD, BOARD_OUTCOMES, BUILD, BUILD_NEXT, CANTEEN, CHANCE_BOARD, CHANCE_SPIN, CHANCE_START,
    CITY, END, END_STAGE, HOME, MAIN, NUM_ACTIONS, OVER, OVERFLOW, PASS, PLACE, PLACE_STAGE, PUSH,
    PUSH_STAGE, RECRUIT, RETURN, REWARD, REWARD_PICK, REWARD_UP, RIGHT, RIGHT_NONE, RIGHT_STAGE,
    SEAT_FEATURES, SETUP_SPIN, SETUP_WILD, SPIN, START, STOP, TRADE, TRADE_SILVER, TURN_END, WILD,
    WILD_STAGE, WORK_BANK, WORK_PROD,
    BY_MAX_TURNS, BY_TRIGGER, M_BANK, M_BUILD, M_CITY, M_NONE, M_PRODUCTION, M_RECRUIT,
    CONTRACTOR_FEATURES, GRAIN_GOOD, HEX_FEATURES, MAX_AREA_SPACES, MAX_BANK_SPACES, MAX_COLUMNS,
    MAX_ROWS, MAX_SLOTS,
    MAX_WHEEL, OBSERVATION_SIZE, PART_SET_COUNT, PICK_SET_COUNT, PLAYER_FEATURES, PUMPKIN_GOOD,
    UPGRADE_PAIR_COUNT, WORKER_SET_COUNT,
)
from boardplay.games.montana.tables cimport (
    AFFORD_LEVELS, K_LAKE, K_MOUNTAIN, K_PLAIN, MAX_HEX, MAX_LINES, PAD, PCELLS, PW, Land, Tables,
)

from boardplay.games.montana import board
from boardplay.games.montana import notation as N

cdef int SET_W[WORKER_SET_COUNT][4]
cdef int SET_SIZE[WORKER_SET_COUNT]
cdef int BY_SIZE[5][WORKER_SET_COUNT]
cdef int BY_SIZE_N[5]
cdef int PICK_G[PICK_SET_COUNT][6]
cdef int PICK_SIZE[PICK_SET_COUNT]
cdef int PAIR[UPGRADE_PAIR_COUNT][2]
cdef int GRID_OF[PCELLS]
"""The build-action cell (15x15 window) of a padded cell, -1 on the border."""
cdef int AXIS_DIR[3][2]
"""The two opposite directions of each line axis (``board.AXES``)."""
cdef int AXIS_UP[3]
"""The direction of each axis along which the padded cell index grows (E, SW, SE)."""


def _init_static():
    """Copy the multiset tables of notation.py into C. Their sizes are C array sizes, so
    layout.pxd declares them (the action ranges are built from them) and this checks that
    notation's lists, computed from the data limits, have exactly those sizes."""
    cdef int i, k
    counts = (len(N.WORKER_SETS), len(N.PICK_SETS), len(N.UPGRADE_PAIRS))
    if counts != (WORKER_SET_COUNT, PICK_SET_COUNT, UPGRADE_PAIR_COUNT):
        raise ImportError("montana kernel: notation.py's multisets are not layout.pxd's counts")
    if N.PART_SETS != list(range(PART_SET_COUNT)):
        raise ImportError("montana kernel: the production part sets changed")
    for k in range(5):
        BY_SIZE_N[k] = 0
    for i, ms in enumerate(N.WORKER_SETS):
        for k in range(4):
            SET_W[i][k] = ms[k]
        SET_SIZE[i] = sum(ms)
        BY_SIZE[SET_SIZE[i]][BY_SIZE_N[SET_SIZE[i]]] = i
        BY_SIZE_N[SET_SIZE[i]] += 1
    for i, ms in enumerate(N.PICK_SETS):
        for k in range(6):
            PICK_G[i][k] = ms[k]
        PICK_SIZE[i] = sum(ms)
    for i, (a, b) in enumerate(N.UPGRADE_PAIRS):
        PAIR[i][0] = a
        PAIR[i][1] = b
    for i in range(PCELLS):
        GRID_OF[i] = -1
    for i in range(MAX_HEX):
        q, r = N.grid_coords(i)
        GRID_OF[(r + PAD) * PW + q + PAD] = i
    for i, (forward, back) in enumerate(board.AXES):
        AXIS_DIR[i][0] = forward
        AXIS_DIR[i][1] = back
        dq, dr = board.DIRS[forward]
        AXIS_UP[i] = forward if dq + dr * PW > 0 else back


_init_static()


include "work.pxi"
include "turns.pxi"
include "actions.pxi"
include "observe.pxi"
include "compact.pxi"


cdef class MontanaKernel(Kernel):
    """One Montana position: ``Position`` (everything that changes) and ``Land`` (the board)."""

    def __init__(self, int num_players, Tables tables):
        cdef int p, c
        if tables.n != num_players:
            raise ValueError(f"the tables are for {tables.n} players, not {num_players}")
        self.t = tables
        # the chance space: the outcome ids, as max_chance_outcomes
        self.set_sizes(tables.n, NUM_ACTIONS, CHANCE_BOARD + BOARD_OUTCOMES, OBSERVATION_SIZE,
                       FEATURE_SIZE, COMPACT_SIZE, &self.s, sizeof(Position))
        self.compact_dynamic = COMPACT_DYNAMIC
        self.b.seed = -1
        self.b.count = 0
        self.s.stage = BOARD
        self.s.decider = CHANCE
        self.s.won = -1
        for c in range(4):
            self.s.supply_workers[c] = tables.per_colour
        for p in range(4):
            self.s.tiles[p] = tables.settlements if p < tables.n else 0
            self.s.contractor[p] = HOME
        self.s.start_player = self.s.active = self.s.trigger_by = -1
        self.s.spin = self.s.push = self.s.prod_area = self.s.prod_space = -1
        self.s.after_overflow = TURN_END
        self._clear_hexes()
        if tables.fixed_seed >= 0:
            self.setup_board(tables.fixed_seed)

    cdef void _clear_hexes(self) noexcept:
        cdef int c
        for c in range(PCELLS):
            self.s.owner[c] = -1
            self.s.hex_tiles[c] = 0
            self.s.hex_cattle[c] = 0
            self.s.canteen_on[c] = 0
            self.s.lined[c] = 0
        self.s.settled = 0
        self.s.odd_owner = 0
        for c in range(4):
            self.s.mine[c] = 0
        memset(self.s.planes, 0, sizeof(self.s.planes))

    cdef void _settle_masks(self) noexcept:
        """``settled``, ``mine`` and ``odd_owner`` (kernel.pxd) from ``owner``: after the hexes
        are cleared or loaded (fields.load), never in play (``_build_step`` keeps them)."""
        cdef int i, c, o
        self.applied += 1  # a loaded position: a kept legal list is not its
        self.s.settled = 0
        self.s.odd_owner = 0
        for o in range(4):
            self.s.mine[o] = 0
        for c in range(PCELLS):
            o = self.s.owner[c]
            if o < 0:
                continue
            i = self.b.pindex[c] if self.b.quick else -1
            if i < 0 or o > 3:
                self.s.odd_owner = 1
            else:
                self.s.settled |= <uint64_t>1 << i
                self.s.mine[o] |= <uint64_t>1 << i
        hex_planes(self)

    # ----- the Kernel interface -----------------------------------------------------------
    cdef int to_move(self) noexcept:
        if self.s.stage == OVER:
            return TERMINAL
        if self.s.stage <= SPIN:
            return CHANCE
        return self.s.decider

    cdef int chance_into(self, int* outcomes, double* probabilities) noexcept:
        cdef int i, count = 0, first = 0
        cdef double p = 0.0
        if self.s.stage == BOARD:
            count, first, p = BOARD_OUTCOMES, CHANCE_BOARD, 1.0 / BOARD_OUTCOMES
        elif self.s.stage == SETUP_SPIN or self.s.stage == SPIN:
            count, first, p = self.t.wheel_n, CHANCE_SPIN, 1.0 / self.t.wheel_n
        elif self.s.stage == START:
            count, first, p = self.t.n, CHANCE_START, 1.0 / self.t.n
        for i in range(count):
            outcomes[i] = first + i
            probabilities[i] = p
        return count

    cdef int legal_into(self, int* out) noexcept:
        cdef Position* s = &self.s
        cdef Tables t = self.t
        cdef int stage = s.stage, p = s.decider, k = 0, i, most, first, count
        if stage == OVER:
            return 0
        if stage <= SPIN:
            first = CHANCE_BOARD if stage == BOARD else (CHANCE_START if stage == START else 0)
            count = BOARD_OUTCOMES if stage == BOARD else (t.n if stage == START else t.wheel_n)
            for i in range(count):
                out[i] = first + i
            return count
        if stage == MAIN:
            out[0] = RECRUIT
            out[1] = CITY
            k = _trades(self, out, 2)
            k = _main_work(self, p, out, k)
            return _build_options(self, p, out, k)
        if stage == PUSH_STAGE:
            most = t.max_push
            if t.grain_per_push > 0 and s.goods[p][GRAIN_GOOD] // t.grain_per_push < most:
                most = s.goods[p][GRAIN_GOOD] // t.grain_per_push
            for i in range(most + 1):
                out[i] = PUSH + i
            return _trades(self, out, most + 1)
        if stage == WILD_STAGE or stage == SETUP_WILD:
            for i in range(BY_SIZE_N[s.wilds]):
                out[i] = WILD + BY_SIZE[s.wilds][i]
            return BY_SIZE_N[s.wilds]
        if stage == OVERFLOW:
            for i in range(BY_SIZE_N[s.excess]):
                if _holds(self, p, BY_SIZE[s.excess][i]):
                    out[k] = RETURN + BY_SIZE[s.excess][i]
                    k += 1
            return k
        if stage == RIGHT_STAGE:
            out[0] = RIGHT_NONE
            k = 1
            for i in range(PART_SET_COUNT):
                if _part_ok(self, p, i, t.area_colour[s.prod_area]):
                    out[k] = RIGHT + i
                    k += 1
            return k
        if stage == PLACE_STAGE:
            if not (s.opp == 0 and not s.chain):
                out[0] = PASS
                k = 1
            k = _trades(self, out, k)
            return _place_spots(self, p, out, k)
        if stage == REWARD:
            k = _trades(self, out, 0)
            return _reward_options(self, p, out, k)
        if stage == BUILD_NEXT:
            out[0] = STOP
            k = _trades(self, out, 1)
            return _build_options(self, p, out, k)
        if stage == END_STAGE:
            if s.canteens[p] > 0:
                out[0] = CANTEEN
                k = 1
            out[k] = END
            return _trades(self, out, k + 1)
        return 0

    cdef void mask_into(self, signed char* mask, int* scratch) noexcept:
        """The default mask (every byte cleared, the legal ids set), keeping the list for a
        ``sample_legal`` on the same position (the batch's draw for its learner)."""
        cdef int n = self.legal_into(scratch), i
        memset(mask, 0, self.action_space)
        for i in range(n):
            mask[scratch[i]] = 1
        self.listed_n = -1
        if n <= 64:
            memcpy(self.listed, scratch, n * sizeof(int))
            self.listed_n = n
            self.listed_at = self.applied

    cdef int sample_legal(self, Rng* rng, int* scratch) noexcept:
        """``legal[rng_below(count)]`` of ``legal_into``'s list (the same draw): from the list
        ``mask_into`` kept on this position, else a main decision's without the list
        (``_sample_main``, work.pxi)."""
        cdef int count
        if self.listed_n > 0 and self.listed_at == self.applied:
            return self.listed[rng_below(rng, self.listed_n)]
        if self.s.stage == MAIN:
            return _sample_main(self, rng, scratch)
        count = self.legal_into(scratch)
        return scratch[rng_below(rng, count)]

    cdef void apply(self, int action) noexcept:
        cdef int stage = self.s.stage
        self.applied += 1
        if stage <= SPIN:
            if stage == BOARD:
                self.setup_board(action - CHANCE_BOARD)
            elif stage == SETUP_SPIN:
                _setup_spin(self, action - CHANCE_SPIN)
            elif stage == START:
                _start_game(self, action - CHANCE_START)
            else:
                self.s.spin = action - CHANCE_SPIN
                self.s.stage = PUSH_STAGE
                self.s.decider = self.s.active
        elif TRADE <= action < WILD:
            _trade(self, action - TRADE)
        elif stage == MAIN:
            _apply_main(self, action)
        elif stage == PUSH_STAGE:
            _apply_push(self, action - PUSH)
        elif stage == WILD_STAGE:
            _add_received(self, action - WILD)
            _receive_recruit(self)
        elif stage == SETUP_WILD:
            _add_received(self, action - WILD)
            _setup_receive(self)
        elif stage == OVERFLOW:
            _apply_return(self, action - RETURN)
        elif stage == RIGHT_STAGE:
            _apply_right(self, action)
        elif stage == PLACE_STAGE:
            _apply_place(self, action)
        elif stage == REWARD:
            _apply_reward(self, action)
        elif stage == BUILD_NEXT:
            if action == STOP:
                _finish_build(self)
            else:
                _build_step(self, action)
        elif stage == END_STAGE:
            _apply_end(self, action)

    cdef void returns_into(self, double* out) noexcept:
        cdef int p, n = self.t.n, winners = 0
        for p in range(n):
            out[p] = 0.0
            if self.s.won > 0 and (self.s.won >> p) & 1:
                winners += 1
        if self.s.won == 0:
            for p in range(n):
                out[p] = 1.0 / n
        elif self.s.won > 0:
            for p in range(n):
                if (self.s.won >> p) & 1:
                    out[p] = 1.0 / winners

    # ----- what lies outside the position struct (copy, copy_from, pickling: core/kernel.pyx) --
    cdef void copy_rest(self, Kernel source, bint fresh) noexcept:
        """The component tables (shared, never changed) and the dealt board, copied only when
        the other kernel holds another one."""
        cdef MontanaKernel k = <MontanaKernel>source
        self.applied += 1  # another position: a kept legal list is not its
        if fresh:
            self.t = k.t
            self.b = k.b
        elif self.b.seed != k.b.seed:
            self.b = k.b

    def save_rest(self) -> object:
        """The option tables (pickled as what built them) and the board."""
        return (self.t, raw_bytes(&self.b, sizeof(Land)))

    def restore_rest(self, object rest) -> None:
        tables, land = rest
        self.applied += 1
        self.t = tables
        raw_load(&self.b, sizeof(Land), land, "board")

    # ----- rules the facade's accessors ask too (fields.pyx) ------------------------------
    cdef bint _buildable(self, int p, int cell) noexcept:
        """An empty plain other than the start hex, next to the start hex or to one of ``p``'s
        settlements (anyone's with build_adjacent_any)."""
        cdef int d, nb, o
        if self.s.owner[cell] != -1 or self.b.kind[cell] != K_PLAIN or cell == self.b.start:
            return False
        for d in range(6):
            nb = cell + self.t.step[d]
            if nb == self.b.start:
                return True
            o = self.s.owner[nb]
            if o == p or (self.t.adjacent_any and o >= 0):
                return True
        return False

    cdef int _tiebreak_two(self, int p) noexcept:
        cdef int money = self.s.silver[p], k, total
        if self.t.coins:
            money = money // 5 + money % 5
        total = money + _count_workers(self, p)
        for k in range(6):
            total += self.s.goods[p][k]
        return total

    cdef int _winners(self) noexcept:
        """Only players who placed all their settlements can win (spec §8); ties by cattle +
        canteens, then money + workers + goods, then shared."""
        cdef int p, best1 = -1, best2 = -1, k1, k2, mask = 0
        for p in range(self.t.n):
            if self.s.tiles[p] != 0:
                continue
            k1 = self.s.cattle[p] + self.s.canteens[p]
            k2 = self._tiebreak_two(p)
            if k1 > best1 or (k1 == best1 and k2 > best2):
                best1, best2, mask = k1, k2, 0
            if k1 == best1 and k2 == best2:
                mask |= 1 << p
        return mask

    cdef void _record_line(self, int p, int axis, int low, int length) noexcept:
        cdef int i = self.s.nlines[p], j, cur = low
        self.s.line_axis[p][i] = axis
        self.s.line_first[p][i] = low
        self.s.line_len[p][i] = length
        self.s.nlines[p] = i + 1
        for j in range(length):
            self.s.lined[cur] |= 1 << (3 * p + axis)
            cur += self.t.step[AXIS_UP[axis]]

    # ----- setup --------------------------------------------------------------------------
    cdef void setup_board(self, int seed) noexcept:
        """Deal the landscape and the starting supplies and boards (spec §3 steps 1–12)."""
        cdef Tables t = self.t
        cdef int n = t.n, p, k, i, c
        if self.b.seed != seed:
            t.make_land(seed, &self.b)
        self._clear_hexes()
        for i in range(self.b.count):
            c = self.b.cells[i]
            self.s.hex_cattle[c] = self.b.cattle[c]
            self.s.canteen_on[c] = self.b.canteen[c]
        hex_planes(self)
        self.s.canteens_box = t.canteens_total - self.b.nlakes
        for k in range(6):
            self.s.supply_goods[k] = t.goods_supply[k]
            self.s.aside_goods[k] = t.goods_box[k] - t.goods_supply[k] - n * t.start_goods[k]
            for p in range(n):
                self.s.goods[p][k] = t.start_goods[k]
        for p in range(n):
            self.s.cattle[p] = t.start_cattle
        self.s.supply_cattle = t.cattle_total - self.b.ncattle - n * t.start_cattle
        self.s.setup_seat = self.s.setup_spin_no = 0
        self.s.decider = CHANCE
        self.s.stage = SETUP_SPIN
        if t.setup_spins == 0:
            _after_setup_spins(self)

    # ----- observation and features -------------------------------------------------------
    cdef void observe_into(self, int player, float* out) noexcept:
        _observe(self, player, out)

    cdef void compact_into(self, int player, unsigned char* out) noexcept:
        write_dynamic(self, player, out)
        write_static(self, out)

    cdef void compact_dynamic_into(self, int player, unsigned char* out) noexcept:
        write_dynamic(self, player, out)

    cdef void expand_into(self, const unsigned char* compact, float* out) noexcept:
        expand_compact(self, compact, out)

    cdef void features_into(self, double* out) noexcept:
        """``Feature`` (``layout.pxd``): per seat its holdings and build readiness, then the
        seat whose main action comes next (``_next_main_seat``, turns.pxi) and the data file's
        settlement count (the evaluation's phase of the game). The evaluation
        (ai/evaluation/montana.py) documents how it weighs them."""
        cdef int p, k, base, goods, workers
        cdef short open_sites[MAX_HEX]
        cdef int open_seats[MAX_HEX]
        cdef int nopen = _build_sites(self, open_sites, open_seats)
        for p in range(4):
            base = SEAT_FEATURES * p
            for k in range(SEAT_FEATURES):
                out[base + k] = 0.0
            if p >= self.t.n:
                continue
            goods = workers = 0
            for k in range(6):
                goods += self.s.goods[p][k]
            out[base + F_SETTLEMENTS_LEFT] = self.s.tiles[p]
            out[base + F_GOODS] = goods
            out[base + F_SILVER] = self.s.silver[p]
            out[base + F_WORKERS] = _count_workers(self, p)
            out[base + F_CATTLE] = self.s.cattle[p]
            out[base + F_CANTEENS] = self.s.canteens[p]
            # F_READY, F_PARTIAL_HAVE, F_PARTIAL_COST, in a row
            _readiness(self, p, open_sites, open_seats, nopen, out + base + F_READY)
        out[<int>F_NEXT_MAIN_SEAT] = _next_main_seat(self)
        out[<int>F_SETTLEMENTS] = self.t.settlements

