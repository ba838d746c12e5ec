"""The Gymnasium env's opponents (policy callables, leagues, snapshots, random seats), its
episode bound against a hostile learner on every option set, and its place in the ecosystem
(gymnasium.make in a fresh process, SB3's make_vec_env, maskable learners through wrappers)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import boardplay
from boardplay.adapters import gymnasium as bg
from boardplay.adapters.opponents import League, snapshot
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from option_sets import OPTION_SETS

SOURCE = Path(__file__).resolve().parents[2] / "src"


class Recorder:
    """A policy that plays the lowest legal action and remembers what it was shown."""

    def __init__(self) -> None:
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        self.calls.append((obs.copy(), mask.copy()))
        return int(np.flatnonzero(mask)[0])


def play_episode(env: gymnasium.Env, seed: int, choose: Any = None) -> tuple[float, bool, bool]:
    _, info = env.reset(seed=seed)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        mask = info["action_mask"]
        action = choose(env) if choose else int(np.flatnonzero(mask)[-1])
        _, reward, terminated, truncated, info = env.step(action)
    return float(reward), terminated, truncated


def test_a_callable_opponent_sees_its_own_seat_and_its_moves_are_played() -> None:
    game = boardplay.load("proteus(max_turns=30)")
    policy = Recorder()
    env = bg.env(game, opponent=policy, seat=0)
    env.reset(seed=1)
    for _ in range(6):
        if env.game_state.is_terminal():
            break
        before = len(policy.calls)
        history = len(env.game_state.history())
        env.step(int(np.flatnonzero(env.action_masks())[0]))
        if len(policy.calls) > before:
            obs, mask = policy.calls[-1]
            assert obs.shape == game.observation_shape() and mask.dtype == np.int8
            assert mask.sum() > 0
            # the lowest legal action of the position it was shown was applied right after
            # the learner's action
            assert env.game_state.history()[history + 1] == int(np.flatnonzero(mask)[0])


def test_an_illegal_answer_from_a_policy_is_named() -> None:
    env = bg.env("potlatch", opponent=lambda obs, mask: -1, seat=1)
    with pytest.raises(OptionError, match="chose -1, which is not legal"):
        env.reset(seed=0)


def test_league_draws_an_opponent_per_episode_by_weight() -> None:
    a, b = Recorder(), Recorder()
    league = League([a, b, "random"], weights=[3, 1, 0])
    env = bg.env("proteus(max_turns=6)", opponent=league, seat=1)
    drawn = []
    for episode in range(80):
        play_episode(env, seed=episode)
        drawn.append(env.opponents[0].policy)
    assert {id(p) for p in drawn} == {id(a), id(b)}  # weight 0: random never drawn
    share = sum(p is a for p in drawn) / len(drawn)
    assert 0.6 < share < 0.9


def test_league_keeps_its_fixed_members_and_the_newest_snapshots() -> None:
    league = League(["random"], keep=2)
    policies = [Recorder() for _ in range(3)]
    for p in policies:
        league.add(p)
    assert league.members == ["random", policies[1], policies[2]]
    with pytest.raises(OptionError, match="weights"):
        League(["random", "easy"], weights=[1])
    with pytest.raises(OptionError, match="an opponent is an agent spec"):
        bg.env("potlatch", opponent=[42])


class Preference:
    """A policy with state a learner would change: it plays ``choice`` when legal."""

    def __init__(self, choice: int) -> None:
        self.choice = choice

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return self.choice if mask[self.choice] else int(legal[0])


def test_a_snapshot_is_frozen() -> None:
    learner = Preference(3)
    frozen = snapshot(learner)
    learner.choice = 7
    mask = np.ones(10, np.int8)
    assert frozen(np.zeros(1), mask) == 3 and learner(np.zeros(1), mask) == 7


def test_a_snapshot_of_a_torch_module_has_no_gradients() -> None:
    torch = pytest.importorskip("torch")
    net = torch.nn.Linear(3, 2)
    frozen = snapshot(net)
    with torch.no_grad():
        net.weight.add_(1.0)
    assert not torch.equal(frozen.weight, net.weight)
    assert not frozen.training and not any(p.requires_grad for p in frozen.parameters())


def test_random_seats_and_rewards_from_the_learners_seat() -> None:
    env = bg.env("potlatch", opponent="random", seat="random")
    seats, results = set(), {0: [], 1: []}
    for episode in range(30):
        reward, terminated, _ = play_episode(env, seed=episode)
        seat = env.seat
        seats.add(seat)
        assert terminated
        returns = env.game_state.returns()
        assert reward == (1.0 if returns[seat] == 1 else -1.0 if returns[seat] == 0 else 0.0)
        results[seat].append(reward)
    assert seats == {0, 1}


def hostile(env: gymnasium.Env) -> int:
    """The learner who never ends the game when it can avoid it (one step of look-ahead)."""
    inner = env.unwrapped
    legal = np.flatnonzero(inner.action_masks())
    for action in legal:
        state = inner.game_state.clone()
        state.apply_action(int(action))
        if not state.is_terminal():
            return int(action)
    return int(legal[0])


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_every_episode_ends_within_the_bound_against_a_hostile_learner(name: str) -> None:
    game: Game = OPTION_SETS[name]
    env = bg.env(game, opponent="random", seat="random")
    _, terminated, truncated = play_episode(env, seed=3, choose=hostile)
    assert terminated or truncated
    assert env.actions_played <= game.episode_limit
    # a short limit cuts every kind of game, and the cut is reported as truncation
    short = bg.env(game, opponent="random", max_actions=40)
    short.reset(seed=4)
    setup = short.actions_played  # before the learner's first decision: never cut
    reward, terminated, truncated = play_episode(short, seed=4, choose=hostile)
    assert short.actions_played <= max(40, setup + 1)
    if truncated:
        assert reward == 0.0 and not terminated and not short.action_masks().any()
        with pytest.raises(boardplay.IllegalActionError, match="episode is over"):
            short.step(0)


def test_endless_rules_are_cut_at_the_documented_limit() -> None:
    """Proteus without max_turns: both sides never end the game, so only the cut ends it."""
    game = boardplay.load("proteus")
    assert not game.bounded and game.episode_limit == 1000

    def never_ending(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    env = bg.env(game, opponent=never_ending, max_actions=200)
    rewards = [play_episode(env, seed=s, choose=hostile) for s in range(3)]
    assert all(r[1] or r[2] for r in rewards)
    assert env.actions_played <= 200


def test_gymnasium_make_in_a_fresh_process(tmp_path: Path) -> None:
    """The start-up hook (the wheel's boardplay-gymnasium.pth) registers the ids when Gymnasium
    is imported: a program that never imports boardplay makes the env by its plain id, and
    nothing of boardplay is loaded before Gymnasium is. The .pth is read from a site directory
    as the interpreter reads the wheel's (make distcheck runs the installed one); with
    BOARDPLAY_GYMNASIUM_IDS=0 the hook stands aside."""
    shutil.copy(SOURCE / "boardplay-gymnasium.pth", tmp_path)
    code = (
        "import site, sys\n"
        f"site.addsitedir({str(tmp_path)!r})\n"
        "assert not [m for m in sys.modules if m.startswith('boardplay')], 'loaded too early'\n"
        "import gymnasium\n"
        "env = gymnasium.make('boardplay/proteus-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(env.spec.max_episode_steps, env.unwrapped.max_actions, obs.shape)\n"
    )

    def run(**extra: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(SOURCE), **extra}
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
        )

    on = run()
    assert on.returncode == 0, on.stderr
    assert on.stdout.split() == ["1000", "1000", "(165,)"]
    off = run(BOARDPLAY_GYMNASIUM_IDS="0")
    assert off.returncode != 0
    assert "Namespace boardplay not found" in off.stderr
    assert "Error processing line" not in off.stderr + on.stderr


def test_wrapped_envs_give_masks_and_state_to_maskable_learners() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    bg.register_envs()
    env = gymnasium.make("boardplay/potlatch-v0", opponent="random")
    env.reset(seed=0)
    np.testing.assert_array_equal(get_action_masks(env), env.unwrapped.action_masks())
    assert env.get_wrapper_attr("game_state") is env.unwrapped.game_state
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vec = make_vec_env("boardplay/proteus-v0", n_envs=2, env_kwargs={"max_turns": 20})
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (2, boardplay.load("proteus").num_distinct_actions)
    assert masks.any(axis=1).all()
    picture = vec.get_images()[0]  # make_vec_env asks for rgb_array: the text, drawn
    assert picture.ndim == 3 and picture.shape[2] == 3 and (picture < 128).any()
