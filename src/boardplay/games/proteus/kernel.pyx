# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of Proteus over fixed C-typed fields (spec §3-§7): the compiled kernel.

A position is five small int arrays (tile and piece per cell, cell per tile and per piece, the
active tile per colour) and five counters, so copying one is a few memcpys. The active flag is
kept per colour as a tile id, not per cell: a trade moves tiles between cells and the flag
travels with its tile for free (spec §5.1, I21).

Everything on the hot path (``legal_into``, ``apply``, ``copy_from``) is ``noexcept`` C code
over these arrays and over tables built once per process at import: move targets as bit masks,
the eight lines as a 512-entry lookup, and the kadon feasibility search of §4.4 memoised over
all its inputs. With ``repetition="forbid"`` the positions met in the movement phase are kept in
an open-addressing hash set of packed 63-bit keys; a placement-phase position can never equal a
movement-phase one, so only movement positions are stored.

The facade (``state.py``) wraps one kernel; the Python methods at the bottom are its cold
accessors (position loading, explanations, tests), never used in a loop that must be fast.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from boardplay.core.kernel cimport TERMINAL, Kernel


cdef extern from *:
    int ctz "__builtin_ctz" (unsigned int bits) noexcept nogil

from boardplay.games.proteus import tables

cdef enum:
    NONE = -1
    RED = 0
    BLUE = 1
    YELLOW = 2
    PIECE_BASE = 81
    MOVE_BASE = 108
    TRADE_BASE = 180
    PASS = 216
    NUM_ACTIONS = 217
    OBSERVATION_SIZE = 165
    FEATURE_SIZE = 8
    ONGOING = -1
    DRAW = 2
    POLARITY_TILE = 3
    THREE_IN_LINE_TILE = 6
    COLOR_GOAL_TILE = 7
    FIRST_CAPACITY = 64

# The layout of the action space is fixed in tables.py; the kernel relies on the same numbers.
assert (tables.PIECE_BASE, tables.MOVE_BASE, tables.TRADE_BASE, tables.PASS) == (
    PIECE_BASE, MOVE_BASE, TRADE_BASE, PASS
)
assert tables.NUM_ACTIONS == NUM_ACTIONS

# ----- tables, built once per process -----------------------------------------------------------
cdef int MOVE_MASK[3][9]
"""``MOVE_MASK[move tile][cell]``: bit mask of the cells the MOVE rule reaches (§6.2)."""
cdef int MOVE_ACTION[9][9]
cdef int MOVE_FROM[72]
cdef int MOVE_TO[72]
cdef int TRADE_I[36]
cdef int TRADE_J[36]
cdef int TRADE_ACTION[9][9]
cdef int ABOVE[9]
"""``ABOVE[cell]``: bit mask of the cells after ``cell`` (a trade's second cell)."""
cdef int LINE_CELLS[8]
"""The eight lines as cell bit masks (3-IN-LINE, and the evaluation's target triples)."""
cdef char IS_LINE[512]

cdef signed char FEASIBLE[27 * 512 * 8]
"""Memo of the §4.4 search: index ((counts * 512) + open tiles) * 8 + missing; -1 unknown."""
cdef short PLACEABLE[27 * 512 * 8 * 3]
"""Memo of the tiles a piece of one shape may go on under §4.4; -1 unknown."""


cdef void _build_tables():
    cdef int rule, cell, target, k, mask
    for rule in range(3):
        for cell in range(9):
            mask = 0
            for target in tables.MOVE_TARGETS[rule][cell]:
                mask |= 1 << target
            MOVE_MASK[rule][cell] = mask
    for cell in range(9):
        for target in range(9):
            MOVE_ACTION[cell][target] = tables.MOVE_ID[cell][target]
            if cell != target:
                k = tables.MOVE_ID[cell][target] - MOVE_BASE
                MOVE_FROM[k] = cell
                MOVE_TO[k] = target
    for k in range(36):
        TRADE_I[k] = tables.TRADE_PAIRS[k][0]
        TRADE_J[k] = tables.TRADE_PAIRS[k][1]
        TRADE_ACTION[TRADE_I[k]][TRADE_J[k]] = TRADE_BASE + k
    for cell in range(9):
        ABOVE[cell] = 511 & ~((2 << cell) - 1)
    memset(IS_LINE, 0, sizeof(IS_LINE))
    for k in range(8):
        mask = 0
        for cell in tables.LINES[k]:
            mask |= 1 << cell
        LINE_CELLS[k] = mask
        IS_LINE[mask] = 1
    memset(FEASIBLE, -1, sizeof(FEASIBLE))
    memset(PLACEABLE, -1, sizeof(PLACEABLE))


_build_tables()


# ----- the kadon feasibility rule (§4.4) --------------------------------------------------------
cdef inline int _bits(int mask) noexcept nogil:
    cdef int count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


cdef bint can_fill(int c0, int c1, int c2, int open_tiles, int missing) noexcept nogil:
    """Whether pieces with shape counts ``c0 c1 c2`` (circle, square, triangle; each 0..2) can
    go on distinct tiles of ``open_tiles`` (bit = tile id) so that every colour in ``missing``
    (bit = colour) gets exactly one match and no other piece matches."""
    cdef int index = (((c0 * 9 + c1 * 3 + c2) * 512) + open_tiles) * 8 + missing
    cdef signed char known = FEASIBLE[index]
    if known >= 0:
        return known
    cdef bint found = _feasible_search(c0, c1, c2, open_tiles, missing)
    FEASIBLE[index] = found
    return found


cdef bint _feasible_search(int c0, int c1, int c2, int open_tiles, int missing) noexcept nogil:
    cdef int shape, tile, bit, colour
    if c0 > 0:
        shape = 0
        c0 -= 1
    elif c1 > 0:
        shape = 1
        c1 -= 1
    elif c2 > 0:
        shape = 2
        c2 -= 1
    else:
        return missing == 0
    if c0 + c1 + c2 + 1 < _bits(missing):
        return False
    for tile in range(9):
        bit = 1 << tile
        if not open_tiles & bit:
            continue
        if tile % 3 == shape:
            colour = 1 << (tile // 3)
            if missing & colour and can_fill(c0, c1, c2, open_tiles & ~bit, missing & ~colour):
                return True
        elif can_fill(c0, c1, c2, open_tiles & ~bit, missing):
            return True
    return False


cdef int placeable(int c0, int c1, int c2, int open_tiles, int missing, int shape) noexcept nogil:
    """Bit mask of the open tiles a piece of ``shape`` (one of the counts) may go on under
    §4.4: not a match on an active colour, and the rest still feasible afterwards."""
    cdef int index = ((((c0 * 9 + c1 * 3 + c2) * 512) + open_tiles) * 8 + missing) * 3 + shape
    cdef int allowed = PLACEABLE[index]
    if allowed >= 0:
        return allowed
    if shape == 0:
        c0 -= 1
    elif shape == 1:
        c1 -= 1
    else:
        c2 -= 1
    allowed = 0
    cdef int tile, bit, left, colour
    for tile in range(9):
        bit = 1 << tile
        if not open_tiles & bit:
            continue
        left = missing
        if tile % 3 == shape:
            colour = 1 << (tile // 3)
            if not missing & colour:
                continue
            left = missing & ~colour
        if can_fill(c0, c1, c2, open_tiles & ~bit, left):
            allowed |= bit
    PLACEABLE[index] = <short>allowed
    return allowed


# ----- the repetition table (repetition="forbid") -----------------------------------------------
cdef inline uint64_t pack_key(const int* tiles, const int* where, const int* active, int mover) noexcept nogil:
    """A movement-phase position (§10.6: board, active tiles, side to move) as 63 bits plus a
    marker bit, so no key is 0 (the empty slot). Cell c3's tile follows from the other eight."""
    cdef uint64_t key = (<uint64_t>1) << 63
    cdef int i
    for i in range(8):
        key |= (<uint64_t>tiles[i]) << (4 * i)
    for i in range(6):
        key |= (<uint64_t>where[i]) << (32 + 4 * i)
    for i in range(3):
        key |= (<uint64_t>(active[i] - 3 * i + 1 if active[i] >= 0 else 0)) << (56 + 2 * i)
    key |= (<uint64_t>mover) << 62
    return key


cdef inline uint64_t _slot_hash(uint64_t key) noexcept nogil:
    key ^= key >> 33
    key *= <uint64_t>0xFF51AFD7ED558CCD
    key ^= key >> 33
    return key


# ----- the kernel -------------------------------------------------------------------------------
cdef class ProteusKernel(Kernel):
    """One Proteus position with its options. ``mover`` is the seat whose turn it is (kept at
    the last mover once the game is over, as the position JSON's ``to_move``)."""

    cdef int tiles[9]
    cdef int pieces[9]
    cdef int tile_cell[9]
    cdef int where[6]
    cdef int active[3]
    cdef readonly int mover
    cdef readonly int passes
    cdef readonly int turns
    """Turns played since the start or the loaded position (the ``max_turns`` counter)."""
    cdef readonly int unplaced
    """U: pool tiles plus pieces in both hands; the placement phase lasts while U > 0."""
    cdef readonly int outcome
    """-1 ongoing, 0 Black won, 1 White won, 2 draw."""
    cdef readonly bint kadon
    cdef readonly bint forbid
    cdef readonly int max_turns
    """The turn cap, 0 for none."""
    cdef uint64_t* seen
    cdef int seen_capacity
    cdef int seen_count

    def __cinit__(self, bint kadon=False, bint forbid=False, int max_turns=0):
        self.num_players = 2
        self.action_space = NUM_ACTIONS
        self.chance_space = 0
        self.observation_size = OBSERVATION_SIZE
        self.feature_size = FEATURE_SIZE
        self.kadon = kadon
        self.forbid = forbid
        self.max_turns = max_turns
        self.seen = NULL
        self.seen_capacity = 0
        self.seen_count = 0
        self._clear()

    def __dealloc__(self):
        free(self.seen)

    cdef void _clear(self) noexcept:
        """The setup of §3: empty board, every tile in the pool, Black to move."""
        cdef int i
        for i in range(9):
            self.tiles[i] = NONE
            self.pieces[i] = NONE
            self.tile_cell[i] = NONE
        for i in range(6):
            self.where[i] = NONE
        for i in range(3):
            self.active[i] = NONE
        self.mover = 0
        self.passes = 0
        self.turns = 0
        self.unplaced = 15
        self.outcome = ONGOING
        self.seen_count = 0
        if self.seen != NULL:
            memset(self.seen, 0, self.seen_capacity * sizeof(uint64_t))

    # ----- who acts and the result ------------------------------------------------------------
    cdef int to_move(self) noexcept:
        return self.mover if self.outcome == ONGOING else TERMINAL

    cdef void returns_into(self, double* out) noexcept:
        cdef int outcome = self.outcome
        if outcome == ONGOING:
            out[0] = 0.0
            out[1] = 0.0
        elif outcome == DRAW:
            out[0] = 0.5
            out[1] = 0.5
        else:
            out[0] = 1.0 if outcome == 0 else 0.0
            out[1] = 1.0 - out[0]

    cdef int chance_into(self, int* outcomes, double* probabilities) noexcept:
        return 0  # Proteus has no chance

    cdef bint goal_met(self, int player) noexcept:
        """Whether ``player`` meets the active GOAL rule now (§7.4): never with fewer than
        three pieces on the board or with no active GOAL tile."""
        cdef int goal = self.active[YELLOW]
        if goal < 0:
            return False
        cdef int a = self.where[3 * player], b = self.where[3 * player + 1]
        cdef int c = self.where[3 * player + 2]
        if a < 0 or b < 0 or c < 0:
            return False
        if goal == THREE_IN_LINE_TILE:
            return IS_LINE[(1 << a) | (1 << b) | (1 << c)]
        cdef int ta = self.tiles[a], tb = self.tiles[b], tc = self.tiles[c]
        if goal == COLOR_GOAL_TILE:
            return ta // 3 == tb // 3 and tb // 3 == tc // 3
        return ta % 3 == tb % 3 and tb % 3 == tc % 3

    cdef inline bint any_missing(self) noexcept:
        return self.active[0] < 0 or self.active[1] < 0 or self.active[2] < 0

    # ----- legal actions (§5.5) -----------------------------------------------------------------
    cdef int legal_into(self, int* out) noexcept:
        """The pipeline of §5.5: candidates, the repetition filter (movement, ``forbid``), seed
        forcing, then ``pass`` if nothing is left (kadon movement: nothing at all)."""
        cdef int count
        if self.outcome != ONGOING:
            return 0
        if self.unplaced > 0:
            count = self.placement_into(out)
            if not self.kadon and self.unplaced <= 6 and self.any_missing():
                count = self.forced(out, count)
        else:
            count = self.movement_into(out)
            if self.seen_count > 0:
                count = self.without_repeats(out, count)
            if not self.kadon and self.any_missing():
                count = self.forced(out, count)
            if count == 0 and self.kadon:
                return 0  # no pass in kadon movement: check_stuck has drawn the game
        if count == 0:
            out[0] = PASS
            count = 1
        return count

    cdef int placement_into(self, int* out) noexcept:
        """Tile placements onto empty cells and own piece placements onto vacant tiles (§4.1),
        with the kadon restrictions of §4.2 and §4.4; ascending ids."""
        cdef int count = 0, tile, cell, shape, base, allowed, piece, q
        cdef int open_tiles = 0, missing = 0, empties = 0, vacancies = 0
        cdef int counts[3]
        cdef int empty[9]
        cdef int vacant[9]
        for cell in range(9):
            if self.tiles[cell] < 0:
                empty[empties] = cell
                empties += 1
            elif self.pieces[cell] < 0:
                vacant[vacancies] = cell
                vacancies += 1
        if empties:
            for tile in range(9):
                if self.tile_cell[tile] < 0:
                    base = tile * 9
                    for q in range(empties):
                        out[count + q] = base + empty[q]
                    count += empties
        if self.kadon:
            counts[0] = counts[1] = counts[2] = 0
            for tile in range(9):
                cell = self.tile_cell[tile]
                if cell < 0 or self.pieces[cell] < 0:
                    open_tiles |= 1 << tile
            for piece in range(6):
                if self.where[piece] < 0:
                    counts[piece % 3] += 1
            for shape in range(3):
                if self.active[shape] < 0:
                    missing |= 1 << shape
        for shape in range(3):
            if self.where[3 * self.mover + shape] >= 0:
                continue
            base = PIECE_BASE + shape * 9
            if self.kadon:
                allowed = placeable(counts[0], counts[1], counts[2], open_tiles, missing, shape)
                for q in range(vacancies):
                    if allowed >> self.tiles[vacant[q]] & 1:
                        out[count] = base + vacant[q]
                        count += 1
            else:
                for q in range(vacancies):
                    out[count + q] = base + vacant[q]
                count += vacancies
        return count

    cdef int movement_into(self, int* out) noexcept:
        """Piece moves under the active MOVE rule (§6.2) and trades under the active TRADE rule
        (§6.3), before the repetition filter and forcing; ascending ids (moves by source then
        destination cell, then trades by their first then second cell)."""
        cdef int count = 0, src, dst, targets, i, j, partners, k, cell
        cdef int move_tile = self.active[RED]
        cdef int trade_tile = self.active[BLUE]
        cdef int occupied = 0
        cdef int owned[2]
        cdef int groups[3]
        owned[0] = owned[1] = 0
        for k in range(6):
            cell = self.where[k]
            if cell >= 0:
                owned[k // 3] |= 1 << cell
        occupied = owned[0] | owned[1]
        if move_tile >= 0:
            partners = owned[self.mover]
            while partners:
                src = ctz(partners)
                partners &= partners - 1
                targets = MOVE_MASK[move_tile][src] & ~occupied
                while targets:
                    dst = ctz(targets)
                    targets &= targets - 1
                    out[count] = MOVE_ACTION[src][dst]
                    count += 1
        if trade_tile < 0:
            return count
        if trade_tile != POLARITY_TILE:
            groups[0] = groups[1] = groups[2] = 0
            for k in range(9):
                cell = self.tile_cell[k]
                if cell >= 0:  # COLOR groups tiles by colour, SHAPE by shape
                    groups[k // 3 if trade_tile == POLARITY_TILE + 1 else k % 3] |= 1 << cell
        for i in range(8):
            if trade_tile == POLARITY_TILE:
                if owned[0] >> i & 1:
                    partners = owned[1]
                elif owned[1] >> i & 1:
                    partners = owned[0]
                else:
                    continue
            elif self.tiles[i] < 0:
                continue
            elif trade_tile == POLARITY_TILE + 1:
                partners = groups[self.tiles[i] // 3]
            else:
                partners = groups[self.tiles[i] % 3]
            partners &= ABOVE[i]
            while partners:
                j = ctz(partners)
                partners &= partners - 1
                out[count] = TRADE_ACTION[i][j]
                count += 1
        return count

    cdef int activations(self, int action, int* found) noexcept:
        """The tiles a movement action activates (§5.2): new matches on tiles that are not
        already active; two such matches of one colour cancel. Computed before applying."""
        cdef int src, dst, tile, i, j, piece, count = 0
        if action < TRADE_BASE:
            src = MOVE_FROM[action - MOVE_BASE]
            dst = MOVE_TO[action - MOVE_BASE]
            tile = self.tiles[dst]
            if self.pieces[src] % 3 == tile % 3 and self.active[tile // 3] != tile:
                found[0] = tile
                return 1
            return 0
        i = TRADE_I[action - TRADE_BASE]
        j = TRADE_J[action - TRADE_BASE]
        tile = self.tiles[j]
        piece = self.pieces[i]
        if piece >= 0 and piece % 3 == tile % 3 and self.active[tile // 3] != tile:
            found[count] = tile
            count += 1
        tile = self.tiles[i]
        piece = self.pieces[j]
        if piece >= 0 and piece % 3 == tile % 3 and self.active[tile // 3] != tile:
            found[count] = tile
            count += 1
        if count == 2 and found[0] // 3 == found[1] // 3:
            return 0
        return count

    cdef bint activates_missing(self, int action) noexcept:
        """Whether ``action`` is *activating* (§4.3, D9): it gives a colour that is missing now
        an active tile. No-flip placements and cancelled double matches are not."""
        cdef int found[2]
        cdef int shape, cell, tile, count, k
        if action < PIECE_BASE or action == PASS:
            return False
        if action < MOVE_BASE:
            shape = (action - PIECE_BASE) // 9
            cell = (action - PIECE_BASE) % 9
            tile = self.tiles[cell]
            return tile >= 0 and tile % 3 == shape and self.active[tile // 3] < 0
        count = self.activations(action, found)
        for k in range(count):
            if self.active[found[k] // 3] < 0:
                return True
        return False

    cdef int forced(self, int* out, int count) noexcept:
        """The seed forcing rule: keep only activating actions, if there are any."""
        cdef int kept = 0, i
        for i in range(count):
            if self.activates_missing(out[i]):
                out[kept] = out[i]
                kept += 1
        return kept if kept > 0 else count

    cdef uint64_t key_after(self, int action) noexcept:
        """The packed key of the position a movement action leads to, for the repetition filter."""
        cdef int tiles[9]
        cdef int where[6]
        cdef int active[3]
        cdef int found[2]
        cdef int count = self.activations(action, found), k, i, j, tile
        memcpy(tiles, self.tiles, sizeof(tiles))
        memcpy(where, self.where, sizeof(where))
        memcpy(active, self.active, sizeof(active))
        if action < TRADE_BASE:
            where[self.pieces[MOVE_FROM[action - MOVE_BASE]]] = MOVE_TO[action - MOVE_BASE]
        else:
            i = TRADE_I[action - TRADE_BASE]
            j = TRADE_J[action - TRADE_BASE]
            tile = tiles[i]
            tiles[i] = tiles[j]
            tiles[j] = tile
        for k in range(count):
            active[found[k] // 3] = found[k]
        return pack_key(tiles, where, active, 1 - self.mover)

    cdef int without_repeats(self, int* out, int count) noexcept:
        cdef int kept = 0, i
        for i in range(count):
            if not self.seen_contains(self.key_after(out[i])):
                out[kept] = out[i]
                kept += 1
        return kept

    # ----- the repetition set -------------------------------------------------------------------
    cdef bint seen_contains(self, uint64_t key) noexcept:
        if self.seen_count == 0:
            return False
        cdef uint64_t mask = self.seen_capacity - 1
        cdef uint64_t slot = _slot_hash(key) & mask
        while self.seen[slot] != 0:
            if self.seen[slot] == key:
                return True
            slot = (slot + 1) & mask
        return False

    cdef void seen_add(self, uint64_t key) noexcept:
        cdef uint64_t* old
        cdef int old_capacity, i
        cdef uint64_t mask, slot
        if (self.seen_count + 1) * 2 > self.seen_capacity:
            old = self.seen
            old_capacity = self.seen_capacity
            self.seen_capacity = old_capacity * 2 if old_capacity else FIRST_CAPACITY
            self.seen = <uint64_t*>malloc(self.seen_capacity * sizeof(uint64_t))
            if self.seen == NULL:  # out of memory: forget the table rather than crash
                self.seen = old
                self.seen_capacity = old_capacity
                return
            memset(self.seen, 0, self.seen_capacity * sizeof(uint64_t))
            self.seen_count = 0
            for i in range(old_capacity):
                if old[i] != 0:
                    self.seen_add(old[i])
            free(old)
        mask = self.seen_capacity - 1
        slot = _slot_hash(key) & mask
        while self.seen[slot] != 0:
            if self.seen[slot] == key:
                return
            slot = (slot + 1) & mask
        self.seen[slot] = key
        self.seen_count += 1

    # ----- applying a turn (§7.1) ---------------------------------------------------------------
    cdef void apply(self, int action) noexcept:
        cdef bint began_in_movement = self.unplaced == 0
        cdef int mover = self.mover
        cdef int tile, cell, shape, piece, src, dst, i, j, count, k
        cdef int found[2]
        cdef bint black
        self.passes = self.passes + 1 if action == PASS else 0
        self.turns += 1
        if action < PIECE_BASE:
            tile = action // 9
            cell = action % 9
            self.tiles[cell] = tile
            self.tile_cell[tile] = cell
            self.unplaced -= 1
        elif action < MOVE_BASE:
            shape = (action - PIECE_BASE) // 9
            cell = (action - PIECE_BASE) % 9
            piece = 3 * mover + shape
            self.pieces[cell] = piece
            self.where[piece] = cell
            self.unplaced -= 1
            tile = self.tiles[cell]
            # §4.2: a match activates a missing colour; on an active colour it is a no-flip
            # placement under seed (kadon has already excluded it).
            if tile % 3 == shape and self.active[tile // 3] < 0:
                self.active[tile // 3] = tile
        elif action < PASS:
            count = self.activations(action, found)
            if action < TRADE_BASE:
                src = MOVE_FROM[action - MOVE_BASE]
                dst = MOVE_TO[action - MOVE_BASE]
                piece = self.pieces[src]
                self.pieces[dst] = piece
                self.pieces[src] = NONE
                self.where[piece] = dst
            else:
                i = TRADE_I[action - TRADE_BASE]
                j = TRADE_J[action - TRADE_BASE]
                tile = self.tiles[i]
                self.tiles[i] = self.tiles[j]
                self.tiles[j] = tile
                self.tile_cell[tile] = j
                self.tile_cell[self.tiles[i]] = i
            for k in range(count):
                self.active[found[k] // 3] = found[k]
        if (self.kadon or began_in_movement) and self.active[YELLOW] >= 0:
            black = self.goal_met(0)
            if black != self.goal_met(1):
                self.outcome = 0 if black else 1
                return
        if not self.kadon and self.passes >= 2:
            self.outcome = DRAW
            return
        if self.max_turns > 0 and self.turns >= self.max_turns:
            self.outcome = DRAW
            return
        self.mover = 1 - mover
        if self.forbid and self.unplaced == 0:
            self.seen_add(pack_key(self.tiles, self.where, self.active, self.mover))
        self.check_stuck()

    cdef void check_stuck(self) noexcept:
        """§5.4 (kadon): a movement-phase player with no legal action ends the game in a draw
        before any turn is played. With repetition="none" an active TRADE tile always offers
        nine trades, so the search is skipped then."""
        cdef int buffer[NUM_ACTIONS]
        if not self.kadon or self.unplaced > 0 or self.outcome != ONGOING:
            return
        if not self.forbid and self.active[BLUE] >= 0:
            return
        if self.legal_into(buffer) == 0:
            self.outcome = DRAW

    # ----- copying ------------------------------------------------------------------------------
    cdef Kernel copy(self):
        cdef ProteusKernel other = ProteusKernel.__new__(ProteusKernel)
        other.copy_from(self)
        return other

    cdef void copy_from(self, Kernel source) noexcept:
        cdef ProteusKernel other = <ProteusKernel>source
        memcpy(self.tiles, other.tiles, sizeof(self.tiles))
        memcpy(self.pieces, other.pieces, sizeof(self.pieces))
        memcpy(self.tile_cell, other.tile_cell, sizeof(self.tile_cell))
        memcpy(self.where, other.where, sizeof(self.where))
        memcpy(self.active, other.active, sizeof(self.active))
        self.mover = other.mover
        self.passes = other.passes
        self.turns = other.turns
        self.unplaced = other.unplaced
        self.outcome = other.outcome
        self.kadon = other.kadon
        self.forbid = other.forbid
        self.max_turns = other.max_turns
        if other.seen_count == 0:
            self.seen_count = 0
            if self.seen != NULL:
                memset(self.seen, 0, self.seen_capacity * sizeof(uint64_t))
            return
        if self.seen_capacity != other.seen_capacity:
            free(self.seen)
            self.seen = <uint64_t*>malloc(other.seen_capacity * sizeof(uint64_t))
            if self.seen == NULL:  # out of memory: an empty table rather than a crash
                self.seen_capacity = 0
                self.seen_count = 0
                return
            self.seen_capacity = other.seen_capacity
        memcpy(self.seen, other.seen, other.seen_capacity * sizeof(uint64_t))
        self.seen_count = other.seen_count

    # ----- tensors ------------------------------------------------------------------------------
    cdef void observe_into(self, int player, float* out) noexcept:
        """Flat encoding from ``player``'s view (layout in ``observation.py``)."""
        cdef int i, cell, tile, piece, plane
        for i in range(OBSERVATION_SIZE):
            out[i] = 0.0
        for cell in range(9):
            tile = self.tiles[cell]
            if tile >= 0:
                out[tile * 9 + cell] = 1.0
                if self.active[tile // 3] == tile:
                    out[81 + cell] = 1.0
            piece = self.pieces[cell]
            if piece >= 0:
                plane = piece % 3 if piece // 3 == player else 3 + piece % 3
                out[90 + plane * 9 + cell] = 1.0
        for tile in range(9):
            if self.tile_cell[tile] < 0:
                out[144 + tile] = 1.0
        for piece in range(6):
            if self.where[piece] < 0:
                out[153 + (piece % 3 if piece // 3 == player else 3 + piece % 3)] = 1.0
        for i in range(3):
            if self.active[i] < 0:
                out[159 + i] = 1.0
        out[162] = 1.0 if self.unplaced == 0 else 0.0
        out[163] = 1.0 if self.outcome == ONGOING and self.mover == player else 0.0
        out[164] = <float>self.passes

    cdef void features_into(self, double* out) noexcept:
        """The evaluation's features (documented in ``state.py``, ``FEATURES``): per seat its
        closeness to each goal's best target triple, the active goal, the side to move."""
        cdef int seat, mine, theirs, k, colour, shape, triple
        cdef int cells[2]
        cdef double best, value
        cells[0] = 0
        cells[1] = 0
        for k in range(6):
            if self.where[k] >= 0:
                cells[k // 3] |= 1 << self.where[k]
        for seat in range(2):
            mine = cells[seat]
            theirs = cells[1 - seat]
            best = 0.0
            for k in range(8):
                value = _bits(mine & LINE_CELLS[k]) - 0.5 * _bits(theirs & LINE_CELLS[k])
                if value > best:
                    best = value
            out[3 * seat] = best
            best = 0.0
            for colour in range(3):
                triple = self.triple(3 * colour, 1)
                if triple:
                    value = _bits(mine & triple) - 0.5 * _bits(theirs & triple)
                    if value > best:
                        best = value
            out[3 * seat + 1] = best
            best = 0.0
            for shape in range(3):
                triple = self.triple(shape, 3)
                if triple:
                    value = _bits(mine & triple) - 0.5 * _bits(theirs & triple)
                    if value > best:
                        best = value
            out[3 * seat + 2] = best
        out[6] = self.active[YELLOW] - 6 if self.active[YELLOW] >= 0 else -1
        out[7] = self.mover

    cdef inline int triple(self, int first, int step) noexcept:
        """Cell mask of the tiles ``first``, ``first + step``, ``first + 2 * step`` when all three
        are on the board, else 0 (a COLOR or SHAPE goal's target triple)."""
        cdef int a = self.tile_cell[first], b = self.tile_cell[first + step]
        cdef int c = self.tile_cell[first + 2 * step]
        if a < 0 or b < 0 or c < 0:
            return 0
        return (1 << a) | (1 << b) | (1 << c)

    # ----- the Python face: cold accessors for the facade, loading and explanations -------------
    def tile_at(self, int cell) -> int:
        """The tile id on ``cell``, or -1 for an empty cell."""
        _check(cell, 9, "cell")
        return self.tiles[cell]

    def piece_at(self, int cell) -> int:
        _check(cell, 9, "cell")
        return self.pieces[cell]

    def cell_of_tile(self, int tile) -> int:
        """The cell of ``tile``, or -1 while it is in the pool."""
        _check(tile, 9, "tile")
        return self.tile_cell[tile]

    def cell_of_piece(self, int piece) -> int:
        """The cell of ``piece``, or -1 while it is in its owner's hand."""
        _check(piece, 6, "piece")
        return self.where[piece]

    def active_tile(self, int colour) -> int:
        """The active tile of ``colour`` (0 red, 1 blue, 2 yellow), or -1 if it is missing."""
        _check(colour, 3, "colour")
        return self.active[colour]

    def satisfies_goal(self, int player) -> bool:
        _check(player, 2, "player")
        return self.goal_met(player)

    def kadon_feasible(self) -> bool:
        """Whether this position satisfies the feasibility rule of §4.4."""
        cdef int open_tiles = 0, missing = 0, tile, cell, piece
        cdef int counts[3]
        counts[0] = counts[1] = counts[2] = 0
        for tile in range(9):
            cell = self.tile_cell[tile]
            if cell < 0 or self.pieces[cell] < 0:
                open_tiles |= 1 << tile
        for piece in range(6):
            if self.where[piece] < 0:
                counts[piece % 3] += 1
        for tile in range(3):
            if self.active[tile] < 0:
                missing |= 1 << tile
        return can_fill(counts[0], counts[1], counts[2], open_tiles, missing)

    def kadon_allows(self, int shape, int cell) -> bool:
        """§4.4 for the mover's piece of ``shape`` on the tile at ``cell`` (which must hold a
        tile and no piece): not a match on an active colour, and still feasible afterwards."""
        cdef int buffer[NUM_ACTIONS]
        cdef int count, i
        _check(shape, 3, "shape")
        _check(cell, 9, "cell")
        count = self.placement_into(buffer)
        for i in range(count):
            if buffer[i] == PIECE_BASE + shape * 9 + cell:
                return True
        return False

    def movement_candidates(self) -> list:
        """Moves and trades the active rules allow, before the repetition filter and forcing."""
        cdef int buffer[NUM_ACTIONS]
        cdef int count = self.movement_into(buffer)
        return [buffer[i] for i in range(count)]

    def repeats(self, int action) -> bool:
        """Whether the movement action ``action`` (a move or trade id) recreates a position met
        before (repetition="forbid")."""
        if not MOVE_BASE <= action < PASS:
            raise ValueError(f"{action} is not a move or trade id")
        return self.unplaced == 0 and self.seen_contains(self.key_after(action))

    def set_position(self, tiles, pieces, active, int mover, int passes) -> None:
        """Load a board (cell -> tile id, cell -> piece id, colour -> active tile; -1 for none)
        as validated by ``position.py``; counters restart. Call ``start()`` afterwards."""
        cdef int i
        self._clear()
        for i in range(9):
            self.tiles[i] = tiles[i]
            self.pieces[i] = pieces[i]
        for i in range(9):
            if self.tiles[i] >= 0:
                self.tile_cell[self.tiles[i]] = i
                self.unplaced -= 1
            if self.pieces[i] >= 0:
                self.where[self.pieces[i]] = i
                self.unplaced -= 1
        for i in range(3):
            self.active[i] = active[i]
        self.mover = mover
        self.passes = passes

    def start(self) -> None:
        """Finish a new or loaded position: seed the repetition table with it and apply the
        immediate kadon draw of §5.4 / D30."""
        self.seen_count = 0
        if self.seen != NULL:
            memset(self.seen, 0, self.seen_capacity * sizeof(uint64_t))
        if self.forbid and self.unplaced == 0:
            self.seen_add(pack_key(self.tiles, self.where, self.active, self.mover))
        self.check_stuck()


def feasible(counts, int open_tiles, int missing) -> bool:
    """The §4.4 search for Python callers: ``counts`` = pieces in hand per shape (circle,
    square, triangle; each 0..2), ``open_tiles`` a 9-bit tile mask, ``missing`` a 3-bit colour
    mask."""
    cdef int c0 = counts[0], c1 = counts[1], c2 = counts[2]
    if not (0 <= c0 <= 2 and 0 <= c1 <= 2 and 0 <= c2 <= 2):
        raise ValueError(f"shape counts must be 0..2, got {tuple(counts)!r}")
    if not (0 <= open_tiles < 512 and 0 <= missing < 8):
        raise ValueError("open_tiles is a 9-bit mask and missing a 3-bit mask")
    return can_fill(c0, c1, c2, open_tiles, missing)


def _check(int value, int size, str what):
    if not 0 <= value < size:
        raise IndexError(f"{what} {value} is outside 0..{size - 1}")
