"""PUCT with the game's evaluation blended into its leaves (``az(mix=...,finish_turn=...)``,
issue 50): a leaf's value is the evaluation's where the share says so, read after the mover
has finished its turn greedily. (The spec's errors are tested with the others, test_ai_az.py.)"""

from __future__ import annotations

import pytest

from boardplay.ai.az import AZAgent, load_network
from boardplay.ai.mcts import compiled_evaluation
from boardplay.ai.puct import Puct
from boardplay.ai.specs import make_agent
from boardplay.core.registry import load


def first_child_value(mix: float, finish_turn: bool) -> tuple[int, float, float]:
    """Two simulations from Potlatch's first position: the root's expansion, then one child,
    where the first player is still to act (a turn is two actions). Returns the child's
    action, its value for that player and the root's."""
    game = load("potlatch")
    state = game.new_initial_state()
    network, _ = load_network("potlatch")
    search = Puct(
        state.kernel,
        network,
        evaluation=compiled_evaluation(game),
        mix=mix,
        finish_turn=finish_turn,
        seed=3,
    )
    search.seat = 0
    search.run(2, 0.0)
    visited = [(a, n) for a, n, v in search.children(search.root) if v]
    assert len(visited) == 1
    action, node = visited[0]
    return action, search.node_value(node), search.node_value(search.root)


def test_a_leaf_mid_turn_is_judged_after_the_movers_greedy_completion() -> None:
    game = load("potlatch")
    evaluation = compiled_evaluation(game)
    assert evaluation is not None
    action, value, _ = first_child_value(1.0, True)
    child = game.new_initial_state()
    child.apply_action(action)
    assert child.current_player() == 0  # mid-turn: the first player acts again
    completions = []
    for second in child.legal_actions():
        after = child.clone()
        after.apply_action(second)
        assert after.current_player() == 1
        completions.append(evaluation.values(after.kernel)[0])
    assert value == pytest.approx(max(completions), abs=1e-12)
    # Without finish_turn the same leaf is judged where it stands...
    action_here, value_here, _ = first_child_value(1.0, False)
    assert action_here == action
    assert value_here == pytest.approx(evaluation.values(child.kernel)[0], abs=1e-12)
    # ...and with half the share, halfway between the network's value and the evaluation's.
    _, value_net, _ = first_child_value(0.0, False)
    _, value_half, _ = first_child_value(0.5, True)
    assert value_half == pytest.approx(0.5 * value_net + 0.5 * max(completions), abs=1e-6)
    assert abs(value_net - max(completions)) > 1e-3  # the blend is not vacuous here


def test_the_blend_needs_an_evaluation_and_a_share() -> None:
    game = load("potlatch")
    network, _ = load_network("potlatch")
    kernel = game.new_initial_state().kernel
    with pytest.raises(ValueError, match="need the game's evaluation"):
        Puct(kernel, network, mix=0.5)
    with pytest.raises(ValueError, match="from 0 to 1"):
        Puct(kernel, network, evaluation=compiled_evaluation(game), mix=1.5)


def test_az_agent_with_the_blend_plays() -> None:
    game = load("potlatch")
    agent = make_agent("az(weights=potlatch,iterations=40,mix=0.5,finish_turn=true)", game, seed=2)
    assert isinstance(agent, AZAgent) and agent.mix == 0.5 and agent.finish_turn
    state = game.new_initial_state()
    for _ in range(4):
        action = agent.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        agent.inform(action)
