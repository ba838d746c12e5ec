"""The designer's side of a balance study: which variants to play (a sweep of any option's
values), how long their games are (the whole distribution, not a mean), and whether two
variants differ (a test with its p-value, not overlapping intervals read by eye).

The tests are SciPy's, each a question of its own:

- the first mover's edge over its fair share: its share of the decisive games (won outright by
  someone; draws and shared results count in neither) less ``1 / players``. Variants with the
  same player count compare wins against the other decisive games in a 2 x 2 table; across
  player counts the likelihood-ratio test asks whether one edge fits both, so a sweep over
  ``players`` does not read the fair share moving (1/2, 1/3, 1/4) as a first-mover change;
- the draws (games without a sole winner) against the decisive games, a 2 x 2 table;
- the game lengths, by the Mann-Whitney U test.

A 2 x 2 table is tested by chi-square, or by Fisher's exact test with small counts. So a change
in draws reads as a change in draws, not in the first mover's chances. "Differ at the 5% level"
means a p-value below 0.05, each test taken alone, with no correction for multiple comparisons:
with many variants some will differ by chance.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardplay.ai.tasks import GameResult
from boardplay.core.errors import OptionError
from boardplay.core.options import OptionValue
from boardplay.core.registry import game_class

LEVEL = 0.05
"""The significance level the report's words use."""


def parse_sweep(game: str, text: str) -> tuple[str, list[OptionValue]]:
    """``max_turns=50,100,none`` -> ``("max_turns", [50, 100, None])``, each value checked by
    the option's own rules (so the error names what the option allows)."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    specs = game_class(game).option_set.by_name()
    if not sep or not raw.strip():
        raise OptionError(
            f"--sweep takes option=value,value,... (e.g. max_turns=50,100), not {text!r}"
        )
    if name not in specs:
        known = ", ".join(specs) or "(this game has no options)"
        raise OptionError(f"{game} has no option {name!r}; its options are: {known}")
    values = [specs[name].parse(part.strip()) for part in raw.split(",") if part.strip()]
    if len(set(map(repr, values))) < 2:
        raise OptionError(f"--sweep {name} needs at least two different values")
    return name, values


def sweep(
    base: dict[str, OptionValue], axes: Sequence[tuple[str, Sequence[OptionValue]]]
) -> list[tuple[str, dict[str, OptionValue]]]:
    """Every combination of the swept values over ``base``, labelled ``name=value,...``."""
    out = []
    for combo in itertools.product(*(values for _, values in axes)):
        chosen = {name: value for (name, _), value in zip(axes, combo, strict=True)}
        label = ",".join(f"{name}={'none' if v is None else v}" for name, v in chosen.items())
        out.append((label, {**base, **chosen}))
    return out


def length_summary(results: Sequence[GameResult]) -> dict[str, Any]:
    """Game lengths in actions: mean, standard deviation, percentiles and the longest."""
    if not results:
        return {"games": 0}
    lengths = np.array([r.length for r in results], dtype=float)
    p5, p25, p50, p75, p95 = np.percentile(lengths, [5, 25, 50, 75, 95])
    return {
        "games": len(lengths),
        "mean": round(float(lengths.mean()), 1),
        "sd": round(float(lengths.std(ddof=1)) if len(lengths) > 1 else 0.0, 1),
        "p5": float(p5),
        "p25": float(p25),
        "p50": float(p50),
        "p75": float(p75),
        "p95": float(p95),
        "max": int(lengths.max()),
        "cut": sum(1 for r in results if r.adjudicated),
    }


def decisive(results: Sequence[GameResult]) -> int:
    """The games one player won outright (the others are draws or shared results)."""
    return sum(1 for r in results if max(r.returns) >= 1.0 - 1e-9)


def first_mover_wins(results: Sequence[GameResult]) -> int:
    """The games the player who moved first won outright."""
    return sum(1 for r in results if r.returns[r.first_player] >= 1.0 - 1e-9)


def players(results: Sequence[GameResult]) -> int:
    """The number of players of a variant's games (each seat has a return)."""
    return len(results[0].returns)


def _two_by_two(table: np.ndarray[Any, Any]) -> tuple[float, str]:
    """The p-value of a 2 x 2 table of counts (two variants by two outcomes), and its test:
    Fisher's exact test where a count is small, else chi-square."""
    from scipy import stats

    if min(table.sum(axis=0)) == 0 or min(table.sum(axis=1)) == 0:
        return 1.0, "none (one outcome only)"
    if table.min() < 5:
        return float(stats.fisher_exact(table).pvalue), "Fisher exact"
    return float(stats.chi2_contingency(table).pvalue), "chi-square"


def _same_edge(wins: tuple[int, int], games: tuple[int, int], fair: tuple[float, float]) -> float:
    """The likelihood-ratio test of "the first mover's edge over its fair share is the same in
    both variants": ``wins[i]`` of ``games[i]`` binomial with rate ``fair[i] + edge``, one edge
    for both against one each (chi-square with one degree of freedom)."""
    from scipy import optimize, stats
    from scipy.special import xlogy

    def loglik(rates: tuple[float, float]) -> float:
        return sum(
            float(xlogy(w, p) + xlogy(n - w, 1.0 - p))
            for w, n, p in zip(wins, games, rates, strict=True)
        )

    free = loglik((wins[0] / games[0], wins[1] / games[1]))
    low, high = max(-f for f in fair), min(1.0 - f for f in fair)
    tiny = 1e-12
    best = optimize.minimize_scalar(
        lambda edge: -loglik((fair[0] + edge, fair[1] + edge)),
        bounds=(low + tiny, high - tiny),
        method="bounded",
        options={"xatol": 1e-10},
    )
    statistic = max(0.0, 2.0 * (free + float(best.fun)))
    return float(stats.chi2.sf(statistic, 1))


def first_mover_test(base: Sequence[GameResult], other: Sequence[GameResult]) -> tuple[float, str]:
    """Does the first mover's edge over its fair share differ between two variants? The edge is
    its share of the decisive games (won outright by someone: draws and shared results count in
    neither) less ``1 / players``, so variants with different player counts compare what each
    gains over its own fair share, not raw wins (1/2, 1/3 and 1/4 of a fair game's decisive games
    would otherwise "differ"). With the same player count this is a 2 x 2 table of wins against
    the other decisive games; else the likelihood-ratio test of one edge for both."""
    wins = (first_mover_wins(base), first_mover_wins(other))
    games = (decisive(base), decisive(other))
    if min(games) == 0:
        return 1.0, "none (no decisive game)"
    if players(base) == players(other):  # the same fair share: compare the wins themselves
        table = np.array([[w, n - w] for w, n in zip(wins, games, strict=True)], dtype=np.int64)
        return _two_by_two(table)
    fair = (1.0 / players(base), 1.0 / players(other))
    return _same_edge(wins, games, fair), "likelihood ratio, edge over the fair share"


def compare(base: Sequence[GameResult], other: Sequence[GameResult]) -> dict[str, Any]:
    """Do two variants differ? Three questions, each tested alone: the first mover's edge over
    its fair share (``first_mover_test``), the share of games without a sole winner (draws),
    and the lengths. ``differing`` names the questions whose p-value is below ``LEVEL``."""
    from scipy import stats

    first_p, first_test = first_mover_test(base, other)
    draws = np.array(
        [[len(rs) - decisive(rs), decisive(rs)] for rs in (base, other)], dtype=np.int64
    )
    draws_p, draws_test = _two_by_two(draws)
    a = [r.length for r in base]
    b = [r.length for r in other]
    if len(set(a) | set(b)) < 2:
        length_p = 1.0
    else:
        length_p = float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    ps = {"first_mover": first_p, "draws": draws_p, "length": length_p}
    differing = [name for name, p in ps.items() if p < LEVEL]
    return {
        "first_mover_p": round(first_p, 4),
        "first_mover_test": first_test,
        "draws_p": round(draws_p, 4),
        "draws_test": draws_test,
        "length_p": round(length_p, 4),
        "length_test": "Mann-Whitney U",
        "differing": differing,
        "differ": bool(differing),
    }


def p_value(p: float) -> str:
    """``p = 0.0312``, or ``p < 0.001`` where the rounded value would read 0."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3g}"


def verdict(test: dict[str, Any]) -> str:
    """The words of one comparison: what differs, each with its p-value."""
    words = {
        "first_mover": "the first mover's edge over its fair share differs",
        "draws": "draw rates differ",
        "length": "lengths differ",
    }
    parts = [f"{words[name]} ({p_value(test[name + '_p'])})" for name in test["differing"]]
    if not parts:
        return (
            f"no difference at the 5% level (first mover {p_value(test['first_mover_p'])}, "
            f"draws {p_value(test['draws_p'])}, length {p_value(test['length_p'])})"
        )
    return "differ at the 5% level: " + "; ".join(parts)
