"""The registry of games: names, aliases and lazy imports, so ``boardplay --help`` stays fast and
a game package is imported only when it is used."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

# The one registration point of a game: name -> "module:ClassName" of its ``Game``. Everything
# else (CLI help, web catalogue, AI evaluation and levels, balance-study variants, move words) is
# found from that class's attributes (``core.game.Game``).
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


def register(name: str, target: str, aliases: tuple[str, ...] = ()) -> None:
    """Add a game: ``register("dicerace", "mypackage.dicerace:DiceRaceGame")``. The name is
    what ``load`` and the command line take; the class is imported only when it is used."""
    key = name.strip().lower()
    if not key or not key.isidentifier():
        raise OptionError(f"a game name is a lowercase identifier, not {name!r}")
    if ":" not in target:
        raise OptionError(f"a game is registered as 'module:ClassName', not {target!r}")
    _GAMES[key] = target
    for alias in aliases:
        _ALIASES[alias.strip().lower()] = key


def unregister(name: str) -> None:
    """Remove a game added with ``register`` (and its aliases)."""
    key = name.strip().lower()
    _GAMES.pop(key, None)
    for alias in [a for a, target in _ALIASES.items() if target == key]:
        del _ALIASES[alias]


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


def find(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names (a game class, or one of the
    references a ``Game`` carries: ``heuristics``, ``describer``), importing its module."""
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"reference {reference!r} must be written module:attribute")
    return getattr(importlib.import_module(module_name), attribute)


def game_class(name: str) -> type[Game]:
    cls: type[Game] = find(_installed()[canonical_name(name)])
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
