"""Game options: declared once per game as ``OptionSpec`` objects, parsed from Python values or
from strings (command line, ``"potlatch(actions=3,layout=L4)"``), and kept in a canonical dict so
two equal option sets always compare and print the same."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardplay.core.errors import OptionError
from boardplay.core.fields import C_INT_MAX, C_INT_MIN, long_number

OptionValue = int | bool | str | None

MAX_DIGITS = 20
"""Most digits read from an integer written as text (``int()`` of a long string costs the
square of its length, and Python refuses more than 4,300 digits with a ``ValueError``)."""


def _describe(values: Iterable[OptionValue]) -> str:
    return ", ".join(_show(v) for v in values)


def _show(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 64:
        return long_number(value)
    return str(value)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    ``choices`` lists every allowed value when the set is small; otherwise ``minimum`` /
    ``maximum`` bound an integer (an end left open is still a C ``int``'s: kernels keep options in
    C fields, so a larger value gets this option's message, never an ``OverflowError`` from a
    constructor), ``specials`` lists allowed non-integer words (e.g. ``"random"``)
    and ``nullable`` allows ``None`` (written ``none`` or ``null``). ``names_file`` marks a text
    option whose value is a file path (besides its default): local callers may name any file,
    a server must not let visitors do so (boardplay.web offers named files instead)."""

    name: str
    default: OptionValue
    doc: str
    kind: type = int
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    specials: tuple[str, ...] = ()
    names_file: bool = False
    fixes_chance: bool = False
    """Set to anything but its default, the option decides what a chance node would (Montana's
    board and start seat): a server treats such a game as one with a chosen seed."""

    def allowed(self) -> str:
        """A short human description of the allowed values."""
        if self.choices is not None:
            return _describe(self.choices)
        parts: list[str] = []
        if self.kind is int:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            if lo and hi:
                parts.append(f"an integer {lo}..{hi}")
            elif lo:
                parts.append(f"an integer >= {lo}")
            elif hi:
                parts.append(f"an integer <= {hi}")
            else:
                parts.append("an integer")
        elif self.kind is str:
            parts.append("a text value")
        parts.extend(self.specials)
        if self.nullable:
            parts.append("none")
        return " or ".join(parts)

    def parse(self, raw: Any) -> OptionValue:
        """Turn ``raw`` (a Python value or a string from the command line) into the canonical
        value, or raise ``OptionError`` naming the allowed values."""
        value = self._coerce(raw)
        if self.choices is not None and value not in self.choices:
            raise self._bad(raw)
        if isinstance(value, int) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise self._bad(raw)
            if self.maximum is not None and value > self.maximum:
                raise self._bad(raw)
            if not C_INT_MIN <= value <= C_INT_MAX:
                raise self._bad(raw, f" (within ±{C_INT_MAX})")
        return value

    def _bad(self, raw: Any, note: str = "") -> OptionError:
        shown = _show(raw)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        return OptionError(
            f"option {self.name!r} does not accept {shown!r}; allowed: {self.allowed()}{note}"
        )

    def _coerce(self, raw: Any) -> OptionValue:
        if raw is None:
            if self.nullable:
                return None
            raise self._bad(raw)
        if isinstance(raw, str):
            text = raw.strip()
            low = text.lower()
            if self.nullable and low in ("none", "null"):
                return None
            if text in self.specials:
                return text
            if self.kind is bool:
                if low in ("true", "1", "yes", "on"):
                    return True
                if low in ("false", "0", "no", "off"):
                    return False
                raise self._bad(raw)
            if self.kind is int:
                if not re.fullmatch(r"[+-]?\d+", text):
                    raise self._bad(raw)
                if len(text.lstrip("+-")) > MAX_DIGITS:
                    raise self._bad(raw, f" (within ±{C_INT_MAX})")
                return int(text)
            if self.choices is not None:
                # Case-insensitive match for words such as layout "l4" -> "L4".
                for choice in self.choices:
                    if isinstance(choice, str) and choice.lower() == low:
                        return choice
            return text
        if isinstance(raw, bool):
            if self.kind is bool:
                return raw
            raise self._bad(raw)
        if isinstance(raw, int):
            if self.kind is int:
                return raw
            raise self._bad(raw)
        raise self._bad(raw)


@dataclass(frozen=True)
class OptionSet:
    """The declared options of one game, in declaration order."""

    game: str
    specs: Sequence[OptionSpec] = field(default_factory=tuple)

    def by_name(self) -> dict[str, OptionSpec]:
        return {spec.name: spec for spec in self.specs}

    def defaults(self) -> dict[str, OptionValue]:
        return {spec.name: spec.default for spec in self.specs}

    def canonical(self, given: Mapping[str, Any]) -> dict[str, OptionValue]:
        """Validate ``given`` and return every option (defaults filled in) in declaration order."""
        specs = self.by_name()
        for name in given:
            if name not in specs:
                allowed = ", ".join(specs) or "(this game has no options)"
                raise OptionError(f"{self.game} has no option {name!r}; its options are: {allowed}")
        return {
            spec.name: spec.parse(given[spec.name]) if spec.name in given else spec.default
            for spec in self.specs
        }


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """Parse ``["actions=3", "layout=L4"]`` (command-line form) into a dict of raw strings."""
    out: dict[str, str] = {}
    for pair in pairs:
        for item in _split_top_level(pair):
            if "=" not in item:
                raise OptionError(f"option {item!r} must be written name=value, e.g. actions=3")
            name, _, value = item.partition("=")
            name = name.strip()
            if not name:
                raise OptionError(f"option {item!r} has no name; write name=value")
            if name in out:
                raise OptionError(f"option {name!r} is given twice")
            out[name] = value.strip()
    return out


def _split_top_level(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


_GAME_STRING = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$")


def parse_game_string(text: str) -> tuple[str, dict[str, str]]:
    """Split ``"potlatch(actions=3,layout=L4)"`` into ``("potlatch", {"actions": "3", ...})``."""
    match = _GAME_STRING.match(text)
    if match is None:
        raise OptionError(
            f"cannot read game string {text!r}; write name or name(option=value,...), "
            "e.g. potlatch(actions=3,layout=L4)"
        )
    name, inner = match.group(1), match.group(2)
    return name, parse_option_pairs([inner]) if inner else {}


def game_string(name: str, options: Mapping[str, OptionValue], defaults: Mapping[str, Any]) -> str:
    """The canonical string form: only options that differ from their default, in order."""
    changed = [f"{k}={_show(v)}" for k, v in options.items() if defaults.get(k) != v]
    return f"{name}({','.join(changed)})" if changed else name
