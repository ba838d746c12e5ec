# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A small multilayer perceptron evaluated in C: the policy and value the PUCT search
(``boardplay.ai.puct``) asks at each new leaf, without torch or NumPy at search time.

The trunk is ReLU layers; two heads read its last layer: ``actions`` policy logits (the search
takes a softmax over the legal ones) and ``seats`` values through tanh, the viewer's first (the
j-th is the value of seat ``(viewer + j) % seats``), so one network serves every seat. Weights
are float32, each layer's matrix stored inputs × outputs: a layer adds ``x[i] * row i`` to its
outputs for every non-zero input, a loop over contiguous floats the C compiler vectorises
without reordering any sum, and one that skips the many zeros of a board's one-hot planes.
All buffers are allocated once, when the network is built; a forward pass allocates nothing.
``boardplay.ai.az`` loads the ``.npz`` files (``trunk0_w``, ``trunk0_b`` ... ``policy_w``,
``policy_b``, ``value_w``, ``value_b``).
"""

from libc.math cimport tanhf
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

import numpy as np

from boardplay.core.kernel cimport Kernel


cdef float* _copy(object array, int rows, int cols, str name) except NULL:
    values = np.ascontiguousarray(array, dtype=np.float32)
    cdef tuple shape = (rows,)
    if cols:
        shape = (rows, cols)
    if values.shape != shape:
        raise ValueError(f"{name} has shape {values.shape}, the network needs {shape}")
    cdef float* out = <float*>malloc(max(values.size, 1) * sizeof(float))
    if out == NULL:
        raise MemoryError()
    cdef const float[::1] flat = values.reshape(-1)
    if values.size:
        memcpy(out, &flat[0], values.size * sizeof(float))
    return out


cdef inline void _layer(const float* x, int n_in, const float* w, const float* b, int n_out,
                        float* out) noexcept nogil:
    """``out = b + x @ w`` (``w`` is n_in × n_out, row-major); zero inputs are skipped."""
    cdef int i, j
    cdef float xi
    cdef const float* row
    for j in range(n_out):
        out[j] = b[j]
    for i in range(n_in):
        xi = x[i]
        if xi == 0.0:
            continue
        row = w + <long>i * n_out
        for j in range(n_out):
            out[j] += xi * row[j]


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
        self.value_w = _copy(value[0], top, self.seats, "value_w")
        self.value_b = _copy(value[1], self.seats, 0, "value_b")
        self.widest = max(self.widths[i] for i in range(self.depth + 1))
        self.input = <float*>calloc(self.inputs, sizeof(float))
        self.raw = <unsigned char*>calloc(self.inputs, 1)
        self.left = <float*>calloc(self.widest, sizeof(float))
        self.right = <float*>calloc(self.widest, sizeof(float))
        if self.input == NULL or self.raw == NULL or self.left == NULL or self.right == NULL:
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
        free(self.value_w)
        free(self.value_b)
        free(self.input)
        free(self.raw)
        free(self.left)
        free(self.right)

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
        self.forward(&row[0], &lv[0], &vv[0])
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

    cdef void forward(self, const float* x, float* logits, float* values) noexcept:
        cdef int i, j
        cdef const float* source = x
        cdef float* target = self.left
        cdef float* spare = self.right
        for i in range(self.depth):
            _layer(source, self.widths[i], self.weights[i], self.biases[i], self.widths[i + 1],
                   target)
            for j in range(self.widths[i + 1]):
                if target[j] < 0.0:
                    target[j] = 0.0
            source = target
            target, spare = spare, target
        _layer(source, self.widths[self.depth], self.policy_w, self.policy_b, self.actions,
               logits)
        _layer(source, self.widths[self.depth], self.value_w, self.value_b, self.seats, values)
        for j in range(self.seats):
            values[j] = tanhf(values[j])

    cdef void evaluate(self, Kernel k, int player, float* logits, float* values) noexcept:
        """The network on ``k`` from ``player``'s view (observation or compact bytes)."""
        cdef int i
        if self.compact:
            k.compact_into(player, self.raw)
            for i in range(self.inputs):
                self.input[i] = self.raw[i] * (1.0 / 16.0)
        else:
            k.observe_into(player, self.input)
        self.forward(self.input, logits, values)
