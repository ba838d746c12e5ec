# cython: language_level=3
"""The compact observation shared by Montana, Passtally and Proteus (docs/adapters.md,
"Compact observations"): the float tensor's information in bytes, written straight from the
position by the game's kernel (its ``compact.pxi``) and expanded back exactly.

A game declares, once at import, what each tensor entry holds (``kind``): ``C_BIT`` an entry
that is 0 or 1, ``C_INT`` a small integer numerator (0..255) over a fixed denominator, ``C_WIDE``
the same on two bytes (0..65535, little-endian). The row is then:

- ``ceil(size / 8)`` bytes of bits: bit ``i`` (byte ``i // 8``, bit ``i % 8``, NumPy's
  ``packbits(..., bitorder="little")``) is tensor entry ``i`` for every ``C_BIT`` entry (0 for
  the others), so the tensor's binary planes stay where they are, as bit-planes;
- one byte per ``C_INT`` entry and two per ``C_WIDE`` entry, in tensor order: the numerator
  ``n`` of the entry's value ``n / denominator``.

Inline functions only (no module of their own): a game's kernel cimports them.
"""

cdef enum:
    C_BIT = 0
    C_INT = 1
    C_WIDE = 2


cdef inline int compact_layout(const unsigned char* kind, int* slot, int size) noexcept nogil:
    """Give each integer entry its byte (``slot``) after the bits; return the row's bytes."""
    cdef int i, at = (size + 7) >> 3
    for i in range(size):
        slot[i] = at
        if kind[i] == C_INT:
            at += 1
        elif kind[i] == C_WIDE:
            at += 2
    return at


cdef inline void compact_put(unsigned char* out, const unsigned char* kind, const int* slot,
                             int i, int value) noexcept nogil:
    """Write tensor entry ``i``: a bit (set when ``value``) or its numerator's byte(s)."""
    cdef int k = kind[i]
    if k == C_BIT:
        if value:
            out[i >> 3] |= <unsigned char>(1 << (i & 7))
    else:
        out[slot[i]] = <unsigned char>(value & 255)
        if k == C_WIDE:
            out[slot[i] + 1] = <unsigned char>((value >> 8) & 255)


cdef inline void compact_expand(const unsigned char* compact, float* out,
                                const unsigned char* kind, const int* slot, const double* denom,
                                int size) noexcept nogil:
    """The tensor a compact row stands for: each numerator divided in double and rounded once
    to float32, as the kernels' ``observe_into`` computes it."""
    cdef int i, k, value
    for i in range(size):
        k = kind[i]
        if k == C_BIT:
            out[i] = (compact[i >> 3] >> (i & 7)) & 1
        else:
            value = compact[slot[i]]
            if k == C_WIDE:
                value |= compact[slot[i] + 1] << 8
            out[i] = <float>(value / denom[i])
