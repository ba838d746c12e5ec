"""Statistics for arena results: Wilson score intervals for win rates and a Bradley–Terry fit
(reported on the Elo scale) with confidence intervals; openskill ratings for 3–4 player tables.

Kept free of game code so the maths can be tested against hand-computed values."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""
ELO_PER_NATURAL = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley–Terry log-strength: P(i beats j) = 1 / (1 + 10^(-d/400))."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion. Draws counted as half successes are allowed
    (``successes`` may be fractional); with no trials the interval is [0, 1]."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rating:
    """An Elo-scale rating with its 95% interval (``low``, ``high``)."""

    rating: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {
            "rating": round(self.rating, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
        }


def bradley_terry(
    wins: Sequence[Sequence[float]],
    prior_games: float = 1.0,
    anchor: float = 1500.0,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> list[Rating]:
    """Fit Bradley–Terry strengths to pairwise results and report them on the Elo scale.

    ``wins[i][j]`` is how often ``i`` beat ``j`` (a draw counts half to each). ``prior_games``
    adds that many virtual drawn games between every pair that met, so a 100% score gives a
    finite rating. The fit is Hunter's MM algorithm; ratings are centred so their mean is
    ``anchor``. The intervals come from the observed Fisher information under the sum-to-zero
    constraint (pseudo-inverse), i.e. ±1.96 standard errors."""
    n = len(wins)
    w = np.array(wins, dtype=float)
    if w.shape != (n, n):
        raise ValueError("wins must be a square matrix")
    games = w + w.T
    met = games > 0
    w = w + np.where(met, prior_games / 2.0, 0.0)
    np.fill_diagonal(w, 0.0)
    games = w + w.T
    total_wins = w.sum(axis=1)
    strength = np.ones(n)
    for _ in range(iterations):
        denom = np.array(
            [
                sum(games[i, j] / (strength[i] + strength[j]) for j in range(n) if j != i)
                for i in range(n)
            ]
        )
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), strength)
        new = np.maximum(new, 1e-300)
        new = new / math.exp(float(np.mean(np.log(new))))
        if float(np.max(np.abs(np.log(new) - np.log(strength)))) < tolerance:
            strength = new
            break
        strength = new
    theta = np.log(strength)
    theta = theta - theta.mean()
    info = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j or games[i, j] == 0:
                continue
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            term = games[i, j] * p * (1.0 - p)
            info[i, j] -= term
            info[i, i] += term
    covariance = np.linalg.pinv(info)
    out: list[Rating] = []
    for i in range(n):
        se = math.sqrt(max(0.0, float(covariance[i, i])))
        centre = anchor + ELO_PER_NATURAL * float(theta[i])
        half = Z95 * ELO_PER_NATURAL * se
        out.append(Rating(centre, centre - half, centre + half))
    return out


def openskill_ratings(
    tables: Sequence[Sequence[tuple[int, float]]], count: int
) -> list[dict[str, float]]:
    """Plackett–Luce (openskill) ratings from multi-player games. Each table lists
    ``(agent index, points)``; higher points rank higher and equal points tie. Returns per agent
    ``mu``, ``sigma`` and ``ordinal`` (mu − 3σ, a conservative skill)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(count)]
    for table in tables:
        if len(table) < 2:
            continue
        teams = [[ratings[agent]] for agent, _ in table]
        ordered = sorted({points for _, points in table}, reverse=True)
        ranks: list[float] = [float(ordered.index(points) + 1) for _, points in table]
        updated = model.rate(teams, ranks=ranks)
        for (agent, _), team in zip(table, updated, strict=True):
            ratings[agent] = team[0]
    return [
        {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}
        for r in ratings
    ]
