"""OpenSpiel: ``max_game_length`` is a true bound (a hostile game is cut there as a draw, on
every option set), ``undo_action`` takes back exactly the last action, and the game reaches a
spawned worker process."""

from __future__ import annotations

import multiprocessing
import random

import numpy as np
import pyspiel
import pytest

import boardplay
from boardplay.adapters import openspiel
from option_sets import OPTION_SETS, at_most_players
from support import games


def sample(state, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        return rng.choices(outcomes, weights)[0]
    return rng.choice(state.legal_actions())


def hostile(state) -> int:
    """An action that does not end the game, when there is one."""
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal():
            return action
    return state.legal_actions()[0]


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_max_game_length_is_a_true_bound(name: str) -> None:
    game = openspiel.load(name)
    rng = random.Random(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(sample(state, rng) if state.is_chance_node() else hostile(state))
        assert state.move_number() <= game.max_game_length()
    assert len(state.history()) <= game.max_game_length()


def test_an_endless_game_ends_at_the_bound_as_a_draw() -> None:
    game = openspiel.load("proteus")
    assert game.max_game_length() == 1000
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(hostile(state))
    assert not state.boardplay_state.is_terminal()  # the cut, not the rules, ended it
    assert state.move_number() == 1000 and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == [] and state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize("name", [at_most_players(name) for name in boardplay.available()])
def test_undo_action_restores_the_state_exactly(name: str) -> None:
    game = openspiel.load(name)
    rng = random.Random(7)
    for _ in range(games(2, 20)):
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 60)):
            if state.is_terminal():
                break
            before = state.clone()
            player = state.current_player()
            action = sample(state, rng)
            state.apply_action(action)
            if rng.random() < 0.3:
                state.undo_action(player, action)
                assert state.history() == before.history()
                assert state.move_number() == before.move_number()
                assert state.legal_actions() == before.legal_actions()
                assert str(state) == str(before)
                if not state.is_chance_node():
                    p = state.current_player()
                    np.testing.assert_array_equal(
                        state.observation_tensor(p), before.observation_tensor(p)
                    )
                state.apply_action(action)


def test_undo_refuses_what_was_not_the_last_action() -> None:
    game = openspiel.load("potlatch")
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="has not started"):
        state.undo_action(0, 0)
    action = state.legal_actions()[0]
    state.apply_action(action)
    with pytest.raises(pyspiel.SpielError, match="the last action was"):
        state.undo_action(0, action + 1)
    with pytest.raises(pyspiel.SpielError, match="player 0 took it"):
        state.undo_action(1, action)
    assert state.history() == [action]


def play_in_worker(game: pyspiel.Game) -> int:
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(sample(state, rng))
    return len(state.history())


def test_the_game_reaches_a_spawned_worker() -> None:
    game = openspiel.load("proteus(max_turns=40)")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        lengths = pool.map(play_in_worker, [game, game])
    assert lengths[0] == lengths[1] == play_in_worker(game)
