# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Many games of one kernel stepped together in one compiled call: the engine under the
Gymnasium ``VectorEnv`` and the batched multi-agent API (``boardplay.adapters.vector``).

Each call walks every game once: it checks the action against the mask the caller was given,
applies it, plays chance (and, with a learner seat, the uniformly random opponents) until a
decision is due, and writes the next observation, action mask and, at the end of a game, the
zero-sum utilities; a finished game restarts at once (autoreset in the same step). Nothing
per game touches a Python object but the kernel itself.

Every game counts its actions (the caller's, the random opponents' and chance's). With a
``limit``, a game still going after that many is cut: ``truncated``, rewards 0, and it restarts
like a finished one, so no game in a batch runs for ever (``Game.episode_limit``).

Observations are either the float32 tensor (``observation_size`` per game) or, with
``compact``, the kernel's compact bytes (``compact_size`` per game): the same information in
a few hundred bytes instead of tens of kilobytes, because a batch of 1,024 float tensors per
step is limited by memory bandwidth, not by the rules. ``expand`` turns compact rows back
into tensors. A compact row's part after the kernel's ``compact_dynamic`` bytes is fixed for a
whole game (Montana's dealt board), so the batch writes it only when a game starts (or into a
buffer it has not written before) and leaves it in place at the game's other steps.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memset

from boardplay.core.kernel cimport CHANCE, TERMINAL, Kernel, Rng, rng_below, sample_chance

cdef int CUT = -100  # _settle's answer when the game reached the limit before a decision
cdef int RANDOM = -2
cdef long long WAIT = -1
WAITS = WAIT
"""``step`` action: game ``i`` takes no action this call (it keeps waiting for its decision),
so a caller can advance some games (e.g. the opponents' turns) and not others."""
RANDOM_SEAT = RANDOM
"""``learner`` value: the learner's seat is drawn anew for every game (``seat(i)`` tells)."""


cdef class KernelBatch:
    """``size`` games of ``start``'s game. ``learner`` -1: every seat's decisions come from the
    caller (self-play); a seat number: only that seat's, the others play uniformly at random
    inside the step; ``RANDOM_SEAT`` (-2): as a seat number, but the seat is drawn for every
    game when it starts."""

    cdef Kernel start
    cdef list games
    cdef readonly int size
    cdef readonly int learner
    cdef readonly int num_players
    cdef readonly int action_space
    cdef readonly int observation_size
    cdef readonly bint compact
    cdef readonly int row_size
    cdef readonly int limit
    cdef Rng rng
    cdef Rng picks
    cdef int* lengths
    cdef int* seats
    cdef bint viewers
    cdef int* legal
    cdef int* outcomes
    cdef double* probabilities
    cdef double values[8]
    cdef char* written
    """The observation buffer the last call wrote: rows there hold their games' fixed part."""
    cdef object held
    """That buffer, kept alive so that no other one can take its address."""

    def __cinit__(self, Kernel start, int size, int learner=-1, unsigned long long seed=0,
                  bint compact=False, int limit=0):
        if size < 1:
            raise ValueError(f"a batch needs at least one game, not {size}")
        if not -2 <= learner < start.num_players:
            raise ValueError(
                f"learner must be -1, -2 (a random seat) or a seat 0..{start.num_players - 1}"
            )
        if start.num_players > 8:
            raise ValueError("a batch holds games of at most 8 players")
        if compact and start.compact_size == 0:
            raise ValueError(f"{type(start).__name__} writes no compact observation")
        if limit < 0:
            raise ValueError(f"limit must be 0 (none) or a number of actions, not {limit}")
        cdef int space = max(start.action_space, start.chance_space, 1)
        self.legal = <int*>malloc(space * sizeof(int))
        self.outcomes = <int*>malloc(space * sizeof(int))
        self.probabilities = <double*>malloc(space * sizeof(double))
        self.lengths = <int*>malloc(size * sizeof(int))
        self.seats = <int*>malloc(size * sizeof(int))
        if (self.legal == NULL or self.outcomes == NULL or self.probabilities == NULL
                or self.lengths == NULL or self.seats == NULL):
            raise MemoryError()
        memset(self.lengths, 0, size * sizeof(int))
        cdef int i
        for i in range(size):
            self.seats[i] = max(learner, 0)
        self.limit = limit
        self.start = start.copy()
        self.games = [start.copy() for _ in range(size)]
        self.size = size
        self.learner = learner
        self.num_players = start.num_players
        self.action_space = start.action_space
        self.observation_size = start.observation_size
        self.compact = compact
        self.row_size = start.compact_size if compact else start.observation_size
        self.rng.state = seed

    def __dealloc__(self):
        free(self.legal)
        free(self.outcomes)
        free(self.probabilities)
        free(self.lengths)
        free(self.seats)

    cdef int _settle(self, Kernel k, int i, bint cap) noexcept:
        """Play chance (and random opponents) until a caller's decision or the end; return the
        seat to decide, TERMINAL, or (``cap``) CUT once game ``i`` has lasted ``limit``."""
        cdef int player
        while True:
            player = k.to_move()
            if player == TERMINAL:
                return player
            if cap and self.limit and self.lengths[i] >= self.limit:
                return CUT
            if player == CHANCE:
                k.apply(sample_chance(k, &self.rng, self.outcomes, self.probabilities))
            elif self.learner == -1 or player == self.seats[i]:
                return player
            else:
                k.apply(k.sample_legal(&self.rng, self.legal))
            self.lengths[i] += 1

    cdef int _restart(self, Kernel k, int i) noexcept:
        """Game ``i`` from the start to its first decision (never cut: a new game's setup is
        shorter than any limit that makes sense, and the caller needs a decision)."""
        k.copy_from(self.start)
        self.lengths[i] = 0
        if self.learner == RANDOM:
            self.seats[i] = rng_below(&self.rng, self.num_players)
        return self._settle(k, i, False)

    def seat(self, int i) -> int:
        """The learner's seat in game ``i`` (-1 in self-play)."""
        if not 0 <= i < self.size:
            raise IndexError(f"game {i} is not in a batch of {self.size}")
        return -1 if self.learner == -1 else self.seats[i]

    def view_from(self, const int[::1] seats) -> None:
        """Self-play batches: write each game's final observation from ``seats[i]``'s view (a
        caller that plays one seat itself, and the others for opponents) instead of the view
        of the seat that made the last action."""
        if self.learner != -1 or seats.shape[0] != self.size:
            raise ValueError(f"view_from takes {self.size} seats, in a self-play batch")
        cdef int i
        for i in range(self.size):
            if not 0 <= seats[i] < self.num_players:
                raise ValueError(f"seat {seats[i]} is not a seat of this game")
            self.seats[i] = seats[i]
        self.viewers = True

    def learner_seats(self, int[::1] out) -> None:
        """Every game's learner seat into ``out`` (one call per step, not one per game)."""
        cdef int i
        for i in range(self.size):
            out[i] = -1 if self.learner == -1 else self.seats[i]


    def game(self, int i) -> Kernel:
        """A copy of game ``i``'s kernel as it stands (for inspection and tests)."""
        if not 0 <= i < self.size:
            raise IndexError(f"game {i} is not in a batch of {self.size}")
        return (<Kernel>self.games[i]).copy()

    cdef void _observe(self, Kernel k, int player, char* row) noexcept:
        if self.compact:
            k.compact_into(player, <unsigned char*>row)
        else:
            k.observe_into(player, <float*>row)

    cdef void _write(
        self, int i, int player, char* obs, Py_ssize_t stride, signed char[:, ::1] mask,
        int[::1] to_move, bint whole
    ) noexcept:
        """The next decision of game ``i``: its seat, observation and action mask. Unless
        ``whole`` (a game that started in this call, or a buffer written for the first time),
        a compact row gets only its changing part (``compact_dynamic_into``)."""
        cdef Kernel k = <Kernel>self.games[i]
        to_move[i] = player
        k.mask_into(&mask[i, 0], self.legal)
        if stride:
            if whole or not self.compact:
                self._observe(k, player, obs + i * stride)
            else:
                k.compact_dynamic_into(player, <unsigned char*>(obs + i * stride))

    cdef char* _rows(self, object buffer, str name, Py_ssize_t* stride) except? NULL:
        """The base address of an observation buffer (``size`` rows of ``row_size`` float32, or
        uint8 when compact; rows of width 0 mean "no observations": ``stride`` 0)."""
        cdef float[:, ::1] tensors
        cdef unsigned char[:, ::1] packed
        kind = "uint8" if self.compact else "float32"
        if buffer.shape[0] != self.size or buffer.shape[1] not in (0, self.row_size):
            raise ValueError(f"{name} must be {self.size} x {self.row_size} {kind} (or x 0)")
        stride[0] = 0
        if buffer.shape[1] == 0:
            return NULL
        if self.compact:
            packed = buffer
            stride[0] = self.row_size
            return <char*>&packed[0, 0]
        tensors = buffer
        stride[0] = self.row_size * sizeof(float)
        return <char*>&tensors[0, 0]

    cdef void _utilities(self, Kernel k, float[:, ::1] rewards, int i) noexcept:
        cdef int n = self.num_players, s
        k.returns_into(self.values)
        for s in range(n):
            rewards[i, s] = <float>((n * self.values[s] - 1.0) / (n - 1))

    def _check(self, mask, to_move):
        if mask.shape[0] != self.size or mask.shape[1] != self.action_space:
            raise ValueError(f"mask must be {self.size} x {self.action_space} int8")
        if to_move.shape[0] != self.size:
            raise ValueError(f"to_move must hold {self.size} seats")

    def reset(
        self,
        unsigned long long seed,
        obs,
        signed char[:, ::1] mask,
        int[::1] to_move,
    ) -> None:
        """Restart every game (the generator reseeded with ``seed``) and write each first
        decision. Games whose chance would end them at once cannot occur (every game has a
        decision before its end)."""
        self._check(mask, to_move)
        cdef Py_ssize_t stride
        cdef char* rows = self._rows(obs, "obs", &stride)
        self.rng.state = seed
        self.picks.state = seed ^ <unsigned long long>0xD1B54A32D192ED03
        cdef int i
        cdef Kernel k
        for i in range(self.size):
            k = <Kernel>self.games[i]
            self._write(i, self._restart(k, i), rows, stride, mask, to_move, True)
        self.written = rows
        self.held = obs

    def sample(self, long long[::1] out) -> None:
        """A uniformly random legal action for every game's pending decision into ``out``,
        drawn by the game's kernel (``sample_legal``) with a generator of its own, seeded by
        ``reset``: the games' own draws (chance, random opponents) are untouched. A random
        agent or an exploration step without a pass over the masks."""
        if out.shape[0] != self.size:
            raise ValueError(f"out must hold {self.size} actions")
        cdef int i
        for i in range(self.size):
            out[i] = (<Kernel>self.games[i]).sample_legal(&self.picks, self.legal)

    def step(
        self,
        const long long[::1] actions,
        obs,
        signed char[:, ::1] mask,
        int[::1] to_move,
        float[:, ::1] rewards,
        unsigned char[::1] terminated,
        unsigned char[::1] illegal,
        final_obs,
        unsigned char[::1] truncated,
    ) -> int:
        """Apply ``actions[i]`` in game ``i`` for the seat ``to_move[i]`` named by the previous
        call, then write the next decision into ``obs`` / ``mask`` / ``to_move``.
        ``mask`` must still hold what the previous call wrote: an action outside it ends that
        game as a loss for the seat that chose it (``illegal[i]`` = 1); ``WAITS`` (-1) leaves
        game ``i`` as it is. A finished game gets
        ``terminated[i]`` = 1, its zero-sum utilities in ``rewards[i]`` (0 elsewhere), its last
        observation from the deciding seat's view in ``final_obs[i]`` (when that buffer has
        rows), and restarts at once. A game that reaches ``limit`` actions instead gets
        ``truncated[i]`` = 1, rewards 0, its final observation, and restarts too. Returns the
        number of games that finished or were cut."""
        self._check(mask, to_move)
        if actions.shape[0] != self.size or terminated.shape[0] != self.size:
            raise ValueError(f"actions and terminated must hold {self.size} entries")
        if illegal.shape[0] != self.size or rewards.shape[0] != self.size:
            raise ValueError(f"illegal and rewards must hold {self.size} entries")
        if truncated.shape[0] != self.size:
            raise ValueError(f"truncated must hold {self.size} entries")
        if rewards.shape[1] != self.num_players:
            raise ValueError(f"rewards must be {self.size} x {self.num_players} float32")
        cdef Py_ssize_t stride, final_stride = 0
        cdef char* rows = self._rows(obs, "obs", &stride)
        cdef char* finals = NULL
        if final_obs.shape[0] == self.size:
            finals = self._rows(final_obs, "final_obs", &final_stride)
        cdef int i, s, seat, player, n = self.num_players, finished = 0
        cdef long long action
        cdef Kernel k
        cdef bint fresh = rows != self.written  # another buffer: every row written whole
        for i in range(self.size):
            k = <Kernel>self.games[i]
            action = actions[i]
            seat = to_move[i]
            for s in range(n):
                rewards[i, s] = 0.0
            terminated[i] = 0
            truncated[i] = 0
            illegal[i] = 0
            if action == WAIT:
                if fresh and stride:  # the row in the new buffer needs its fixed part
                    self._write(i, seat, rows, stride, mask, to_move, True)
                continue  # its decision, observation and mask stay as written
            if action < 0 or action >= self.action_space or mask[i, action] == 0:
                illegal[i] = 1
                for s in range(n):
                    rewards[i, s] = <float>(1.0 / (n - 1))
                rewards[i, seat] = -1.0
                player = TERMINAL
            else:
                k.apply(<int>action)
                self.lengths[i] += 1
                player = self._settle(k, i, True)
                if player == TERMINAL:
                    self._utilities(k, rewards, i)
            if player == TERMINAL or player == CUT:
                if player == TERMINAL:
                    terminated[i] = 1
                else:
                    truncated[i] = 1
                finished += 1
                if final_stride:
                    self._observe(
                        k,
                        seat if self.learner == -1 and not self.viewers else self.seats[i],
                        finals + i * final_stride,
                    )
                player = self._restart(k, i)
                self._write(i, player, rows, stride, mask, to_move, True)
            else:
                self._write(i, player, rows, stride, mask, to_move, fresh)
        self.written = rows
        self.held = obs
        return finished

    def expand(self, const unsigned char[:, ::1] compact, float[:, ::1] out) -> None:
        """Expand compact rows into the tensors they stand for (``out``: as many rows of
        ``observation_size`` float32)."""
        if not self.compact:
            raise ValueError("this batch writes tensors already; nothing to expand")
        if compact.shape[0] != out.shape[0] or compact.shape[1] != self.row_size:
            raise ValueError(f"compact must be n x {self.row_size} uint8 with n rows out")
        if out.shape[1] != self.observation_size:
            raise ValueError(f"out must be n x {self.observation_size} float32")
        cdef Py_ssize_t i
        for i in range(compact.shape[0]):
            self.start.expand_into(&compact[i, 0], &out[i, 0])
