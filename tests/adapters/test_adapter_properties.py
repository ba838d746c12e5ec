"""Property tests: for drawn options and seeds, the three adapters play exactly the engine's
game. The same seeded chance and choices through the engine, OpenSpiel and PettingZoo give the same
history, the same legal actions at every step and the zero-sum image of the engine's returns."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from adapter_cases import ENGINE_CASES
from dicerace import DiceRaceGame
from hypothesis import given, settings
from hypothesis import strategies as st

from boardplay.adapters import openspiel, utilities
from boardplay.adapters import pettingzoo as bpz
from boardplay.core.game import Game, State, sample_chance
from support import games

dicerace_options = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 3]),
        "target": st.integers(3, 12),
        "bonus": st.booleans(),
        "steps": st.sampled_from(["short", "long"]),
        "start_player": st.sampled_from(["random", 0, 1]),
        "max_turns": st.one_of(st.none(), st.integers(1, 6)),
    }
)


def engine_game(game: Game, seed: int) -> State:
    """The reference: the engine alone; chance from ``Random(seed)`` (as the environments sample
    it after ``reset(seed=seed)``), decisions from ``Random(seed + 1)``."""
    state = game.new_initial_state()
    chance, choices = random.Random(seed), random.Random(seed + 1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[choices.randrange(len(legal))])
    return state


def check_openspiel_replays(game: Game, reference: State, seed: int) -> None:
    """The same generators through pyspiel: same legal actions and chance, same end."""
    openspiel.register_class(type(game))
    sg = pyspiel.load_game(openspiel.short_name(game.name), openspiel.game_parameters(game))
    assert sg.boardplay_game == game  # options survive the parameter mapping
    state = sg.new_initial_state()
    chance, choices = random.Random(seed), random.Random(seed + 1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.boardplay_state, chance))
        else:
            legal = state.legal_actions()
            assert legal == state.boardplay_state.legal_actions()
            state.apply_action(legal[choices.randrange(len(legal))])
    assert state.history() == reference.history()
    assert state.returns() == utilities(reference)


def check_pettingzoo_replays(game: Game, reference: State, seed: int) -> None:
    """``reset(seed=seed)`` plus the same decisions: the env selects the seat to act, masks
    exactly its legal actions, resolves chance as the reference did and pays the utilities."""
    env = bpz.raw_env(game)
    env.reset(seed=seed)
    choices = random.Random(seed + 1)
    paid: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert not truncated
        if terminated:
            paid[agent] = float(reward)
            env.step(None)
            continue
        assert not env.game_state.is_chance_node()
        assert agent == f"player_{env.game_state.current_player()}"
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        assert legal == env.game_state.legal_actions()
        env.step(legal[choices.randrange(len(legal))])
    assert env.game_state.history() == reference.history()
    values = utilities(reference)
    assert paid == {f"player_{s}": v for s, v in enumerate(values)}


@settings(max_examples=games(25, 500))
@given(options=dicerace_options, seed=st.integers(0, 2**31 - 2))
def test_dicerace_through_every_adapter(options: dict[str, object], seed: int) -> None:
    game = DiceRaceGame(options)
    reference = engine_game(game, seed)
    check_openspiel_replays(game, reference, seed)
    check_pettingzoo_replays(game, reference, seed)


@pytest.mark.parametrize("case", sorted(ENGINE_CASES))
@settings(max_examples=games(2, 40))
@given(seed=st.integers(0, 2**31 - 2))
def test_engines_through_every_adapter(case: str, seed: int) -> None:
    game = ENGINE_CASES[case]()
    reference = engine_game(game, seed)
    check_openspiel_replays(game, reference, seed)
    check_pettingzoo_replays(game, reference, seed)
