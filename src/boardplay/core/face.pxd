# cython: language_level=3
"""Declarations of ``face.pyx``: the read-only fields a kernel shows to Python, declared once
per game as a table of C addresses (see ``field``)."""

cdef enum:
    INT = 0     # a C int, shown as int
    BOOL = 1    # a C int (bint), shown as bool
    SCHAR = 2   # a signed char, shown as int
    NAMED = 3   # a C int shown as one of ``names`` (value ``first + i`` is ``names[i]``)


cdef class Field:
    cdef readonly str name
    cdef readonly str doc
    cdef readonly type kernel_type
    cdef Py_ssize_t offset
    cdef int kind
    cdef int count
    cdef bint per_seat
    cdef tuple names
    cdef int first

    cdef Py_ssize_t length(self, object kernel) except -1
    cdef object read(self, object kernel)
    cdef list prepare(self, object kernel, object value)
    cdef int write(self, object kernel, list ints) except -1
    cdef int _convert(self, object value) except? -1


cdef enum:
    SCALAR = 0      # ``count`` of a single value
    PER_SEAT = -1   # ``count`` of one value per seat (a negative count -c: c per seat)


cdef Field field(object probe, str name, const void* address, int kind, int count, str doc,
                 tuple names=*, int first=*)
