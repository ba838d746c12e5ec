# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The base ``Kernel``, the compiled facade verbs (``KernelState``) and the generic driver of
whole random games over any game's kernel (batched steps live in ``batch.pyx``).

Everything here talks to a game only through the ``cdef`` methods declared in ``kernel.pxd``,
so one loop serves all four games and runs without touching a Python object per action; a game
may register its own random game (``set_random_game``), which plays the same games with one
call a game. The random generator is ``rng_next`` from ``kernel.pxd`` (SplitMix64).
"""

from operator import index

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from boardplay.core.errors import IllegalActionError

cdef tuple _NO_ARGUMENTS = ()


cdef inline char* _position(Kernel k) noexcept:
    """The start of ``k``'s position struct (``set_sizes``)."""
    return <char*><PyObject*>k + k.position_offset


cdef class Kernel:
    """Base of every game kernel. The rules methods (``to_move``, ``legal_into``, ``apply`` …)
    are never meant to run: a game overrides them, and these fail loudly (a playout that sees
    TERMINAL at once) rather than silently. Some helpers have defaults most games keep."""

    cdef int to_move(self) noexcept:
        return TERMINAL

    cdef int legal_into(self, int* out) noexcept:
        return 0

    cdef int sample_legal(self, Rng* rng, int* scratch) noexcept:
        cdef int count = self.legal_into(scratch)
        return scratch[rng_below(rng, count)]

    cdef void mask_into(self, signed char* mask, int* scratch) noexcept:
        cdef int count = self.legal_into(scratch), i
        memset(mask, 0, self.action_space)
        for i in range(count):
            mask[scratch[i]] = 1

    cdef int playout_action(self, Rng* rng, int* scratch) noexcept:
        return self.sample_legal(rng, scratch)

    cdef int chance_into(self, int* outcomes, double* probabilities) noexcept:
        return 0

    cdef void apply(self, int action) noexcept:
        pass

    cdef void returns_into(self, double* out) noexcept:
        cdef int i
        for i in range(self.num_players):
            out[i] = 0.0

    cdef void set_sizes(self, int num_players, int action_space, int chance_space,
                        int observation_size, int feature_size, int compact_size,
                        const void* position, size_t position_size) noexcept:
        self.num_players = num_players
        self.action_space = action_space
        self.chance_space = chance_space
        self.observation_size = observation_size
        self.feature_size = feature_size
        self.compact_size = compact_size
        self.compact_dynamic = compact_size
        self.position_offset = <const char*>position - <char*><PyObject*>self
        self.position_size = position_size

    cdef Kernel copy(self):
        if self.position_size == 0:
            raise NotImplementedError(f"{type(self).__name__} declares no position struct "
                                      "(set_sizes in its constructor)")
        cdef type cls = type(self)
        cdef Kernel other = <Kernel>(<PyTypeObject*>cls).tp_new(cls, <PyObject*>_NO_ARGUMENTS,
                                                                NULL)
        other.copy_sizes(self)
        memcpy(_position(other), _position(self), self.position_size)
        other.copy_rest(self, True)
        return other

    cdef void copy_from(self, Kernel other) noexcept:
        memcpy(_position(self), _position(other), self.position_size)
        self.copy_rest(other, False)

    cdef void copy_rest(self, Kernel source, bint fresh) noexcept:
        pass

    cdef void copy_sizes(self, Kernel other) noexcept:
        self.num_players = other.num_players
        self.action_space = other.action_space
        self.chance_space = other.chance_space
        self.observation_size = other.observation_size
        self.feature_size = other.feature_size
        self.compact_size = other.compact_size
        self.compact_dynamic = other.compact_dynamic
        self.position_offset = other.position_offset
        self.position_size = other.position_size

    cdef void observe_into(self, int player, float* out) noexcept:
        cdef int i
        for i in range(self.observation_size):
            out[i] = 0.0

    cdef void features_into(self, double* out) noexcept:
        cdef int i
        for i in range(self.feature_size):
            out[i] = 0.0

    cdef void compact_into(self, int player, unsigned char* out) noexcept:
        cdef int i
        for i in range(self.compact_size):
            out[i] = 0

    cdef void compact_dynamic_into(self, int player, unsigned char* out) noexcept:
        self.compact_into(player, out)

    cdef void expand_into(self, const unsigned char* compact, float* out) noexcept:
        cdef int i
        for i in range(self.observation_size):
            out[i] = 0.0

    cdef uint64_t position_key(self) noexcept:
        return 0

    # ----- the Python face: used by the facade, tests and tools, never in a hot loop ----------
    @property
    def has_position_key(self) -> bool:
        """Whether this game's kernel gives positions repetition keys (``position_key``);
        a search that avoids repetitions needs them."""
        return False

    def repetition_key(self) -> int:
        """The position's repetition key (``position_key`` in ``kernel.pxd``; 0: cannot recur)."""
        return self.position_key()

    def __reduce__(self):
        """Pickling (``pickle``, ``copy.deepcopy``, process pools): the class, the sizes every
        kernel has (where its position struct lies among them) and its fields (``save``),
        which ``restore`` writes back into a fresh instance. The fields travel as this build's
        C layout, so a pickle is for the same installed boardplay; the position JSON is the
        portable form."""
        sizes = (self.num_players, self.action_space, self.chance_space, self.observation_size,
                 self.feature_size, self.compact_size, self.compact_dynamic, self.position_offset,
                 self.position_size)
        return (restore_kernel, (type(self), sizes, self.save()))

    def save(self) -> tuple:
        """The position struct as bytes (options included) and what lies outside it
        (``save_rest``), for pickling (written once, here)."""
        if self.position_size == 0:
            raise NotImplementedError(f"{type(self).__name__} declares no position struct")
        return (raw_bytes(_position(self), self.position_size), self.save_rest())

    def restore(self, tuple saved) -> None:
        """Become the kernel ``saved`` (from ``save``) describes."""
        position, rest = saved
        raw_load(_position(self), self.position_size, position, "position")
        self.restore_rest(rest)

    def save_rest(self) -> object:
        """What lies outside the position struct, as plain values (``copy_rest``'s part of a
        pickle): None by default."""
        return None

    def restore_rest(self, object rest) -> None:
        """Write back what ``save_rest`` gave."""

    def current_player(self) -> int:
        return self.to_move()

    def legal_actions(self) -> list:
        cdef int* buffer = <int*>malloc(max(self.action_space, self.chance_space, 1) * sizeof(int))
        if buffer == NULL:
            raise MemoryError()
        try:
            count = self.legal_into(buffer)
            return [buffer[i] for i in range(count)]
        finally:
            free(buffer)

    def chance_outcomes(self) -> list:
        cdef int size = max(self.chance_space, 1)
        cdef int* outcomes = <int*>malloc(size * sizeof(int))
        cdef double* probabilities = <double*>malloc(size * sizeof(double))
        if outcomes == NULL or probabilities == NULL:
            free(outcomes)
            free(probabilities)
            raise MemoryError()
        try:
            count = self.chance_into(outcomes, probabilities)
            return [(outcomes[i], probabilities[i]) for i in range(count)]
        finally:
            free(outcomes)
            free(probabilities)

    def step(self, int action) -> None:
        """Apply ``action`` unchecked (the caller knows it is legal)."""
        self.apply(action)

    def returns(self) -> list:
        cdef double values[8]
        self.returns_into(values)
        return [values[i] for i in range(self.num_players)]

    def clone(self) -> Kernel:
        return self.copy()

    def assign(self, Kernel other) -> None:
        """Become equal to ``other`` (a kernel of the same game and options)."""
        if type(other) is not type(self):
            raise TypeError(f"cannot assign a {type(other).__name__} to a {type(self).__name__}")
        self.copy_from(other)

    def observe(self, int player, float[::1] out) -> None:
        """Write ``player``'s observation tensor into ``out`` (e.g. a float32 NumPy row)."""
        if out.shape[0] < self.observation_size:
            raise ValueError(f"the buffer holds {out.shape[0]} floats; {self.observation_size} needed")
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be 0..{self.num_players - 1}, not {player}")
        self.observe_into(player, &out[0])

    def observe_compact(self, int player, unsigned char[::1] out) -> None:
        """Write ``player``'s compact observation into ``out`` (e.g. a uint8 NumPy row)."""
        if self.compact_size == 0:
            raise ValueError(f"{type(self).__name__} writes no compact observation")
        if out.shape[0] < self.compact_size:
            raise ValueError(f"the buffer holds {out.shape[0]} bytes; {self.compact_size} needed")
        if not 0 <= player < self.num_players:
            raise ValueError(f"player must be 0..{self.num_players - 1}, not {player}")
        self.compact_into(player, &out[0])

    def expand_compact(self, const unsigned char[::1] compact, float[::1] out) -> None:
        """Expand one compact observation into ``out``: the tensor ``observe`` would write."""
        if self.compact_size == 0:
            raise ValueError(f"{type(self).__name__} writes no compact observation")
        if compact.shape[0] < self.compact_size or out.shape[0] < self.observation_size:
            raise ValueError(
                f"need {self.compact_size} bytes in and {self.observation_size} floats out"
            )
        self.expand_into(&compact[0], &out[0])

    def features(self) -> list:
        """The feature vector (``feature_size`` numbers) the game documents for evaluations."""
        cdef double values[64]
        if self.feature_size > 64:
            raise ValueError("feature vectors hold at most 64 numbers")
        self.features_into(values)
        return [values[i] for i in range(self.feature_size)]


cdef class KernelState:
    """The contract's hot verbs, compiled, for a game facade that wraps a ``Kernel``.

    A game's ``State`` subclasses this first and ``core.game.State`` second, so people,
    adapters and the server get ``legal_actions`` / ``apply_action`` / ``clone`` at C speed
    while the cold verbs (notation, explanations, JSON) stay in Python. ``apply_action`` is the
    checked path: it rejects an illegal id with the game's own explanation
    (``explain_illegal``), records the history and applies the action through the kernel.
    """

    def __dealloc__(self):
        free(self._legal)

    cdef int _fill_legal(self) except -1:
        cdef int size = max(self.kernel.action_space, self.kernel.chance_space, 1)
        if self._legal_size < size:
            free(self._legal)
            self._legal = <int*>malloc(size * sizeof(int))
            if self._legal == NULL:
                self._legal_size = 0
                raise MemoryError()
            self._legal_size = size
        return self.kernel.legal_into(self._legal)

    def current_player(self) -> int:
        return self.kernel.to_move()

    def is_terminal(self) -> bool:
        return self.kernel.to_move() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.kernel.to_move() == CHANCE

    def legal_actions(self) -> list:
        cdef int count = self._fill_legal()
        return [self._legal[i] for i in range(count)]

    def is_legal(self, action) -> bool:
        return self._legal_id(action) >= 0

    cdef long long _legal_id(self, object action) except -2:
        """``action`` as an id when it is legal now (any integer type but bool), else -1."""
        if isinstance(action, bool):
            return -1
        try:
            wanted = index(action)
        except TypeError:
            return -1
        cdef int count = self._fill_legal()
        cdef int i
        for i in range(count):
            if self._legal[i] == wanted:
                return wanted
        return -1

    def apply_action(self, action) -> None:
        cdef long long legal = self._legal_id(action)
        if legal < 0:
            raise IllegalActionError(self.explain_illegal(action))
        self.kernel.apply(<int>legal)
        self._history.append(<object>legal)

    def _apply(self, int action) -> None:
        self.kernel.apply(action)

    def returns(self) -> list:
        return self.kernel.returns()

    def history(self) -> list:
        return list(self._history)

    def clone(self):
        """An independent copy: a new kernel, the same game, a copied history. Extra Python
        fields a facade keeps are copied by its ``_copy_extra(other)``."""
        cls = type(self)
        cdef KernelState other = cls.__new__(cls)
        other.game = self.game
        other.kernel = self.kernel.copy()
        other._history = list(self._history)
        self._copy_extra(other)
        return other

    def __reduce__(self):
        """Pickling and ``copy.deepcopy``: the game, the kernel (which pickles its own fields,
        ``Kernel.__reduce__``), the history, and the facade's extra Python fields. The C
        buffer of legal actions is scratch space and is not carried."""
        extra = getattr(self, "__dict__", None)
        return (restore_state, (type(self), self.game, self.kernel, list(self._history)),
                dict(extra) if extra else None)

    def __copy__(self):
        """``copy.copy`` is ``clone``: a state never shares its kernel with another."""
        return self.clone()

    def _copy_extra(self, other) -> None:
        """Hook: copy facade fields that live outside the kernel (none by default)."""


def restore_kernel(cls, tuple sizes, tuple saved):
    """Unpickle a kernel (see ``Kernel.__reduce__``): a bare instance of ``cls`` (no
    ``__init__``, so no tables or board are built) given its sizes and then its fields."""
    if not (isinstance(cls, type) and issubclass(cls, Kernel)):
        raise TypeError(f"{cls!r} is not a kernel class")
    cdef Kernel k = cls.__new__(cls)
    (k.num_players, k.action_space, k.chance_space, k.observation_size, k.feature_size,
     k.compact_size, k.compact_dynamic, k.position_offset, k.position_size) = sizes
    k.restore(saved)
    return k


def restore_state(cls, object game, Kernel kernel, list history):
    """Unpickle a facade (see ``KernelState.__reduce__``); pickle then sets the facade's own
    Python fields from its ``__dict__``."""
    if not (isinstance(cls, type) and issubclass(cls, KernelState)):
        raise TypeError(f"{cls!r} is not a kernel state class")
    cdef KernelState state = cls.__new__(cls)
    state.game = game
    state.kernel = kernel
    state._history = history
    return state


cdef int sample_chance(Kernel k, Rng* rng, int* outcomes, double* probabilities) noexcept:
    cdef int count = k.chance_into(outcomes, probabilities)
    cdef double point = rng_unit(rng)
    cdef double total = 0.0
    cdef int i, pick = 0
    if count <= 8:
        # The first outcome whose running total passes the point, without branches (where
        # the point falls is a coin toss to the CPU): the running total never falls, so that
        # is the number of running totals at or below the point.
        for i in range(count - 1):
            total += probabilities[i]
            pick += point >= total
        return outcomes[pick]
    for i in range(count - 1):
        total += probabilities[i]
        if point < total:
            return outcomes[i]
    return outcomes[count - 1]


cdef enum:
    MAX_RANDOM_GAMES = 8

cdef PyTypeObject* _random_classes[MAX_RANDOM_GAMES]
cdef RandomGame _random_games[MAX_RANDOM_GAMES]
cdef int _random_count = 0


cdef int set_random_game(type cls, RandomGame play) except -1:
    global _random_count
    cdef PyTypeObject* key = <PyTypeObject*>cls
    cdef int i
    for i in range(_random_count):
        if _random_classes[i] == key:
            _random_games[i] = play
            return 0
    if _random_count == MAX_RANDOM_GAMES:
        raise RuntimeError(f"more than {MAX_RANDOM_GAMES} kernel classes play their own games")
    Py_INCREF(cls)  # held for good: the table keeps the class's address
    _random_classes[_random_count] = key
    _random_games[_random_count] = play
    _random_count += 1
    return 0


cdef RandomGame _random_game_of(Kernel k) noexcept:
    """The game's own random game for ``k``'s class (``set_random_game``), or NULL."""
    cdef PyTypeObject* key = (<PyObject*>k).ob_type
    cdef int i
    for i in range(_random_count):
        if _random_classes[i] == key:
            return _random_games[i]
    return NULL


def random_playouts(Kernel start, long games, unsigned long long seed, long max_actions=0):
    """Play ``games`` uniformly random games from ``start`` (chance sampled by its
    probabilities) inside compiled code. ``max_actions`` > 0 stops a game after that many
    actions (it then counts as unfinished). Returns ``(actions, wins, draws, unfinished)`` with
    ``wins`` a per-seat list of games won outright. A game that plays its own random games
    (``set_random_game``, Passtally) plays them here: the same games for a seed."""
    cdef Kernel k = start.copy()
    cdef int space = max(start.action_space, start.chance_space, 1)
    cdef int* legal = <int*>malloc(space * sizeof(int))
    cdef int* outcomes = <int*>malloc(space * sizeof(int))
    cdef double* probabilities = <double*>malloc(space * sizeof(double))
    cdef double values[8]
    cdef long wins[8]
    cdef Rng rng
    cdef long actions = 0, draws = 0, unfinished = 0, g, steps
    cdef int player, i, best, n = start.num_players
    cdef RandomGame play = _random_game_of(start)
    if legal == NULL or outcomes == NULL or probabilities == NULL:
        free(legal)
        free(outcomes)
        free(probabilities)
        raise MemoryError()
    rng.state = seed
    for i in range(8):
        wins[i] = 0
    try:
        for g in range(games):
            k.copy_from(start)
            if play != NULL:
                steps = play(k, &rng, max_actions, legal)
                player = k.to_move()
            else:
                steps = 0
                while True:
                    player = k.to_move()
                    if player == TERMINAL:
                        break
                    if max_actions > 0 and steps >= max_actions:
                        break
                    if player == CHANCE:
                        k.apply(sample_chance(k, &rng, outcomes, probabilities))
                    else:
                        k.apply(k.sample_legal(&rng, legal))
                    steps += 1
            actions += steps
            if player != TERMINAL:
                unfinished += 1
                continue
            k.returns_into(values)
            best = 0
            for i in range(1, n):
                if values[i] > values[best]:
                    best = i
            if values[best] >= 1.0:
                wins[best] += 1
            else:
                draws += 1
    finally:
        free(legal)
        free(outcomes)
        free(probabilities)
    return actions, [wins[i] for i in range(n)], draws, unfinished
