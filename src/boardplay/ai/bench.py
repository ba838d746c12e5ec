"""Search speed: MCTS simulations per second per game, for ``make bench``.

A simulation is one selection–expansion–rollout–backup pass. Three measurements, all from the
first decision of a seeded game (so runs on one machine compare), each counted per second of
the measuring thread's CPU time (``time.thread_time``): on a machine shared with other work a
search gets the same CPU seconds whatever the load, so two searches measured minutes apart
still compare (wall seconds would hand the one run under load a smaller share of a core; with
the machine to itself the two clocks agree):

- ``mcts_speed``: ``MCTSAgent`` with its default settings (each game's cutoff and exploration),
  compiled (``boardplay.ai.search``) or, with ``reference=True``, the Python reference search
  (``boardplay.ai.mcts_reference``) that the compiled one replaced;
- ``mcts_speed(..., rollouts=True)``: uniformly random rollouts to the end of the game
  (``cutoff=none``, ``rollout=random``, c = 1.4), the setting OpenSpiel's MCTSBot plays;
- ``openspiel_mcts_speed``: OpenSpiel's Python ``MCTSBot`` (c = 1.4, one random rollout per
  leaf) on the same game and position through the OpenSpiel adapter, with OpenSpiel's own
  ``RandomRolloutEvaluator`` or, with ``engine_rollouts=True``, the adapter's
  ``EngineRolloutEvaluator`` (the same statistics, rollouts in the engine).
"""

from __future__ import annotations

import random
import time

from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import available, load

ROLLOUT_C = 1.4
"""The exploration constant of the random-rollout comparison (OpenSpiel examples use 1.4-2)."""


def _first_decision(game: Game, seed: int) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return state


def mcts_speed(
    game: str | Game,
    seconds: float = 2.0,
    seed: int = 0,
    *,
    reference: bool = False,
    rollouts: bool = False,
) -> float:
    """Simulations per CPU second of a ``seconds``-long search (wall time, the agent's budget)
    from the first decision of ``game`` (a name, a game string such as ``"montana(players=4)"``
    or a ``Game``)."""
    loaded = load(game) if isinstance(game, str) else game
    state = _first_decision(loaded, seed)
    kind = ReferenceMCTSAgent if reference else MCTSAgent
    if rollouts:
        agent = kind(
            loaded,
            time_limit=seconds,
            seed=seed,
            reuse=False,
            early_stop=False,
            cutoff=None,
            rollout="random",
            c=ROLLOUT_C,
        )
    else:
        agent = kind(loaded, time_limit=seconds, seed=seed, reuse=False, early_stop=False)
    began = time.thread_time()
    agent.step(state)
    took = time.thread_time() - began
    info = agent.last_search()
    assert info is not None
    return info.iterations / max(took, 1e-9)


def openspiel_mcts_speed(
    game: str | Game, seconds: float = 2.0, seed: int = 0, *, engine_rollouts: bool = False
) -> float:
    """Simulations per CPU second of OpenSpiel's Python ``MCTSBot`` from the same position as
    ``mcts_speed`` (needs the ``rl`` extra). The bot has no time budget, so a short search sets
    the rate and a second one, sized to fill ``seconds`` of CPU time, measures it."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from boardplay.adapters import openspiel

    loaded = load(game) if isinstance(game, str) else game
    start = _first_decision(loaded, seed)
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


def mcts_speeds(seconds: float = 2.0) -> dict[str, float]:
    """``mcts_speed`` for every installed game with its default options."""
    return {name: mcts_speed(name, seconds) for name in available()}
