"""Gymnasium adapter: Gymnasium's check_env, whole episodes against boardplay agents, the action
mask in info, illegal actions and seats."""

from __future__ import annotations

import inspect
import warnings

import gymnasium
import numpy as np
import pytest
from adapter_cases import GameFactory
from dicerace import DiceRaceGame
from gymnasium.utils.env_checker import check_env

import boardplay
from boardplay.adapters import IllegalActionWarning, utilities
from boardplay.adapters import gymnasium as bg
from boardplay.core.errors import IllegalActionError, OptionError

# Only the agents that exist are used here; the default opponent is checked separately.
OPPONENT = "random"


def test_check_env(make_game: GameFactory) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # unbounded Box advice
        check_env(bg.env(make_game(), opponent=OPPONENT, render_mode="ansi"))


def test_default_opponent_is_cheap_random() -> None:
    """A search opponent costs 50-100 times a random one per step: asked for, never a default."""
    assert inspect.signature(bg.env).parameters["opponent"].default == "random"
    assert bg.BoardplayEnv(DiceRaceGame()).opponent_seats == ["random"]


def test_unknown_opponent_fails_at_construction() -> None:
    with pytest.raises(OptionError, match="unknown agent"):
        bg.env(DiceRaceGame(), opponent="nobody")


def test_whole_episode(make_game: GameFactory) -> None:
    game = make_game()
    env = bg.env(game, opponent=OPPONENT)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    while True:
        assert obs.shape == game.observation_shape()
        assert env.game_state.current_player() == env.seat
        legal = np.flatnonzero(info["action_mask"])
        assert list(legal) == env.game_state.legal_actions()
        assert (env.action_masks() == info["action_mask"]).all()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
        assert not truncated
        if terminated:
            break
        assert reward == 0.0
    assert env.game_state.is_terminal()
    assert reward == utilities(env.game_state)[env.seat]
    assert not info["action_mask"].any()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)


def test_illegal_action_loses_or_raises() -> None:
    env = bg.env(DiceRaceGame({"start_player": 0}), opponent=OPPONENT)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(1)  # legal
    assert not terminated
    before = env.game_state.to_json()
    with pytest.warns(IllegalActionWarning):
        _, reward, terminated, _, info = env.step(9)
    assert terminated and reward == -1.0 and info["illegal_action"]
    assert env.game_state.to_json() == before
    strict = bg.env(DiceRaceGame({"start_player": 0}), opponent=OPPONENT, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not a legal move"):
        strict.step(9)


def test_the_first_illegal_action_warns_how_to_mask() -> None:
    """Research review 2026-11d, N4: SB3's plain PPO on the registered env chose illegal actions
    from the first move and scored 0%, and nothing said why. The env's first illegal action
    warns, naming the mask; later ones (of this env) stay quiet, legal ones never warn."""
    env = bg.env(DiceRaceGame({"start_player": 0}), opponent=OPPONENT)
    env.reset(seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(1)  # legal
        assert not caught
        env.step(9)
        env.reset(seed=1)
        env.step(9)
    assert [w.category for w in caught] == [IllegalActionWarning]
    words = str(caught[0].message)
    assert "illegal='lose'" in words and "action_mask" in words and "MaskablePPO" in words
    assert caught[0].filename == __file__  # points at the caller's step, not the adapter


def test_seats_and_opponents() -> None:
    game = DiceRaceGame({"players": 3})
    seats = set()
    for seed in range(12):
        env = bg.env(game, opponent=["random", "random"], seat="random")
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert sorted(env.opponents) == sorted(set(range(3)) - {env.seat})
    assert seats == {0, 1, 2}
    with pytest.raises(OptionError, match="2 opponent"):
        bg.env(game, opponent=["random"])
    with pytest.raises(OptionError, match="seat"):
        bg.env(game, opponent=OPPONENT, seat=3)


def test_seeded_episodes_replay() -> None:
    def run(seed: int) -> list[int]:
        env = bg.env(DiceRaceGame({"target": 20}), opponent=OPPONENT)
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        return env.game_state.history()

    assert run(5) == run(5)
    assert len({tuple(run(s)) for s in range(6)}) > 1


@pytest.mark.parametrize("name", boardplay.available())
def test_registered_ids_make_checked_envs(name: str) -> None:
    ids = bg.register_envs()
    assert bg.register_envs() == ids == [f"boardplay/{g}-v0" for g in boardplay.available()]
    made = gymnasium.make(f"boardplay/{name}-v0", opponent=OPPONENT, render_mode="ansi")
    assert made.unwrapped.game == boardplay.load(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(made.unwrapped)  # with a spec, the render modes are checked too
