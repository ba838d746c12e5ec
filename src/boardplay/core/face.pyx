# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A kernel's cold face, the same for every game: its position's fields declared once, as a
table of C addresses in the game's ``fields.pyx``, and everything Python sees made from it.

``field(probe, name, &probe.s.x, kind, count, doc)`` records where a field of
the kernel's position struct lies (its byte offset in the kernel object), how to show it (an
int, a bool, a signed char, a text from ``names``) and how many entries it has (a scalar, a
fixed count, or a count per seat). A ``Face`` holds a kernel's table and gives:

- ``snapshot(kernel)``: every field as plain Python values (a dict); ``get(kernel, name)`` one;
- ``load(kernel, values)``: write the whole table back, every field (the position loader's and
  tests' one way to set a position outside play; it checks sizes and ranges, not the rules);
- ``mixin(name)``: a class whose attributes are the fields as read-only properties of a facade
  (``state.to_move`` reads ``state.kernel``'s C field directly, in compiled code). A facade
  inherits it after ``KernelState``; writing a field raises ``AttributeError``, so play changes a
  position only through ``apply_action``.
"""

from cpython.object cimport PyObject

from boardplay.core.kernel cimport Kernel, KernelState

READ_ONLY = (
    "is read-only: play changes a position only through apply_action, and a position is set "
    "through the game's position loader (Face.load)"
)


class Values(tuple):
    """An array field's values, read once: a tuple (so ``state.silver[0] = 9`` raises
    ``TypeError`` instead of changing a copy nobody reads) that equals any sequence of the same
    values, a list included, as the arrays the facades showed before."""

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, (list, tuple)):
            return tuple.__eq__(self, tuple(other))
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = tuple.__hash__

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Values(tuple.__getitem__(self, index))
        return tuple.__getitem__(self, index)


cdef class Field:
    """One read-only field of a facade, read from its kernel's C struct (see the module)."""

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return self.read((<KernelState?>instance).kernel)

    def __set__(self, instance, value):
        raise AttributeError(f"{self.name} {READ_ONLY}")

    def __delete__(self, instance):
        raise AttributeError(f"{self.name} {READ_ONLY}")

    def __repr__(self) -> str:
        return f"<field {self.kernel_type.__name__}.{self.name}>"

    cdef Py_ssize_t length(self, object kernel) except -1:
        if self.per_seat:
            return self.count * (<Kernel>kernel).num_players
        return self.count

    cdef object read(self, object kernel):
        if type(kernel) is not self.kernel_type:
            raise TypeError(f"{self.name} is a field of {self.kernel_type.__name__}, "
                            f"not of {type(kernel).__name__}")
        cdef char* at = <char*><PyObject*>kernel + self.offset
        cdef Py_ssize_t i, n
        if self.count == 0:
            if self.kind == INT:
                return (<int*>at)[0]
            if self.kind == BOOL:
                return (<int*>at)[0] != 0
            if self.kind == SCHAR:
                return (<signed char*>at)[0]
            return self.names[(<int*>at)[0] - self.first]
        n = self.length(kernel)
        if self.kind == SCHAR:
            return Values([(<signed char*>at)[i] for i in range(n)])
        if self.kind == BOOL:
            return Values([(<int*>at)[i] != 0 for i in range(n)])
        return Values([(<int*>at)[i] for i in range(n)])

    cdef list prepare(self, object kernel, object value):
        """``value`` as the C ints to write (sizes and ranges checked, nothing written)."""
        if type(kernel) is not self.kernel_type:
            raise TypeError(f"{self.name} is a field of {self.kernel_type.__name__}")
        cdef Py_ssize_t n
        values = [value] if self.count == 0 else list(value)
        if self.count != 0:
            n = self.length(kernel)
            if len(values) != n:
                raise ValueError(f"{self.name} needs {n} values, not {len(values)}")
        return [self._convert(v) for v in values]

    cdef int write(self, object kernel, list ints) except -1:
        """Write what ``prepare`` gave."""
        cdef char* at = <char*><PyObject*>kernel + self.offset
        cdef Py_ssize_t i
        for i in range(len(ints)):
            if self.kind == SCHAR:
                (<signed char*>at)[i] = ints[i]
            else:
                (<int*>at)[i] = ints[i]
        return 0

    cdef int _convert(self, object value) except? -1:
        if self.kind == NAMED:
            if value not in self.names:
                raise ValueError(f"{self.name} must be one of {self.names}, not {value!r}")
            return self.first + self.names.index(value)
        if self.kind == SCHAR:
            if not -128 <= value <= 127:
                raise ValueError(f"{self.name} holds -128..127, not {value!r}")
            return value
        return value


cdef Field field(object probe, str name, const void* address, int kind, int count, str doc,
                 tuple names=(), int first=0):
    """The table entry for the field at ``address`` inside ``probe`` (an instance of the
    kernel class the table describes): ``count`` ``SCALAR`` (0) for one value, a positive
    count of entries, or ``-c`` for ``c`` entries per seat (``PER_SEAT`` is -1); ``names`` for
    a ``NAMED`` field, whose C value ``first + i`` is shown as ``names[i]``."""
    cdef Field f = Field.__new__(Field)
    f.name = name
    f.doc = doc
    f.kernel_type = type(probe)
    f.offset = <const char*>address - <char*><PyObject*>probe
    f.kind = kind
    f.count = -count if count < 0 else count
    f.per_seat = count < 0
    f.names = names
    f.first = first
    return f


def check_whole(values, names, str what) -> None:
    """Refuse ``values`` unless it holds exactly ``names``: a name outside them is a
    ``KeyError``, a missing one a ``ValueError``, both naming the fields (the one load contract:
    a kernel's position is written whole, never in part)."""
    unknown = [name for name in values if name not in names]
    if unknown:
        raise KeyError(f"no field {', '.join(map(repr, unknown))} in {what}; "
                       f"fields: {', '.join(names)}")
    missing = [name for name in names if name not in values]
    if missing:
        raise ValueError(f"loading {what} needs every field of its position; missing: "
                         f"{', '.join(missing)}")


cdef class Face:
    """A kernel class's table of fields (see the module): snapshot, load and the facade's
    read-only properties, all from the one table."""

    cdef readonly type kernel_type
    cdef readonly dict fields

    def __init__(self, Kernel probe, fields):
        self.kernel_type = type(probe)
        self.fields = {}
        for f in fields:
            if (<Field?>f).kernel_type is not self.kernel_type:
                raise TypeError(f"{f.name} belongs to {f.kernel_type.__name__}")
            self.fields[f.name] = f

    def snapshot(self, Kernel kernel) -> dict:
        """Every field of ``kernel``'s position as plain Python values (arrays as lists), in
        table order."""
        values = {}
        for name, f in self.fields.items():
            value = (<Field>f).read(kernel)
            values[name] = list(value) if isinstance(value, Values) else value
        return values

    def get(self, Kernel kernel, str name):
        """One field of ``kernel``, for cold code that holds a kernel rather than a facade
        (the explanations)."""
        return (<Field>self.fields[name]).read(kernel)

    def load(self, Kernel kernel, values) -> None:
        """Write ``values`` into ``kernel``: the whole table (field name -> value, every field,
        as ``snapshot`` gives them), the one load contract of every game (a game's
        ``fields.load`` takes its whole position the same way). Sizes and value ranges are
        checked; that the position is one the rules can reach is the caller's (the position
        loader's) job. A name outside the table is refused (``KeyError``), so is a missing one
        (``ValueError``), and so is a bad value; nothing is written then."""
        check_whole(values, self.fields, self.kernel_type.__name__)
        ready = [(f, (<Field>f).prepare(kernel, values[name])) for name, f in self.fields.items()]
        for f, ints in ready:
            (<Field>f).write(kernel, ints)

    def mixin(self, str name) -> type:
        """A class holding the fields as read-only properties, for a facade to inherit."""
        attributes = dict(self.fields)
        attributes["__slots__"] = ()
        attributes["__doc__"] = (
            f"The read-only fields of {self.kernel_type.__name__} (its table in kernel.pyx)."
        )
        attributes["__module__"] = self.kernel_type.__module__
        return type(name, (), attributes)
