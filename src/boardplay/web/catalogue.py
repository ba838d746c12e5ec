"""Which games the server offers and how it builds them.

The server never imports a game directly: it asks a ``Catalogue``. The default one is the
registry (the four engines, as they land); tests plug in a tiny game. A catalogue is named by a
``module:attribute`` reference so that AI worker processes can find the same one.

Visitors reach games only through a ``WebCatalogue``, which never lets a request name a file:
an option that names one (``OptionSpec.names_file``, e.g. Montana's ``data``) accepts only its
default or the name of a file the operator put in the data directory."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from boardplay.core.errors import BoardplayError, OptionError
from boardplay.core.game import Game
from boardplay.core.options import OptionSpec
from boardplay.core.registry import available, find, load
from boardplay.web.errors import bad_request, quote

log = logging.getLogger("boardplay.web")

DATA_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
"""Names under which data files are offered: the file name without ``.json``, no dots or
slashes, so a name can never leave the data directory."""


class Catalogue(Protocol):
    """The games a server offers."""

    def names(self) -> list[str]: ...

    def load(self, name: str, options: Mapping[str, Any]) -> Game: ...


class RegistryCatalogue:
    """Every game the registry can load right now (an engine still being written, whose package
    exists but does not load, is left out rather than breaking the lobby)."""

    def names(self) -> list[str]:
        names: list[str] = []
        for name in available():
            try:
                load(name)
            except Exception:
                continue
            names.append(name)
        return names

    def load(self, name: str, options: Mapping[str, Any]) -> Game:
        return load(name, **dict(options))


REGISTRY = RegistryCatalogue()


def resolve(reference: str) -> Catalogue:
    """Import ``module:attribute`` and return that catalogue."""
    catalogue: Catalogue = find(reference)
    return catalogue


def offered_files(data_dir: str | None) -> dict[str, str]:
    """``name -> path`` of the ``*.json`` regular files in ``data_dir`` (none without one)."""
    if not data_dir:
        return {}
    found: dict[str, str] = {}
    for path in sorted(Path(data_dir).glob("*.json")):
        if DATA_NAME.fullmatch(path.stem) and path.is_file():
            found[path.stem] = str(path.resolve())
    return found


class WebCatalogue:
    """The games a server offers to visitors: ``inner``'s, with file-naming options limited to
    their default and the operator's named files. The game is built from the file's path and
    then shows the file's *name* in its options (engines read such an option only when built),
    so views, records and game strings never carry a server path."""

    def __init__(self, inner: Catalogue, data_dir: str | None = None) -> None:
        self.inner = inner
        self.files = offered_files(data_dir)
        self._specs: dict[str, dict[str, OptionSpec]] = {}
        self._names: list[str] | None = None

    def names(self) -> list[str]:
        """The games offered (asked of ``inner`` once: loading every engine costs)."""
        if self._names is None:
            self._names = self.inner.names()
        return list(self._names)

    def file_options(self, name: str) -> dict[str, OptionSpec]:
        if name not in self._specs:
            specs = self.inner.load(name, {}).option_set.specs
            self._specs[name] = {s.name: s for s in specs if s.names_file}
        return self._specs[name]

    def choices(self, spec: OptionSpec) -> list[str]:
        return [str(spec.default), *self.files]

    def load(self, name: str, options: Mapping[str, Any]) -> Game:
        file_specs = self.file_options(name) if options else {}
        real = dict(options)
        shown: dict[str, str] = {}
        for key, spec in file_specs.items():
            if key not in options or options[key] == spec.default:
                continue
            value = options[key]
            if not isinstance(value, str) or value not in self.files:
                raise OptionError(
                    f"option {key!r} names a data file; this server offers: "
                    f"{', '.join(self.choices(spec))}"
                )
            real[key] = self.files[value]
            shown[key] = value
        game = self.inner.load(name, real)
        game.options.update(shown)
        return game

    def build(self, name: str, options: Mapping[str, Any], what: str = "") -> Game:
        """The one validator of a visitor's game and options (preview, create, replay and record
        upload): the game with its first position built too, so that nothing is stored or
        replayed unless it is known to load; else a 400 naming the problem (``what`` before it,
        e.g. "the record's options are not valid: ")."""
        if name not in self.names():
            raise bad_request(
                f"unknown game {quote(name)}; this server offers: {', '.join(self.names())}"
            )
        try:
            game = self.load(name, options)
            game.new_initial_state()
        except BoardplayError as exc:
            raise bad_request(f"{what}{exc}") from None
        except (ArithmeticError, ValueError, TypeError) as exc:
            # An option no declaration bounds well enough: refused, and reported as a bug.
            log.error("%s with options %r cannot be built: %r", name, dict(options), exc)
            raise bad_request(f"{what}these options cannot make a {name} game") from None
        return game

    def describe(self, spec: OptionSpec) -> dict[str, Any]:
        """An option as the lobby's form needs it (a file option as a choice of names)."""
        kind = "bool" if spec.kind is bool else "int" if spec.kind is int else "str"
        choices = self.choices(spec) if spec.names_file else spec.choices
        return {
            "name": spec.name,
            "default": spec.default,
            "doc": spec.doc,
            "kind": kind,
            "choices": list(choices) if choices is not None else None,
            "minimum": spec.minimum,
            "maximum": spec.maximum,
            "nullable": spec.nullable,
            "specials": list(spec.specials),
            "allowed": ", ".join(map(str, choices))
            if spec.names_file and choices
            else spec.allowed(),
        }
