# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of Proteus over fixed C-typed fields (spec §3-§7): the compiled kernel.

A position is one ``Position`` struct (``kernel.pxd``): five small int arrays (tile and piece
per cell, cell per tile and per piece, the active tile per colour), the same board as bit masks
that ``apply`` keeps up to date (empty and vacant cells, pool tiles, each seat's cells and
hand, each colour's and shape's cells: no step scans the board), and five counters, so copying
one is a single struct assignment.

Everything on the hot path (``legal_into``, ``apply``, ``copy_from``) is ``noexcept`` C code
over these arrays and over tables built once per process at import. The kernel is one compiled
module split by job into parts it includes, so every call between them is a direct C call:
``movement.pxi``, the movement phase's geometry (move targets and groups of cells as bit masks
walked with count-trailing-zeros, the eight lines as a 512-entry lookup); ``feasibility.pxi``,
the kadon feasibility search of §4.4 memoised over all its inputs; ``repetition.pxi``, with
``repetition="forbid"`` a hash set of the movement positions met; ``encode.pxi``, the
observation tensor and the evaluation's features.

The facade (``state.py``) wraps one kernel; the Python methods at the bottom are its cold
accessors (position loading, explanations, tests), never used in a loop that must be fast.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from boardplay.core.kernel cimport TERMINAL, Kernel, Rng, rng_below
from boardplay.games.proteus.layout cimport (
    ACTIVE_GOAL, BLACK_COLOR, BLACK_LINE, BLACK_SHAPE, BLUE, COLOR_GOAL, DRAW, FEATURE_SIZE,
    MOVE_BASE, NONE, NUM_ACTIONS, OBSERVATION_SIZE, ONGOING, PASS, PIECE_BASE, POLARITY, RED,
    THREE_IN_LINE, TO_MOVE, TRADE_BASE, WHITE_LINE, YELLOW,
)


cdef extern from *:
    int ctz "__builtin_ctz" (unsigned int bits) noexcept nogil

from boardplay.games.proteus import tables


include "repetition.pxi"
include "movement.pxi"
include "sampling.pxi"
include "feasibility.pxi"
include "encode.pxi"
include "compact.pxi"


# ----- the kernel -------------------------------------------------------------------------------
cdef class ProteusKernel(Kernel):
    """One Proteus position with its options. ``mover`` is the seat whose turn it is (once the
    game is over, the seat whose turn it was: the position JSON's ``to_move``).
    (Fields and C methods are declared in ``kernel.pxd``; the fields Python reads are the
    table in ``fields.pyx``.)"""

    def __init__(self, int num_players, bint kadon=False, bint forbid=False, int max_turns=0):
        # Every kernel is made as XKernel(num_players, options...); Proteus has two.
        if num_players != 2:
            raise ValueError(f"Proteus has 2 players, not {num_players}")
        self.set_sizes(2, NUM_ACTIONS, 0, OBSERVATION_SIZE, FEATURE_SIZE, COMPACT_SIZE, &self.b,
                       sizeof(Position))
        self.b.kadon = kadon
        self.b.forbid = forbid
        self.b.max_turns = max_turns
        self._clear()

    def __dealloc__(self):
        keys_free(&self.seen)

    cdef void _clear(self) noexcept:
        """The setup of §3: empty board, every tile in the pool, Black to move."""
        cdef int i
        for i in range(9):
            self.b.tiles[i] = NONE
            self.b.pieces[i] = NONE
            self.b.tile_cell[i] = NONE
        for i in range(6):
            self.b.where[i] = NONE
        for i in range(3):
            self.b.active[i] = NONE
        self.b.mover = 0
        self.b.passes = 0
        self.b.turns = 0
        self.b.unplaced = 15
        self.b.outcome = ONGOING
        derive_masks(&self.b)
        keys_clear(&self.seen)

    # ----- who acts and the result ------------------------------------------------------------
    cdef int to_move(self) noexcept:
        return self.b.mover if self.b.outcome == ONGOING else TERMINAL

    cdef void returns_into(self, double* out) noexcept:
        cdef int outcome = self.b.outcome
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
        cdef int goal = self.b.active[YELLOW]
        if goal < 0:
            return False
        cdef int cells = self.b.owned[player]
        if BITS[cells] < 3:
            return False
        if goal == THREE_IN_LINE:
            return IS_LINE[cells]
        cdef int tile = self.b.tiles[ctz(cells)]
        if goal == COLOR_GOAL:
            return cells & ~self.b.colour_cells[tile // 3] == 0
        return cells & ~self.b.shape_cells[tile % 3] == 0

    cdef bint any_missing(self) noexcept:
        return self.b.active[0] < 0 or self.b.active[1] < 0 or self.b.active[2] < 0

    # ----- legal actions (§5.5) -----------------------------------------------------------------
    cdef int legal_into(self, int* out) noexcept:
        """The pipeline of §5.5: candidates, the repetition filter (movement, ``forbid``), seed
        forcing, then ``pass`` if nothing is left (kadon movement: nothing at all)."""
        cdef int count
        if self.b.outcome != ONGOING:
            return 0
        if self.b.unplaced > 0:
            count = self.placement_into(out)
            if not self.b.kadon and self.b.unplaced <= 6 and self.any_missing():
                count = self.forced(out, count)
        else:
            count = movement_into(&self.b, out)
            if self.seen.count > 0:
                count = self.without_repeats(out, count)
            if not self.b.kadon and self.any_missing():
                count = self.forced(out, count)
            if count == 0 and self.b.kadon:
                return 0  # no pass in kadon movement: check_stuck has drawn the game
        if count == 0:
            out[0] = PASS
            count = 1
        return count

    cdef int sample_legal(self, Rng* rng, int* scratch) noexcept:
        """``legal[rng_below(count)]`` of ``legal_into``'s list (the same draw): drawn by
        ``sampling.pxi`` without the list in placement (seed, forced or not, and kadon's) and
        in movement with no position met and no colour missing (or kadon's), else picked from
        the list."""
        cdef int action = -1, count
        if self.b.outcome == ONGOING:
            if self.b.unplaced > 0:
                if self.b.kadon:
                    action = kadon_placement_sample(&self.b, rng)
                elif self.b.unplaced <= 6 and self.any_missing():
                    action = forced_placement_sample(&self.b, rng)
                else:
                    action = placement_sample(&self.b, rng)
            elif self.seen.count == 0 and (self.b.kadon or not self.any_missing()):
                action = movement_sample(&self.b, rng)
        if action >= 0:
            return action
        count = self.legal_into(scratch)  # a filter applies, or only a pass is left
        return scratch[rng_below(rng, count)]

    cdef int placement_into(self, int* out) noexcept:
        """Tile placements onto empty cells and own piece placements onto vacant tiles (§4.1),
        with the kadon restrictions of §4.2 and §4.4; ascending ids."""
        cdef int count = 0, cell, shape, base, allowed = 0, cells
        cdef int open_tiles = 0, missing = 0, tiles = self.b.pool
        cdef int counts[3]
        if self.b.empty:
            while tiles:
                base = ctz(tiles) * 9
                tiles &= tiles - 1
                cells = self.b.empty
                while cells:
                    out[count] = base + ctz(cells)
                    cells &= cells - 1
                    count += 1
        if self.b.kadon:
            open_tiles = self.kadon_budget(counts, &missing)
        for shape in range(3):
            if not self.b.hand[self.b.mover] >> shape & 1:
                continue
            base = PIECE_BASE + shape * 9
            if self.b.kadon:
                allowed = placeable(counts[0], counts[1], counts[2], open_tiles, missing, shape)
            cells = self.b.vacant
            while cells:
                cell = ctz(cells)
                cells &= cells - 1
                if not self.b.kadon or allowed >> self.b.tiles[cell] & 1:
                    out[count] = base + cell
                    count += 1
        return count

    cdef int kadon_budget(self, int* counts, int* missing) noexcept:
        """The inputs of §4.4: pieces in both hands per shape into ``counts``, the colours
        without an active tile into ``missing``; returns the open tiles (pool or vacant)."""
        cdef int shape, colour
        missing[0] = 0
        for shape in range(3):
            counts[shape] = (self.b.hand[0] >> shape & 1) + (self.b.hand[1] >> shape & 1)
        for colour in range(3):
            if self.b.active[colour] < 0:
                missing[0] |= 1 << colour
        return self.b.pool | self.b.vacant_tiles

    cdef int forced(self, int* out, int count) noexcept:
        """The seed forcing rule: keep only activating actions, if there are any."""
        cdef int kept = 0, i
        for i in range(count):
            if activates_missing(&self.b, out[i]):
                out[kept] = out[i]
                kept += 1
        return kept if kept > 0 else count

    cdef int without_repeats(self, int* out, int count) noexcept:
        cdef int kept = 0, i
        for i in range(count):
            if not keys_contain(&self.seen, key_after(&self.b, out[i])):
                out[kept] = out[i]
                kept += 1
        return kept

    # ----- applying a turn (§7.1) ---------------------------------------------------------------
    cdef void apply(self, int action) noexcept:
        cdef bint began_in_movement = self.b.unplaced == 0
        cdef int mover = self.b.mover
        cdef int tile, cell, shape, piece, src, dst, i, j, count, k, pair, other
        cdef int found[2]
        cdef bint black
        self.b.passes = self.b.passes + 1 if action == PASS else 0
        self.b.turns += 1
        if action < PIECE_BASE:
            tile = action // 9
            cell = action % 9
            self.b.tiles[cell] = tile
            self.b.tile_cell[tile] = cell
            self.b.unplaced -= 1
            self.b.empty &= ~(1 << cell)
            self.b.vacant |= 1 << cell
            self.b.pool &= ~(1 << tile)
            self.b.vacant_tiles |= 1 << tile
            self.b.colour_cells[tile // 3] |= 1 << cell
            self.b.shape_cells[tile % 3] |= 1 << cell
        elif action < MOVE_BASE:
            shape = (action - PIECE_BASE) // 9
            cell = (action - PIECE_BASE) % 9
            piece = 3 * mover + shape
            self.b.pieces[cell] = piece
            self.b.where[piece] = cell
            self.b.unplaced -= 1
            tile = self.b.tiles[cell]
            self.b.vacant &= ~(1 << cell)
            self.b.vacant_tiles &= ~(1 << tile)
            self.b.owned[mover] |= 1 << cell
            self.b.hand[mover] &= ~(1 << shape)
            # §4.2: a match activates a missing colour; on an active colour it is a no-flip
            # placement under seed (kadon has already excluded it).
            if tile % 3 == shape and self.b.active[tile // 3] < 0:
                self.b.active[tile // 3] = tile
        elif action < PASS:
            count = activations(&self.b, action, found)
            if action < TRADE_BASE:
                src = MOVE_FROM[action - MOVE_BASE]
                dst = MOVE_TO[action - MOVE_BASE]
                piece = self.b.pieces[src]
                self.b.pieces[dst] = piece
                self.b.pieces[src] = NONE
                self.b.where[piece] = dst
                pair = 1 << src | 1 << dst
                self.b.owned[piece // 3] ^= pair
                self.b.vacant ^= pair
                self.b.vacant_tiles ^= 1 << self.b.tiles[src] | 1 << self.b.tiles[dst]
            else:
                i = TRADE_I[action - TRADE_BASE]
                j = TRADE_J[action - TRADE_BASE]
                tile = self.b.tiles[i]
                self.b.tiles[i] = self.b.tiles[j]
                self.b.tiles[j] = tile
                other = self.b.tiles[i]
                self.b.tile_cell[tile] = j
                self.b.tile_cell[other] = i
                pair = 1 << i | 1 << j
                if tile // 3 != other // 3:
                    self.b.colour_cells[tile // 3] ^= pair
                    self.b.colour_cells[other // 3] ^= pair
                if tile % 3 != other % 3:
                    self.b.shape_cells[tile % 3] ^= pair
                    self.b.shape_cells[other % 3] ^= pair
                if (self.b.vacant >> i ^ self.b.vacant >> j) & 1:
                    self.b.vacant_tiles ^= 1 << tile | 1 << other
            for k in range(count):
                self.b.active[found[k] // 3] = found[k]
        if (self.b.kadon or began_in_movement) and self.b.active[YELLOW] >= 0:
            black = self.goal_met(0)
            if black != self.goal_met(1):
                self.b.outcome = 0 if black else 1
                return
        if not self.b.kadon and self.b.passes >= 2:
            self.b.outcome = DRAW
            return
        if self.b.max_turns > 0 and self.b.turns >= self.b.max_turns:
            self.b.outcome = DRAW
            return
        self.b.mover = 1 - mover
        if self.b.forbid and self.b.unplaced == 0:
            keys_add(&self.seen, pack_key(self.b.tiles, self.b.where, self.b.active, self.b.mover))
        self.check_stuck()

    cdef void check_stuck(self) noexcept:
        """§5.4 (kadon): a movement-phase player with no legal action ends the game in a draw
        before any turn is played. With repetition="none" an active TRADE tile always offers
        nine trades, so the search is skipped then."""
        cdef int buffer[NUM_ACTIONS]
        if not self.b.kadon or self.b.unplaced > 0 or self.b.outcome != ONGOING:
            return
        if not self.b.forbid:  # no filter: stuck when there is no trade and no move
            if self.b.active[BLUE] < 0 and not has_move(&self.b):
                self.b.outcome = DRAW
            return
        if self.legal_into(buffer) == 0:
            self.b.outcome = DRAW

    cdef uint64_t position_key(self) noexcept:
        """The packed movement-phase key the repetition filter uses (board, active tiles, side
        to move; §10.6); 0 in the placement phase, whose positions cannot recur (every
        placement turn shrinks the pool and a pass there is followed by a placement or ends the
        game)."""
        if self.b.unplaced > 0:
            return 0
        return pack_key(self.b.tiles, self.b.where, self.b.active, self.b.mover)

    @property
    def has_position_key(self) -> bool:
        return True

    # ----- what lies outside the position struct (copy, copy_from, pickling: core/kernel.pyx) --
    cdef void copy_rest(self, Kernel source, bint fresh) noexcept:
        keys_assign(&self.seen, &(<ProteusKernel>source).seen)

    def save_rest(self) -> object:
        """The movement positions met so far (``repetition="forbid"``), which the position JSON
        does not hold."""
        cdef int i
        return [self.seen.slots[i] for i in range(self.seen.capacity) if self.seen.slots[i] != 0]

    def restore_rest(self, object rest) -> None:
        keys_clear(&self.seen)
        for key in rest:
            keys_add(&self.seen, <uint64_t>key)

    # ----- tensors ------------------------------------------------------------------------------
    cdef void observe_into(self, int player, float* out) noexcept:
        observe_position(&self.b, player, out)

    cdef void compact_into(self, int player, unsigned char* out) noexcept:
        compact_position(&self.b, player, out)

    cdef void expand_into(self, const unsigned char* compact, float* out) noexcept:
        expand_position(compact, out)

    cdef void features_into(self, double* out) noexcept:
        position_features(&self.b, out)

    # ----- the Python face: cold accessors for the facade, loading and explanations -------------
    def tile_at(self, int cell) -> int:
        """The tile id on ``cell``, or -1 for an empty cell."""
        _check(cell, 9, "cell")
        return self.b.tiles[cell]

    def piece_at(self, int cell) -> int:
        _check(cell, 9, "cell")
        return self.b.pieces[cell]

    def cell_of_tile(self, int tile) -> int:
        """The cell of ``tile``, or -1 while it is in the pool."""
        _check(tile, 9, "tile")
        return self.b.tile_cell[tile]

    def cell_of_piece(self, int piece) -> int:
        """The cell of ``piece``, or -1 while it is in its owner's hand."""
        _check(piece, 6, "piece")
        return self.b.where[piece]

    def active_tile(self, int colour) -> int:
        """The active tile of ``colour`` (0 red, 1 blue, 2 yellow), or -1 if it is missing."""
        _check(colour, 3, "colour")
        return self.b.active[colour]

    def satisfies_goal(self, int player) -> bool:
        _check(player, 2, "player")
        return self.goal_met(player)

    def kadon_feasible(self) -> bool:
        """Whether this position satisfies the feasibility rule of §4.4."""
        cdef int counts[3]
        cdef int missing
        cdef int open_tiles = self.kadon_budget(counts, &missing)
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
        cdef int count = movement_into(&self.b, buffer)
        return [buffer[i] for i in range(count)]

    def repeats(self, int action) -> bool:
        """Whether the movement action ``action`` (a move or trade id) recreates a position met
        before (repetition="forbid")."""
        if not MOVE_BASE <= action < PASS:
            raise ValueError(f"{action} is not a move or trade id")
        return self.b.unplaced == 0 and keys_contain(&self.seen, key_after(&self.b, action))

    def set_position(self, tiles, pieces, active, int mover, int passes) -> None:
        """Load a board (cell -> tile id, cell -> piece id, colour -> active tile; -1 for none)
        as validated by ``position.py``; counters restart. Call ``start()`` afterwards."""
        cdef int i
        self._clear()
        for i in range(9):
            self.b.tiles[i] = tiles[i]
            self.b.pieces[i] = pieces[i]
        for i in range(9):
            if self.b.tiles[i] >= 0:
                self.b.tile_cell[self.b.tiles[i]] = i
                self.b.unplaced -= 1
            if self.b.pieces[i] >= 0:
                self.b.where[self.b.pieces[i]] = i
                self.b.unplaced -= 1
        for i in range(3):
            self.b.active[i] = active[i]
        derive_masks(&self.b)
        self.b.mover = mover
        self.b.passes = passes

    def start(self) -> None:
        """Finish a new or loaded position: seed the repetition table with it and apply the
        immediate kadon draw of §5.4 / D30."""
        keys_clear(&self.seen)
        if self.b.forbid and self.b.unplaced == 0:
            keys_add(&self.seen, pack_key(self.b.tiles, self.b.where, self.b.active, self.b.mover))
        self.check_stuck()


def _check(int value, int size, str what):
    if not 0 <= value < size:
        raise IndexError(f"{what} {value} is outside 0..{size - 1}")
