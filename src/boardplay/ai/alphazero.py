"""``boardplay train GAME --algo alphazero``: a policy/value network trained by self-play with
the compiled PUCT search (``boardplay.ai.puct``), AlphaZero's loop; each iteration's games in
this process, in worker processes or on a Ray cluster (``boardplay.ai.azgames``).

An iteration plays ``games_per_iteration`` games of the current network against itself: at each
decision the search runs ``simulations`` simulations from a fresh tree whose root priors carry
Dirichlet noise (``alpha``, ``epsilon``); the move is drawn in proportion to the root's visits for
the first ``temperature_moves`` decisions of a game, the most visited afterwards. Every decision
keeps the network's input from the mover's view, the root's visit distribution (the policy
target) and, once the game ends, the final returns seen from the mover (``2 · return − 1`` per
seat, the mover's first), blended with the root search's value (``q_mix``) as the value
target: one game's result alone is a noisy target, and a first network fitted to it overfitted
(``fresh_value_loss``, the loss on the newest games before training on them, says how well it
generalises). The newest ``window`` iterations' positions are
the replay buffer; the network (torch, one thread) then takes ``updates`` Adam steps of
``batch`` positions on cross-entropy to the visits plus squared error to the returns, and is
exported to ``network.npz`` (the compiled search reads it at once). Every ``eval_every``
iterations it plays ``eval_games`` games (seats alternated) with ``eval_simulations`` a move
against ``opponent`` (the game's ``medium`` by default): the curve in ``alphazero.json``, beside the
budget (CPU seconds, games, simulations), the config and the seed. The network with the best
score so far is also kept as ``best.npz``.

``init`` starts the run from a network file instead of random weights (same game, input and
widths; anything else is refused with the difference named), so a run can be resumed or
extended: the weights carry over, Adam's moments and the replay buffer start empty, and the
meta of every network written says where it started (``init``, with that file's games).
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardplay.ai.az import build_network, read_arrays, save_arrays
from boardplay.ai.azgames import (
    GameJob,
    Played,
    SelfPlay,
    game_pool,
    network_input,
    play_jobs,
    self_play_game,
)
from boardplay.ai.puct import Puct
from boardplay.ai.teacher import teacher_agent, teacher_game
from boardplay.core.errors import OptionError
from boardplay.core.kernel import Kernel
from boardplay.core.registry import load


@dataclass
class AZConfig:
    """A run's settings (the defaults are those of the shipped Proteus network's run)."""

    game: str
    games: int = 2000
    """Self-play games in all."""
    seed: int = 1
    simulations: int = 100
    hidden: tuple[int, ...] = (128, 128)
    games_per_iteration: int = 50
    window: int = 20
    """Iterations whose positions form the replay buffer."""
    updates: int = 60
    q_mix: float = 0.5
    """Weight of the root search's value in the value target (the rest: the game's result)."""
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    c: float = 1.5
    alpha: float = 0.3
    epsilon: float = 0.25
    temperature_moves: int = 12
    eval_every: int = 5
    eval_games: int = 40
    eval_simulations: int = 200
    opponent: str = "medium"
    init: str | None = None
    """A network file to start from (``--init``); None: random weights."""
    teacher: str | None = None
    """An MCTS spec whose games replace self-play for the first ``teacher_iterations``
    (expert iteration, ``boardplay.ai.teacher``); None: self-play from the start."""
    teacher_iterations: int = 0
    workers: int = 0
    """Processes that play each iteration's games (``boardplay.ai.azgames``): 0 plays them in
    the run's own process from its one random stream; any other count gives each game a seed
    of its own, so every count gives the same run."""
    ray: str | None = None
    """A Ray cluster's address that plays the games instead, as ``workers`` would."""
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        for name in (
            "games",
            "simulations",
            "games_per_iteration",
            "window",
            "batch",
            "eval_every",
            "eval_simulations",
        ):
            if getattr(self, name) < 1:
                raise OptionError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.teacher_iterations < 0 or self.workers < 0:
            raise OptionError("teacher_iterations and workers must not be negative")
        if self.updates < 0 or self.eval_games < 0 or self.temperature_moves < 0:
            raise OptionError("updates, eval_games and temperature_moves must not be negative")
        if not self.hidden or min(self.hidden) < 1:
            raise OptionError("hidden takes one or more positive layer widths")


@dataclass
class Budget:
    """What a run spent: CPU seconds of self-play, of training and of evaluation."""

    games: int = 0
    positions: int = 0
    simulations: int = 0
    selfplay_cpu: float = 0.0
    train_cpu: float = 0.0
    eval_cpu: float = 0.0


class Learner:
    """The torch network (trunk of ReLU layers, a policy and a tanh value head) and its
    optimiser; ``arrays`` exports it in the ``.npz`` layout of ``boardplay.ai.az``."""

    def __init__(self, inputs: int, actions: int, seats: int, config: AZConfig) -> None:
        import torch

        torch.set_num_threads(1)  # one core: the machine is shared
        torch.manual_seed(config.seed)
        self.torch = torch
        widths = [inputs, *config.hidden]
        self.trunk = torch.nn.ModuleList(
            torch.nn.Linear(a, b) for a, b in itertools.pairwise(widths)
        )
        self.policy = torch.nn.Linear(widths[-1], actions)
        self.value = torch.nn.Linear(widths[-1], seats)
        params = [*self.trunk.parameters(), *self.policy.parameters(), *self.value.parameters()]
        self.optimiser = torch.optim.Adam(
            params, lr=config.learning_rate, weight_decay=config.weight_decay
        )

    def forward(self, x: Any) -> tuple[Any, Any]:
        h = x
        for layer in self.trunk:
            h = self.torch.relu(layer(h))
        return self.policy(h), self.torch.tanh(self.value(h))

    def losses(self, x: np.ndarray, pi: np.ndarray, z: np.ndarray) -> tuple[Any, Any]:
        """The policy's cross-entropy to the visits and the values' squared error."""
        t = self.torch
        logits, values = self.forward(t.from_numpy(x))
        cross = -(t.from_numpy(pi) * t.log_softmax(logits, dim=1)).sum(dim=1).mean()
        return cross, ((values - t.from_numpy(z)) ** 2).mean()

    def fit(self, x: np.ndarray, pi: np.ndarray, z: np.ndarray) -> tuple[float, float]:
        """One Adam step on a batch; its policy and value losses before it."""
        cross, squared = self.losses(x, pi, z)
        self.optimiser.zero_grad()
        (cross + squared).backward()
        self.optimiser.step()
        return float(cross.item()), float(squared.item())

    def arrays(self) -> dict[str, np.ndarray]:
        def out(layer: Any) -> tuple[np.ndarray, np.ndarray]:
            return (
                layer.weight.detach().numpy().T.astype(np.float32).copy(),
                layer.bias.detach().numpy().astype(np.float32).copy(),
            )

        arrays: dict[str, np.ndarray] = {}
        for i, layer in enumerate(self.trunk):
            arrays[f"trunk{i}_w"], arrays[f"trunk{i}_b"] = out(layer)
        arrays["policy_w"], arrays["policy_b"] = out(self.policy)
        arrays["value_w"], arrays["value_b"] = out(self.value)
        return arrays

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        """Take the weights of ``arrays`` (the ``.npz`` layout); their shapes must be this
        network's (``warm_start`` checks that first)."""
        t = self.torch
        layers = [*self.trunk, self.policy, self.value]
        names = [*(f"trunk{i}" for i in range(len(self.trunk))), "policy", "value"]
        with t.no_grad():
            for layer, name in zip(layers, names, strict=True):
                layer.weight.copy_(t.from_numpy(np.ascontiguousarray(arrays[f"{name}_w"].T)))
                layer.bias.copy_(t.from_numpy(np.ascontiguousarray(arrays[f"{name}_b"])))


def warm_start(learner: Learner, path: Path, game: str, input_kind: str) -> dict[str, Any]:
    """Load the network at ``path`` into ``learner`` when it was made for ``game`` (its name;
    options may differ, as a turn cap for self-play) with the same input and layer shapes;
    otherwise an ``OptionError`` naming the difference. Returns what the meta records."""
    if not path.is_file():
        raise OptionError(f"--init: no network file {str(path)!r}")
    try:
        arrays, meta = read_arrays(path)
    except (OSError, ValueError) as exc:
        raise OptionError(f"--init: {str(path)!r} is not a network file ({exc})") from None
    made_for = str(meta.get("game", "?")).split("(")[0]
    if made_for != game.split("(")[0]:
        raise OptionError(f"--init: {str(path)!r} was trained for {made_for}, not {game}")
    if meta.get("input", "observation") != input_kind:
        raise OptionError(
            f"--init: {str(path)!r} reads the {meta.get('input', 'observation')} input, "
            f"this run the {input_kind} one"
        )
    mine = learner.arrays()
    if set(arrays) != set(mine):
        raise OptionError(
            f"--init: {str(path)!r} has {len([k for k in arrays if k.startswith('trunk')]) // 2} "
            f"hidden layers, this run {len(learner.trunk)} (--hidden)"
        )
    for key, value in mine.items():
        if arrays[key].shape != value.shape:
            raise OptionError(
                f"--init: {str(path)!r} has {key} of shape {arrays[key].shape}, this run "
                f"{value.shape} (--hidden and the game's sizes must match)"
            )
    learner.load(arrays)
    return {"path": str(path), "games": meta.get("games"), "init": meta.get("init")}


def value_targets(returns: list[float], player: int) -> np.ndarray:
    """``2 · return − 1`` per seat, the mover's first (the value head's order)."""
    seats = len(returns)
    return np.array([2.0 * returns[(player + j) % seats] - 1.0 for j in range(seats)], np.float32)


def mixed_targets(z: np.ndarray, q: np.ndarray, mix: float) -> np.ndarray:
    """Value targets ``(1 − mix) z + mix q``: the final results ``z`` (rows of seats, the
    mover's first) blended with the root searches' values ``q`` (the mover's mean return), which
    are far less noisy than one game's result; with two seats the other's is ``1 − q``."""
    target = z.copy()
    search = 2.0 * q - 1.0
    target[:, 0] = (1.0 - mix) * z[:, 0] + mix * search
    if z.shape[1] == 2:
        target[:, 1] = (1.0 - mix) * z[:, 1] - mix * search
    return target


def score_against(path: Path, config: AZConfig, games: int, seed: int) -> dict[str, Any]:
    """The network at ``path`` (``eval_simulations`` a move) against ``opponent``: its share of
    the points (a draw counts half), seats rotated."""
    from boardplay.ai.arena import run_arena

    spec = f"az(weights={path},iterations={config.eval_simulations})"
    result = run_arena(load(config.game), [spec, config.opponent], games, seed=seed)
    tally = result.agents[0]
    return {
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "score": round(tally.win_rate, 4),
    }


def train_alphazero(
    config: AZConfig, out: Path, report: Callable[[dict[str, Any]], None] | None = None
) -> dict[str, Any]:
    """Run the loop (see the module docstring) into ``out``; returns the run's summary."""
    config.check()
    game = load(config.game)
    kernel = game.new_initial_state().kernel
    if not isinstance(kernel, Kernel):
        raise OptionError(f"alphazero needs a game with a compiled kernel; {game} has none")
    compact = kernel.observation_size == 0 or kernel.observation_size > 4096
    inputs = kernel.compact_size if compact else kernel.observation_size
    seats, actions = kernel.num_players, kernel.action_space
    learner = Learner(inputs, actions, seats, config)
    rng = np.random.default_rng(config.seed)
    random.seed(config.seed)
    meta: dict[str, Any] = {
        "game": str(game),
        "input": "compact" if compact else "observation",
        "algo": "alphazero",
        "seed": config.seed,
    }
    if config.init is not None:
        meta["init"] = warm_start(learner, Path(config.init), str(game), meta["input"])
    if config.teacher is not None and config.teacher_iterations:
        teacher_agent(game, config.teacher, 0)  # a bad spec fails before any game
        meta["teacher"] = {"spec": config.teacher, "iterations": config.teacher_iterations}
    buffer: deque[tuple[np.ndarray, np.ndarray, np.ndarray]] = deque(maxlen=config.window)
    budget = Budget()
    curve: list[dict[str, Any]] = []
    best = -1.0
    out.mkdir(parents=True, exist_ok=True)
    iteration = 0

    def write(summary: dict[str, Any]) -> None:
        (out / "alphazero.json").write_text(json.dumps(summary, indent=1) + "\n")

    settings = SelfPlay(
        config.simulations, config.c, config.alpha, config.epsilon, config.temperature_moves
    )

    def games_here(played: int, taught: bool) -> Iterator[tuple[Played, float]]:
        """The iteration's games in this process, from the run's random stream (the CPU is
        counted around them)."""
        network = build_network(learner.arrays(), meta)
        search = Puct(kernel, network, c=config.c, seed=int(rng.integers(1 << 62)))
        for _ in range(played):
            if taught:
                assert config.teacher is not None
                yield (
                    teacher_game(
                        game,
                        config.teacher,
                        rng,
                        config.temperature_moves,
                        lambda k, p, x: network_input(k, p, compact, x),
                        inputs,
                    ),
                    0.0,
                )
            else:
                yield self_play_game(game, search, settings, rng, compact, inputs), 0.0

    def games_away(played: int, taught: bool) -> Iterator[tuple[Played, float]]:
        """The iteration's games on ``pool``, each from a seed drawn here in order."""
        arrays = None if taught else learner.arrays()
        jobs = [
            GameJob(
                str(game),
                int(rng.integers(1 << 62)),
                compact,
                inputs,
                settings,
                teacher=config.teacher if taught else None,
                arrays=arrays,
                meta=None if taught else meta,
            )
            for _ in range(played)
        ]
        return play_jobs(jobs, pool)

    def run_iteration(
        iteration: int, games: Callable[[int, bool], Iterator[tuple[Played, float]]]
    ) -> dict[str, Any]:
        """One iteration: its games, the fit on the buffer, the curve's point; the summary."""
        nonlocal best
        started = time.process_time()
        xs, pis, zs, qs = [], [], [], []
        drawn = lengths = 0
        played = min(config.games_per_iteration, config.games - budget.games)
        taught = config.teacher is not None and iteration <= config.teacher_iterations
        elsewhere = 0.0
        for (rows, returns, sims), cpu in games(played, taught):
            elsewhere += cpu
            budget.games += 1
            budget.simulations += sims
            drawn += max(returns) - min(returns) < 1e-9
            lengths += len(rows)
            for x, pi, player, q in rows:
                xs.append(x)
                pis.append(pi)
                zs.append(value_targets(returns, player))
                qs.append(q)
        budget.positions += len(xs)
        newest = (np.array(xs, np.float32), np.array(pis, np.float32), np.array(zs, np.float32))
        budget.selfplay_cpu += time.process_time() - started + elsewhere
        started = time.process_time()
        # The losses on positions the network has not trained on: how well it generalises.
        with learner.torch.no_grad():
            fresh = [float(v.item()) for v in learner.losses(*newest)]
        buffer.append((newest[0], newest[1], mixed_targets(newest[2], np.array(qs), config.q_mix)))
        x_all = np.concatenate([b[0] for b in buffer])
        pi_all = np.concatenate([b[1] for b in buffer])
        z_all = np.concatenate([b[2] for b in buffer])
        losses = []
        for _ in range(config.updates):
            pick = rng.integers(len(x_all), size=min(config.batch, len(x_all)))
            losses.append(learner.fit(x_all[pick], pi_all[pick], z_all[pick]))
        save_arrays(out / "network.npz", learner.arrays(), {**meta, "games": budget.games})
        budget.train_cpu += time.process_time() - started
        point: dict[str, Any] = {
            "iteration": iteration,
            "played_by": "teacher" if taught else "self",
            "games": budget.games,
            "positions": budget.positions,
            "buffer": len(x_all),
            "loss": round(float(np.sum(np.mean(losses, axis=0))), 4) if losses else None,
            "policy_loss": round(float(np.mean(losses, axis=0)[0]), 4) if losses else None,
            "value_loss": round(float(np.mean(losses, axis=0)[1]), 4) if losses else None,
            "fresh_policy_loss": round(fresh[0], 4),
            "fresh_value_loss": round(fresh[1], 4),
            "draws": drawn,
            "decisions_per_game": round(lengths / played, 1),
            "cpu_seconds": round(budget.selfplay_cpu + budget.train_cpu + budget.eval_cpu, 1),
        }
        if config.eval_games and (
            iteration % config.eval_every == 0 or budget.games >= config.games
        ):
            started = time.process_time()
            point["vs"] = score_against(
                out / "network.npz", config, config.eval_games, seed=config.seed * 1000 + iteration
            )
            budget.eval_cpu += time.process_time() - started
            if point["vs"]["score"] > best:
                best = point["vs"]["score"]
                (out / "best.npz").write_bytes((out / "network.npz").read_bytes())
        curve.append(point)
        summary = {
            "config": {**asdict(config), "hidden": list(config.hidden)},
            "budget": asdict(budget),
            "curve": curve,
            "best_score": best,
        }
        write(summary)
        if report is not None:
            report(point)
        return summary

    with game_pool(config.workers, config.ray) as pool:
        while budget.games < config.games:
            iteration += 1
            summary = run_iteration(iteration, games_here if pool is None else games_away)
    return summary
