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
