"""Learning baselines without torch: how strong a policy is, its learning curve, and the table
and plots of docs/adapters.md ("Learning baselines").

``boardplay train`` (``boardplay.ai.train``, torch) writes one run folder per game, algorithm and
seed: ``policy.npz`` and ``curve.json`` (win share against ``random`` and ``easy`` at each
evaluation point). ``boardplay baselines`` reads the folders back and draws the curves of the
three seeds and writes the table a paper would print.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from boardplay.ai.agents import Agent
from boardplay.ai.policy import PolicyAgent, PolicyNet
from boardplay.ai.specs import make_agent
from boardplay.core.game import Game
from boardplay.core.registry import load


def sample_chance(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    return int(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])


@dataclass(frozen=True)
class Score:
    """The learned policy's results in ``games`` games against one opponent, seats alternated:
    ``share`` is its mean win share (a win 1, a draw or shared win split, a loss 0)."""

    opponent: str
    games: int
    wins: int
    draws: int
    share: float

    def interval(self) -> tuple[float, float]:
        """A 95% Wilson interval of the win share (draws count as half a win)."""
        if self.games == 0:
            return (0.0, 1.0)
        z = 1.959964
        n, p = self.games, self.share
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


def play(game: Game, agents: Sequence[Agent], seed: int) -> list[float]:
    """One game, ``agents[seat]`` deciding for each seat; chance from ``seed``. The returns.

    The game is cut at ``game.episode_limit`` actions, as in the research adapters (a draw)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for agent in agents:
        agent.reset()
    for _ in range(game.episode_limit):
        if state.is_terminal():
            return list(state.returns())
        player = state.current_player()
        action = sample_chance(state, rng) if player < 0 else agents[player].step(state)
        state.apply_action(action)
        for agent in agents:
            agent.inform(action)
    if state.is_terminal():
        return list(state.returns())
    n = game.num_players
    return [1.0 / n] * n


def evaluate(net: PolicyNet, game: Game, opponent: str, games: int, seed: int) -> Score:
    """``net`` against ``opponent`` (an agent spec) in ``games`` games, the policy's seat
    rotating through every seat, the other seats all played by the opponent."""
    n = game.num_players
    learner = PolicyAgent(game, net, "learned")
    wins = draws = 0
    total = 0.0
    for g in range(games):
        seat = g % n
        agents: list[Agent] = [
            learner if s == seat else make_agent(opponent, game, seed=seed * 1000 + g * n + s)
            for s in range(n)
        ]
        share = play(game, agents, seed=seed * 100_003 + g)[seat]
        total += share
        if share >= 1.0:
            wins += 1
        elif share > 0.0:
            draws += 1
    return Score(opponent, games, wins, draws, total / games if games else 0.0)


@dataclass
class Point:
    """One evaluation point of a learning curve."""

    steps: int
    seconds: float
    random: float
    easy: float


@dataclass
class Run:
    """A training run: what was trained and its curve (``curve.json`` in the run folder)."""

    game: str
    algo: str
    seed: int
    steps: int
    points: list[Point]
    final: dict[str, dict[str, Any]]

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "curve.json").write_text(json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def read(cls, folder: Path) -> Run:
        data = json.loads((folder / "curve.json").read_text())
        data["points"] = [Point(**p) for p in data["points"]]
        return cls(**data)


def runs_in(root: Path) -> list[tuple[Path, Run]]:
    """Every run folder under ``root`` (those holding a ``curve.json``), sorted."""
    return [(p.parent, Run.read(p.parent)) for p in sorted(root.glob("**/curve.json"))]


def table(runs: Sequence[Run]) -> list[dict[str, Any]]:
    """One row per game and algorithm: mean and spread over seeds of the final win shares."""
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.game, run.algo), []).append(run)
    rows = []
    for (game, algo), members in sorted(groups.items()):
        row: dict[str, Any] = {
            "game": game,
            "algo": algo,
            "seeds": len(members),
            "steps": max(r.steps for r in members),
        }
        for opponent in ("random", "easy"):
            shares = [r.final[opponent]["share"] for r in members if opponent in r.final]
            if shares:
                mean = sum(shares) / len(shares)
                row[opponent] = mean
                row[f"{opponent}_min"] = min(shares)
                row[f"{opponent}_max"] = max(shares)
                row[f"{opponent}_games"] = sum(r.final[opponent]["games"] for r in members)
        rows.append(row)
    return rows


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The table of ``table`` as Markdown: mean win share over the seeds (lowest-highest)."""
    out = [
        "| game | agent | seeds | env steps | vs random | vs easy |",
        "|---|---|---:|---:|---:|---:|",
    ]

    def cell(row: dict[str, Any], key: str) -> str:
        if key not in row:
            return "-"
        return f"{row[key]:.1%} ({row[key + '_min']:.0%}-{row[key + '_max']:.0%})"

    for row in rows:
        out.append(
            f"| {row['game']} | {row['algo']} | {row['seeds']} | {row['steps']:,} "
            f"| {cell(row, 'random')} | {cell(row, 'easy')} |"
        )
    return "\n".join(out) + "\n"


def plot(runs: Sequence[Run], path: Path) -> None:
    """The learning curves of one game: win share against ``random`` and ``easy`` over
    environment steps, one line per seed, each algorithm in its own colour and a fair-share
    line (what a player no better than its opponents would get)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    colours = {"ppo": "#1f77b4", "selfplay": "#d62728"}
    players = load(runs[0].game).num_players if runs else 2
    for ax, opponent in zip(axes, ("random", "easy"), strict=True):
        seen: set[str] = set()
        for run in runs:
            xs = [p.steps for p in run.points]
            ys = [getattr(p, opponent) for p in run.points]
            label = None if run.algo in seen else run.algo
            seen.add(run.algo)
            ax.plot(xs, ys, color=colours.get(run.algo, "#555"), alpha=0.8, label=label)
        ax.axhline(1.0 / players, color="#888", linestyle="--", linewidth=1, label="fair share")
        ax.set_title(f"{runs[0].game if runs else ''}: against {opponent}")
        ax.set_xlabel("environment steps (learner decisions)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win share")
    axes[1].legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


SHIP_THRESHOLD = 0.9
"""A policy is shipped only if it won at least this share of its final games against random."""


def ship(found: Sequence[tuple[Path, Run]], folder: Path) -> dict[str, str]:
    """Copy the best seed of each game and algorithm (by its final share against ``random``)
    into ``folder`` as ``<game>-<algo>.npz`` when it clears ``SHIP_THRESHOLD``, then rewrite
    ``levels.json`` (``write_levels``). Returns the names shipped, each with the run it came
    from."""
    best: dict[tuple[str, str], tuple[Path, Run]] = {}
    for path, run in found:
        key = (load(run.game).name, run.algo)
        share = run.final.get("random", {}).get("share", 0.0)
        if share >= SHIP_THRESHOLD and (
            key not in best or share > best[key][1].final["random"]["share"]
        ):
            best[key] = (path, run)
    folder.mkdir(parents=True, exist_ok=True)
    shipped: dict[str, str] = {}
    for (game, algo), (path, run) in sorted(best.items()):
        name = f"{game}-{algo}"
        net = PolicyNet.load(path / "policy.npz")
        net.meta["final"] = {k: round(v["share"], 4) for k, v in run.final.items()}
        net.save(folder / f"{name}.npz")
        shipped[name] = str(path)
    write_levels(folder)
    return shipped


def write_levels(folder: Path) -> dict[str, str]:
    """Write ``levels.json`` in ``folder``: for each game, the policy there strongest against
    ``easy`` (the final shares each policy file carries), which the ``learned`` level plays.
    Every policy in the folder counts, whichever command shipped it."""
    levels: dict[str, tuple[float, str]] = {}
    for path in sorted(folder.glob("*.npz")):
        meta = PolicyNet.load(path).meta
        final = meta.get("final", {})
        if final.get("random", 0.0) < SHIP_THRESHOLD:
            continue
        game = load(str(meta["game"])).name
        easy = float(final.get("easy", 0.0))
        if game not in levels or easy > levels[game][0]:
            levels[game] = (easy, path.stem)
    table = {game: name for game, (_, name) in sorted(levels.items())}
    (folder / "levels.json").write_text(json.dumps(table, indent=1) + "\n")
    return table
