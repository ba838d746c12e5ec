"""The batched games with opponents of your choosing (``BoardplayLeagueVectorEnv``): policy
callables per env, leagues drawn per game, random seats, and the learner's own view of the
final position."""

from __future__ import annotations

import numpy as np
import pytest

from boardplay.adapters.leaguevector import BoardplayLeagueVectorEnv
from boardplay.ai.league import League
from boardplay.core.errors import OptionError


class Lowest:
    """A policy that plays the lowest legal action and counts the decisions it is shown."""

    batched = False

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        self.calls += 1
        return int(np.flatnonzero(mask)[0])


class Highest:
    """A batched policy: the highest legal action of every row."""

    batched = True

    def __init__(self) -> None:
        self.rows = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.rows += len(mask)
        return np.array([np.flatnonzero(row)[-1] for row in mask])


def run(envs: BoardplayLeagueVectorEnv, steps: int) -> list[tuple[int, float, bool]]:
    _, info = envs.reset(seed=3)
    out = []
    for _ in range(steps):
        assert (envs._last[2] == envs.seats).all(), "every game waits for the learner"
        actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
        _, rewards, terminated, truncated, info = envs.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            out.append((int(info["final_info"]["seat"][i]), float(rewards[i]), bool(truncated[i])))
            assert info["final_obs"][i].shape == envs.tensor_shape
        assert not rewards[~(terminated | truncated)].any()
    return out


@pytest.mark.parametrize("name", ["potlatch", "proteus(max_turns=40)", "passtally(players=3)"])
def test_per_env_opponents_and_random_seats(name: str) -> None:
    a, b = Lowest(), Highest()
    envs = BoardplayLeagueVectorEnv(
        name, 4, opponents=[a, b, "random", League([a, b])], seat="random"
    )
    ended = run(envs, 200)
    assert ended and a.calls > 0 and b.rows > 0
    assert {seat for seat, _, _ in ended} == set(range(envs.game.num_players))


def test_the_league_is_drawn_per_game() -> None:
    a, b = Lowest(), Highest()
    envs = BoardplayLeagueVectorEnv("potlatch", 6, opponents=League([a, b], weights=[1, 1]))
    drawn = set()
    envs.reset(seed=0)
    for _ in range(300):
        drawn.update(id(m) for m in envs.opponents)
        actions = np.array([np.flatnonzero(row)[0] for row in envs._mask])
        envs.step(actions)
    assert drawn == {id(a), id(b)}


def test_a_cut_game_is_truncated_with_reward_zero() -> None:
    envs = BoardplayLeagueVectorEnv("proteus", 3, opponents=Lowest(), max_actions=15)
    ended = run(envs, 60)
    assert any(cut and reward == 0.0 for _, reward, cut in ended)


def test_agent_specs_are_refused_with_the_reason() -> None:
    with pytest.raises(OptionError, match="agent specs need engine states"):
        BoardplayLeagueVectorEnv("potlatch", 2, opponents="easy")
    with pytest.raises(OptionError, match="one opponent for every env"):
        BoardplayLeagueVectorEnv("potlatch", 2, opponents=[Lowest()])
