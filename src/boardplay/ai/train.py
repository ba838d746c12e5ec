"""``boardplay train``: masked PPO and self-play baselines on the batched env (needs the
``train`` extra: torch, Stable-Baselines3, sb3-contrib).

Both algorithms are sb3-contrib's ``MaskablePPO`` (the masks keep every sampled action legal)
with a small tanh MLP, stepping many games at once over the compiled kernels
(``boardplay.ai.trainenv``). The learner's seat is drawn anew for every game; the reward is
its zero-sum result at the end (+1 win, -1 loss with two players), nothing in between. The
discount is close to 1 (0.999) because a Montana game asks the learner hundreds of decisions
and only its end pays; measured, 0.99 and 3e-4 learned Montana three times slower.

- ``ppo``: the other seats play uniformly at random (the compiled opponents: the fastest loop).
- ``selfplay``: the other seats are drawn, per game, from a league: ``random`` and frozen
  snapshots of the learner taken every ``snapshot_every`` steps (the newest ``league`` kept), so
  the learner keeps meeting both its past selves and the weakest player.

Every ``eval_every`` steps the policy is exported to NumPy (``boardplay.ai.policy``) and played,
greedily, against ``random`` and the game's ``easy`` level (``boardplay.ai.baselines``); the
curve and the final policy go to the run folder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardplay.ai.baselines import Point, Run, evaluate
from boardplay.ai.policy import PolicyNet
from boardplay.core.errors import OptionError
from boardplay.core.registry import load

ALGORITHMS = ("ppo", "selfplay")

BUDGETS = {"potlatch": 100_000, "proteus": 500_000, "passtally": 1_000_000, "montana": 300_000}
"""Environment steps of the shipped baselines per game: about where the learning curves of
docs/adapters.md flatten against ``random`` on this machine kind."""


def budget(game: str) -> int:
    """The baseline's steps for ``game`` (a game string; its name decides)."""
    return BUDGETS.get(load(game).name, 200_000)


@dataclass
class TrainConfig:
    """What a run trains; the defaults are those of the shipped baselines (docs/adapters.md)."""

    game: str
    algo: str = "ppo"
    steps: int = 0
    """0: the game's baseline budget (``BUDGETS``)."""
    seed: int = 1
    envs: int = 32
    n_steps: int = 64
    hidden: tuple[int, ...] = (64, 64)
    learning_rate: float = 1e-3
    ent_coef: float = 0.01
    gamma: float = 0.999
    epochs: int = 5
    eval_every: int = 0
    """0: a tenth of ``steps`` (ten points per curve)."""
    eval_games: int = 100
    easy_games: int = 40
    final_games: int = 200
    snapshot_every: int = 20_000
    league: int = 5
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        if self.steps == 0:
            self.steps = budget(self.game)
        if self.eval_every == 0:
            self.eval_every = max(1, self.steps // 10)
        if self.algo not in ALGORITHMS:
            raise OptionError(f"unknown algorithm {self.algo!r}; choose one of ppo, selfplay")
        for name in ("steps", "envs", "n_steps", "eval_every", "snapshot_every", "league"):
            if getattr(self, name) < 1:
                raise OptionError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.eval_games < 0 or self.easy_games < 0 or self.final_games < 0:
            raise OptionError("game counts must not be negative")


def export(model: Any, game_string: str, meta: dict[str, Any]) -> PolicyNet:
    """The actor of an SB3 ``MlpPolicy`` (its policy branch and action head) as NumPy layers:
    exactly the logits the torch policy computes, without torch."""
    import torch

    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    layers.append(model.policy.action_net)
    weights = [layer.weight.detach().cpu().numpy().astype(np.float32) for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in layers]
    return PolicyNet(weights, biases, {"game": game_string, **meta})


def train(
    config: TrainConfig, out: Path, report: Callable[[Point], None] | None = None
) -> tuple[Run, PolicyNet]:
    """Train one run; write ``policy.npz`` and ``curve.json`` into ``out``."""
    config.check()
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger

    from boardplay.ai.trainenv import LearnerGames, new_league

    torch.set_num_threads(1)  # small networks: threads cost more than they give on 2 cores
    game = load(config.game)
    league = new_league(config.league)
    env = LearnerGames(game, config.envs, config.seed, league)
    selfplay = config.algo == "selfplay"
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=config.n_steps,
        batch_size=config.envs * config.n_steps // 4,
        learning_rate=config.learning_rate,
        ent_coef=config.ent_coef,
        gamma=config.gamma,
        n_epochs=config.epochs,
        policy_kwargs={"net_arch": {"pi": list(config.hidden), "vf": list(config.hidden)}},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    # SB3 otherwise makes an empty SB3-<date> folder in /tmp at every learn()
    model.set_logger(Logger(folder=None, output_formats=[]))
    meta = {"algo": config.algo, "seed": config.seed}
    points: list[Point] = []
    began = time.perf_counter()
    spent_evaluating = 0.0

    def evaluate_now(steps: int) -> None:
        nonlocal spent_evaluating
        start = time.perf_counter()
        net = export(model, config.game, {**meta, "steps": steps})
        seed = config.seed * 7919 + len(points)
        vs_random = evaluate(net, game, "random", config.eval_games, seed)
        vs_easy = evaluate(net, game, "easy", config.easy_games, seed)
        spent_evaluating += time.perf_counter() - start
        point = Point(
            steps,
            round(time.perf_counter() - began - spent_evaluating, 1),
            vs_random.share,
            vs_easy.share,
        )
        points.append(point)
        if report is not None:
            report(point)

    class Hooks(BaseCallback):
        """Evaluation points and league snapshots, at fixed step counts."""

        def __init__(self) -> None:
            super().__init__()
            self.next_eval = config.eval_every
            self.next_snapshot = config.snapshot_every

        def _on_step(self) -> bool:
            steps = int(self.num_timesteps)
            if selfplay and steps >= self.next_snapshot:
                self.next_snapshot += config.snapshot_every
                league.add(export(model, config.game, meta))
            if steps >= self.next_eval:
                self.next_eval += config.eval_every
                evaluate_now(steps)
            return True

    evaluate_now(0)
    model.learn(total_timesteps=config.steps, callback=Hooks())
    steps = int(model.num_timesteps)
    net = export(model, config.game, {**meta, "steps": steps})
    if not points or points[-1].steps != steps:
        evaluate_now(steps)
    final = {
        opponent: evaluate(net, game, opponent, games, config.seed * 31 + 7).__dict__
        for opponent, games in (("random", config.final_games), ("easy", config.final_games))
        if games
    }
    net.meta["final"] = {k: round(v["share"], 4) for k, v in final.items()}
    run = Run(config.game, config.algo, config.seed, steps, points, final)
    net.save(out / "policy.npz")
    run.save(out)
    env.close()
    return run, net
