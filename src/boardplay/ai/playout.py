"""How the Python search (``boardplay.ai.mcts_reference``) values the leaf a simulation reached:
it plays the position on and returns the result, or the game's evaluation once ``limit``
actions are played (the cut-off). This is the part of a simulation that knows the game's
heuristics (its rollout policy, its evaluation, whether a move can win on the spot); the tree
above it knows only visits and returns, so the two change for different reasons.

The compiled search (``boardplay.ai.search``) does the same in Cython and is held to this one
by tests; a change here is a change of what every Python search's leaves are worth."""

from __future__ import annotations

import random

from boardplay.core.game import CHANCE, State, sample_chance
from boardplay.core.heuristics import Evaluation, Heuristics, RolloutPolicy


def playout(
    state: State,
    last: int,
    heuristics: Heuristics,
    *,
    policy: RolloutPolicy | None,
    limit: int | None,
    decisive: bool,
    finish_turn: bool,
    rng: random.Random,
) -> list[float]:
    """Play ``state`` on in place and return its returns, or the evaluation at the cut-off.

    ``last`` is the seat whose action led to ``state`` (``CHANCE``: none, or chance), so that
    with ``finish_turn`` a cut-off reached in the middle of that seat's turn is judged only after
    the seat completes the turn greedily (``best_action``). ``policy`` picks the playout's
    moves (None: uniformly at random); with ``decisive`` a seat that can win at once does."""
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        if decisive and player != CHANCE:
            winning = winning_action(state)
            if winning is not None:
                state.apply_action(winning)
                break
        if limit is not None and steps >= limit:
            if not (finish_turn and player == last and player != CHANCE):
                return heuristics.evaluate(state)
            # Mid-turn: complete the turn before evaluating.
            state.apply_action(best_action(state, heuristics.evaluate))
            continue
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            if policy is None or len(legal) == 1:
                action = legal[rng.randrange(len(legal))]
            else:
                action = policy(state, legal, rng)
        state.apply_action(action)
        last = player
        steps += 1
    return state.returns()


def best_action(state: State, evaluate: Evaluation) -> int:
    """The legal action whose result ``evaluate`` rates best for the seat to act (the lowest
    id among equals): one ply of greedy play."""
    player = state.current_player()
    best, top = -1, -1.0
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        value = evaluate(after)[player]
        if value > top:
            best, top = action, value
    return best


def winning_action(state: State) -> int | None:
    """A legal action after which the game is over with the seat to act ahead of every other
    seat, or None (a decisive move: Teytaud & Teytaud 2010)."""
    player = state.current_player()
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal():
            result = after.returns()
            if all(result[player] > value for seat, value in enumerate(result) if seat != player):
                return action
    return None
