"""PettingZoo adapter: PettingZoo's api_test and seed_test, terminal zero-sum rewards, chance
resolved inside the environment, ansi rendering and illegal actions."""

from __future__ import annotations

import warnings

import numpy as np
import pettingzoo
import pytest
from adapter_cases import GameFactory
from dicerace import DiceRaceGame
from pettingzoo.test import api_test, seed_test

import boardplay
from boardplay.adapters import pettingzoo as bpz
from boardplay.adapters import utilities
from boardplay.core.errors import IllegalActionError


def play(env: bpz.BoardplayAECEnv, seed: int) -> dict[str, float]:
    """Play a seeded random game; return each agent's reward as reported by ``last()``."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert not truncated
        if terminated:
            final[agent] = float(reward)
            env.step(None)
            continue
        assert reward == 0.0
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == env.game_state.legal_actions()
        env.step(int(rng.choice(legal)))
    return final


def test_api_test(make_game: GameFactory) -> None:
    with warnings.catch_warnings():
        # dict observations draw PettingZoo's generic "should be a Box" advice
        warnings.simplefilter("ignore", UserWarning)
        api_test(bpz.env(make_game(), render_mode="ansi"), num_cycles=60)


def test_seed_test(make_game: GameFactory) -> None:
    seed_test(lambda: bpz.env(make_game()), num_cycles=40)


def test_spaces_and_observations(make_game: GameFactory) -> None:
    game = make_game()
    env = bpz.raw_env(game)
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{s}" for s in range(game.num_players)]
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert obs["observation"].shape == game.observation_shape()
        assert list(obs["observation"].ravel()) == pytest.approx(
            env.game_state.observation_tensor(seat)
        )
        assert obs["action_mask"].shape == (game.num_distinct_actions,)
        assert env.observation_space(agent).contains(obs)
        to_act = env.game_state.current_player() == seat
        assert obs["action_mask"].any() == to_act
    assert env.agent_selection == f"player_{env.game_state.current_player()}"
    assert (env.state() == env.observe("player_0")["observation"]).all()
    assert env.state_space.contains(env.state())


def test_rewards_are_the_zero_sum_utilities(make_game: GameFactory) -> None:
    env = bpz.raw_env(make_game())
    final = play(env, seed=4)
    assert env.game_state.is_terminal()
    assert env.agents == []
    expected = utilities(env.game_state)
    assert final == {f"player_{s}": expected[s] for s in range(len(expected))}


def test_chance_never_reaches_the_agents_and_multi_action_turns_repeat_an_agent() -> None:
    env = bpz.raw_env(DiceRaceGame())
    env.reset(seed=9)
    seen_repeat = False
    previous = None
    while not env.game_state.is_terminal():
        assert not env.game_state.is_chance_node()
        agent = env.agent_selection
        seen_repeat |= agent == previous
        previous = agent
        env.step(0)
    assert seen_repeat
    assert any(a in env.game_state.history() for a in (1, 2))  # die outcomes were applied


def test_same_seed_same_game_other_seed_other_chance() -> None:
    def history(seed: int) -> list[int]:
        env = bpz.raw_env(DiceRaceGame({"target": 30}))
        env.reset(seed=seed)
        while not env.game_state.is_terminal():
            env.step(0)
        return env.game_state.history()

    assert history(3) == history(3)
    assert len({tuple(history(s)) for s in range(8)}) > 1


def test_render_ansi_is_the_engine_picture() -> None:
    env = bpz.env(DiceRaceGame(), render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.unwrapped.game_state.render()
    with pytest.raises(ValueError, match="render_mode"):
        bpz.env(DiceRaceGame(), render_mode="human")


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = bpz.raw_env(DiceRaceGame())
    env.reset(seed=0)
    before = env.game_state.to_json()
    with pytest.raises(IllegalActionError, match="not a legal move"):
        env.step(5)
    assert env.game_state.to_json() == before


def test_options_by_keyword_and_name() -> None:
    env = bpz.raw_env(DiceRaceGame({"players": 3}))
    assert len(env.possible_agents) == 3
    with pytest.raises(TypeError, match="not both"):
        bpz.raw_env(DiceRaceGame(), players=3)


def test_registered_ids_make_envs_with_options() -> None:
    ids = bpz.register_envs()
    assert bpz.register_envs() == ids == [f"boardplay/{g}-v0" for g in boardplay.available()]
    for name in boardplay.available():
        env = pettingzoo.make("aec", f"boardplay/{name}-v0")
        assert env.unwrapped.game == boardplay.load(name)
    if "passtally" in boardplay.available():
        env = pettingzoo.make("aec", "boardplay/passtally-v0", players=3)
        assert env.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
