"""OpenSpiel's Python ``MCTSBot`` through the OpenSpiel adapter, timed as ``boardplay.ai.bench``
times the compiled search, for ``boardplay bench --mcts`` (needs the ``rl`` extra).

The bot searches the position ``ai.bench.mcts_speed`` measures (the first decision of a seeded
game) with the same exploration constant and one random rollout per leaf, with OpenSpiel's own
``RandomRolloutEvaluator`` or, with ``engine_rollouts=True``, the adapter's
``EngineRolloutEvaluator`` (the same statistics, rollouts in the engine). It lives here, not in
``ai``, because the AI never imports the adapters (docs/design.md §1): the adapters call the AI.
"""

from __future__ import annotations

import time

import numpy as np
from open_spiel.python.algorithms import mcts

from boardplay.adapters import openspiel
from boardplay.ai.bench import ROLLOUT_C, first_decision
from boardplay.core.game import Game
from boardplay.core.registry import load


def openspiel_mcts_speed(
    game: str | Game, seconds: float = 2.0, seed: int = 0, *, engine_rollouts: bool = False
) -> float:
    """Simulations per CPU second of OpenSpiel's Python ``MCTSBot`` from the same position as
    ``ai.bench.mcts_speed``. The bot has no time budget, so a short search sets the rate and a
    second one, sized to fill ``seconds`` of CPU time, measures it."""
    loaded = load(game) if isinstance(game, str) else game
    start = first_decision(loaded, seed)
    spiel = openspiel.load(str(loaded))
    state = spiel.new_initial_state()
    for action in start.history():
        state.apply_action(action)
    rng = np.random.RandomState(seed)
    evaluator = (
        openspiel.EngineRolloutEvaluator(1, seed=seed)
        if engine_rollouts
        else mcts.RandomRolloutEvaluator(1, rng)
    )

    def timed(simulations: int) -> float:
        bot = mcts.MCTSBot(spiel, ROLLOUT_C, simulations, evaluator, random_state=rng)
        began = time.thread_time()
        bot.mcts_search(state)
        return time.thread_time() - began

    probe = 16
    took = timed(probe)
    simulations = max(probe, int(probe * max(0.0, seconds - took) / max(took, 1e-9)))
    return simulations / max(timed(simulations), 1e-9)
