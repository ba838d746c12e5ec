"""Site levels as simulation budgets with a time cap (issue 67): a level's strength on the web
must not depend on how many games the server is running.

A level named by think time (``time=T``) searches as many simulations as its share of a core
allows in T seconds, so on a server busy with many AI games it searches fewer and plays weaker:
the re-measurement of the experts (reviews/ai-2026-11d) found the search keeping 64% of its
simulations at a load of 5-26. On the site, therefore, a level is the simulations T buys on an
idle reference core (``Game.level_simulations``; a level the game does not list keeps its own
iteration cap), and its time becomes a cap of ``TIME_CAP_FACTOR`` × T, so a very busy server
still answers: up to that factor of slowdown the level plays at full strength, past it the cap
ends the search early. The operator's ceiling (``BOARDPLAY_WEB_AI_MAX_TIME``) still bounds
every move. Levels with no time (easy, medium) are simulation budgets already and stay as they
are.

The command line and the arena keep the levels' own specs (``Game.levels``), time budgets as
measured and documented in docs/ai.md, so a level judged at equal time there is the same search
with the same options as on the site; only the budget's form differs."""

from __future__ import annotations

from boardplay.ai.specs import LEVEL_NAMES, level_spec, with_budget
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

TIME_CAP_FACTOR = 3.0
"""A site level's time cap as a multiple of its nominal think time: a server three times
slower than the idle reference core still gives the level all its simulations."""


def _budget(spec: str) -> tuple[float | None, int | None]:
    params = parse_game_string(spec)[1]
    seconds = float(params["time"]) if "time" in params else None
    cap = int(params["iterations"]) if "iterations" in params else None
    return seconds, cap


def site_simulations(level: str, game: Game) -> int | None:
    """The simulations a move of ``level`` on the site for ``game``: the game's measured count
    for the level's nominal time (``Game.player_level_simulations`` for its table size, else
    ``Game.level_simulations``), never above the level's own iteration cap; the cap alone where
    the game lists no count; None for a level that is not a search budget."""
    seconds, cap = _budget(level_spec(level, game))
    sized = (game.player_level_simulations or {}).get(game.num_players, {})
    counted = sized.get(level) or (game.level_simulations or {}).get(level)
    if seconds is None or counted is None:
        return cap
    return counted if cap is None else min(cap, counted)


def site_spec(spec: str, game: Game) -> str:
    """The spec the site's AI plays for ``spec``: a level with a think time becomes its site
    simulations with a time cap of ``TIME_CAP_FACTOR`` times that time; any other spec (a level
    without a time, or a visitor's own spec, held to the operator's ceilings elsewhere) is
    returned unchanged."""
    level = spec.strip().lower()
    if level not in LEVEL_NAMES:
        return spec
    seconds, _ = _budget(level_spec(level, game))
    simulations = site_simulations(level, game)
    if seconds is None or simulations is None:
        return spec
    return with_budget(level, game, time=seconds * TIME_CAP_FACTOR, iterations=simulations)
