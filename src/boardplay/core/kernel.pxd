# cython: language_level=3
"""The typed kernel interface every game implements (docs/design.md §2).

A kernel is a game's rules over fixed C-typed fields: no Python objects are touched on the hot
path. The generic drivers (random playouts in ``kernel.pyx``, batched games in ``batch.pyx``) and
the compiled search call these ``cdef`` methods through Cython's vtable, so one driver serves
every game at C speed. A game's kernel subclasses ``Kernel`` in its own ``kernel.pyx`` and
overrides the methods below (``sample_legal``, ``playout_action``, ``compact_into`` /
``expand_into`` and ``position_key`` have defaults a game may keep); the facade (``State``)
wraps one kernel and adds checks, history and I/O.

Buffers passed in are sized by the kernel's ``action_space`` (legal actions),
``chance_space`` (chance outcomes) and ``num_players`` (returns). Both spaces count ids, the
game's ``num_distinct_actions`` and ``max_chance_outcomes``: every id listed is below its space.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

cdef struct Rng:
    uint64_t state


cdef enum:
    CHANCE = -1
    TERMINAL = -4


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    """SplitMix64: one add and two multiply-xorshifts per draw; seeded from Python. Fast and
    good enough for uniform play and search, never for anything a visitor must not guess."""
    rng.state += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = rng.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int rng_below(Rng* rng, int n) noexcept nogil:
    """Uniform in ``0..n-1`` (Lemire's multiply-shift on the top 32 bits)."""
    return <int>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_unit(Rng* rng) noexcept nogil:
    """Uniform in [0, 1) with 53 bits."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline bytes raw_bytes(const void* source, size_t size):
    """``size`` bytes of a C field, for a kernel's ``save`` (pickling)."""
    return (<const char*>source)[:size]


cdef inline int raw_load(void* target, size_t size, bytes data, str what) except -1:
    """Write ``data`` (from ``raw_bytes``) back into a C field of ``size`` bytes; a blob of the
    wrong size (another build's layout) is refused rather than half-read."""
    if len(data) != <Py_ssize_t>size:
        raise ValueError(
            f"a pickled kernel's {what} holds {len(data)} bytes, this build's {size}: "
            "pickles are for the same installed boardplay (use the position JSON to move a "
            "game between versions)"
        )
    memcpy(target, <const char*>data, size)
    return 0


cdef class Kernel:
    cdef readonly int num_players
    """Seats in this game (2..4)."""
    cdef readonly int action_space
    """Size of the fixed action space; a legal-action buffer needs this many slots."""
    cdef readonly int chance_space
    """Most chance outcomes at one chance node (0 for a game without chance)."""
    cdef readonly int observation_size
    """Floats in one observation tensor (0 when the kernel writes none)."""
    cdef readonly int feature_size
    """Numbers in the typed feature vector the AI's evaluation weighs (0 when none)."""
    cdef readonly int compact_size
    """Bytes in the compact observation (0 when the kernel writes none): the tensor's
    information packed into small integers, for batched learners whose memory bandwidth the
    float tensor would eat (the game documents how to expand it)."""
    cdef readonly int compact_dynamic
    """Bytes at the start of the compact row that may change within a game (``compact_size``
    unless the game says otherwise). The rest is fixed from a game's first decision to its end
    (Montana's dealt board), so the batched env writes it when a game starts and only the
    first ``compact_dynamic`` bytes at its other steps (``compact_dynamic_into``)."""
    cdef Py_ssize_t position_offset
    """Where the game's position struct lies in the kernel object, in bytes from its start:
    the whole position, options included, which ``copy``, ``copy_from``, ``save`` and
    ``restore`` (written once, here) move as one block (``set_sizes`` sets it)."""
    cdef Py_ssize_t position_size
    """The position struct's size in bytes (0 before ``set_sizes``)."""

    cdef int to_move(self) noexcept
    """The seat to act, -1 (CHANCE) at a chance node, -4 (TERMINAL) at the end."""
    cdef int legal_into(self, int* out) noexcept
    """Write the legal action ids in ascending order; return their count (0 at the end).
    At a chance node: the outcome ids."""
    cdef int sample_legal(self, Rng* rng, int* scratch) noexcept
    """A uniformly random legal action of the seat to move (not at a chance node), drawn with
    one ``rng_below`` over the legal count so that it equals ``legal[rng_below(count)]``.
    The default lists the actions into ``scratch`` (``action_space`` slots); a game with long
    legal lists overrides it to find the r-th action without writing the list."""
    cdef void mask_into(self, signed char* mask, int* scratch) noexcept
    """The legal actions as a mask of ``action_space`` bytes (1 legal, 0 not): what the
    batched env hands a learner. The default lists them into ``scratch`` (``action_space``
    slots) and scatters; a game with long legal lists overrides it to write the bytes
    straight from what it keeps (Passtally)."""
    cdef int playout_action(self, Rng* rng, int* scratch) noexcept
    """The action a playout plays for the seat to move (not at a chance node) when the search
    uses the game's playout policy: by default ``sample_legal``, the same draw. A game whose
    random playouts mislead the search overrides it (Passtally: a turn's last action takes a
    marker move that scores more, docs/ai.md)."""
    cdef int chance_into(self, int* outcomes, double* probabilities) noexcept
    """At a chance node: write outcome ids and probabilities; return their count."""
    cdef void apply(self, int action) noexcept
    """Apply a legal action or chance outcome without checking it."""
    cdef void returns_into(self, double* out) noexcept
    """Per seat: 1 win, 0 loss, shared results split 1; all 0 while the game runs."""
    cdef void set_sizes(self, int num_players, int action_space, int chance_space,
                        int observation_size, int feature_size, int compact_size,
                        const void* position, size_t position_size) noexcept
    """The one place a kernel's constructor sets its sizes and declares its position struct
    (``&self.s``, ``sizeof(Position)``: the whole position with the game's options in it)."""
    cdef Kernel copy(self)
    """An independent kernel equal to this one (written once, here): a bare instance of the
    kernel's class (its ``__init__`` does not run), the sizes, the position struct as one
    block, then ``copy_rest``."""
    cdef void copy_sizes(self, Kernel other) noexcept
    """Take ``other``'s sizes (players, action, chance, observation, feature and compact) and
    where its position struct lies."""
    cdef void copy_from(self, Kernel other) noexcept
    """Become equal to ``other`` (same game and options) without allocating: the position
    struct as one block, then ``copy_rest``."""
    cdef void copy_rest(self, Kernel source, bint fresh) noexcept
    """A game's hook for what lies outside its position struct (none by default; Proteus's
    set of positions met, Montana's dealt board and component tables): copy it from
    ``source``; ``fresh`` when this kernel is a bare new one (``copy``)."""
    cdef void observe_into(self, int player, float* out) noexcept
    """Write the observation tensor from ``player``'s view (``observation_size`` floats)."""
    cdef void features_into(self, double* out) noexcept
    """Write the game's documented feature vector (``feature_size`` numbers) for evaluations."""
    cdef void compact_into(self, int player, unsigned char* out) noexcept
    """Write the compact observation from ``player``'s view (``compact_size`` bytes)."""
    cdef void compact_dynamic_into(self, int player, unsigned char* out) noexcept
    """The first ``compact_dynamic`` bytes of ``compact_into``'s row, the rest left as it is
    (written for this game before); by default ``compact_into``, the whole row."""
    cdef void expand_into(self, const unsigned char* compact, float* out) noexcept
    """Expand a compact observation into the tensor ``observe_into`` writes for that view."""
    cdef uint64_t position_key(self) noexcept
    """A 64-bit identity of the position for repetition-aware search: the board and the seat
    to act, not counters such as the turn number, so a position the game returns to has the
    key it had before. 0 means "cannot recur" (e.g. Proteus's placement phase, which shrinks
    the pool every turn) and is also the answer of a game without keys (``has_position_key``)."""


cdef class KernelState:
    """Compiled hot verbs of the contract for a facade that wraps a kernel (see kernel.pyx)."""
    cdef public Kernel kernel
    cdef public object game
    cdef public list _history
    cdef int* _legal
    cdef int _legal_size
    cdef int _fill_legal(self) except -1
    cdef long long _legal_id(self, object action) except -2


cdef int sample_chance(Kernel k, Rng* rng, int* outcomes, double* probabilities) noexcept
"""Pick one of ``k``'s chance outcomes by its probability (buffers sized ``chance_space``)."""


ctypedef long (*RandomGame)(Kernel k, Rng* rng, long max_actions, int* scratch) noexcept
"""A game's random game in one function, for ``random_playouts``: from ``k``'s position, apply
uniform actions (``sample_legal``'s draw) and chance outcomes (``sample_chance``'s) until the
end or ``max_actions`` steps (when > 0), drawing from ``rng`` exactly as the generic step does,
so a seed plays the same games; return the steps taken. ``scratch`` has ``action_space``
slots."""
cdef int set_random_game(type cls, RandomGame play) except -1
"""Have ``random_playouts`` play kernels of exactly the class ``cls`` with ``play`` (a game
registers it when its module is imported): one call a game instead of three calls through
the vtable a step."""
