"""The batched envs cut every game at ``max_actions`` (default ``Game.episode_limit``), even
when the caller never ends a game on purpose; a cut is a truncation with rewards 0 and the
game restarts in the same step, with Gymnasium's vector info keys."""

from __future__ import annotations

import numpy as np
import pytest

import boardplay
from boardplay.adapters.vector import BatchedGames, BoardplayVectorEnv
from boardplay.core.errors import OptionError
from boardplay.core.game import TERMINAL
from option_sets import KERNEL_SETS


def hostile_actions(games: BatchedGames, mask: np.ndarray) -> np.ndarray:
    """For each game, an action that does not end it when one exists (a kernel look-ahead)."""
    actions = np.zeros(games.size, dtype=np.int64)
    for i in range(games.size):
        legal = np.flatnonzero(mask[i])
        actions[i] = legal[0]
        kernel = games.batch.game(i)
        for action in legal:
            trial = kernel.clone()
            trial.step(int(action))
            if trial.current_player() != TERMINAL:
                actions[i] = action
                break
    return actions


@pytest.mark.parametrize("name", sorted(KERNEL_SETS))
def test_no_game_outlives_the_limit(name: str) -> None:
    """Every option set of the games that run on a compiled kernel (batching is the kernel's)."""
    game = KERNEL_SETS[name]
    games = BatchedGames(game, 3, max_actions=60)
    _, mask, _ = games.reset(seed=1)
    decisions = np.zeros(3, dtype=int)
    ended = 0
    for _ in range(150):
        _, mask, _, rewards, terminated = games.step(hostile_actions(games, mask))
        decisions += 1
        done = terminated | games.truncated
        assert (decisions[~done] < 60).all(), "a game ran past its limit"
        assert not rewards[games.truncated].any(), "a cut game scores nothing"
        ended += int(done.sum())
        decisions[done] = 0
    assert ended > 0


def test_an_endless_game_is_cut_at_the_documented_limit() -> None:
    envs = BoardplayVectorEnv("proteus", 4)
    assert envs.max_actions == boardplay.load("proteus").episode_limit == 1000
    envs = BoardplayVectorEnv("proteus", 4, max_actions=12)
    _, info = envs.reset(seed=2)
    seen_cut = False
    for _ in range(60):
        actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
        _, rewards, terminated, truncated, info = envs.step(actions)
        if truncated.any():
            seen_cut = True
            assert not rewards[truncated].any()
            assert info["_final_obs"][truncated].all() and info["_final_info"][truncated].all()
            assert info["final_obs"].shape == (4, *envs.tensor_shape)
        assert not (terminated & truncated).any()
    assert seen_cut


def test_options_are_keywords_and_bad_ones_are_named() -> None:
    envs = BoardplayVectorEnv("proteus", 2, max_turns=30)
    assert envs.game.options["max_turns"] == 30 and envs.max_actions == 30
    games = BatchedGames("passtally", 2, players=3)
    assert games.game.num_players == 3
    with pytest.raises(OptionError, match="no option 'speed'"):
        BoardplayVectorEnv("proteus", 2, speed=3)
    with pytest.raises(OptionError, match="max_actions must be a positive integer"):
        BatchedGames("potlatch", 2, max_actions=0)
