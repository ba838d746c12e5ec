"""``boardplay train``: the learner's games (boardplay.ai.trainenv), the export of a trained
network to NumPy, a short real training run, and the command's errors (needs torch)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from option_sets import KERNEL_GAMES, at_most_players
from support import games

pytest.importorskip("torch", reason="the train extra is not installed")

import torch
from sb3_contrib import MaskablePPO

from boardplay.ai.league import League
from boardplay.ai.policy import PolicyNet
from boardplay.ai.train import TrainConfig, export, train
from boardplay.ai.trainenv import RANDOM, LearnerGames, new_league
from boardplay.cli.main import app
from boardplay.core.errors import OptionError
from boardplay.core.registry import load


def play_randomly(env: LearnerGames, steps: int, seed: int = 0) -> list[tuple[float, dict]]:
    """Step ``env`` with random legal learner actions; the (reward, info) of every finished game."""
    rng = np.random.default_rng(seed)
    finished = []
    env.reset()
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        _, rewards, dones, infos = env.step(actions)
        finished += [(float(rewards[i]), infos[i]) for i in np.flatnonzero(dones)]
        assert not rewards[~dones].any(), "a reward only comes with the end of a game"
    return finished


@pytest.mark.parametrize("name", [at_most_players(name) for name in KERNEL_GAMES])
def test_the_learner_sees_its_own_seat_and_only_legal_choices(name: str) -> None:
    game = load(name)
    env = LearnerGames(game, 6, seed=3, league=None)
    obs = env.reset()
    for i, kernel in enumerate(env.kernels):
        assert kernel.current_player() == env.seats[i], "every game waits for the learner"
        expected = np.zeros(env.size, np.float32)
        kernel.observe(env.seats[i], expected)
        np.testing.assert_array_equal(obs[i], expected)
        assert sorted(np.flatnonzero(env.action_masks()[i])) == sorted(kernel.legal_actions())
    finished = play_randomly(env, games(60, 600))
    n = game.num_players
    for reward, info in finished:
        assert reward in (1.0, -1.0 / (n - 1), 0.0) or -1.0 <= reward <= 1.0
        assert info["terminal_observation"].shape == (env.size,)


def test_seats_are_drawn_per_game_and_rewards_follow_the_learners_seat() -> None:
    env = LearnerGames(load("potlatch"), 8, seed=1, league=None)
    seen: set[int] = set()
    env.reset()
    for _ in range(200):
        seen.update(env.seats)
        masks = env.action_masks()
        env.step(np.array([np.flatnonzero(row)[0] for row in masks]))
    assert seen == {0, 1}
    # a random learner against random players wins about half of the games, whatever its seat
    results = [r for r, _ in play_randomly(LearnerGames(load("potlatch"), 16, 2, None), 400)]
    wins = sum(r > 0 for r in results) / len(results)
    assert 0.3 < wins < 0.7


def test_a_game_longer_than_the_limit_is_cut_as_a_draw() -> None:
    env = LearnerGames(load("proteus"), 4, seed=5, league=None)
    env.limit = 6  # far below any real game: every game is cut
    finished = play_randomly(env, 40)
    assert finished
    assert all(r == 0.0 and info.get("TimeLimit.truncated") for r, info in finished)
    assert all(length <= 6 for length in env.lengths)


def test_the_training_league_keeps_random_and_the_newest_snapshots() -> None:
    league = new_league(keep=2)
    nets = [PolicyNet([np.zeros((1, 1), np.float32)], [np.zeros(1, np.float32)]) for _ in range(3)]
    for net in nets:
        league.add(net)
    assert league.members == [RANDOM, nets[1], nets[2]]
    rng = np.random.default_rng(0)
    drawn = {id(league.draw(rng)) for _ in range(60)}
    assert drawn == {id(m) for m in league.members}
    league.add("easy")
    with pytest.raises(ValueError, match="'random' and PolicyNet snapshots"):
        LearnerGames(load("potlatch"), 2, seed=0, league=league)


def test_snapshot_opponents_play_their_own_moves_to_the_end() -> None:
    game = load("proteus(max_turns=60)")
    size, actions = int(np.prod(game.observation_shape())), game.num_distinct_actions
    rng = np.random.default_rng(0)
    net = PolicyNet(
        [rng.normal(0, 0.3, (8, size)).astype(np.float32), np.eye(actions, 8, dtype=np.float32)],
        [np.zeros(8, np.float32), np.zeros(actions, np.float32)],
    )
    env = LearnerGames(game, 4, seed=2, league=League([net]))
    assert len(play_randomly(env, 300)) > 0
    assert all(opponent is net for opponent in env.opponents)


def test_export_gives_the_torch_policys_logits() -> None:
    game = load("proteus")
    env = LearnerGames(game, 2, seed=0, league=None)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=16, seed=0, device="cpu")
    net = export(model, "proteus", {})
    obs = env.reset()
    with torch.no_grad():
        features = model.policy.extract_features(
            torch.as_tensor(obs), model.policy.pi_features_extractor
        )
        latent = model.policy.mlp_extractor.forward_actor(features)
        expected = model.policy.action_net(latent).numpy()
    np.testing.assert_allclose(net.logits(obs), expected, rtol=1e-5, atol=1e-5)


def test_a_short_run_writes_its_policy_and_curve(tmp_path: Path) -> None:
    config = TrainConfig(
        "potlatch",
        algo="selfplay",
        steps=2_000,
        envs=8,
        n_steps=32,
        eval_every=1_000,
        eval_games=4,
        easy_games=2,
        final_games=4,
        snapshot_every=500,
        hidden=(16, 8),
        learning_rate=3e-4,
    )
    run, net = train(config, tmp_path)
    assert [w.shape for w in net.weights][:2] == [(16, net.weights[0].shape[1]), (8, 16)]
    assert run.steps >= 2_000 and next(p.steps for p in run.points) == 0
    assert len(run.points) >= 3
    assert json.loads((tmp_path / "curve.json").read_text())["algo"] == "selfplay"
    loaded = PolicyNet.load(tmp_path / "policy.npz")
    assert loaded.meta["game"] == "potlatch" and loaded.meta["algo"] == "selfplay"
    assert set(run.final) == {"random", "easy"}


def test_bad_training_requests_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="unknown algorithm 'alphazero'"):
        TrainConfig("potlatch", algo="alphazero").check()
    runner = CliRunner()
    result = runner.invoke(app, ["train", "potlatch", "--algo", "dqn", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "unknown algorithm 'dqn'" in result.output
    result = runner.invoke(app, ["train", "potlatch", "--ship", "../evil", "--out", str(tmp_path)])
    assert result.exit_code == 2
    for hidden in ("x", "64,0", ""):
        result = runner.invoke(
            app, ["train", "potlatch", "--hidden", hidden, "--out", str(tmp_path)]
        )
        assert result.exit_code == 2 and "--hidden takes layer widths" in result.output
    assert not list(tmp_path.iterdir())  # nothing was trained
    result = runner.invoke(app, ["baselines", str(tmp_path)])
    assert result.exit_code == 2 and "no training runs" in result.output
