# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of Potlatch Klone (spec §4-§8) over fixed C fields: the compiled kernel.

Why slots and not a coordinate window: a loaded position may put tiles anywhere within
``|q|, |r| <= 10000``, but a game never has more than 12 tiles (tiles on the board plus the stock,
checked on load). So every hex the rules can ever look at gets a *slot* (0..31) the first time
it matters, with its axial ``(q, r)`` kept beside it, and a neighbour table ``nb[slot][dir]``
(-1 for a blank space) turns every adjacency question into one array read. Slots are never
freed, tiles are never removed, so a slot is a stable identity for the whole game.

The repetition snapshot (§8.2) is the chip code of every slot (plus, under
``repetition_compares_full_state``, the tile set and both pawns): comparing two is one
``memcmp`` of 48 bytes, exact, no hashing. A snapshot loaded from position JSON may name hexes
that are blank now but could still receive a tile before the comparison; those get *phantom*
slots (a slot that is not a tile yet). At most ``stock`` of them per snapshot can ever become
tiles, so a snapshot needing more can never match and is kept as ``SNAP_NEVER``; with at least
two tiles on the board that bounds the slots by 2 + 3 x 10 = 32.

Chip codes (``notation``): 0 ``""``, 1 ``N``, 2 ``NN``, 3 ``NNN``, 4 ``NNR``, 5 ``NNB``.
Action ids 0..5 are Pawn Moves and 6..11 Chip Moves toward E, NE, NW, W, SW, SE.
The legal list is computed once per position (in ``apply`` and on load) because end
condition 2 needs it anyway; ``legal_into`` only copies it.

The kernel is one compiled module split by job into parts it includes: ``board.pxi``, the
board's rules over one ``Board`` (slots and their neighbours, the actions allowed, their
effects, the dead-end search); ``observe.pxi``, the observation tensors.
"""

from libc.string cimport memcmp, memcpy, memset

from boardplay.core.kernel cimport TERMINAL, Kernel, Rng, rng_below
from boardplay.games.potlatch.layout cimport (
    BLUE_STACKS, COMPACT_EXTRA, FEATURE_SIZE, NUM_ACTIONS, OBSERVATION_SIZE, PAWN_MOVES,
    RED_BREAKS, RED_CROWNS, RED_STACKS, TO_MOVE,
)


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil


include "board.pxi"
include "observe.pxi"


cdef class PotlatchKernel(Kernel):
    """One Potlatch Klone position with its turn bookkeeping, as C fields (see the module
    docstring and ``kernel.pxd``). Made empty by the constructor; ``setup`` loads a position
    into it."""

    def __init__(self, int num_players, int n_actions=2, bint blank_free=False,
                  bint full=False, bint filter_dead_ends=False, int turn_limit=1000,
                  int centre=0):
        # Every kernel is made as XKernel(num_players, options...); Potlatch Klone has two.
        if num_players != 2:
            raise ValueError(f"Potlatch Klone has 2 players, not {num_players}")
        self.set_sizes(2, NUM_ACTIONS, 0, OBSERVATION_SIZE, FEATURE_SIZE, CELLS + COMPACT_EXTRA,
                       &self.s, sizeof(Position))
        self.s.n_actions = n_actions
        self.s.b.blank_free = blank_free
        self.s.full = full
        self.s.filter_dead_ends = filter_dead_ends
        self.s.turn_limit = turn_limit
        self.s.centre = centre

    # ----- the rules ----------------------------------------------------------------------------
    cdef int to_move(self) noexcept:
        return TERMINAL if self.s.condition else self.s.b.mover

    cdef int legal_into(self, int* out) noexcept:
        cdef int i
        for i in range(self.s.nlegal):
            out[i] = self.s.legal[i]
        return self.s.nlegal

    cdef int sample_legal(self, Rng* rng, int* scratch) noexcept:
        """``legal[rng_below(count)]`` straight from the list kept since the last action."""
        return self.s.legal[rng_below(rng, self.s.nlegal)]

    cdef int chance_into(self, int* outcomes, double* probabilities) noexcept:
        return 0

    cdef void compute_legal(self) noexcept:
        cdef int actions[NUM_ACTIONS]
        cdef int n, i, remaining
        cdef Board child
        if not self.s.filter_dead_ends:
            self.s.nlegal = rule_actions(&self.s.b, self.s.legal)
            return
        n = rule_actions(&self.s.b, actions)
        remaining = self.s.n_actions - self.s.done - 1
        self.s.nlegal = 0
        for i in range(n):
            if remaining > 0:
                child = self.s.b
                raw_apply(&child, actions[i])
                if not can_finish(&child, remaining):
                    continue
            self.s.legal[self.s.nlegal] = actions[i]
            self.s.nlegal += 1

    cdef void apply(self, int action) noexcept:
        cdef int mover = self.s.b.mover
        raw_apply(&self.s.b, action)
        self.s.done += 1
        if self.s.done == self.s.n_actions:
            if self.s.b.run_open:
                increase(&self.s.b)
                self.s.b.run_open = 0
            self.s.snaps[mover] = self.s.turn_start
            self.s.turns_played += 1
            self.s.b.mover = 1 - mover
            self.begin_turn()
            return
        self.compute_legal()
        if self.s.nlegal == 0:
            self.finish(1 - mover, 2)

    cdef void finish(self, int winner, int condition) noexcept:
        self.s.winner = winner
        self.s.condition = condition
        self.s.nlegal = 0

    cdef int stack_leader(self) noexcept:
        """The seat with more own-colour stacks; -1 when equal (a draw)."""
        if self.s.b.colour[0] == self.s.b.colour[1]:
            return -1
        return 0 if self.s.b.colour[0] > self.s.b.colour[1] else 1

    cdef void take_snapshot(self, Snap* s) noexcept:
        memcpy(s.code, self.s.b.code, MAX_SLOTS)
        s.status = SNAP_KNOWN
        if self.s.full:
            s.tiles = self.s.b.tiles
            s.pawn[0] = self.s.b.pawn[0]
            s.pawn[1] = self.s.b.pawn[1]
        else:
            s.tiles = 0
            s.pawn[0] = -1
            s.pawn[1] = -1

    cdef void begin_turn(self) noexcept:
        """The start-of-turn procedure of §4.3: conditions 1, 3, then 2 (then the engine's
        turn-limit guard, condition 4)."""
        cdef int mover = self.s.b.mover
        cdef int here = self.s.b.pawn[mover]
        cdef Snap* previous = &self.s.snaps[mover]
        self.s.done = 0
        self.s.b.visited = 1u << here
        self.s.b.path[0] = here
        self.s.b.npath = 1
        self.s.b.run_open = 0
        if self.s.b.colour[mover] >= 3:
            self.finish(mover, 1)
            return
        self.take_snapshot(&self.s.turn_start)
        if previous.status == SNAP_KNOWN and memcmp(
            previous, &self.s.turn_start, sizeof(Snap)
        ) == 0:
            self.finish(self.stack_leader(), 3)
            return
        self.compute_legal()
        if self.s.nlegal == 0:
            self.finish(1 - mover, 2)
            return
        if self.s.turns_played >= self.s.turn_limit:
            self.finish(self.stack_leader(), 4)

    cdef void returns_into(self, double* out) noexcept:
        if self.s.condition == 0:
            out[0] = 0.0
            out[1] = 0.0
        elif self.s.winner < 0:
            out[0] = 0.5
            out[1] = 0.5
        else:
            out[self.s.winner] = 1.0
            out[1 - self.s.winner] = 0.0

    # ----- tensors for learning and search ------------------------------------------------------
    cdef int cell(self, int s, int turn) noexcept:
        """Flat index of slot ``s`` inside one observation plane, or -1 outside the window."""
        cdef int q = self.s.b.q[s], r = self.s.b.r[s]
        if turn:
            q = self.s.centre - q
            r = -r
        if -RADIUS <= q <= RADIUS and -RADIUS <= r <= RADIUS:
            return (r + RADIUS) * SIDE + q + RADIUS
        return -1

    cdef void observe_into(self, int player, float* out) noexcept:
        _observe(self, player, out)

    cdef void compact_into(self, int player, unsigned char* out) noexcept:
        _compact(self, player, out)

    cdef void expand_into(self, const unsigned char* compact, float* out) noexcept:
        _expand(self, compact, out)

    cdef void features_into(self, double* out) noexcept:
        """``Feature`` (``layout.pxd``): what the evaluation weighs, without reading any JSON."""
        cdef int seat, i, d, height, crowns, breaks, here, at
        out[<int>TO_MOVE] = self.s.b.mover
        for seat in range(2):
            here = self.s.b.pawn[seat]
            height = HEIGHT[self.s.b.code[here]]
            crowns = 0
            breaks = 0
            for i in range(6):
                d = self.s.b.nb[here][i]
                if d < 0:
                    continue
                if self.s.b.code[d] == 2 and height >= 1:
                    crowns += 1
                if self.s.b.code[d] == 5 - seat and height >= 2:
                    breaks += 1
            at = (BLUE_STACKS - RED_STACKS) * seat
            out[RED_STACKS + at] = self.s.b.colour[seat]
            out[RED_CROWNS + at] = crowns
            out[RED_BREAKS + at] = breaks

    # ----- the Python face: loading and reading positions (cold) -------------------------------
    def setup(self, list tiles, int stock, list pawns, int to_move, int turns_played,
              list snapshots, int done=0, list visited=None, bint run_open=False):
        """Load a validated position (``position.py`` checks it first). ``tiles`` lists
        ``(q, r, code)`` in board order, ``pawns`` and ``visited`` are ``(q, r)`` pairs, and
        each of the two ``snapshots`` is None, ``(entries, None)`` for a stack snapshot or
        ``(entries, (red, blue))`` for a full-state one, entries being ``(q, r, code)``.
        A turn start (``done`` 0) runs the start-of-turn procedure, as after setup (§3.1)."""
        cdef int seat, s
        memset(&self.s.b.code, 0, sizeof(self.s.b.code))
        self.s.b.nslots = 0
        self.s.b.ntiles = 0
        self.s.b.tiles = 0
        self.s.b.colour[0] = 0
        self.s.b.colour[1] = 0
        self.s.b.increases = 0
        if len(tiles) + 3 * stock > MAX_SLOTS:
            raise ValueError("a Potlatch Klone position holds at most 12 tiles with its stock")
        for q, r, code in tiles:
            s = make_tile(&self.s.b, new_slot(&self.s.b, q, r))
            self.s.b.code[s] = code
            if code >= 4:
                self.s.b.colour[code - 4] += 1
        self.s.b.stock = stock
        for seat in range(2):
            self.s.b.pawn[seat] = find_slot(&self.s.b, pawns[seat][0], pawns[seat][1])
        self.s.b.mover = to_move
        self.s.turns_played = turns_played
        self.s.winner = 0
        self.s.condition = 0
        self.s.nlegal = 0
        for seat in range(2):
            self.load_snapshot(&self.s.snaps[seat], snapshots[seat])
        if done == 0:
            self.begin_turn()
            return
        self.s.done = done
        self.s.b.visited = 0
        self.s.b.npath = 0
        for q, r in visited:
            s = find_slot(&self.s.b, q, r)
            self.s.b.visited |= 1u << s
            self.s.b.path[self.s.b.npath] = s
            self.s.b.npath += 1
        self.s.b.run_open = run_open
        self.s.turn_start = self.s.snaps[to_move]
        self.compute_legal()
        if self.s.nlegal == 0:
            self.finish(1 - to_move, 2)

    cdef int load_snapshot(self, Snap* snap, object raw) except -1:
        cdef int s, phantoms = 0
        memset(snap, 0, sizeof(Snap))
        snap.pawn[0] = -1
        snap.pawn[1] = -1
        if raw is None:
            snap.status = SNAP_NONE
            return 0
        if raw == "never":  # as ``snapshot`` reports one (fields.load)
            snap.status = SNAP_NEVER
            return 0
        entries, pawns = raw
        places = {(q, r) for q, r, _ in entries}
        for q, r in places:
            phantoms += find_slot(&self.s.b, q, r) < 0
        # A blank hex can only join the board from the stock; pawns always stand on tiles.
        if phantoms > self.s.b.stock or (
            pawns is not None and (pawns[0] == pawns[1] or not set(pawns) <= places)
        ):
            snap.status = SNAP_NEVER
            return 0
        for q, r, code in entries:
            s = find_slot(&self.s.b, q, r)
            if s < 0:
                s = new_slot(&self.s.b, q, r)
            snap.code[s] = code
            if pawns is not None:
                snap.tiles |= 1u << s
        if pawns is not None:
            for seat in range(2):
                snap.pawn[seat] = find_slot(&self.s.b, pawns[seat][0], pawns[seat][1])
        snap.status = SNAP_KNOWN
        return 0

    def tiles(self) -> list:
        """``(q, r, code)`` for every tile, in the order the tiles appeared."""
        cdef int i, s
        out = []
        for i in range(self.s.b.ntiles):
            s = self.s.b.order[i]
            out.append((self.s.b.q[s], self.s.b.r[s], self.s.b.code[s]))
        return out

    def pawns(self) -> list:
        """``[(q, r) of Red's pawn, (q, r) of Blue's pawn]``."""
        return [(self.s.b.q[self.s.b.pawn[i]], self.s.b.r[self.s.b.pawn[i]]) for i in range(2)]

    def visited(self) -> list:
        """``(q, r)`` of the hexes the mover's pawn occupied this turn, start hex first."""
        return [(self.s.b.q[self.s.b.path[i]], self.s.b.r[self.s.b.path[i]]) for i in range(self.s.b.npath)]

    def snapshot(self, int which) -> object:
        """A repetition snapshot: ``which`` 0 and 1 the seats' (``snapshots``), 2 the current
        turn's start, 3 the board now. None when unknown, ``"never"`` for a loaded one that
        can never match, else ``(entries, pawns)`` as ``setup`` takes them (pawns None for a
        stack snapshot); entries are the hexes with chips (or every tile, full-state)."""
        cdef Snap now
        cdef Snap* snap
        cdef int s
        if which == 3:
            self.take_snapshot(&now)
            snap = &now
        elif which == 2:
            snap = &self.s.turn_start
        else:
            snap = &self.s.snaps[which]
        if snap.status == SNAP_NONE:
            return None
        if snap.status == SNAP_NEVER:
            return "never"
        entries = []
        for s in range(self.s.b.nslots):
            if (snap.tiles >> s) & 1 if self.s.full else snap.code[s] != 0:
                entries.append((self.s.b.q[s], self.s.b.r[s], snap.code[s]))
        if not self.s.full:
            return entries, None
        pawns = tuple((self.s.b.q[snap.pawn[i]], self.s.b.r[snap.pawn[i]]) for i in range(2))
        return entries, pawns

    def result(self) -> object:
        """``(winner seat or None for a draw, end condition 1..4)``, or None while running."""
        if self.s.condition == 0:
            return None
        return (None if self.s.winner < 0 else self.s.winner, self.s.condition)

    def own_stacks(self, int seat) -> int:
        return self.s.b.colour[seat]

