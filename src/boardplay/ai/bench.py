"""Search speed: MCTS simulations per second per game, for ``make bench``.

A simulation is one selection–expansion–rollout–backup pass. Two measurements, both from the
first decision of a seeded game (so runs on one machine compare), each counted per second of
the measuring thread's CPU time (``time.thread_time``): on a machine shared with other work a
search gets the same CPU seconds whatever the load, so two searches measured minutes apart
still compare (wall seconds would hand the one run under load a smaller share of a core; with
the machine to itself the two clocks agree):

- ``mcts_speed``: ``MCTSAgent`` with its default settings (each game's cutoff and exploration),
  compiled (``boardplay.ai.search``) or, with ``reference=True``, the Python reference search
  (``boardplay.ai.mcts_reference``) that the compiled one replaced;
- ``mcts_speed(..., rollouts=True)``: uniformly random rollouts to the end of the game
  (``cutoff=none``, ``rollout=random``, c = 1.4), the setting OpenSpiel's MCTSBot plays.

OpenSpiel's Python ``MCTSBot`` on the same game and position, measured beside these, is
``boardplay.adapters.mctsbot`` (the adapters call the AI, never the other way).
"""

from __future__ import annotations

import random
import statistics
import time

from boardplay.ai.agents import agent_analysis
from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.specs import make_agent
from boardplay.core.game import Game, State, sample_chance
from boardplay.core.registry import load

ROLLOUT_C = 1.4
"""The exploration constant of the random-rollout comparison (OpenSpiel examples use 1.4-2)."""


def first_decision(game: Game, seed: int) -> State:
    """The position every measurement searches: ``game``'s first decision, chance sampled with
    ``seed``."""
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
    state = first_decision(loaded, seed)
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
    began = time.process_time()
    agent.step(state)
    took = time.process_time() - began
    info = agent.last_search()
    assert info is not None
    return info.iterations / max(took, 1e-9)


def spec_speed(game: Game, spec: str, positions: int = 9, seed: int = 0) -> float:
    """Simulations per CPU second of ``spec`` (a search spec or level, at its own budget): the
    median over ``positions`` decisions spread evenly over one seeded game played by
    ``medium``, one fresh agent each (no tree kept), so the opening and the middle and end game
    count alike (Proteus's placement searches run faster than its movement's). A search that
    ended at its iteration cap is left out: it found the position settled (a forced win) and
    ran its simulations far faster than a search still choosing, so it would inflate the rate."""
    state = first_decision(game, seed)
    mover = make_agent("medium", game, seed)
    rng = random.Random(seed)
    decisions: list[State] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1:
            decisions.append(state.clone())
        action = mover.step(state)
        state.apply_action(action)
        mover.inform(action)
    step = max(1, len(decisions) // positions)
    rates: list[float] = []
    for index, position in enumerate(decisions[::step][:positions]):
        agent = make_agent(spec, game, seed + index)
        began = time.process_time()
        agent.step(position)
        spent = time.process_time() - began
        info = agent_analysis(agent)
        cap = getattr(agent, "iterations", None)
        if info is not None and info.iterations and (cap is None or info.iterations < cap):
            rates.append(info.iterations / max(spent, 1e-9))
    return statistics.median(rates) if rates else 0.0
