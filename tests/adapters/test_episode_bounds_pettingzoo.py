"""PettingZoo: every episode ends within ``max_actions`` (default ``Game.episode_limit``), even
when every agent avoids ending the game; the cut is a truncation (rewards 0) that PettingZoo's
own ``api_test`` accepts."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import boardplay
from boardplay.adapters import pettingzoo as bp
from boardplay.core.errors import OptionError
from option_sets import OPTION_SETS


def play_hostile(env, seed: int) -> tuple[int, bool, bool]:
    """Every agent picks an action that does not end the game when one exists. Returns the
    game's length in actions and whether it was terminated or truncated."""
    env.reset(seed=seed)
    raw = env.unwrapped
    ended = {"terminated": False, "truncated": False}
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            ended["terminated"] |= terminated
            ended["truncated"] |= truncated
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        choice = int(legal[0])
        for action in legal:
            state = raw.game_state.clone()
            state.apply_action(int(action))
            if not state.is_terminal():
                choice = int(action)
                break
        env.step(choice)
    return len(raw.game_state.history()), ended["terminated"], ended["truncated"]


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_every_episode_ends_within_the_bound(name: str) -> None:
    game = OPTION_SETS[name]
    length, terminated, truncated = play_hostile(bp.env(game), seed=1)
    assert terminated or truncated
    assert length <= game.episode_limit
    length, terminated, truncated = play_hostile(bp.env(game, max_actions=30), seed=2)
    assert length <= 30 and (terminated or truncated)


def test_an_endless_game_is_truncated_with_zero_rewards() -> None:
    env = bp.env("proteus", max_actions=50)
    length, terminated, truncated = play_hostile(env, seed=0)
    assert truncated and not terminated and length == 50
    assert env.unwrapped.game_state.is_terminal() is False


def test_truncation_passes_the_api_test() -> None:
    api_test(bp.env("passtally", max_actions=12), num_cycles=30)


def test_a_bad_limit_is_refused() -> None:
    with pytest.raises(OptionError, match="max_actions must be a positive integer"):
        bp.env("potlatch", max_actions=0)
    assert bp.env(boardplay.load("proteus")).unwrapped.max_actions == 1000
