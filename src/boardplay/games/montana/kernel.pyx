# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Montana's rules as a typed kernel (rules spec §3–§10): the whole game over fixed C fields.

The mutable position is one C struct (``Pos``), so ``copy_from`` is a struct assignment; the
landscape is a second struct (``Land``, see tables.pyx) dealt in C from the board seed and copied
only when the other kernel holds another board. Hexes live in a padded 17x17 axial window, so a
neighbour is ``cell + step[d]`` and the border (kind NONE, never owned) ends every walk.
Automatic steps (payments, shortage returns, cleanup, auction payment, build effects,
compensation) happen inside the transition that causes them, never as extra decisions.

Action ids are those of ``notation.py`` (checked at import). The Python methods at the end serve
the facade's typed accessors and position loading; no hot loop calls them.
"""

from boardplay.core.kernel cimport CHANCE, TERMINAL, Kernel, raw_bytes, raw_load
from boardplay.games.montana.tables cimport (
    K_LAKE, K_MOUNTAIN, K_PLAIN, MAX_HEX, MAX_LINES, MAX_SLOTS, PAD, PCELLS, PW, Land, Tables,
)

from boardplay.games.montana import notation as N

cdef enum:
    NSETS = 69
    NPARTS = 14
    NPICKS = 83
    NPAIRS = 28
    RECRUIT = 0
    CITY = 1
    STOP = 2
    PASS = 3
    CANTEEN = 4
    END = 5
    RIGHT_NONE = 6
    PUSH = 7
    TRADE = 23
    WILD = 34
    RETURN = 103
    RIGHT = 172
    PLACE = 186
    REWARD_UP = 222
    REWARD_PICK = 250
    WORK_BANK = 333
    WORK_PROD = 885
    BUILD = 1221
    NUM_ACTIONS = 1446
    CHANCE_SPIN = 0
    CHANCE_START = 16
    CHANCE_BOARD = 20
    BOARD_OUTCOMES = 4096
    TRADE_SILVER = 6
    MAX_COLUMNS = 6
    MAX_AREA_SPACES = 6
    # Stages (spec §10); the first four are chance nodes.
    BOARD = 0
    SETUP_SPIN = 1
    START = 2
    SPIN = 3
    SETUP_WILD = 4
    MAIN = 5
    PUSH_STAGE = 6
    WILD_STAGE = 7
    OVERFLOW = 8
    RIGHT_STAGE = 9
    PLACE_STAGE = 10
    REWARD = 11
    BUILD_NEXT = 12
    END_STAGE = 13
    OVER = 14
    TURN_END = -1
    HOME = -1
    # ``main`` (notation of the position JSON: "", recruit, bank, production, city, build)
    M_RECRUIT = 1
    M_BANK = 2
    M_PRODUCTION = 3
    M_CITY = 4
    M_BUILD = 5
    BY_TRIGGER = 1
    BY_MAX_TURNS = 2
    GRAIN = 4
    PUMPKIN = 5
    SEAT_FEATURES = 9
    FEATURES = 37
    OBSERVATION = 4548

cdef int SET_W[NSETS][4]
cdef int SET_SIZE[NSETS]
cdef int BY_SIZE[5][NSETS]
cdef int BY_SIZE_N[5]
cdef int PICK_G[NPICKS][6]
cdef int PICK_SIZE[NPICKS]
cdef int PAIR[NPAIRS][2]
cdef int GRID_OF[PCELLS]
"""The build-action cell (15x15 window) of a padded cell, -1 on the border."""


def _init_static():
    """Copy the multiset tables of notation.py into C and check the enum constants against it,
    so a change of the action layout cannot silently desynchronise the kernel."""
    cdef int i, k
    expected = {
        "PUSH": PUSH, "TRADE": TRADE, "WILD": WILD, "RETURN": RETURN, "RIGHT": RIGHT,
        "PLACE": PLACE, "REWARD_UP": REWARD_UP, "REWARD_PICK": REWARD_PICK,
        "WORK_BANK": WORK_BANK, "WORK_PROD": WORK_PROD, "BUILD": BUILD,
        "NUM_ACTIONS": NUM_ACTIONS, "CHANCE_START": CHANCE_START, "CHANCE_BOARD": CHANCE_BOARD,
        "BOARD_OUTCOMES": BOARD_OUTCOMES, "TRADE_SILVER": TRADE_SILVER, "END": END,
    }
    for name, value in expected.items():
        if getattr(N, name) != value:
            raise ImportError(f"montana kernel: notation.{name} is not {value}")
    if (len(N.WORKER_SETS), len(N.PICK_SETS), len(N.UPGRADE_PAIRS)) != (NSETS, NPICKS, NPAIRS):
        raise ImportError("montana kernel: the multiset tables of notation.py changed size")
    if N.PART_SETS != list(range(NPARTS)):
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


_init_static()


cdef int AXIS_DIR[3][2]
AXIS_DIR[0][:] = [0, 3]
AXIS_DIR[1][:] = [1, 4]
AXIS_DIR[2][:] = [2, 5]
cdef int AXIS_UP[3]
"""The direction of each axis along which the padded cell index grows (E, SW, SE)."""
AXIS_UP[:] = [0, 4, 5]


cdef class MontanaKernel(Kernel):
    """One Montana position: ``Pos`` (everything that changes) and ``Land`` (the board)."""

    def __init__(self, Tables tables):
        cdef int p, c
        self.t = tables
        self.num_players = tables.n
        self.action_space = NUM_ACTIONS
        self.chance_space = BOARD_OUTCOMES
        self.observation_size = OBSERVATION
        self.feature_size = FEATURES
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
        cdef Pos* s = &self.s
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
            k = self._trades(out, 2)
            k = self._main_work(p, out, k)
            return self._build_options(p, out, k)
        if stage == PUSH_STAGE:
            most = t.max_push
            if t.grain_per_push > 0 and s.goods[p][GRAIN] // t.grain_per_push < most:
                most = s.goods[p][GRAIN] // t.grain_per_push
            for i in range(most + 1):
                out[i] = PUSH + i
            return self._trades(out, most + 1)
        if stage == WILD_STAGE or stage == SETUP_WILD:
            for i in range(BY_SIZE_N[s.wilds]):
                out[i] = WILD + BY_SIZE[s.wilds][i]
            return BY_SIZE_N[s.wilds]
        if stage == OVERFLOW:
            for i in range(BY_SIZE_N[s.excess]):
                if self._holds(p, BY_SIZE[s.excess][i]):
                    out[k] = RETURN + BY_SIZE[s.excess][i]
                    k += 1
            return k
        if stage == RIGHT_STAGE:
            out[0] = RIGHT_NONE
            k = 1
            for i in range(NPARTS):
                if self._part_ok(p, i, t.area_colour[s.prod_area]):
                    out[k] = RIGHT + i
                    k += 1
            return k
        if stage == PLACE_STAGE:
            if not (s.opp == 0 and not s.chain):
                out[0] = PASS
                k = 1
            k = self._trades(out, k)
            return self._place_spots(p, out, k)
        if stage == REWARD:
            k = self._trades(out, 0)
            return self._reward_options(p, out, k)
        if stage == BUILD_NEXT:
            out[0] = STOP
            k = self._trades(out, 1)
            return self._build_options(p, out, k)
        if stage == END_STAGE:
            if s.canteens[p] > 0:
                out[0] = CANTEEN
                k = 1
            out[k] = END
            return self._trades(out, k + 1)
        return 0

    cdef void apply(self, int action) noexcept:
        cdef int stage = self.s.stage
        if stage <= SPIN:
            if stage == BOARD:
                self.setup_board(action - CHANCE_BOARD)
            elif stage == SETUP_SPIN:
                self._setup_spin(action - CHANCE_SPIN)
            elif stage == START:
                self._start_game(action - CHANCE_START)
            else:
                self.s.spin = action - CHANCE_SPIN
                self.s.stage = PUSH_STAGE
                self.s.decider = self.s.active
        elif TRADE <= action < WILD:
            self._trade(action - TRADE)
        elif stage == MAIN:
            self._apply_main(action)
        elif stage == PUSH_STAGE:
            self._apply_push(action - PUSH)
        elif stage == WILD_STAGE:
            self._add_received(action - WILD)
            self._receive_recruit()
        elif stage == SETUP_WILD:
            self._add_received(action - WILD)
            self._setup_receive()
        elif stage == OVERFLOW:
            self._apply_return(action - RETURN)
        elif stage == RIGHT_STAGE:
            self._apply_right(action)
        elif stage == PLACE_STAGE:
            self._apply_place(action)
        elif stage == REWARD:
            self._apply_reward(action)
        elif stage == BUILD_NEXT:
            if action == STOP:
                self._finish_build()
            else:
                self._build_step(action)
        elif stage == END_STAGE:
            self._apply_end(action)

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

    cdef Kernel copy(self):
        cdef MontanaKernel other = MontanaKernel.__new__(MontanaKernel)
        other.t = self.t
        other.num_players = self.num_players
        other.action_space = self.action_space
        other.chance_space = self.chance_space
        other.observation_size = self.observation_size
        other.feature_size = self.feature_size
        other.s = self.s
        other.b = self.b
        return other

    def save(self) -> tuple:
        """Pickling (``Kernel.__reduce__``): the option tables (pickled as what built them),
        the position and the board."""
        return (self.t, raw_bytes(&self.s, sizeof(Pos)), raw_bytes(&self.b, sizeof(Land)))

    def restore(self, tuple saved) -> None:
        tables, position, land = saved
        self.t = tables
        raw_load(&self.s, sizeof(Pos), position, "position")
        raw_load(&self.b, sizeof(Land), land, "board")

    cdef void copy_from(self, Kernel other) noexcept:
        cdef MontanaKernel k = <MontanaKernel>other
        self.s = k.s
        if self.b.seed != k.b.seed:
            self.b = k.b

    # ----- helpers ------------------------------------------------------------------------
    cdef int _count_workers(self, int p) noexcept:
        cdef int* w = self.s.workers[p]
        return w[0] + w[1] + w[2] + w[3]

    cdef bint _holds(self, int p, int i) noexcept:
        cdef int* w = self.s.workers[p]
        return (w[0] >= SET_W[i][0] and w[1] >= SET_W[i][1] and w[2] >= SET_W[i][2]
                and w[3] >= SET_W[i][3])

    cdef bint _part_ok(self, int p, int i, int colour) noexcept:
        """A production part takes 1 worker of the area's colour or any 2 (spec §4.3)."""
        return (SET_SIZE[i] == 2 or SET_W[i][colour] == 1) and self._holds(p, i)

    cdef int _take(self, int* supply, int* hand, int stride, int player, int need) noexcept:
        """Take ``need`` pieces with the shortage rule (spec §6): while the supply is short,
        every holder returns one, round after round. ``hand`` is seat 0's count of the kind,
        ``stride`` the distance between seats."""
        cdef int p, got
        cdef bint returned
        while supply[0] < need:
            returned = False
            for p in range(self.t.n):
                if hand[p * stride] > 0:
                    hand[p * stride] -= 1
                    supply[0] += 1
                    returned = True
            if not returned:
                break
        got = need if need <= supply[0] else supply[0]
        supply[0] -= got
        hand[player * stride] += got
        return got

    cdef int _take_goods(self, int player, int kind, int need) noexcept:
        return self._take(&self.s.supply_goods[kind], &self.s.goods[0][kind], 6, player, need)

    cdef int _take_workers(self, int player, int colour, int need) noexcept:
        return self._take(&self.s.supply_workers[colour], &self.s.workers[0][colour], 4, player,
                          need)

    cdef bint _afford(self, int p, int cell) noexcept:
        cdef int k
        for k in range(6):
            if self.s.goods[p][k] < self.b.cost[cell][k]:
                return False
        return True

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

    cdef int _row_holder(self, int row) noexcept:
        cdef int p, c
        for p in range(self.t.n):
            c = self.s.contractor[p]
            if c != HOME and c // self.t.ncols == row:
                return p
        return -1

    # ----- legal actions ------------------------------------------------------------------
    cdef int _trades(self, int* out, int k) noexcept:
        cdef int p = self.s.decider, i
        if p != self.s.active or self.s.cattle[p] < 1:
            return k
        for i in range(self.t.ntrade):
            out[k] = TRADE + self.t.trade_goods[i]
            k += 1
        for i in range(5):
            out[k] = TRADE + TRADE_SILVER + i
            k += 1
        return k

    cdef int _main_work(self, int p, int* out, int k) noexcept:
        cdef Tables t = self.t
        cdef int b, i, j, a, sp, base, first, nparts
        cdef int parts[NPARTS]
        if self._count_workers(p) == 0:
            return k
        for b in range(t.nbank):
            if self.s.slots[b][0] + self.s.slots[b][1] + self.s.slots[b][2] + self.s.slots[b][3]:
                continue
            first = WORK_BANK + b * NSETS
            for j in range(BY_SIZE_N[t.bank_workers[b]]):
                i = BY_SIZE[t.bank_workers[b]][j]
                if self._holds(p, i):
                    out[k] = first + i
                    k += 1
        for a in range(4):
            nparts = 0
            for i in range(NPARTS):
                if self._part_ok(p, i, t.area_colour[a]):
                    parts[nparts] = i
                    nparts += 1
            if nparts == 0:
                continue
            base = t.area_slot[a]
            for sp in range(t.area_n[a]):
                if self._slot_used(base + 2 * sp) or t.space_cost[a][sp] > self.s.silver[p]:
                    continue
                first = WORK_PROD + (a * MAX_AREA_SPACES + sp) * NPARTS
                for j in range(nparts):
                    out[k] = first + parts[j]
                    k += 1
        return k

    cdef bint _slot_used(self, int slot) noexcept:
        cdef int* m = self.s.slots[slot]
        return m[0] + m[1] + m[2] + m[3] > 0

    cdef int _build_options(self, int p, int* out, int k) noexcept:
        cdef int i, cell
        if self.s.tiles[p] == 0:
            return k
        for i in range(self.b.nplains):
            cell = self.b.plains[i]
            if self.s.owner[cell] == -1 and self._afford(p, cell) and self._buildable(p, cell):
                out[k] = BUILD + GRID_OF[cell]
                k += 1
        return k

    cdef int _place_spots(self, int p, int* out, int k) noexcept:
        cdef int row, col, holder, lo, pumpkins = self.s.goods[p][PUMPKIN]
        for row in range(self.t.nrows):
            holder = self._row_holder(row)
            lo = 0 if holder < 0 else self.s.contractor[holder] % self.t.ncols + 1
            for col in range(lo, self.t.ncols):
                if self.t.column_cost[col] <= pumpkins:
                    out[k] = PLACE + row * MAX_COLUMNS + col
                    k += 1
        return k

    cdef int _reward_options(self, int p, int* out, int k) noexcept:
        cdef Tables t = self.t
        cdef int row = self.s.contractor[p] // t.ncols, i, g, most = t.row_upgrades[row]
        cdef int held0 = 0, held1 = 0
        cdef bint ok
        if t.row_picks[row]:
            for i in range(NPICKS):
                if PICK_SIZE[i] != t.row_picks[row]:
                    continue
                ok = True
                for g in range(6):
                    if PICK_G[i][g] and not t.row_pick_from[row][g]:
                        ok = False
                if ok:
                    out[k] = REWARD_PICK + i
                    k += 1
            return k
        if t.nup > 0:
            held0 = self.s.goods[p][t.up_small[0]]
        if t.nup > 1:
            held1 = self.s.goods[p][t.up_small[1]]
        for i in range(NPAIRS):
            if PAIR[i][0] + PAIR[i][1] <= most and PAIR[i][0] <= held0 and PAIR[i][1] <= held1:
                out[k] = REWARD_UP + i
                k += 1
        return k

    # ----- turns --------------------------------------------------------------------------
    cdef void _begin_turn(self, int player, bint extra) noexcept:
        self.s.active = player
        self.s.extra_turn = extra
        self.s.turn_number += 1
        if not extra:
            self.s.regular_turns[player] += 1
        self.s.main = 0
        self.s.builds_paid = 0
        self.s.stage = MAIN
        self.s.decider = player

    cdef void _clear_slot(self, int slot) noexcept:
        cdef int c
        for c in range(4):
            self.s.supply_workers[c] += self.s.slots[slot][c]
            self.s.slots[slot][c] = 0

    cdef void _cleanup(self) noexcept:
        """Clear the bank, and every area, once all its (left) spaces are taken (spec §4.1)."""
        cdef Tables t = self.t
        cdef int b, a, sp, slot
        cdef bint full = True
        for b in range(t.nbank):
            if not self._slot_used(b):
                full = False
        if full:
            for b in range(t.nbank):
                self._clear_slot(b)
        for a in range(4):
            full = True
            for sp in range(t.area_n[a]):
                if not self._slot_used(t.area_slot[a] + 2 * sp):
                    full = False
            if full:
                for slot in range(t.area_slot[a], t.area_slot[a] + 2 * t.area_n[a]):
                    self._clear_slot(slot)

    cdef void _end_turn(self) noexcept:
        """Steps 2–5 of spec §4.1 (an auction has already been resolved)."""
        cdef int p = self.s.active, n = self.t.n
        cdef bint capped = self.s.turn_number >= self.t.max_turns
        self._cleanup()
        self.s.main = 0
        self.s.spin = self.s.push = self.s.prod_area = self.s.prod_space = -1
        self.s.builds_paid = 0
        if self.s.trigger_by >= 0 and p == (self.s.start_player - 1 + n) % n:
            # The final round is over; with canteen_after_final the last seat may still use a
            # canteen, but never past the turn cap.
            if self.t.canteen_after_final and self.s.canteens[p] > 0 and not capped:
                self.s.final_pending = True
                self.s.stage = END_STAGE
                self.s.decider = p
                return
            self._finish(BY_TRIGGER)
            return
        if capped:
            self._finish(BY_MAX_TURNS)
            return
        if self.s.cattle[p] > 0 or self.s.canteens[p] > 0:
            self.s.stage = END_STAGE
            self.s.decider = p
            return
        self._begin_turn((p + 1) % n, False)

    cdef void _apply_end(self, int action) noexcept:
        cdef int p = self.s.active
        if action == CANTEEN:
            self.s.canteens[p] -= 1
            self.s.canteens_used += 1
            self.s.final_pending = False
            self._begin_turn(p, True)
        elif self.s.final_pending:
            self.s.final_pending = False
            self._finish(BY_TRIGGER)
        else:
            self._begin_turn((p + 1) % self.t.n, False)

    cdef void _finish(self, int reason) noexcept:
        self.s.ended_by = reason
        self.s.stage = OVER
        self.s.decider = TERMINAL
        self.s.won = self._winners()

    cdef int _tiebreak_two(self, int p) noexcept:
        cdef int money = self.s.silver[p], k, total
        if self.t.coins:
            money = money // 5 + money % 5
        total = money + self._count_workers(p)
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

    # ----- main actions -------------------------------------------------------------------
    cdef void _apply_main(self, int action) noexcept:
        cdef Tables t = self.t
        cdef int p = self.s.active, space, ms, cell, area, sp, c
        if action == RECRUIT:
            self.s.main = M_RECRUIT
            self.s.stage = SPIN
            self.s.decider = CHANCE
        elif action == CITY:
            self.s.main = M_CITY
            self._take_goods(p, PUMPKIN, 1)
            for c in range(4):
                self.s.out[c] = 0
            self.s.opp = self.s.chain = self.s.cursor = 0
            self.s.stage = PLACE_STAGE
            self.s.decider = p
        elif WORK_BANK <= action < WORK_PROD:
            space = (action - WORK_BANK) // NSETS
            ms = (action - WORK_BANK) % NSETS
            self.s.main = M_BANK
            self._pay_workers(p, ms)
            for c in range(4):
                self.s.slots[space][c] = SET_W[ms][c]
            self.s.silver[p] += t.bank_silver[space]
            self._end_turn()
        elif WORK_PROD <= action < BUILD:
            cell = (action - WORK_PROD) // NPARTS
            ms = (action - WORK_PROD) % NPARTS
            area = cell // MAX_AREA_SPACES
            sp = cell % MAX_AREA_SPACES
            self.s.main = M_PRODUCTION
            self._pay_workers(p, ms)
            self.s.silver[p] -= t.space_cost[area][sp]
            for c in range(4):
                self.s.slots[t.area_slot[area] + 2 * sp][c] = SET_W[ms][c]
            self._take_goods(p, t.area_good[area], t.space_yield[area][sp])
            self.s.prod_area = area
            self.s.prod_space = sp
            if self._count_workers(p) >= 2 or self.s.workers[p][t.area_colour[area]] >= 1:
                self.s.stage = RIGHT_STAGE
                self.s.decider = p
            else:
                self._end_turn()
        else:
            self.s.main = M_BUILD
            self.s.builds_paid = 0
            self._build_step(action)

    cdef void _pay_workers(self, int p, int ms) noexcept:
        cdef int c
        for c in range(4):
            self.s.workers[p][c] -= SET_W[ms][c]

    # ----- recruit ------------------------------------------------------------------------
    cdef void _apply_push(self, int steps) noexcept:
        cdef Tables t = self.t
        cdef int p = self.s.active, paid = steps * t.grain_per_push, final, c
        self.s.push = steps
        self.s.goods[p][GRAIN] -= paid
        self.s.supply_goods[GRAIN] += paid
        final = (self.s.spin + steps) % t.wheel_n
        for c in range(4):
            self.s.received[c] = t.wheel_fixed[final][c]
        self.s.wilds = t.wheel_wilds[final]
        if t.additional and steps >= 1:
            for c in range(4):
                self.s.received[c] += t.wheel_fixed[self.s.spin][c]
            self.s.wilds += t.wheel_wilds[self.s.spin]
        if self.s.wilds:
            self.s.stage = WILD_STAGE
            self.s.decider = p
        else:
            self._receive_recruit()

    cdef void _add_received(self, int ms) noexcept:
        cdef int c
        for c in range(4):
            self.s.received[c] += SET_W[ms][c]

    cdef void _receive_recruit(self) noexcept:
        cdef int p = self.s.active, c
        for c in range(4):
            if self.s.received[c]:
                self._take_workers(p, c, self.s.received[c])
            self.s.received[c] = 0
        self.s.wilds = 0
        self._check_cap(TURN_END)

    cdef void _check_cap(self, int resume) noexcept:
        cdef int p = self.s.active, excess = self._count_workers(p) - self.t.worker_cap
        if excess > 0:
            self.s.excess = excess
            self.s.after_overflow = resume
            self.s.stage = OVERFLOW
            self.s.decider = p
        elif resume == TURN_END:
            self._end_turn()

    cdef void _apply_return(self, int ms) noexcept:
        cdef int p = self.s.active, c, resume = self.s.after_overflow
        self._pay_workers(p, ms)
        for c in range(4):
            self.s.supply_workers[c] += SET_W[ms][c]
        self.s.excess = 0
        self.s.after_overflow = TURN_END
        if resume == TURN_END:
            self._end_turn()
        else:
            self.s.stage = resume
            self.s.decider = p

    # ----- cattle trade, production right part --------------------------------------------
    cdef void _trade(self, int kind) noexcept:
        cdef int p = self.s.active
        self.s.cattle[p] -= 1
        self.s.supply_cattle += 1
        if kind < TRADE_SILVER:
            self._take_goods(p, kind, 1)
        elif kind == TRADE_SILVER:
            self.s.silver[p] += self.t.trade_silver
        else:
            self._take_workers(p, kind - TRADE_SILVER - 1, 1)
            self._check_cap(self.s.stage)

    cdef void _apply_right(self, int action) noexcept:
        cdef int p = self.s.active, ms, c, area = self.s.prod_area
        if action != RIGHT_NONE:
            ms = action - RIGHT
            self._pay_workers(p, ms)
            for c in range(4):
                self.s.slots[self.t.area_slot[area] + 2 * self.s.prod_space + 1][c] = SET_W[ms][c]
            self._take_goods(p, self.t.area_good[area], self.t.area_right[area])
        self._end_turn()

    # ----- city auction -------------------------------------------------------------------
    cdef void _apply_place(self, int action) noexcept:
        cdef int p = self.s.decider, row, col, holder
        if action == PASS:
            self.s.contractor[p] = HOME
            self.s.out[p] = 1
            self._advance_auction()
            return
        row = (action - PLACE) // MAX_COLUMNS
        col = (action - PLACE) % MAX_COLUMNS
        holder = self._row_holder(row)
        self.s.contractor[p] = row * self.t.ncols + col
        if holder >= 0:
            self.s.contractor[holder] = HOME
            self.s.chain = 1
            self.s.decider = holder
        else:
            self._advance_auction()

    cdef void _advance_auction(self) noexcept:
        self.s.chain = 0
        self.s.opp += 1
        if self.s.opp < self.t.n:
            self.s.decider = (self.s.active + self.s.opp) % self.t.n
            self.s.stage = PLACE_STAGE
            return
        self.s.cursor = 0
        self._next_reward()

    cdef void _next_reward(self) noexcept:
        """Resolve the store clockwise from the active player: pay the column, then declare."""
        cdef int n = self.t.n, p, spot, cost
        while self.s.cursor < n:
            p = (self.s.active + self.s.cursor) % n
            spot = self.s.contractor[p]
            if spot != HOME:
                cost = self.t.column_cost[spot % self.t.ncols]
                if self.s.goods[p][PUMPKIN] >= cost:
                    self.s.goods[p][PUMPKIN] -= cost
                    self.s.supply_goods[PUMPKIN] += cost
                    self.s.stage = REWARD
                    self.s.decider = p
                    return
                self.s.contractor[p] = HOME
            self.s.cursor += 1
        for p in range(4):
            self.s.contractor[p] = HOME
            self.s.out[p] = 0
        self.s.opp = 0
        self._end_turn()

    cdef void _apply_reward(self, int action) noexcept:
        cdef Tables t = self.t
        cdef int p = self.s.decider, row = self.s.contractor[p] // t.ncols, k, i, got, need
        if t.row_cattle[row]:
            need = t.row_cattle[row]
            self._take(&self.s.supply_cattle, &self.s.cattle[0], 1, p, need)
        self.s.silver[p] += t.row_silver[row]
        if action >= REWARD_PICK:
            for k in range(6):
                if PICK_G[action - REWARD_PICK][k]:
                    self._take_goods(p, k, PICK_G[action - REWARD_PICK][k])
        else:
            for i in range(t.nup):
                need = PAIR[action - REWARD_UP][i]
                if need:
                    got = self._take_goods(p, t.up_large[i], need)
                    self.s.goods[p][t.up_small[i]] -= got
                    self.s.supply_goods[t.up_small[i]] += got
        self.s.cursor += 1
        self._next_reward()

    # ----- build --------------------------------------------------------------------------
    cdef void _build_step(self, int action) noexcept:
        """Pay, place one tile and take the hex's effects: cattle, adjacent canteens, the
        double hex and the straight-line bonus (spec §4.4); free tiles never exceed the
        tiles left."""
        cdef int p = self.s.active, cell = self._cell_of_action(action), k, d, nb, extra
        for k in range(6):
            self.s.goods[p][k] -= self.b.cost[cell][k]
            self.s.supply_goods[k] += self.b.cost[cell][k]
        self.s.owner[cell] = p
        self.s.hex_tiles[cell] = 1
        self.s.tiles[p] -= 1
        self.s.builds_paid += 1
        if self.s.hex_cattle[cell]:
            self.s.hex_cattle[cell] = 0
            self.s.cattle[p] += 1
        for d in range(6):
            nb = cell + self.t.step[d]
            if self.s.canteen_on[nb]:
                self.s.canteen_on[nb] = 0
                self.s.canteens[p] += 1
        extra = 1 if self.b.dbl[cell] else 0
        if self._line_bonus(p, cell):
            extra += 1
        if extra > self.s.tiles[p]:
            extra = self.s.tiles[p]
        self.s.hex_tiles[cell] += extra
        self.s.tiles[p] -= extra
        if self.s.tiles[p] == 0 and self.s.trigger_by < 0:
            self.s.trigger_by = p
        if self.s.tiles[p] == 0 or self.s.builds_paid >= self.t.max_builds:
            self._finish_build()
        else:
            self.s.stage = BUILD_NEXT
            self.s.decider = p

    cdef int _cell_of_action(self, int action) noexcept:
        cdef int g = action - BUILD
        return (g // 15 + 1) * PW + g % 15 + 1

    cdef bint _line_bonus(self, int p, int cell) noexcept:
        """Spec §4.4.1: a run of at least line_length of ``p``'s hexes through ``cell`` on an
        axis, none of them in a line already rewarded on that axis; every such run counts."""
        cdef int axis, j, cur, length, low, bit
        cdef bint found = False, fresh
        for axis in range(3):
            length = 1
            low = cell
            for j in range(2):
                cur = cell + self.t.step[AXIS_DIR[axis][j]]
                while self.s.owner[cur] == p:
                    length += 1
                    if cur < low:
                        low = cur
                    cur += self.t.step[AXIS_DIR[axis][j]]
            if length < self.t.line_length:
                continue
            bit = 1 << (3 * p + axis)
            fresh = True
            cur = low
            for j in range(length):
                if self.s.lined[cur] & bit:
                    fresh = False
                cur += self.t.step[AXIS_UP[axis]]
            if not fresh:
                continue
            self._record_line(p, axis, low, length)
            found = True
        return found

    cdef void _record_line(self, int p, int axis, int low, int length) noexcept:
        cdef int i = self.s.nlines[p], j, cur = low
        self.s.line_axis[p][i] = axis
        self.s.line_first[p][i] = low
        self.s.line_len[p][i] = length
        self.s.nlines[p] = i + 1
        for j in range(length):
            self.s.lined[cur] |= 1 << (3 * p + axis)
            cur += self.t.step[AXIS_UP[axis]]

    cdef void _finish_build(self) noexcept:
        cdef int p = self.s.active
        self.s.silver[p] += (self.t.max_builds - self.s.builds_paid) * self.t.silver_per_skip
        self._end_turn()

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
            self._after_setup_spins()

    cdef void _setup_spin(self, int segment) noexcept:
        cdef int c
        self.s.spin = segment
        for c in range(4):
            self.s.received[c] = self.t.wheel_fixed[segment][c]
        self.s.wilds = self.t.wheel_wilds[segment]
        if self.s.wilds:
            self.s.stage = SETUP_WILD
            self.s.decider = self.s.setup_seat
        else:
            self._setup_receive()

    cdef void _setup_receive(self) noexcept:
        cdef int seat = self.s.setup_seat, c
        for c in range(4):
            if self.s.received[c]:
                self._take_workers(seat, c, self.s.received[c])
            self.s.received[c] = 0
        self.s.wilds = 0
        self.s.spin = -1
        self.s.setup_spin_no += 1
        if self.s.setup_spin_no == self.t.setup_spins:
            self.s.setup_spin_no = 0
            self.s.setup_seat += 1
        if self.s.setup_seat == self.t.n:
            self._after_setup_spins()
        else:
            self.s.stage = SETUP_SPIN
            self.s.decider = CHANCE

    cdef void _after_setup_spins(self) noexcept:
        self.s.setup_seat = self.t.n
        if self.t.fixed_start >= 0:
            self._start_game(self.t.fixed_start)
        else:
            self.s.stage = START
            self.s.decider = CHANCE

    cdef void _start_game(self, int seat) noexcept:
        cdef int i, n = self.t.n
        self.s.start_player = seat
        for i in range(n):
            self.s.silver[(seat + i) % n] = self.t.start_silver[i]
        self._begin_turn(seat, False)

    # ----- observation and features -------------------------------------------------------
    cdef void observe_into(self, int player, float* out) noexcept:
        """The tensor of observation.py's layout (docs/formats/montana.md), every number
        computed in double and rounded once to float32."""
        cdef Tables t = self.t
        cdef int n = t.n, i, c, k, p, base, spot, off, canteens = 0
        for i in range(OBSERVATION):
            out[i] = 0.0
        for i in range(self.b.count):
            c = self.b.cells[i]
            base = GRID_OF[c] * 18
            if self.s.owner[c] >= 0:
                out[base + (self.s.owner[c] - player + n) % n] = 1.0
                out[base + 4] = <float>(self.s.hex_tiles[c] / 3.0)
            out[base + 4 + self.b.kind[c]] = 1.0
            out[base + 8] = 1.0 if c == self.b.start else 0.0
            out[base + 9] = 1.0 if self.b.dbl[c] else 0.0
            out[base + 10] = self.s.hex_cattle[c]
            out[base + 11] = self.s.canteen_on[c]
            canteens += self.s.canteen_on[c]
            for k in range(6):
                out[base + 12 + k] = <float>(self.b.cost[c][k] / 2.0)
        off = MAX_HEX * 18
        for p in range(n):
            base = off + (p - player + n) % n * 16
            out[base] = <float>(self.s.silver[p] / 20.0)
            for k in range(6):
                out[base + 1 + k] = <float>(self.s.goods[p][k] / 5.0)
            out[base + 7] = <float>(self.s.cattle[p] / 3.0)
            out[base + 8] = <float>(self.s.canteens[p] / 2.0)
            for k in range(4):
                out[base + 9 + k] = <float>(self.s.workers[p][k] / 4.0)
            out[base + 13] = <float>(self.s.tiles[p] / 12.0)
            out[base + 14] = <float>(self.s.regular_turns[p] / 100.0)
            out[base + 15] = 1.0
        off += 64
        for i in range(t.num_slots):
            for k in range(4):
                out[off + 4 * i + k] = <float>(self.s.slots[i][k] / 2.0)
        off += MAX_SLOTS * 4
        for p in range(n):
            base = off + (p - player + n) % n * 37
            spot = self.s.contractor[p]
            if spot == HOME:
                out[base + 36] = 1.0
            else:
                out[base + spot // t.ncols * MAX_COLUMNS + spot % t.ncols] = 1.0
        off += 4 * 37
        out[off + self.s.stage] = 1.0
        off += 15
        if self.s.decider >= 0:
            out[off + (self.s.decider - player + n) % n] = 1.0
        if self.s.active >= 0:
            out[off + 4 + (self.s.active - player + n) % n] = 1.0
        off += 8
        if self.s.spin >= 0:
            out[off + self.s.spin] = 1.0
        off += 16
        out[off] = <float>(self.s.push / 7.0) if self.s.push >= 0 else 0.0
        out[off + 1] = <float>(self.s.wilds / 4.0)
        out[off + 2] = <float>(self.s.excess / 4.0)
        out[off + 3] = <float>(self.s.builds_paid / 3.0)
        out[off + 4] = 1.0 if self.s.extra_turn else 0.0
        out[off + 5] = 1.0 if self.s.trigger_by >= 0 else 0.0
        out[off + 6] = <float>(<double>self.s.turn_number / t.max_turns)
        out[off + 7] = 1.0 if self.s.chain else 0.0
        off += 8
        for k in range(4):
            out[off + k] = <float>(self.s.supply_workers[k] / 18.0)
        for k in range(6):
            out[off + 4 + k] = <float>(self.s.supply_goods[k] / 20.0)
        out[off + 10] = <float>(self.s.supply_cattle / 24.0)
        out[off + 11] = <float>(self.s.canteens_used / 6.0)
        out[off + 12] = <float>(canteens / 6.0)
        if self.s.start_player >= 0:
            out[off + 13] = <float>((self.s.start_player - player + n) % n / 3.0)
        if self.s.trigger_by >= 0 and self.s.trigger_by == player:
            out[off + 14] = 1.0

    cdef void features_into(self, double* out) noexcept:
        """Per seat (9 numbers, seats 0..3, zeros past the player count): settlements left,
        goods held (all kinds), silver, workers, cattle, canteens, then the build readiness:
        sites the goods in hand pay for, and the cheapest unpaid site's cost in hand (with
        cattle as jokers) and its whole cost (0 when none is partly paid). Last: the active seat
        while its main action is still to come (stage MAIN), else -1. The evaluation
        (ai/evaluation/montana.py) documents how it weighs them."""
        cdef int p, k, base, goods, workers
        for p in range(4):
            base = SEAT_FEATURES * p
            for k in range(SEAT_FEATURES):
                out[base + k] = 0.0
            if p >= self.t.n:
                continue
            goods = workers = 0
            for k in range(6):
                goods += self.s.goods[p][k]
            out[base] = self.s.tiles[p]
            out[base + 1] = goods
            out[base + 2] = self.s.silver[p]
            out[base + 3] = self._count_workers(p)
            out[base + 4] = self.s.cattle[p]
            out[base + 5] = self.s.canteens[p]
            self._readiness(p, out + base + 6)
        out[FEATURES - 1] = self.s.active if self.s.stage == MAIN and self.s.active >= 0 else -1

    cdef void _readiness(self, int p, double* out) noexcept:
        """Settlements the goods in hand pay for (at most 3 and the tiles left), taking the
        build sites by (shortfall, cost) ascending, stably, each paid from what the earlier
        ones left; then the first site the rest cannot pay: its cost covered and its cost."""
        cdef int sites[MAX_HEX]
        cdef int key1[MAX_HEX]
        cdef int key2[MAX_HEX]
        cdef int goods[6]
        cdef int count = 0, i, j, k, cell, c1, c2, short, total, ready = 0, jokers, most
        cdef int left = self.s.tiles[p]
        if left <= 0:
            return
        for k in range(6):
            goods[k] = self.s.goods[p][k]
        for i in range(self.b.nplains):
            cell = self.b.plains[i]
            if not self._buildable(p, cell):
                continue
            c1 = c2 = 0
            for k in range(6):
                c2 += self.b.cost[cell][k]
                if self.b.cost[cell][k] > goods[k]:
                    c1 += self.b.cost[cell][k] - goods[k]
            j = count
            while j > 0 and (key1[j - 1] > c1 or (key1[j - 1] == c1 and key2[j - 1] > c2)):
                sites[j], key1[j], key2[j] = sites[j - 1], key1[j - 1], key2[j - 1]
                j -= 1
            sites[j], key1[j], key2[j] = cell, c1, c2
            count += 1
        jokers = self.s.cattle[p]
        most = 3 if left > 3 else left
        for i in range(count):
            if ready == most:
                break
            cell = sites[i]
            short = total = 0
            for k in range(6):
                total += self.b.cost[cell][k]
                if self.b.cost[cell][k] > goods[k]:
                    short += self.b.cost[cell][k] - goods[k]
            if short > jokers:
                out[1] = total - short + jokers
                out[2] = total
                break
            jokers -= short
            for k in range(6):
                goods[k] = goods[k] - self.b.cost[cell][k] if goods[k] > self.b.cost[cell][k] else 0
            ready += 1
        out[0] = ready
