"""The registry of games: found from their folders, loaded lazily, so ``boardplay --help`` stays
fast and a game's rules are imported only when it is used.

Every package under ``boardplay.games`` (its ``__path__``, so a directory added there counts too)
is a game. Its ``__init__`` declares it and imports nothing heavy:
``GAME = "boardplay.games.<name>.game:XGame"`` and, if it has other spellings,
``ALIASES = ("other-name",)``; the folder's name is the game's name. Everything else (CLI help,
web catalogue, AI evaluation and levels, balance-study variants, move words) is found from that
class's attributes (``core.game.Game``). ``register`` adds a game from outside the package (a
plug-in, a test); ``tests/core/completeness.py`` holds a game to everything it must provide."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import boardplay.games
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

_REGISTERED: dict[str, str] = {}
"""Games added with ``register``: name -> "module:ClassName"."""
_REGISTERED_ALIASES: dict[str, str] = {}
_FOUND: dict[tuple[str, ...], tuple[dict[str, str], dict[str, str]]] = {}
"""The folders found, by the ``__path__`` they were looked for in: listed once (it costs
~0.7 ms), so a folder added to a listed directory is seen by the next process."""


def _folders() -> tuple[dict[str, str], dict[str, str]]:
    """(name -> target, alias -> name) of the game folders, read from each package's declaration.
    A folder without one is an error, not a game quietly missing from every list."""
    where = tuple(boardplay.games.__path__)
    if where not in _FOUND:
        _FOUND[where] = _read_folders()
    return _FOUND[where]


def _read_folders() -> tuple[dict[str, str], dict[str, str]]:
    games: dict[str, str] = {}
    aliases: dict[str, str] = {}
    prefix = f"{boardplay.games.__name__}."
    for folder in pkgutil.iter_modules(boardplay.games.__path__, prefix):
        name = folder.name.removeprefix(prefix)
        if not folder.ispkg or name.startswith("_"):
            continue
        package = importlib.import_module(folder.name)
        target = getattr(package, "GAME", None)
        if not isinstance(target, str) or ":" not in target:
            raise OptionError(
                f"{folder.name} declares no game: its __init__ must set "
                f"GAME = '{folder.name}.game:ClassName'"
            )
        games[name] = target
        aliases.update((alias, name) for alias in getattr(package, "ALIASES", ()))
    return games, aliases


def _games() -> tuple[dict[str, str], dict[str, str]]:
    games, aliases = _folders()
    return {**games, **_REGISTERED}, {**aliases, **_REGISTERED_ALIASES}


def register(name: str, target: str, aliases: tuple[str, ...] = ()) -> None:
    """Add a game from outside ``boardplay.games``:
    ``register("dicerace", "mypackage.dicerace:DiceRaceGame")``. The name is what ``load`` and
    the command line take; the class is imported only when it is used."""
    key = name.strip().lower()
    if not key or not key.isidentifier():
        raise OptionError(f"a game name is a lowercase identifier, not {name!r}")
    if ":" not in target:
        raise OptionError(f"a game is registered as 'module:ClassName', not {target!r}")
    if key in _folders()[0]:
        raise OptionError(f"{key!r} is already the game of the folder boardplay.games.{key}")
    _REGISTERED[key] = target
    for alias in aliases:
        _REGISTERED_ALIASES[alias.strip().lower()] = key


def unregister(name: str) -> None:
    """Remove a game added with ``register`` (and its aliases)."""
    key = name.strip().lower()
    _REGISTERED.pop(key, None)
    for alias in [a for a, target in _REGISTERED_ALIASES.items() if target == key]:
        del _REGISTERED_ALIASES[alias]


def available() -> list[str]:
    """The names of the games that can be loaded, sorted."""
    return sorted(_games()[0])


def canonical_name(name: str) -> str:
    """Resolve aliases and case; raise ``OptionError`` listing the games for an unknown name."""
    games, aliases = _games()
    key = name.strip().lower()
    key = aliases.get(key, key)
    if key not in games:
        raise OptionError(f"unknown game {name!r}; available games: {', '.join(sorted(games))}")
    return key


def find(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names (a game class, or one of the
    references a ``Game`` carries: ``heuristics``, ``describer``), importing its module."""
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"reference {reference!r} must be written module:attribute")
    return getattr(importlib.import_module(module_name), attribute)


def spellings(name: str) -> tuple[str, ...]:
    """The game's name and its aliases (``ALIASES``), as ``load`` takes them."""
    key = canonical_name(name)
    return (key, *(alias for alias, target in _games()[1].items() if target == key))


def package_of(name: str) -> str:
    """The package that holds the game ``name`` (its folder, for a game of ``boardplay.games``):
    where its rules, its message catalogue and its other files lie. Its rules are not
    imported."""
    module = _games()[0][canonical_name(name)].partition(":")[0]
    return module.rpartition(".")[0] or module


def game_class(name: str) -> type[Game]:
    cls: type[Game] = find(_games()[0][canonical_name(name)])
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
