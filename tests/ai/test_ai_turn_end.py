"""Turn-end leaves (``mcts(finish_turn=true)``): a leaf reached in the middle of a seat's turn is
evaluated only after that seat's best completion of the turn, in the compiled search and in the
Python reference alike. Potlatch is the game it is for: two actions a turn, and an evaluation
whose tempo term and pending Chip Increase mean different things mid-turn and at a turn start."""

from __future__ import annotations

import random

import pytest

import boardplay
from boardplay.ai import MCTSAgent
from boardplay.ai.evaluation import heuristics_for
from boardplay.ai.evaluation.potlatch_leaf import PotlatchEvaluation
from boardplay.ai.mcts_reference import ReferenceMCTSAgent
from boardplay.ai.playout import best_action, playout
from boardplay.ai.search import Search
from boardplay.core.errors import OptionError
from boardplay.core.game import CHANCE, State


def _turn_starts(text: str, wanted: int, seed: int = 4) -> list[State]:
    """Positions at the start of a turn (the seat to act did not make the last action) with a
    choice of actions, along random games."""
    game = boardplay.load(text)
    rng = random.Random(seed)
    found: list[State] = []
    state, last = game.new_initial_state(), -1
    while len(found) < wanted:
        if state.is_terminal():
            state, last = game.new_initial_state(), -1
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if seat != last and len(legal) > 1 and state.history():
            found.append(state.clone())
        state.apply_action(rng.choice(legal))
        last = seat
    return found


def _completed_value(state: State, seat: int) -> float:
    """What a turn-end leaf is worth to ``seat``: the game's result if it is over, else the
    evaluation after the mover's best next action when the mover is ``seat`` (the rest of a
    two-action turn), else the evaluation here."""
    evaluate = heuristics_for(state.game).evaluate
    if state.is_terminal() or state.current_player() != seat:
        return evaluate(state)[seat]
    after = state.clone()
    after.apply_action(best_action(state, evaluate))
    assert after.current_player() != seat  # the turn is over
    return evaluate(after)[seat]


def _leaf_values(state: State, finish_turn: bool, compiled: bool) -> dict[int, float]:
    """One simulation per root move (cut-off 0): each root child is a fresh leaf, and its value
    is what the search backs up for that leaf."""
    seat = state.current_player()
    legal = state.legal_actions()
    if compiled:
        assert state.kernel is not None
        search = Search(
            state.kernel, PotlatchEvaluation(2), cutoff=0, finish_turn=finish_turn, seed=3
        )
        search.seat = seat
        search.run(len(legal), 0.0, False)
        return {a: search.node_value(n) for a, n, _ in search.children(search.root)}
    agent = ReferenceMCTSAgent(state.game, iterations=1, cutoff=0, finish_turn=finish_turn, seed=3)
    root = agent.search(state, len(legal))
    return {a: child.mean(seat) for a, child in root.children.items()}


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "reference"])
def test_a_leaf_reached_mid_turn_is_evaluated_after_the_movers_best_completion(
    compiled: bool,
) -> None:
    """After the first of a Potlatch seat's two actions the seat is still to act: with
    ``finish_turn`` that leaf is worth its best completion of the turn; without it, the
    evaluation of the mid-turn position itself, which differs on many of them."""
    differing = 0
    for state in _turn_starts("potlatch", 12):
        seat = state.current_player()
        children = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            children[action] = child
        finished = _leaf_values(state, True, compiled)
        plain = _leaf_values(state, False, compiled)
        assert set(finished) == set(plain) == set(children)  # each move tried exactly once
        evaluate = heuristics_for(state.game).evaluate
        for action, child in children.items():
            assert finished[action] == pytest.approx(_completed_value(child, seat), abs=1e-9)
            assert plain[action] == pytest.approx(evaluate(child)[seat], abs=1e-9)
            differing += abs(finished[action] - plain[action]) > 1e-6
    assert differing > 20


def _cut_off(state: State, last: int) -> list[float]:
    """The Python search's playout at cut-off 0 with ``finish_turn``, ``last`` the seat (or
    chance) whose action led to ``state``."""
    heuristics = heuristics_for(state.game)
    return playout(
        state,
        last,
        heuristics,
        policy=None,
        limit=0,
        decisive=heuristics.decisive,
        finish_turn=True,
        rng=random.Random(1),
    )


def test_a_leaf_at_a_turn_start_is_evaluated_where_it_stands() -> None:
    """In the three-action game a leaf two actions in is still mid-turn, one three actions in
    (the opponent to act) is not: the rollout completes the first and leaves the second."""
    state = _turn_starts("potlatch(actions=3)", 1)[0]
    seat = state.current_player()
    evaluate = heuristics_for(state.game).evaluate
    mid = state.clone()
    for _ in range(2):
        mid.apply_action(mid.legal_actions()[0])
    assert mid.current_player() == seat
    played = mid.clone()
    value = _cut_off(played, seat)
    assert len(played.history()) == len(mid.history()) + 1
    assert played.is_terminal() or played.current_player() != seat
    assert value == pytest.approx(evaluate(played))
    # The same position reached after the opponent's move (``last`` another seat) is a turn
    # start for the rollout: evaluated as it stands, nothing played.
    again = mid.clone()
    assert _cut_off(again, 1 - seat) == pytest.approx(evaluate(mid))
    assert again.history() == mid.history()


def test_finish_turn_is_a_spec_parameter_off_by_default() -> None:
    game = boardplay.load("potlatch")
    agent = boardplay.ai.make_agent("mcts(iterations=50)", game, 1)
    assert isinstance(agent, MCTSAgent) and agent.finish_turn is False
    agent = boardplay.ai.make_agent("mcts(iterations=50,finish_turn=true)", game, 1)
    assert isinstance(agent, MCTSAgent) and agent.finish_turn is True
    agent.step(game.new_initial_state())
    assert agent.tree is not None and agent.tree.finish_turn is True
    with pytest.raises(OptionError, match="'finish_turn' must be true or false"):
        boardplay.ai.make_agent("mcts(finish_turn=maybe)", game, 1)


def test_a_chance_node_is_never_completed_like_a_turn() -> None:
    """Chance follows chance in Passtally (a reveal after a reveal): the rollout's last step and
    the node to act are then both chance, which is no seat's turn, so the cut-off evaluates it
    where it stands instead of picking an outcome greedily."""
    game = boardplay.load("passtally")
    rng = random.Random(1)
    state = game.new_initial_state()
    while not (state.is_chance_node() and state.history()):
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if not state.is_chance_node() else legal[0])
    played = state.clone()
    value = _cut_off(played, CHANCE)  # the last step was chance
    assert played.history() == state.history()
    assert value == pytest.approx(heuristics_for(game).evaluate(state))
