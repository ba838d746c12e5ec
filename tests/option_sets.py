"""Every option set the bound tests run: each registered game at its defaults, then each option
with a short list of values (``choices``, or ``players``' range) changed one at a time. A new
engine and a new option are covered without touching the tests."""

from __future__ import annotations

import boardplay
from boardplay.core.errors import OptionError
from boardplay.core.game import Game


def option_sets() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for name in boardplay.available():
        base = boardplay.load(name)
        games[str(base)] = base
        for spec in type(base).option_set.specs:
            values = spec.choices
            if values is None and spec.name == "players":
                values = tuple(range(base.min_players, base.max_players + 1))
            for value in values or ():
                if value == spec.default:
                    continue
                try:
                    game = boardplay.load(name, **{spec.name: value})
                except OptionError:
                    continue  # a value valid only beside other options
                games[str(game)] = game
    return games


OPTION_SETS = option_sets()
KERNEL_SETS = {name: game for name, game in OPTION_SETS.items() if game.new_initial_state().kernel}
"""The option sets of the games that run on a compiled kernel: what only a kernel has (its sizes,
its struct, batching many games in one call) is tested over these. A pure-Python game, such as
the toy fifth game, has no kernel (``State.kernel`` is None) and every other test holds it."""
KERNEL_GAMES = sorted({game.name for game in KERNEL_SETS.values()})
"""The registered games that run on a compiled kernel, each folder in the one shape of
docs/contributing.md (layout, tables, notation, kernel, fields, state ...)."""


def at_most_players(name: str) -> str:
    """The spec of game ``name`` at its largest table (``players`` at its most, where the game
    has that option; else its defaults), so a test over every game meets the most seats."""
    cls = type(boardplay.load(name))
    if "players" in cls.option_set.by_name() and cls.max_players > cls.min_players:
        return f"{name}(players={cls.max_players})"
    return name
