"""One reader for the fields of a position JSON, shared by every game, so that every rejection
names the bad value's path in the same words: ``players[1].silver: expected an integer 0..999,
got "x"``.

A ``Field`` is a JSON value together with its path from the top of the document. Reading it as
the type the format wants (``integer``, ``boolean``, ``choice``, ``items``, ``member`` …) either
returns a plain Python value or raises the contract's ``PositionError`` whose message starts
with the path. Games keep their semantic checks (a pawn on a listed tile, the 42 tiles adding
up) and phrase those through ``Field.error`` so that they name the path the same way.

Paths are written as a reader of the format would look the value up: object members with a dot
(``stage.auction.out``), list entries and object keys that are not plain names in brackets
(``tiles["0,0"]``, ``players[1]``). The top of the document is ``position``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from boardplay.core.errors import BoardplayError, PositionError

T = TypeVar("T")

ROOT = "position"
"""How a message names the whole document."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def long_number(value: int) -> str:
    """How a message names an integer too long to print (``str`` of one costs the square of its
    length, and refuses more than 4,300 digits)."""
    return f"a {int(value.bit_length() * 0.30103) + 1}-digit number"


def shown(value: object) -> str:
    """``value`` as it was written in the JSON (``"x"``, ``null``, ``true``, ``[1, 2]``), cut
    short so that a huge value cannot flood a message."""
    if isinstance(value, int) and value.bit_length() > 64:
        return long_number(value)
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        try:
            text = repr(value)
        except ValueError:  # an integer beyond Python's 4,300-digit string limit, inside
            text = f"a {type(value).__name__} too large to show"
    return text if len(text) <= 60 else text[:57] + "..."


C_INT_MIN = -(2**31)
C_INT_MAX = 2**31 - 1
"""Where a reader leaves an end of a range open, the kernel's C ``int`` still bounds it: a
position never reaches a kernel with a number its fields cannot hold."""


def _fits(value: object, minimum: int | None, maximum: int | None) -> bool:
    """An integer (never a boolean) within the bounds (None: open, up to a C ``int``)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (C_INT_MIN if minimum is None else minimum) <= value
        and value <= (C_INT_MAX if maximum is None else maximum)
    )


def _outer(value: object, minimum: int | None, maximum: int | None) -> str:
    """The note for an integer refused only by the C ``int`` bound of an open end."""
    if not isinstance(value, int) or isinstance(value, bool):
        return ""
    below = minimum is None and value < C_INT_MIN
    above = maximum is None and value > C_INT_MAX
    return f" (within ±{C_INT_MAX})" if below or above else ""


def _integers(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f"an integer {minimum}..{maximum}"
    if minimum is not None:
        return f"an integer >= {minimum}"
    if maximum is not None:
        return f"an integer <= {maximum}"
    return "an integer"


class Field:
    """A JSON value at a path. Reading methods check the value's type and range and raise
    ``error_type`` (``PositionError`` unless given) naming the path on a mismatch."""

    __slots__ = ("error_type", "path", "value")

    def __init__(
        self, value: object, path: str = "", error_type: type[BoardplayError] = PositionError
    ) -> None:
        self.value = value
        self.path = path
        self.error_type = error_type

    # ----- messages -------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The path as messages print it (``position`` for the whole document)."""
        return self.path or ROOT

    def error(self, message: str) -> BoardplayError:
        """``<path>: <message>``, for a game's own (semantic) checks of this value."""
        return self.error_type(f"{self.name}: {message}")

    def expected(self, what: str) -> BoardplayError:
        """``<path>: expected <what>, got <the value as JSON>``."""
        return self.error(f"expected {what}, got {shown(self.value)}")

    def require(self, condition: bool, message: str) -> None:
        """Raise ``error(message)`` unless ``condition``."""
        if not condition:
            raise self.error(message)

    # ----- paths ----------------------------------------------------------------------------
    def child(self, key: str | int, value: object) -> Field:
        """The field ``value`` found under ``key`` (a member name or a list index)."""
        if isinstance(key, int):
            step = f"[{key}]"
        elif _NAME.fullmatch(key):
            step = f".{key}" if self.path else key
        else:
            step = f"[{json.dumps(key, ensure_ascii=False)}]"
        return Field(value, self.path + step, self.error_type)

    # ----- objects --------------------------------------------------------------------------
    def mapping(self) -> Mapping[str, Any]:
        """The value as a JSON object."""
        if not isinstance(self.value, Mapping):
            raise self.expected("an object")
        return self.value

    def keys(self, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
        """Check that the object has only ``allowed`` members and every ``required`` one."""
        obj = self.mapping()
        allowed = tuple(allowed)
        for key in obj:
            if key not in allowed:
                where = self.child(str(key), None).name
                raise self.error_type(
                    f"{where}: unknown field; the fields are: {', '.join(allowed)}"
                )
        for key in required:
            if key not in obj:
                raise self.child(key, None).error("is missing")

    def exact_keys(self, names: Collection[str]) -> None:
        """Check that the object has exactly the members ``names``."""
        obj = self.mapping()
        if set(obj) != set(names):
            raise self.error(f"expected exactly the fields {', '.join(names)}, got {shown(obj)}")

    def has(self, key: str) -> bool:
        return key in self.mapping()

    def member(self, key: str) -> Field:
        """A required member of this object."""
        obj = self.mapping()
        if key not in obj:
            raise self.child(key, None).error("is missing")
        return self.child(key, obj[key])

    def optional(self, key: str, default: object) -> Field:
        """A member of this object, or ``default`` (at the member's path) when it is absent."""
        return self.child(key, self.mapping().get(key, default))

    def members(self) -> list[tuple[str, Field]]:
        """Every ``(key, field)`` of this object, in the document's order."""
        return [(str(key), self.child(str(key), value)) for key, value in self.mapping().items()]

    def at(self, *keys: str | int) -> Field:
        """The field found by following ``keys`` (member names and list indices) down from
        this one, e.g. ``top.at("players", 1, "workers")``, for naming a value a cross-field
        check found wrong."""
        field = self
        for key in keys:
            field = field.member(key) if isinstance(key, str) else field.items()[key]
        return field

    # ----- lists ----------------------------------------------------------------------------
    def items(
        self, length: int | None = None, *, minimum: int = 0, maximum: int | None = None
    ) -> list[Field]:
        """The entries of a list: exactly ``length`` of them, or ``minimum..maximum``."""
        if length is not None:
            minimum = maximum = length
        value = self.value
        if (
            isinstance(value, list)
            and len(value) >= minimum
            and (maximum is None or len(value) <= maximum)
        ):
            return [self.child(i, entry) for i, entry in enumerate(value)]
        if length is not None:
            what = f"a list of {length} entries"
        elif maximum is not None:
            what = f"a list of {minimum}..{maximum} entries"
        elif minimum:
            what = f"a list of at least {minimum} entries"
        else:
            what = "a list"
        raise self.expected(what)

    # ----- scalars --------------------------------------------------------------------------
    def integer(self, minimum: int | None = None, maximum: int | None = None) -> int:
        """An integer (not a boolean) in ``minimum..maximum`` (either end may be open)."""
        value = self.value
        if _fits(value, minimum, maximum):
            assert isinstance(value, int)
            return value
        raise self.expected(_integers(minimum, maximum) + _outer(value, minimum, maximum))

    def optional_integer(
        self, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        """``null`` or an integer in ``minimum..maximum``."""
        if self.value is None:
            return None
        value = self.value
        if _fits(value, minimum, maximum):
            assert isinstance(value, int)
            return value
        note = _outer(value, minimum, maximum)
        raise self.expected(f"{_integers(minimum, maximum)}{note} or null")

    def boolean(self) -> bool:
        """``true`` or ``false`` (an integer 0/1 is refused)."""
        if not isinstance(self.value, bool):
            raise self.expected("true or false")
        return self.value

    def string(self) -> str:
        if not isinstance(self.value, str):
            raise self.expected("a string")
        return self.value

    def choice(self, options: Sequence[T], what: str | None = None) -> T:
        """One of ``options`` (strings, integers or null), compared by value and type, so that
        ``true`` is never taken for 1. ``what`` overrides the listing in the message."""
        value = self.value
        for option in options:
            if type(option) is type(value) and option == value:
                return option
        listing = ", ".join(shown(o) for o in options)
        raise self.expected(what or f"one of {listing}")

    def same_as(self, expected: object, why: str) -> None:
        """Check that the value equals ``expected`` (JSON), naming the first entry that
        differs, e.g. ``board.tiles[3].rotation: expected 2 (why), got 5``: for fields that
        repeat what the rest of the document already fixes."""
        if isinstance(expected, Mapping):
            self.exact_keys(list(expected))
            for key, value in expected.items():
                self.member(key).same_as(value, why)
        elif isinstance(expected, list):
            for entry, value in zip(self.items(len(expected)), expected, strict=True):
                entry.same_as(value, why)
        else:
            self.choice((expected,), f"{shown(expected)} ({why})")

    def index(self, options: Sequence[Any], what: str | None = None) -> int:
        """The position of the value in ``options`` (see ``choice``)."""
        return list(options).index(self.choice(options, what))


def read(position: object, error_type: type[BoardplayError] = PositionError) -> Field:
    """The whole document as a ``Field`` (path ``position``)."""
    return Field(position, "", error_type)
