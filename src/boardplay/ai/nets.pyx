# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A small multilayer perceptron evaluated in C: the policy and value the PUCT search
(``boardplay.ai.puct``) asks at each new leaf, without torch or NumPy at search time.

The trunk is ReLU layers; two heads read its last layer: ``actions`` policy logits (the search
takes a softmax over the legal ones) and ``seats`` values through tanh, the viewer's first (the
j-th is the value of seat ``(viewer + j) % seats``), so one network serves every seat. Weights
are float32, each layer's matrix stored inputs × outputs: a layer adds ``x[i] * row i`` to its
outputs for every non-zero input, a loop over contiguous floats the C compiler vectorises
without reordering any sum, and one that skips the many zeros of a board's one-hot planes.
Each layer's input is gathered first (its non-zero entries and their indices, without a branch
per entry: ``nets_simd.h`` says why), the compact bytes straight from the kernel's row.
All buffers are allocated once, when the network is built; a forward pass allocates nothing.

The search reads only the legal actions' logits (a few dozen of ``actions``, 217 in Proteus),
and the policy head cost more than the trunk when it computed all of them, so the search's
pass (``evaluate_legal``) computes only those: the policy matrix is also kept transposed
(actions × hidden), each legal logit one row's dot product with the top layer's non-zero
entries, four logits at a time so the four sums' additions overlap; the value head likewise.
Each sum adds the same products in the same order as the full head (bias first, inputs
ascending, zeros skipped), so a legal logit is bitwise the full pass's (a test holds it) and
the search's visits do not depend on which pass ran. ``evaluate_value`` skips the policy head
altogether. (The full head through the blocked layer is cheaper alone once some 30 actions are
legal, but a search that used it then ran 5-8% fewer simulations in Proteus: its 111 KB crowd
the tree out of the cache.) Every matrix and buffer starts on a cache line (``_lined``).
``boardplay.ai.az`` loads the ``.npz`` files (``trunk0_w``, ``trunk0_b`` ... ``policy_w``,
``policy_b``, ``value_w``, ``value_b``).
"""

from libc.math cimport tanhf
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

import time

import numpy as np

from boardplay.core.kernel cimport Kernel


cdef extern from "<stdlib.h>":
    void* aligned_alloc(size_t alignment, size_t size) nogil

cdef enum:
    CACHE_LINE = 64


cdef void* _lined(size_t size) except NULL:
    """``size`` zeroed bytes from a cache line's start. Each row of a layer then starts on a line
    too (every width here is a multiple of 16 floats, the value head's aside), so no wide load
    of a row straddles two lines (with the layer's wider blocks, Proteus's pass went from 3.10
    to 2.69 us)."""
    cdef size_t lines = (size + CACHE_LINE - 1) // CACHE_LINE if size else 1
    cdef void* out = aligned_alloc(CACHE_LINE, lines * CACHE_LINE)
    if out == NULL:
        raise MemoryError()
    memset(out, 0, lines * CACHE_LINE)
    return out


cdef float* _copy(object array, int rows, int cols, str name) except NULL:
    values = np.ascontiguousarray(array, dtype=np.float32)
    cdef tuple shape = (rows,)
    if cols:
        shape = (rows, cols)
    if values.shape != shape:
        raise ValueError(f"{name} has shape {values.shape}, the network needs {shape}")
    cdef float* out = <float*>_lined(values.size * sizeof(float))
    cdef const float[::1] flat = values.reshape(-1)
    if values.size:
        memcpy(out, &flat[0], values.size * sizeof(float))
    return out


# The gathers and the layer, in C (``nets_simd.h``): the layer compiled for SSE2, AVX2 and
# AVX-512 and picked by the CPU at load time (the header says why the three give the same bits).
cdef extern from "nets_simd.h":
    int _gather "bp_gather"(const float* x, int n, float* values, int* index) noexcept nogil
    int _gather_bytes "bp_gather_bytes"(const unsigned char* raw, int n, float scale,
                                        float* values, int* index) noexcept nogil
    void _layer "bp_layer_gathered"(const float* values, const int* index, int count,
                                    const float* w, const float* b, int n_out, int relu,
                                    float* out) noexcept nogil

COMPACT_SCALE = 1.0 / 16.0
"""What one unit of a compact byte is worth as the network's input."""


cdef inline void _dots(const float* values, const int* index, int nonzero, const float* rows,
                       int width, const float* b, const int* actions, int count,
                       float* out) noexcept nogil:
    """``out[i] = b[a] + sum values[k] * rows[a, index[k]]`` for ``a = actions[i]``: each sum in
    ``_layer``'s order, four rows at a time (four independent chains of additions)."""
    cdef int i = 0, k, j
    cdef float v, s0, s1, s2, s3
    cdef const float* r0
    cdef const float* r1
    cdef const float* r2
    cdef const float* r3
    while i + 4 <= count:
        r0 = rows + <long>actions[i] * width
        r1 = rows + <long>actions[i + 1] * width
        r2 = rows + <long>actions[i + 2] * width
        r3 = rows + <long>actions[i + 3] * width
        s0 = b[actions[i]]
        s1 = b[actions[i + 1]]
        s2 = b[actions[i + 2]]
        s3 = b[actions[i + 3]]
        for k in range(nonzero):
            v = values[k]
            j = index[k]
            s0 += v * r0[j]
            s1 += v * r1[j]
            s2 += v * r2[j]
            s3 += v * r3[j]
        out[i] = s0
        out[i + 1] = s1
        out[i + 2] = s2
        out[i + 3] = s3
        i += 4
    while i < count:
        r0 = rows + <long>actions[i] * width
        s0 = b[actions[i]]
        for k in range(nonzero):
            s0 += values[k] * r0[index[k]]
        out[i] = s0
        i += 1


cdef class Network:
    """The network of ``trunk`` (a list of ``(weights, bias)``, weights inputs × outputs),
    ``policy`` and ``value`` (each ``(weights, bias)``); ``compact`` when it reads the kernel's
    compact bytes. Raises ValueError when the shapes do not chain."""

    def __cinit__(self, list trunk, tuple policy, tuple value, bint compact=False):
        if not trunk:
            raise ValueError("the network needs at least one hidden layer")
        self.depth = len(trunk)
        self.widths = <int*>calloc(self.depth + 1, sizeof(int))
        self.weights = <float**>calloc(self.depth, sizeof(float*))
        self.biases = <float**>calloc(self.depth, sizeof(float*))
        if self.widths == NULL or self.weights == NULL or self.biases == NULL:
            raise MemoryError()
        self.compact = compact
        self.widths[0] = int(np.shape(trunk[0][0])[0])
        cdef int i
        for i in range(self.depth):
            self.widths[i + 1] = int(np.shape(trunk[i][0])[1])
            self.weights[i] = _copy(trunk[i][0], self.widths[i], self.widths[i + 1], f"trunk{i}_w")
            self.biases[i] = _copy(trunk[i][1], self.widths[i + 1], 0, f"trunk{i}_b")
        cdef int top = self.widths[self.depth]
        self.inputs = self.widths[0]
        self.actions = int(np.shape(policy[0])[1])
        self.seats = int(np.shape(value[0])[1])
        self.policy_w = _copy(policy[0], top, self.actions, "policy_w")
        self.policy_b = _copy(policy[1], self.actions, 0, "policy_b")
        self.policy_t = _copy(np.transpose(np.asarray(policy[0], dtype=np.float32)),
                              self.actions, top, "policy_w transposed")
        self.value_w = _copy(value[0], top, self.seats, "value_w")
        self.value_b = _copy(value[1], self.seats, 0, "value_b")
        self.value_t = _copy(np.transpose(np.asarray(value[0], dtype=np.float32)), self.seats,
                             top, "value_w transposed")
        if self.seats > MAX_HEADS:
            raise ValueError(f"the network has {self.seats} values, at most {MAX_HEADS}")
        for i in range(self.seats):
            self.seat_index[i] = i
        self.widest = max(self.widths[i] for i in range(self.depth + 1))
        self.input = <float*>_lined(self.inputs * sizeof(float))
        self.raw = <unsigned char*>calloc(self.inputs, 1)
        self.left = <float*>_lined(self.widest * sizeof(float))
        self.right = <float*>_lined(self.widest * sizeof(float))
        self.nonzero = <float*>_lined(self.widest * sizeof(float))
        self.index = <int*>calloc(self.widest, sizeof(int))
        if self.raw == NULL or self.index == NULL:
            raise MemoryError()

    def __dealloc__(self):
        cdef int i
        for i in range(self.depth):
            if self.weights != NULL:
                free(self.weights[i])
            if self.biases != NULL:
                free(self.biases[i])
        free(self.weights)
        free(self.biases)
        free(self.widths)
        free(self.policy_w)
        free(self.policy_b)
        free(self.policy_t)
        free(self.value_w)
        free(self.value_b)
        free(self.value_t)
        free(self.input)
        free(self.raw)
        free(self.left)
        free(self.right)
        free(self.nonzero)
        free(self.index)

    @property
    def hidden(self) -> tuple:
        """The trunk's layer widths."""
        return tuple(self.widths[i + 1] for i in range(self.depth))

    def __call__(self, x) -> tuple:
        """``(logits, values)`` of one input row (float32 NumPy arrays), computed by the same
        C code as the search's: what the tests compare with NumPy."""
        cdef const float[::1] row = np.ascontiguousarray(x, dtype=np.float32).reshape(-1)
        if row.shape[0] != self.inputs:
            raise ValueError(f"the network reads {self.inputs} floats, got {row.shape[0]}")
        logits = np.zeros(self.actions, dtype=np.float32)
        values = np.zeros(self.seats, dtype=np.float32)
        cdef float[::1] lv = logits, vv = values
        self.forward(self.gather_row(&row[0]), &lv[0], &vv[0])
        return logits, values

    def position(self, Kernel k, int player) -> tuple:
        """``(logits, values)`` of ``k`` seen by ``player``, as the search evaluates it."""
        if k.num_players != self.seats or k.action_space != self.actions:
            raise ValueError("this network is for another game (seats or actions differ)")
        logits = np.zeros(self.actions, dtype=np.float32)
        values = np.zeros(self.seats, dtype=np.float32)
        cdef float[::1] lv = logits, vv = values
        self.evaluate(k, player, &lv[0], &vv[0])
        return logits, values

    def legal(self, Kernel k, int player) -> tuple:
        """``(actions, logits, values)`` of ``k`` seen by ``player`` as the search's pass
        computes them: the legal actions and their logits only (the tests compare these with
        ``position``'s)."""
        if k.num_players != self.seats or k.action_space != self.actions:
            raise ValueError("this network is for another game (seats or actions differ)")
        actions = np.zeros(self.actions, dtype=np.intc)
        logits = np.zeros(self.actions, dtype=np.float32)
        values = np.zeros(self.seats, dtype=np.float32)
        cdef int[::1] av = actions
        cdef float[::1] lv = logits, vv = values
        cdef int count = k.legal_into(&av[0])
        self.evaluate_legal(k, player, &av[0], count, &lv[0], &vv[0])
        return actions[:count].copy(), logits[:count].copy(), values

    def pass_seconds(self, Kernel k, int player, int repeats, bint logits=True) -> float:
        """CPU seconds of one search pass on ``k`` from ``player``'s view, the mean of
        ``repeats``: ``evaluate_legal`` with ``logits`` (the legal actions' logits and the
        values), else ``evaluate_value`` (``uniform`` searches). The floor of what the network
        adds to an ``az`` simulation, which ``boardplay bench --mcts`` sets beside a plain
        search's whole simulation (``ai.bench.az_against_mcts``)."""
        if k.num_players != self.seats or k.action_space != self.actions:
            raise ValueError("this network is for another game (seats or actions differ)")
        if repeats < 1:
            raise ValueError(f"repeats must be at least 1, got {repeats}")
        actions = np.zeros(self.actions, dtype=np.intc)
        logit_row = np.zeros(self.actions, dtype=np.float32)
        values = np.zeros(self.seats, dtype=np.float32)
        cdef int[::1] av = actions
        cdef float[::1] lv = logit_row, vv = values
        cdef int count = k.legal_into(&av[0]), i
        began = time.thread_time()
        for i in range(repeats):
            if logits:
                self.evaluate_legal(k, player, &av[0], count, &lv[0], &vv[0])
            else:
                self.evaluate_value(k, player, &vv[0])
        return (time.thread_time() - began) / repeats

    cdef const float* trunk(self, int count) noexcept:
        """The top hidden layer (in ``left`` or ``right``) of the input gathered in ``nonzero``
        and ``index`` (``count`` entries), which are left holding the top layer's gather
        (``gathered`` its count)."""
        cdef int i
        cdef float* target = self.left
        cdef float* spare = self.right
        for i in range(self.depth):
            _layer(self.nonzero, self.index, count, self.weights[i], self.biases[i],
                   self.widths[i + 1], 1, target)
            count = _gather(target, self.widths[i + 1], self.nonzero, self.index)
            target, spare = spare, target
        self.gathered = count
        return spare

    cdef int gather_row(self, const float* x) noexcept:
        """Gather the input row ``x`` into ``nonzero`` and ``index``; returns the count."""
        return _gather(x, self.inputs, self.nonzero, self.index)

    cdef int gather_kernel(self, Kernel k, int player) noexcept:
        """Gather the input of ``k`` from ``player``'s view (observation or compact bytes)."""
        if self.compact:
            k.compact_into(player, self.raw)
            return _gather_bytes(self.raw, self.inputs, <float>COMPACT_SCALE, self.nonzero,
                                 self.index)
        k.observe_into(player, self.input)
        return self.gather_row(self.input)

    cdef void head_value(self, float* values) noexcept:
        """The values from the gathered top layer: ``_layer``'s sums, as dots."""
        cdef int j
        _dots(self.nonzero, self.index, self.gathered, self.value_t, self.widths[self.depth],
              self.value_b, self.seat_index, self.seats, values)
        for j in range(self.seats):
            values[j] = tanhf(values[j])

    cdef void forward(self, int count, float* logits, float* values) noexcept:
        """All ``actions`` logits and the values of the gathered input (``count`` entries)."""
        self.trunk(count)
        _layer(self.nonzero, self.index, self.gathered, self.policy_w, self.policy_b,
               self.actions, 0, logits)
        self.head_value(values)

    cdef void evaluate(self, Kernel k, int player, float* logits, float* values) noexcept:
        """The network on ``k`` from ``player``'s view: every logit and the values."""
        self.forward(self.gather_kernel(k, player), logits, values)

    cdef void evaluate_legal(self, Kernel k, int player, const int* actions, int count,
                             float* logits, float* values) noexcept:
        """The values of ``k`` from ``player``'s view and the logits of ``actions`` only,
        ``logits[i]`` for ``actions[i]`` (the module docstring says how and why)."""
        self.trunk(self.gather_kernel(k, player))
        _dots(self.nonzero, self.index, self.gathered, self.policy_t, self.widths[self.depth],
              self.policy_b, actions, count, logits)
        self.head_value(values)

    cdef void evaluate_value(self, Kernel k, int player, float* values) noexcept:
        """The values of ``k`` from ``player``'s view, no logits."""
        self.trunk(self.gather_kernel(k, player))
        self.head_value(values)
