"""Which games the server offers and how it builds them.

The server never imports a game directly: it asks a ``Catalogue``. The default one is the
registry (the four engines, as they land); tests plug in a tiny game. A catalogue is named by a
``module:attribute`` reference so that AI worker processes can find the same one."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from boardplay.core.game import Game
from boardplay.core.options import OptionSpec
from boardplay.core.registry import available, load


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
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"catalogue reference {reference!r} must be written module:attribute")
    catalogue: Catalogue = getattr(importlib.import_module(module_name), attribute)
    return catalogue


def describe_option(spec: OptionSpec) -> dict[str, Any]:
    """An option as the lobby's form needs it."""
    kind = "bool" if spec.kind is bool else "int" if spec.kind is int else "str"
    return {
        "name": spec.name,
        "default": spec.default,
        "doc": spec.doc,
        "kind": kind,
        "choices": list(spec.choices) if spec.choices is not None else None,
        "minimum": spec.minimum,
        "maximum": spec.maximum,
        "nullable": spec.nullable,
        "specials": list(spec.specials),
        "allowed": spec.allowed(),
    }
