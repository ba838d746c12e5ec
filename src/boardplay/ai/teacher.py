"""Expert iteration for ``boardplay train --algo alphazero --teacher SPEC``: the first iterations'
games are played by an MCTS agent against itself instead of by the network, and the network
learns from its searches.

Why: a network trained from random weights by its own games learns the game its own weak play
makes. In Potlatch that is a short game (about 45 decisions, the stacks soon repeat and end it)
while the expert's games last about 372; a network that has never seen such positions values them
badly. An MCTS teacher (the game's ``expert`` settings, with an iteration budget so that the run
replays) plays the long games and gives, at every decision, its root's visit distribution (the
policy target, as PUCT's visits are in self-play) and its mean value for the mover (the search
value that ``q_mix`` blends with the result). The rows have the layout of
``azgames.self_play_game`` so the rest of the loop does not know who played.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardplay.ai.mcts import MCTSAgent
from boardplay.ai.specs import make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.kernel import Kernel

Row = tuple[np.ndarray, np.ndarray, int, float]
"""One decision: the network's input for the mover, the visit distribution, the mover, the
search's value for the mover."""


def teacher_agent(game: Game, spec: str, seed: int) -> MCTSAgent:
    """The teacher of ``spec``: a compiled MCTS agent (its root visits are the targets)."""
    agent = make_agent(spec, game, seed=seed)
    if not isinstance(agent, MCTSAgent) or not agent.compiled:
        raise OptionError(
            f"--teacher takes a compiled mcts spec (or a level that is one), not {spec!r}"
        )
    return agent


def teacher_game(
    game: Game,
    spec: str,
    rng: np.random.Generator,
    temperature_moves: int,
    write_input: Callable[[Kernel, int, np.ndarray], None],
    inputs: int,
) -> tuple[list[Row], list[float], int]:
    """One game of the teacher against itself (one agent, its tree kept across both seats'
    moves): the rows, the returns and the simulations spent. The first ``temperature_moves``
    decisions are drawn in proportion to the visits among the moves with at least half the
    most visited one's, so games differ (each game's teacher has its own seed too)."""
    agent = teacher_agent(game, spec, int(rng.integers(1 << 62)))
    state = game.new_initial_state()
    space = state.kernel.action_space if state.kernel is not None else 0
    rows: list[Row] = []
    simulations = moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = np.array([p for _, p in outcomes])
            action = outcomes[int(rng.choice(len(outcomes), p=weights / weights.sum()))][0]
        elif len(state.legal_actions()) == 1:
            action = state.legal_actions()[0]
        else:
            player = state.current_player()
            action = agent.step(state)
            search = agent.tree
            assert search is not None
            visits = np.zeros(space, dtype=np.float32)
            value = 0.0
            for move, node, count in search.children(search.root):
                visits[move] = count
                value += count * search.node_value(node)
            total = float(visits.sum())
            analysis = agent.last_search()
            if analysis is not None and analysis.iterations:
                simulations += analysis.iterations
            if total > 0:
                kernel = state.kernel
                assert isinstance(kernel, Kernel)
                x = np.zeros(inputs, dtype=np.float32)
                write_input(kernel, player, x)
                rows.append((x, visits / total, player, value / total))
                if moves < temperature_moves:
                    # Only among the moves the teacher rates near its best: its visits are
                    # nearly flat early on, and a move drawn from all of them walks into
                    # Potlatch's dead ends (a game of 9 decisions).
                    near = np.where(visits >= 0.5 * visits.max(), visits, 0.0)
                    action = int(rng.choice(space, p=near / near.sum()))
            moves += 1
        state.apply_action(action)
        agent.inform(action)
    return rows, list(state.returns()), simulations
