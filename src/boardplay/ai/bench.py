"""Search speed: MCTS simulations per second per game, for ``make bench``.

A simulation is one selection–expansion–rollout–backup pass of ``MCTSAgent`` with its default
settings (the game's rollout policy, full rollouts). The search starts from the first decision
of a seeded game, so the numbers are comparable between runs on the same machine."""

from __future__ import annotations

import random

from boardplay.ai.mcts import MCTSAgent
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import available, load


def _first_decision(game: Game, seed: int) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return state


def mcts_speed(game: str | Game, seconds: float = 2.0, seed: int = 0) -> float:
    """Simulations per second of a ``seconds``-long search from the first decision of
    ``game`` (a name, a game string such as ``"montana(players=4)"`` or a ``Game``)."""
    loaded = load(game) if isinstance(game, str) else game
    state = _first_decision(loaded, seed)
    agent = MCTSAgent(loaded, time_limit=seconds, seed=seed, reuse=False)
    agent.step(state)
    info = agent.last_search()
    assert info is not None
    return info.iterations / max(info.seconds, 1e-9)


def mcts_speeds(seconds: float = 2.0) -> dict[str, float]:
    """``mcts_speed`` for every installed game with its default options."""
    return {name: mcts_speed(name, seconds) for name in available()}
