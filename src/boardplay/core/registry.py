"""The registry of games: names, aliases and lazy imports, so ``boardplay --help`` stays fast and
a game package is imported only when it is used."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

# name -> "module:ClassName"; each module is a game package that implements the contract.
_GAMES: dict[str, str] = {
    "montana": "boardplay.games.montana.game:MontanaGame",
    "passtally": "boardplay.games.passtally.game:PasstallyGame",
    "potlatch": "boardplay.games.potlatch.game:PotlatchGame",
    "proteus": "boardplay.games.proteus.game:ProteusGame",
}
_ALIASES = {"potlatch-klone": "potlatch", "potlatch_klone": "potlatch"}


def _installed() -> dict[str, str]:
    """Games whose package is present (engines land one at a time)."""
    present: dict[str, str] = {}
    for name, target in _GAMES.items():
        module = target.partition(":")[0]
        if importlib.util.find_spec(module.rsplit(".", 1)[0]) and importlib.util.find_spec(module):
            present[name] = target
    return present


def available() -> list[str]:
    """The names of the games that can be loaded, sorted."""
    return sorted(_installed())


def canonical_name(name: str) -> str:
    """Resolve aliases and case; raise ``OptionError`` listing the games for an unknown name."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _installed():
        raise OptionError(f"unknown game {name!r}; available games: {', '.join(available())}")
    return key


def game_class(name: str) -> type[Game]:
    module_name, _, class_name = _installed()[canonical_name(name)].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load(spec: str, **options: Any) -> Game:
    """``load("potlatch", actions=3)`` or ``load("potlatch(actions=3,layout=L4)")``.

    Unknown games, options and values raise ``OptionError`` (a ``ValueError``) naming what is
    allowed."""
    name, from_string = parse_game_string(spec)
    overlap = set(from_string) & set(options)
    if overlap:
        raise OptionError(f"option {sorted(overlap)[0]!r} is given twice")
    return game_class(name)({**from_string, **options})
