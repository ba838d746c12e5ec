"""Sentences that each viewer's browser can put in its own language.

A move is described once on the server (``games/<game>/describe.py``) and shown to every viewer of
a game, in English or Japanese. So a description is kept as data: a :class:`Sentence` is a list of
:class:`Phrase` parts, each an English template (the msgid of the ``web`` catalogue) with ``{name}``
parameters that are plain values, seat names, or phrases themselves. The server sends the English
sentence (records, the CLI, tests) and the same sentence as JSON; the browser looks each template
up in its catalogue and fills it, so Japanese word order lives in the Japanese templates.

The parts of a sentence are concatenated as they are, so a part that continues a sentence carries
its own punctuation (``", turning {tile} face up"``; in Japanese ``"、{tile}が表になる"``).

``say("…")`` is the extraction keyword: ``make i18n`` collects its string literals from the
describers into the ``web`` domain (``babel-web.cfg``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Union

_FIELD = re.compile(r"\{(\w+)\}")

Value = Union[str, int, "Phrase", "SeatName"]


@dataclass(frozen=True)
class SeatName:
    """A seat's name ("Red", "Black"), translated by the browser as a game term."""

    name: str

    def english(self) -> str:
        return self.name

    def to_json(self) -> dict[str, str]:
        return {"seat": self.name}


@dataclass(frozen=True)
class Phrase:
    """One English template and its parameters."""

    template: str
    params: Mapping[str, Value] = field(default_factory=dict)

    def __post_init__(self) -> None:
        wanted = _fields(self.template)
        if wanted != self.params.keys():
            raise ValueError(f"{self.template!r} needs {sorted(wanted)}, got {sorted(self.params)}")

    def english(self) -> str:
        # str.format fills exactly the {name} fields __post_init__ checked (no template has
        # other braces), several times faster than a regular expression per field.
        return self.template.format_map({k: _english(v) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        return {"t": self.template, "p": {k: _json(v) for k, v in self.params.items()}}


@functools.lru_cache(maxsize=1024)
def _fields(template: str) -> frozenset[str]:
    """The ``{name}`` fields of a template; a view says every legal move, so this is asked
    thousands of times for a few hundred templates."""
    return frozenset(_FIELD.findall(template))


def _english(value: Value) -> str:
    return str(value) if isinstance(value, str | int) else value.english()


def _json(value: Value) -> Any:
    return value if isinstance(value, str | int) else value.to_json()


def say(template: str, **params: Value) -> Phrase:
    """A phrase; ``template`` must be a string literal so ``make i18n`` can extract it."""
    return Phrase(template, params)


class Sentence:
    """Phrases said one after the other; ``str()`` is the English sentence."""

    def __init__(self, parts: Iterable[Phrase] = ()) -> None:
        self.parts = list(parts)

    def add(self, part: Phrase) -> Sentence:
        self.parts.append(part)
        return self

    def __str__(self) -> str:
        return "".join(part.english() for part in self.parts)

    def __repr__(self) -> str:
        return f"Sentence({str(self)!r})"

    def to_json(self) -> list[dict[str, Any]]:
        return [part.to_json() for part in self.parts]
