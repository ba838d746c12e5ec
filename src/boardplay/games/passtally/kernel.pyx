# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of Passtally (spec §3-§9) as a typed kernel: setup, the two-action turn, placement
legality, marker moves, line tracing and scoring, the end of the game, and the tile reveals as
chance nodes, all over one fixed C struct (``Position``) so a copy is one struct assignment and
no step allocates or touches a Python object.

The geometry tables come from ``tables.py`` (the one Python statement of the board) and are
copied into C arrays once, when this module is imported, so every kernel of every option set
shares them. No order of the face-down tiles exists anywhere: a reveal's probabilities come from
the unrevealed composition (7 of each design minus those placed and face up), which is exactly a
fair shuffle (§9).

The module is split by job into parts compiled into this one extension (Cython ``include``, so
every call among them stays a direct C call the compiler may inline): ``ring.pxi`` (marker
moves and the setup slots), ``footprints.pxi`` (where a tile may go), ``lines.pxi`` (lines and
their passes), ``tensor.pxi`` (the observation tensor), ``compact.pxi`` (its compact bytes),
``playout.pxi`` (the playout policy a search's playouts use) and ``rollout.pxi`` (a uniform
random step, and a whole random game for the core's ``random_playouts``). ``kernel.pxd``
declares the position (its constants and the ``Position`` struct) and the class; this file
keeps the tables, the ``Kernel`` interface, the actions and the turn.

The cold Python face (``snapshot``, ``restore``, ``line``...) that the facade, the position
loader and the explanations use is ``fields.pyx``; no C method here touches a Python object.
"""

cimport cython

from boardplay.core.kernel cimport (
    CHANCE, TERMINAL, Kernel, RandomGame, Rng, rng_below, rng_unit, set_random_game,
)
from boardplay.games.passtally.layout cimport (
    LINE_VP_SEAT0, PLAYERS, TILES_PILE_A, TURN_SEAT, VP_SEAT0,
)

from boardplay.games.passtally import tables as _tables


# ----- the shared tables (copied once from tables.py at import; described there) -----------------
cdef int OTHER_CELL[NUM_OFFSETS]
cdef int EAST_VALID[NUM_CELLS]
cdef int SOUTH_VALID[NUM_CELLS]
cdef int SPELLINGS[16 * 4]
cdef int SPELLING_COUNT[16]
cdef int LINE_START[NUM_SLOTS]
cdef int LINE_EXIT[3 * NUM_OFFSETS]
cdef int LINE_ENTER[NUM_OFFSETS]
cdef short LINE_NEXT[3 * NUM_OFFSETS]
"""``LINE_ENTER[LINE_EXIT[i]]``: the face a line on a cell of shape x entering at key enters
next (i = x * 144 + key); ``Position.through`` keeps it per cell (derived here, not in
``tables.py``), a cell's four faces copied from here as one 8-byte run."""
cdef int PLACED_A[NUM_DESIGNS * 4]
cdef int PLACED_B[NUM_DESIGNS * 4]
cdef int SYMMETRIC[NUM_DESIGNS]
cdef int VP[57]
cdef double SHARE[(TILES_PER_DESIGN + 1) * (TOTAL_TILES + 1)]
"""``SHARE[u * (TOTAL_TILES + 1) + t]``: the double u / t, a reveal's probability, divided once
here (the same division ``chance_into`` would do; a division waits on the divider)."""


cdef void _fill(int* target, values, int size) except *:
    assert len(values) == size, (len(values), size)
    for i in range(size):
        target[i] = values[i]


def _load_tables():
    """Copy ``tables.py`` into the C arrays (checking its designs fit them)."""
    t = _tables
    assert len(t.DESIGNS) == NUM_DESIGNS
    # The footprint upkeep (``cover_cells``) relies on this layout: E/S/W/N reach the cells
    # +1/+SIZE/-1/-SIZE, and the footprints are the E and S pairs.
    for key, other in enumerate(t.OTHER_CELL):
        assert other in (-1, key // 4 + (1, SIZE, -1, -SIZE)[key % 4])
    assert len(t.FOOTPRINTS) == sum(t.EAST_VALID) + sum(t.SOUTH_VALID)
    _fill(OTHER_CELL, t.OTHER_CELL, NUM_OFFSETS)
    _fill(EAST_VALID, t.EAST_VALID, NUM_CELLS)
    _fill(SOUTH_VALID, t.SOUTH_VALID, NUM_CELLS)
    _fill(SPELLINGS, t.SPELLINGS, 16 * 4)
    _fill(SPELLING_COUNT, t.SPELLING_COUNT, 16)
    _fill(LINE_START, t.LINE_START, NUM_SLOTS)
    _fill(LINE_EXIT, t.LINE_EXIT, 3 * NUM_OFFSETS)
    _fill(LINE_ENTER, t.LINE_ENTER, NUM_OFFSETS)
    for i in range(3 * NUM_OFFSETS):
        LINE_NEXT[i] = LINE_ENTER[LINE_EXIT[i]]
    _fill(PLACED_A, t.PLACED_A, NUM_DESIGNS * 4)
    _fill(PLACED_B, t.PLACED_B, NUM_DESIGNS * 4)
    _fill(SYMMETRIC, t.SYMMETRIC, NUM_DESIGNS)
    _fill(VP, t.VP_TABLE, 57)
    cdef int u, total
    for u in range(TILES_PER_DESIGN + 1):
        for total in range(1, TOTAL_TILES + 1):
            SHARE[u * (TOTAL_TILES + 1) + total] = <double>u / <double>total
    # ``destination`` (ring.pxi) walks the ring with these steps:
    assert t.MOVE_STEPS == ((1, 1), (1, 2), (-1, 1), (-1, 2))


_load_tables()


# The parts (see the module docstring), after the tables they read.
include "ring.pxi"
include "footprints.pxi"
include "lines.pxi"
include "tensor.pxi"
include "compact.pxi"
include "playout.pxi"
include "rollout.pxi"


@cython.final
cdef class PasstallyKernel(Kernel):
    """One Passtally position under fixed options (players, the three rule variants and the
    ``max_turns`` engine guard). ``p`` holds the whole position; the options never change.
    (Fields and C methods are declared in ``kernel.pxd``.)"""

    def __init__(self, int num_players, bint jump_step=False, bint continuous=True,
                 bint finish_turn=True, int max_turns=-1):
        """The initial state: setup, three piles of 14 face down, pile A's reveal pending."""
        if not 2 <= num_players <= MAX_SEATS:
            raise ValueError(f"Passtally has 2 or 3 players, not {num_players}")
        self.set_sizes(num_players, NUM_ACTIONS, NUM_DESIGNS, OBSERVATION_SIZE, FEATURE_SIZE,
                       COMPACT_SIZE,
                       &self.p, sizeof(Position))
        self.p.n = num_players
        self.p.jump_step = jump_step
        self.p.continuous = continuous
        self.p.finish_turn = finish_turn
        self.p.max_turns = max_turns
        self._reset()

    cdef void _reset(self) noexcept:
        cdef int i
        for i in range(NUM_CELLS + SIZE):
            self.p.height[i] = 0
            self.p.tid[i] = -1
        for i in range(NUM_CELLS):
            self.p.shape[i] = 0
        for i in range(NUM_SLOTS):
            self.p.ring[i] = -1
        for i in range(NUM_PILES):
            self.p.face_up[i] = -1
            self.p.hidden[i] = TILES_PER_PILE
        for i in range(NUM_DESIGNS):
            self.p.unrevealed[i] = TILES_PER_DESIGN
        for i in range(MAX_SEATS):
            self.p.points[i] = 0
        self.p.placed = 0
        self.p.markers = 0
        self.p.pending = 0
        self.p.to_move = 0
        self.p.actions_left = ACTIONS_PER_TURN
        self.p.turns = 0
        self.p.side1 = -1
        self.p.side3 = -1
        self.p.end = END_NONE
        self.p.setup = True
        self.p.final_round = False
        self.p.game_over = False
        self._derive()

    cdef void _derive(self) noexcept:
        """Recompute the derived fields (footprints, markers, no lines known) from the
        position."""
        cdef int a, seat
        for seat in range(MAX_SEATS):
            self.p.seat_slots[seat] = 0
            self.p.seat_markers[seat] = 0
        for a in range(NUM_SLOTS):
            seat = self.p.ring[a]
            if seat >= 0:
                self.p.seat_slots[seat] |= 1u << a
                self.p.seat_markers[seat] += 1
        for a in range(NUM_SLOTS):
            self.p.line_cells[a] = 0
        for a in range(NUM_OFFSETS):
            self.p.line_at[a] = 0
        for a in range(NUM_CELLS):
            set_through(&self.p, a)
        derive_footprints(&self.p)
        self.p.lines_known = 0
        derive_planes(&self.p)

    # ----- board queries ------------------------------------------------------------------------
    cdef bint any_placement(self) noexcept:
        """Whether some legal placement exists (design-blind: a face-up tile anywhere and a
        legal footprint): the immediate-end test of §8.3."""
        if self.p.face_up[0] < 0 and self.p.face_up[1] < 0 and self.p.face_up[2] < 0:
            return False
        return self.p.footprints > 0

    cdef bint pile_exhausted(self, int pile) noexcept:
        return self.p.face_up[pile] < 0 and self.p.hidden[pile] == 0

    cdef int move_destination(self, int slot, int j) noexcept:
        """``destination`` (ring.pxi) under this kernel's movement rules, for the cold face."""
        return destination(&self.p, slot, j, self.p.jump_step, self.p.continuous)

    cdef int setup_slots(self, int* out) noexcept:
        """``setup_slots_into`` (ring.pxi) for the cold face: the next setup marker's slots."""
        return setup_slots_into(&self.p, self.p.n, out)

    cdef int trace(self, int slot, int* passes, uint64_t* cells, signed char* line_at) noexcept:
        """``trace_line`` (lines.pxi) for the cold face in ``fields.pyx``."""
        return trace_line(&self.p, slot, passes, cells, line_at)

    cdef int turn_score(self, int seat) noexcept:
        """The VP ``seat`` would add if its turn ended now: the passes of its complete lines
        (both ends on its markers, §7.2) summed, then converted once."""
        cdef int total = paired_passes(&self.p, self.p.seat_slots[seat])
        return VP[total] if total < 56 else 15

    # ----- the kernel interface -----------------------------------------------------------------
    cdef int to_move(self) noexcept:
        if self.p.game_over:
            return TERMINAL
        if self.p.pending >= 0:
            return CHANCE
        return self.p.to_move

    cdef int legal_into(self, int* out) noexcept:
        cdef int count = 0, d
        if self.p.game_over:
            return 0
        if self.p.pending >= 0:
            for d in range(NUM_DESIGNS):
                if self.p.unrevealed[d] > 0:
                    out[count] = d
                    count += 1
            return count
        if self.p.setup:
            return setup_slots_into(&self.p, self.p.n, out)
        if self.p.face_up[0] >= 0 or self.p.face_up[1] >= 0 or self.p.face_up[2] >= 0:
            count = placements_into(&self.p, out)
        return count + moves_into(&self.p, self.p.to_move, out + count, self.p.jump_step,
                                  self.p.continuous)

    cdef void mask_into(self, signed char* mask, int* scratch) noexcept:
        """In play: the placements from the anchors' orientation masks (``placements_mask``)
        and the moves as bytes, without the list."""
        cdef int count, i
        cdef unsigned int left
        if self.p.setup or self.p.pending >= 0 or self.p.game_over:
            Kernel.mask_into(self, mask, scratch)
            return
        memset(mask, 0, PLACE_BASE)
        placements_mask(&self.p, mask)
        memset(mask + MOVE_BASE, 0, NUM_ACTIONS - MOVE_BASE)
        if self.p.jump_step or not self.p.continuous:
            count = moves_into(&self.p, self.p.to_move, scratch, self.p.jump_step,
                               self.p.continuous)
            for i in range(count):
                mask[scratch[i]] = 1
            return
        left = self.p.seat_slots[self.p.to_move]  # every marker has its four moves
        while left:
            memset(mask + MOVE_BASE + ctz(left) * 4, 1, 4)
            left &= left - 1

    cdef int sample_legal(self, Rng* rng, int* scratch) noexcept:
        """In play ``draw_action`` (rollout.pxi); otherwise from the list."""
        cdef int count
        if self.p.setup or self.p.pending >= 0 or self.p.game_over:
            count = self.legal_into(scratch)
            return scratch[rng_below(rng, count)]
        return draw_action(self, rng, scratch)

    cdef int playout_action(self, Rng* rng, int* scratch) noexcept:
        """The playout policy (``policy_action``, playout.pxi)."""
        return policy_action(self, rng, scratch)

    cdef bint breaks_lines(self, int action, unsigned int mine) noexcept:
        """``breaks_scoring_line`` (playout.pxi)."""
        return breaks_scoring_line(&self.p, action, mine)

    cdef int count_legal(self, int* per_pile, int* scratch) noexcept:
        """The number of legal actions in play (not setup, chance or the end), without the
        list: the face-up piles' placements (``pile_share``), then the moves. ``per_pile``
        receives the piles' shares; under the movement variants the moves are listed into
        ``scratch``."""
        cdef int pile, count = 0
        for pile in range(NUM_PILES):
            per_pile[pile] = pile_share(&self.p, pile)
            count += per_pile[pile]
        if self.p.jump_step or not self.p.continuous:
            return count + moves_into(&self.p, self.p.to_move, scratch, self.p.jump_step,
                                      self.p.continuous)
        # Under the default rules every marker has all four moves (see ``moves_into``).
        return count + 4 * self.p.seat_markers[self.p.to_move]

    cdef int nth_legal(self, int r, int* per_pile, int* scratch) noexcept:
        """``legal[r]`` of ``legal_into``'s list, after ``count_legal`` filled ``per_pile``
        and ``scratch``: the r-th placement from the footprint boards, or the r-th move
        (rollout.pxi's helpers, without branches on where r falls)."""
        cdef int first = per_pile[0], second = first + per_pile[1]
        cdef int placements = second + per_pile[2]
        if r < placements:
            return nth_pile_placement(&self.p, r, first, second)
        if self.p.jump_step or not self.p.continuous:
            return scratch[r - placements]
        return nth_default_move(&self.p, r - placements)

    cdef int chance_into(self, int* outcomes, double* probabilities) noexcept:
        """Each design still unrevealed, with (its unrevealed count) / (all unrevealed)."""
        cdef int d, total = 0, count = 0
        if self.p.pending < 0 or self.p.game_over:
            return 0
        for d in range(NUM_DESIGNS):
            total += self.p.unrevealed[d]
        for d in range(NUM_DESIGNS):
            if self.p.unrevealed[d] > 0:
                outcomes[count] = d
                probabilities[count] = SHARE[self.p.unrevealed[d] * (TOTAL_TILES + 1) + total] \
                    if self.p.unrevealed[d] <= TILES_PER_DESIGN and total <= TOTAL_TILES \
                    else <double>self.p.unrevealed[d] / <double>total
                count += 1
        return count

    cdef void apply(self, int action) noexcept:
        if self.p.pending >= 0:
            self.reveal(action)
        elif self.p.setup:
            self.place_marker(action)
        elif action < MOVE_BASE:
            self.place_tile(action)
        else:
            self.move_marker(action)

    cdef void reveal(self, int design) noexcept:
        cdef int pile = self.p.pending, nxt
        self.p.face_up[pile] = design
        self.p.hidden[pile] -= 1
        self.p.unrevealed[design] -= 1
        if self.p.setup:
            # Initial reveals go A, B, C; then the markers are placed.
            nxt = pile + 1
            self.p.pending = nxt if nxt < NUM_PILES and self.p.face_up[nxt] < 0 else -1
            return
        self.p.pending = -1
        self.after_action(True)

    cdef void place_marker(self, int slot) noexcept:
        cdef int placed = self.p.markers
        cdef int pass_index = placed // self.p.n, k = placed % self.p.n
        if k == 0 and pass_index == 0:
            self.p.side1 = slot // SIZE
        elif k == 0 and pass_index == 2:
            self.p.side3 = slot // SIZE
        self.p.ring[slot] = self.p.to_move
        self.p.seat_slots[self.p.to_move] |= 1u << slot
        self.p.seat_markers[self.p.to_move] += 1
        placed += 1
        self.p.markers = placed
        if placed == 4 * self.p.n:
            self.p.setup = False
            self.p.to_move = 0
        else:
            self.p.to_move = setup_placer(placed, self.p.n)

    cdef void place_tile(self, int action) noexcept:
        cdef int rest = action - PLACE_BASE
        cdef int pile = rest // PLACE_PER_PILE
        cdef int offset = rest % PLACE_PER_PILE
        cdef int anchor = offset // 4, orientation = offset % 4
        cdef int design = self.p.face_up[pile]
        cdef int other = OTHER_CELL[offset]
        cdef int tile = self.p.placed
        self.p.placed_design[tile] = design
        self.p.placed_anchor[tile] = anchor
        self.p.placed_orientation[tile] = orientation
        self.p.placed = tile + 1
        self.p.height[anchor] += 1
        self.p.height[other] += 1
        self.p.tid[anchor] = tile
        self.p.tid[other] = tile
        self.p.shape[anchor] = PLACED_A[design * 4 + orientation]
        self.p.shape[other] = PLACED_B[design * 4 + orientation]
        set_through(&self.p, anchor)
        set_through(&self.p, other)
        cover_cells(&self.p, anchor, other)
        forget_lines(&self.p, anchor)
        forget_lines(&self.p, other)
        self.p.face_up[pile] = -1
        self.p.actions_left -= 1
        if self.p.hidden[pile] > 0:
            self.p.pending = pile  # the reveal follows at once, before anything else (§9)
            return
        self.after_action(True)

    cdef void move_marker(self, int action) noexcept:
        cdef int rest = action - MOVE_BASE
        cdef int slot = rest // 4
        cdef int dest = destination(&self.p, slot, rest % 4, self.p.jump_step, self.p.continuous)
        self.p.ring[dest] = self.p.ring[slot]
        self.p.ring[slot] = -1
        self.p.seat_slots[self.p.ring[dest]] ^= (1u << slot) | (1u << dest)
        self.p.actions_left -= 1
        self.after_action(False)

    # ----- turn structure -----------------------------------------------------------------------
    cdef void after_action(self, bint placed) noexcept:
        """After an action (and its reveal): the immediate end under
        ``finish_turn_on_immediate_end = false``, the end of the turn, or a forfeit (§6.4)."""
        if placed and not self.p.finish_turn and not self.any_placement():
            self.finish(END_NO_PLACEMENT)
            return
        if self.p.actions_left == 0:
            self.end_turn()
            return
        # Under the default movement rules every marker can always move; only the variants
        # can leave a player without any legal action, which forfeits the rest of the turn.
        if (self.p.jump_step or not self.p.continuous) and not self.any_placement() \
                and not has_move(&self.p, self.p.to_move, self.p.jump_step, self.p.continuous):
            self.end_turn()

    cdef void end_turn(self) noexcept:
        """§8.4 in order: score, immediate end, final-round flag, last seat; then the next
        seat. The ``max_turns`` guard (not a rule) is checked last."""
        cdef int seat = self.p.to_move, s, pile
        cdef bint trigger = False
        self.p.points[seat] += self.turn_score(seat)
        self.p.turns += 1
        if not self.any_placement():
            self.finish(END_NO_PLACEMENT)
            return
        if not self.p.final_round:
            for s in range(self.p.n):
                if self.p.points[s] >= FINAL_ROUND_SCORE:
                    trigger = True
            for pile in range(NUM_PILES):
                if self.pile_exhausted(pile):
                    trigger = True
            if trigger:
                self.p.final_round = True
        if self.p.final_round and seat == self.p.n - 1:
            self.finish(END_FINAL_ROUND)
            return
        if 0 <= self.p.max_turns <= self.p.turns:
            self.finish(END_MAX_TURNS)
            return
        self.p.to_move = (seat + 1) % self.p.n
        self.p.actions_left = ACTIONS_PER_TURN

    cdef void finish(self, int reason) noexcept:
        self.p.game_over = True  # to_move stays the seat whose turn it was (the contract's)
        self.p.actions_left = 0
        self.p.end = reason

    cdef int winner(self) noexcept:
        """Highest score; among tied seats the earliest in turn order (§8.5)."""
        cdef int best = 0, s
        for s in range(1, self.p.n):
            if self.p.points[s] > self.p.points[best]:
                best = s
        return best

    cdef void returns_into(self, double* out) noexcept:
        cdef int s, w = self.winner()
        for s in range(self.p.n):
            out[s] = 1.0 if self.p.game_over and s == w else 0.0

    cdef void observe_into(self, int player, float* out) noexcept:
        write_observation(&self.p, self.p.n, player, out)

    cdef void compact_into(self, int player, unsigned char* out) noexcept:
        write_compact(&self.p, self.p.n, player, out)

    cdef void expand_into(self, const unsigned char* compact, float* out) noexcept:
        expand_compact(compact, out)

    cdef void features_into(self, double* out) noexcept:
        """``Feature`` (``layout.pxd``): VP per seat, the VP each seat's complete lines would
        score now (0 for a seat the game does not have), the tiles left in each pile, face-up
        one included, the number of players, and the seat whose turn is under way (a reveal
        belongs to the turn of the seat that placed the tile; -1 in setup and at the end): that
        seat's lines score at the end of this turn, the others' only if they outlast it."""
        cdef int s, pile
        for s in range(MAX_SEATS):
            out[VP_SEAT0 + s] = self.p.points[s] if s < self.p.n else 0.0
            out[LINE_VP_SEAT0 + s] = self.turn_score(s) if s < self.p.n else 0.0
        for pile in range(NUM_PILES):
            out[TILES_PILE_A + pile] = self.p.hidden[pile] + (1 if self.p.face_up[pile] >= 0 else 0)
        out[<int>PLAYERS] = self.p.n
        out[<int>TURN_SEAT] = -1 if self.p.setup or self.p.game_over else self.p.to_move


# ``random_playouts`` (core) plays Passtally's random games with ``random_game`` (rollout.pxi).
set_random_game(PasstallyKernel, <RandomGame>random_game)
