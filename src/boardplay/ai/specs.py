"""Agent spec strings, used everywhere an agent is chosen: ``random``, ``greedy``,
``mcts(iterations=400)``, ``mcts(time=1.0)`` and the named levels ``easy`` .. ``expert``."""

from __future__ import annotations

from collections.abc import Callable

from boardplay.ai.agents import Agent, RandomAgent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.options import parse_game_string

AgentFactory = Callable[[Game, dict[str, str], int | None], Agent]


def _random(game: Game, params: dict[str, str], seed: int | None) -> Agent:
    if params:
        raise OptionError(f"agent 'random' takes no parameters, got {', '.join(params)}")
    return RandomAgent(seed)


AGENTS: dict[str, AgentFactory] = {"random": _random}
"""Agent kinds by name. Further kinds register themselves here."""


def make_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
    """Build the agent described by ``spec`` for ``game``; ``OptionError`` names the kinds."""
    name, params = parse_game_string(spec)
    factory = AGENTS.get(name.lower())
    if factory is None:
        raise OptionError(f"unknown agent {spec!r}; known agents: {', '.join(sorted(AGENTS))}")
    return factory(game, params, seed)
