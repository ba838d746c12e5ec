"""PUCT with the game's evaluation blended into its leaves (``az(mix=...,finish_turn=...)``,
issue 50): a leaf's value is the evaluation's where the share says so, read after the mover
has finished its turn greedily; with ``uniform`` the network gives its value only. (The spec's
errors are tested with the others, test_ai_az.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from boardplay.ai.az import AZAgent, build_network, load_network, network_path, read_arrays
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


def uniform_search(uniform: bool, policy_zeroed: bool) -> list[tuple[int, int, int]]:
    """The root's children after 300 blended simulations from a Potlatch position eleven
    actions in, with the shipped network's policy head zeroed or not."""
    game = load("potlatch")
    state = game.new_initial_state()
    for action in (0, 11, 4, 11, 3, 5, 0, 11, 11, 5, 5):
        state.apply_action(action)
    arrays, meta = read_arrays(network_path("potlatch"))
    if policy_zeroed:
        arrays = {**arrays, "policy_w": np.zeros_like(arrays["policy_w"])}
        arrays["policy_b"] = np.zeros_like(arrays["policy_b"])
    search = Puct(
        state.kernel,
        build_network(arrays, meta),
        evaluation=compiled_evaluation(game),
        mix=0.8,
        finish_turn=True,
        uniform=uniform,
        seed=5,
    )
    search.seat = state.current_player()
    search.run(300, 0.0)
    priors = {search.node_prior(node) for _, node, _ in search.children(search.root)}
    if uniform or policy_zeroed:
        assert priors == {np.float32(1.0) / np.float32(len(state.legal_actions()))}
    else:
        assert len(priors) > 1
    return search.children(search.root)


def test_uniform_priors_are_the_network_without_its_policy() -> None:
    # The search with ``uniform`` is the one whose network's policy head is zero: the same
    # visits move by move (so the expert's spec plays as the file it was measured with).
    plain = uniform_search(uniform=False, policy_zeroed=False)
    zeroed = uniform_search(uniform=False, policy_zeroed=True)
    assert uniform_search(uniform=True, policy_zeroed=False) == zeroed
    assert uniform_search(uniform=True, policy_zeroed=True) == zeroed
    assert plain != zeroed  # the priors do steer the search where they are used
