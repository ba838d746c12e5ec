"""Balance studies: seat advantage and the effect of each rules option under strong self-play.

For every variant of a game (an option set), the same agent spec plays every seat for ``games``
seeded games. The study reports, per variant, the win rate of each seat and of the player who
moved first (Montana and Potlatch can start with another seat), draws and game length, each
win rate with its 95% Wilson interval, and writes a Markdown report plus matplotlib plots.

A seat has a measurable advantage when its interval excludes the fair share ``1 / players``;
whether two variants differ is tested (``boardplay.ai.variants``: the first mover's edge over its
own fair share, the draws, and the lengths, each with its p-value). Small studies say "not
measurable", not "balanced": the report prints the sample sizes next to every number. A game
whose rules never end it (Proteus or Passtally without ``max_turns``) is cut at its
``episode_limit`` unless ``max_actions`` is given, and the report counts the games cut.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardplay.ai.arena import play_tasks
from boardplay.ai.stats import wilson_interval
from boardplay.ai.tasks import GameResult, GameTask
from boardplay.ai.variants import compare, length_summary, p_value, verdict
from boardplay.core.game import Game
from boardplay.core.options import OptionValue
from boardplay.core.registry import game_class, load


@dataclass(frozen=True)
class Variant:
    """One option set to study, with a short label for tables and plots."""

    label: str
    options: dict[str, OptionValue]


def _choices(game: str, option: str) -> tuple[OptionValue, ...]:
    spec = game_class(game).option_set.by_name().get(option)
    if spec is None or spec.choices is None:
        return ()
    return spec.choices


def _grid(game: str, axes: Sequence[tuple[str, Sequence[OptionValue]]]) -> list[Variant]:
    """Every combination of the given option values, labelled ``name=value,...``."""
    variants = [Variant("", {})]
    for name, values in axes:
        if not values:
            continue
        variants = [
            Variant(
                f"{v.label},{name}={value}" if v.label else f"{name}={value}",
                {**v.options, name: value},
            )
            for v in variants
            for value in values
        ]
    return variants


def variants_for(game: str) -> list[Variant]:
    """The variants a balance study of ``game`` compares: its ``Game.study_axes`` combined, or
    for a game without them, the default plus each choice-valued option varied on its own."""
    cls = game_class(game)
    if cls.study_axes is not None:
        return _grid(
            game, [(name, values or _choices(game, name)) for name, values in cls.study_axes]
        )
    out = [Variant("default", {})]
    for spec in cls.option_set.specs:
        for value in spec.choices or ():
            if value != spec.default:
                out.append(Variant(f"{spec.name}={value}", {spec.name: value}))
    return out


@dataclass
class VariantResult:
    variant: Variant
    game: str
    players: int
    results: list[GameResult] = field(default_factory=list)
    cap: int | None = None

    @property
    def games(self) -> int:
        return len(self.results)

    def seat_points(self) -> list[float]:
        totals = [0.0] * self.players
        for result in self.results:
            for seat, value in enumerate(result.returns):
                totals[seat] += value
        return totals

    def first_mover_points(self) -> float:
        return sum(r.returns[r.first_player] for r in self.results)

    def draws(self) -> int:
        return sum(1 for r in self.results if max(r.returns) < 1.0 - 1e-9)

    def to_json(self) -> dict[str, Any]:
        n = self.games
        seats = []
        for points in self.seat_points():
            low, high = wilson_interval(points, n)
            seats.append(
                {"win_rate": round(points / n, 4), "ci95": [round(low, 4), round(high, 4)]}
            )
        first = self.first_mover_points()
        low, high = wilson_interval(first, n)
        return {
            "variant": self.variant.label,
            "game": self.game,
            "options": self.variant.options,
            "players": self.players,
            "games": n,
            "seats": seats,
            "first_mover": {
                "win_rate": round(first / n, 4),
                "ci95": [round(low, 4), round(high, 4)],
            },
            "draws": self.draws(),
            "mean_length": round(sum(r.length for r in self.results) / max(1, n), 1),
            "length": length_summary(self.results),
            "cap": self.cap,
        }


def analyze_command(
    game: str,
    options: Sequence[str] = (),
    sweeps: Sequence[str] = (),
    games: int = 20,
    agent: str = "medium",
    seed: int = 0,
    max_actions: int | None = None,
) -> str:
    """The ``boardplay analyze`` command that plays these games again: the game as given, every
    ``--option`` and ``--sweep``, and the flags that fix the games (not where they are written,
    nor ``--workers``, which changes no game), quoted for a POSIX shell."""
    words = ["boardplay", "analyze", game]
    for option in options:
        words += ["--option", option]
    for axis in sweeps:
        words += ["--sweep", axis]
    words += ["--games", str(games), "--agent", agent, "--seed", str(seed)]
    if max_actions is not None:
        words += ["--max-actions", str(max_actions)]
    return shlex.join(words)


@dataclass
class Study:
    game: str
    agent: str
    games: int
    seed: int
    variants: list[VariantResult]
    max_actions: int | None = None
    command: str = ""
    """The command that plays the study again (``analyze_command``); the CLI gives it."""

    def reproduce(self) -> str:
        """``command``, or for a study run from Python, the command of its game and flags."""
        return self.command or analyze_command(
            self.game,
            games=self.games,
            agent=self.agent,
            seed=self.seed,
            max_actions=self.max_actions,
        )

    def tests(self) -> list[dict[str, Any]]:
        """Each variant after the first tested against the first (the baseline)."""
        if not self.variants:
            return []
        base = self.variants[0]
        return [
            {"variant": v.game, "baseline": base.game, **compare(base.results, v.results)}
            for v in self.variants[1:]
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "command": self.reproduce(),
            "agent": self.agent,
            "games_per_variant": self.games,
            "seed": self.seed,
            "max_actions": self.max_actions,
            "variants": [v.to_json() for v in self.variants],
            "tests": self.tests(),
        }


def records_name(game: str, variant: Variant) -> str:
    """The records file of one variant of a study, e.g. ``potlatch-actions=3,layout=L4.jsonl``."""
    return f"{game}-{variant.label or 'default'}.jsonl"


def run_study(
    game: str,
    games: int,
    agent: str,
    seed: int = 0,
    workers: int = 1,
    variants: Sequence[Variant] | None = None,
    progress: Callable[[GameResult], None] | None = None,
    records: str | Path | None = None,
    resume: bool = False,
    max_actions: int | None = None,
    ray: str | None = None,
) -> Study:
    """Self-play ``games`` games of every variant with ``agent`` in all seats. With ``records``
    (a directory) each variant's games are appended to ``GAME-VARIANT.jsonl`` there as they end,
    and ``resume`` continues an interrupted study from those files (see ``play_tasks``).
    ``max_actions`` adjudicates a game still running after that many actions a draw; ``ray``
    plays the games on that Ray cluster (see ``boardplay.ai.cluster``)."""
    chosen = list(variants) if variants is not None else variants_for(game)
    out: list[VariantResult] = []
    for number, variant in enumerate(chosen):
        loaded: Game = load(game, **variant.options)
        players = loaded.num_players
        specs = [agent] * players
        cap = max_actions if max_actions is not None or loaded.bounded else loaded.episode_limit
        tasks = [
            GameTask(
                i,
                tuple(range(players)),
                random.Random(f"study/{seed}/{number}/{i}").getrandbits(32),
                cap,
            )
            for i in range(games)
        ]
        path = None if records is None else Path(records) / records_name(game, variant)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        results = play_tasks(loaded, specs, tasks, workers, path, resume, progress, ray)
        out.append(VariantResult(variant, str(loaded), players, results, cap))
    return Study(game, agent, games, seed, out, max_actions)


# ----- report -------------------------------------------------------------------------------
def _pct(value: float) -> str:
    return f"{value:.1%}"


def _ci(pair: list[float]) -> str:
    return f"{pair[0]:.0%}–{pair[1]:.0%}"


def _verdict(entry: dict[str, Any]) -> str:
    fair = 1.0 / entry["players"]
    low, high = entry["first_mover"]["ci95"]
    if low > fair:
        return "first mover advantage (interval above the fair share)"
    if high < fair:
        return "first mover disadvantage (interval below the fair share)"
    return "no first-mover effect measurable at this sample size"


def write_plots(study: Study, directory: Path) -> list[Path]:
    """Bar charts of seat and first-mover win rates per variant with 95% error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    directory.mkdir(parents=True, exist_ok=True)
    data = study.to_json()["variants"]
    paths: list[Path] = []

    def save(fig: Any, ax: Any, title: str, name: str) -> None:
        """Title ``ax``, write ``fig`` as ``<game>-<name>.png`` in ``directory`` and close it."""
        ax.set_title(f"{study.game}: {title}")
        fig.tight_layout()
        path = directory / f"{study.game}-{name}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)

    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(data)), 4.0))
    width = 0.8 / max(v["players"] for v in data)
    for seat in range(max(v["players"] for v in data)):
        xs: list[float] = []
        ys: list[float] = []
        errs: list[list[float]] = [[], []]
        for i, v in enumerate(data):
            if seat < v["players"]:
                s = v["seats"][seat]
                xs.append(i + (seat - (v["players"] - 1) / 2) * width)
                ys.append(s["win_rate"])
                errs[0].append(s["win_rate"] - s["ci95"][0])
                errs[1].append(s["ci95"][1] - s["win_rate"])
        ax.bar(xs, ys, width, yerr=errs, capsize=3, label=f"seat {seat}")
    for i, v in enumerate(data):  # what every seat would win if the game were fair
        label = "fair share" if i == 0 else "_nolegend_"
        ax.hlines(1.0 / v["players"], i - 0.45, i + 0.45, "black", "dashed", label=label)
    ax.set_xticks(
        range(len(data)), [v["variant"] or "default" for v in data], rotation=20, ha="right"
    )
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    save(fig, ax, f"win rate by seat, {study.agent} self-play, {study.games} games each", "seats")

    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(data)), 4.0))
    rates = [v["first_mover"]["win_rate"] for v in data]
    bars = [
        [v["first_mover"]["win_rate"] - v["first_mover"]["ci95"][0] for v in data],
        [v["first_mover"]["ci95"][1] - v["first_mover"]["win_rate"] for v in data],
    ]
    ax.bar(range(len(data)), rates, 0.6, yerr=bars, capsize=4, color="tab:orange")
    for i, v in enumerate(data):
        ax.hlines(1.0 / v["players"], i - 0.4, i + 0.4, colors="black", linestyles="dashed")
    ax.set_xticks(
        range(len(data)), [v["variant"] or "default" for v in data], rotation=20, ha="right"
    )
    ax.set_ylabel("first mover win rate (95% CI)")
    ax.set_ylim(0, 1)
    save(fig, ax, "first mover vs fair share (dashed)", "first-mover")

    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    for variant in study.variants:
        lengths = [r.length for r in variant.results]
        if lengths:
            ax.hist(lengths, bins=30, histtype="step", linewidth=1.5, label=variant.game)
    ax.set_xlabel("game length (actions, chance included)")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    save(fig, ax, "game lengths", "lengths")
    return paths


def report_markdown(study: Study, plots: Sequence[Path] = ()) -> str:
    data = study.to_json()
    lines = [
        f"# Balance study: {study.game}",
        "",
        f"Generated by `{study.reproduce()}`. Every seat is played by `{study.agent}`; each "
        f"variant is {study.games} seeded games. Win rates count a shared win or draw as a share; "
        "intervals are 95% Wilson score intervals. A seat or first-mover effect is called "
        "measurable only when its interval excludes the fair share 1/players.",
        "",
        "| variant | games | "
        + "first mover | "
        + "seat win rates (95% CI) | draws | length in actions: median (5%–95%), max | cut |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in data["variants"]:
        seats = "; ".join(
            f"{i}: {_pct(s['win_rate'])} ({_ci(s['ci95'])})" for i, s in enumerate(v["seats"])
        )
        first = v["first_mover"]
        length = v["length"]
        spread = (
            f"{length['p50']:g} ({length['p5']:g}–{length['p95']:g}), {length['max']}"
            if length["games"]
            else "-"
        )
        cut = f"{length.get('cut', 0)} at {v['cap']}" if v["cap"] else "-"
        lines.append(
            f"| `{v['game']}` | {v['games']} | {_pct(first['win_rate'])} ({_ci(first['ci95'])}) "
            f"| {seats} | {v['draws']} | {spread} | {cut} |"
        )
    lines += ["", "## Reading", ""]
    for v in data["variants"]:
        lines.append(
            f"- `{v['game']}` ({v['players']} players, fair share "
            f"{_pct(1 / v['players'])}): {_verdict(v)}."
        )
    if data["tests"]:
        lines += [
            "",
            "## Do the variants differ?",
            "",
            "Each variant against the first, three questions, each tested alone: the first "
            "mover's edge over its fair share (its share of the games won outright, draws and "
            "shared results left out, less 1/players: with the same player count a 2 × 2 table "
            "of its wins against the other decisive games, across player counts a "
            "likelihood-ratio test of one edge for both), the draws against the decisive games "
            "(a 2 × 2 table; each table by chi-square, or Fisher's exact test with small "
            "counts), and the lengths by the Mann–Whitney U test. The p-values are not corrected "
            "for multiple comparisons: among many tests, some fall below 5% by chance.",
            "",
        ]
        for test in data["tests"]:
            lines += [
                f"- `{test['variant']}` against `{test['baseline']}`: {verdict(test)}.",
                f"  - first mover, edge over the fair share: {p_value(test['first_mover_p'])} "
                f"({test['first_mover_test']})",
                f"  - draws: {p_value(test['draws_p'])} ({test['draws_test']})",
                f"  - length: {p_value(test['length_p'])} ({test['length_test']})",
            ]
    for path in plots:
        lines += ["", f"![{path.stem}]({path.name})"]
    lines.append("")
    return "\n".join(lines)


def write_report(study: Study, directory: str | Path = "analysis") -> Path:
    """Write the plots and ``<game name>.md`` into ``directory``; returns the report's path."""
    out = Path(directory)
    plots = write_plots(study, out)
    path = out / f"{study.game}.md"
    path.write_text(report_markdown(study, plots), encoding="utf-8")
    return path
