"""``.venv/bin/python tools/ratingstudy.py``: for games of three or four players, should the server
rate with OpenSkill's Plackett-Luce (boardplay.web.rating.plackett_luce) or with Glicko-2 over the
pairwise results (each game one rating period per player against every other player at the table,
scoring 1/0.5/0 by place)?

A population with fixed true skills (normal on the Glicko scale) plays games at tables of three or
four drawn at random. Finishing orders come from a Plackett-Luce model of the true skills
(strengths 10^(skill/400): two players meet with exactly Glicko's odds) or, as a robustness check,
from a Thurstonian one (performance = skill + normal noise). Every system sees the same games in
the same order and starts everybody at 1500/350/0.06.

Columns: the Spearman correlation of final ratings with true skill; the *scale*, the slope of the
final ratings regressed on true skill (1 when 100 rating points mean what they say); the mean
log-loss of the predicted winner on the last 10% of games, held out (ratings frozen after 90%),
first with one predictor for every system, Luce's first choice P(i wins) ~ 10^(rating_i/400) on
the Glicko scale that the server shows and that two-player Glicko-2 games share, then with each
system's own law (OpenSkill's exp(mu/c), c = sqrt(sum(sigma^2 + beta^2)), for the Plackett-Luce
rows); and the calibration of the 'provisional' rule, at ten snapshots during the training games:
the share of players who are established (deviation <= 110) at the end, the share of established
players whose error lies within 1.96 deviations (95% if deviations were honest), and the root mean
square of error/deviation over all players (1 if honest, above 1 if over-confident). Errors are
taken after removing the mean offset between ratings and skills, which neither system pins down.
'own law - Glicko-2' is the own-law log-loss minus Glicko-2's on the same held-out games.

A third system, *not* in boardplay.web.ratings.maths, shrinks OpenSkill's beta to
beta*sqrt(2/n) at a table of n, so that c = sqrt(2)*beta (the c that PL_SCALE assumes) at every
table size.

Each cell is the mean over ``--repeats`` populations (seeds ``--seed``, +1, ...) +- the standard
deviation across them. Numbers are printed, never asserted."""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from openskill.models import PlackettLuce

from boardplay.web.ratings.maths import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    NEW_RATING,
    PL_MU,
    PL_SCALE,
    Rating,
    glicko2,
    plackett_luce,
)

Skills = npt.NDArray[np.float64]
Places = list[int]
Rater = Callable[[list[Rating], Places], list[Rating]]
Predictor = Callable[[Sequence[Rating], int], float]

LOG_STEP = math.log(10.0) / 400.0
"""Natural-log strength per Glicko point: 10^(r/400) = exp(r * LOG_STEP)."""
THURSTONE_NOISE = 1.702 / (LOG_STEP * math.sqrt(2.0))
"""Performance noise of the Thurstonian model (about 209 points), so that its two-player chance
Phi(d/(noise*sqrt 2)) matches Glicko's logistic (1.702: the usual probit-to-logit factor)."""
BETA = 25.0 / 6.0
"""OpenSkill's default beta, the one boardplay.web.ratings.maths uses."""
SNAPSHOTS = 10


def sized_beta(n: int) -> float:
    return BETA * math.sqrt(2.0 / n)


_SIZED = {n: PlackettLuce(beta=sized_beta(n)) for n in (3, 4)}


def sized_plackett_luce(players: list[Rating], places: Places) -> list[Rating]:
    """The variant: OpenSkill with beta*sqrt(2/n) at a table of n, same mapping as the server's
    wrapper (no ties occur here, so its tie averaging is not needed)."""
    model = _SIZED[len(players)]
    teams = [
        [model.rating(mu=PL_MU + (p.rating - NEW_RATING) / PL_SCALE, sigma=p.deviation / PL_SCALE)]
        for p in players
    ]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [
        Rating(
            NEW_RATING + (team[0].mu - PL_MU) * PL_SCALE,
            min(MAX_DEVIATION, max(MIN_DEVIATION, team[0].sigma * PL_SCALE)),
            before.volatility,
        )
        for team, before in zip(rated, players, strict=True)
    ]


def pairwise_glicko2(players: list[Rating], places: Places) -> list[Rating]:
    """Each player's game as one Glicko-2 period against everybody else at the table."""

    def score(mine: int, theirs: int) -> float:
        return 0.5 if mine == theirs else (1.0 if mine < theirs else 0.0)

    return [
        glicko2(
            me, [(other, score(places[i], places[j])) for j, other in enumerate(players) if j != i]
        )
        for i, me in enumerate(players)
    ]


def luce_loss(ratings: Sequence[Rating], winner: int) -> float:
    """-log P(winner) under Luce's first choice on the Glicko scale."""
    top = max(r.rating for r in ratings)
    weights = [math.exp((r.rating - top) * LOG_STEP) for r in ratings]
    return -math.log(weights[winner] / sum(weights))


def openskill_loss(beta: Callable[[int], float]) -> Predictor:
    """-log P(winner) under OpenSkill's Plackett-Luce law with the given beta per table size."""

    def loss(ratings: Sequence[Rating], winner: int) -> float:
        b = beta(len(ratings))
        c = math.sqrt(sum((r.deviation / PL_SCALE) ** 2 + b * b for r in ratings))
        top = max(r.rating for r in ratings)
        weights = [math.exp((r.rating - top) / PL_SCALE / c) for r in ratings]
        return -math.log(weights[winner] / sum(weights))

    return loss


SYSTEMS: dict[str, tuple[Rater, Predictor]] = {
    "Plackett-Luce": (plackett_luce, openskill_loss(lambda n: BETA)),
    "Glicko-2 pairwise": (pairwise_glicko2, luce_loss),
    "*variant* PL, β·√(2/n)": (sized_plackett_luce, openskill_loss(sized_beta)),
}
"""Each system with its own predictor of the winner."""
BASELINE = "Glicko-2 pairwise"


def finish(rng: np.random.Generator, skills: Skills, outcome: str) -> Places:
    """A sampled finishing order (place per player, 1 = best) for players of these skills."""
    if outcome == "Plackett-Luce":  # Gumbel-max: sorting log-strength + Gumbel noise is exact PL
        performance = skills * LOG_STEP + rng.gumbel(size=len(skills))
    else:
        performance = skills + rng.normal(0.0, THURSTONE_NOISE, size=len(skills))
    places = [0] * len(skills)
    for position, player in enumerate(np.argsort(-performance)):
        places[int(player)] = position + 1
    return places


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 0, ties sharing their mean rank (what Spearman's correlation needs)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            result[order[k]] = (start + end) / 2.0
        start = end + 1
    return result


def z_scores(ratings: Sequence[Rating], skills: Skills) -> list[tuple[bool, float]]:
    """(established?, error/deviation) per player, the mean offset removed."""
    offset = statistics.fmean(r.rating - float(s) for r, s in zip(ratings, skills, strict=True))
    return [
        (not r.provisional, (r.rating - offset - float(s)) / r.deviation)
        for r, s in zip(ratings, skills, strict=True)
    ]


@dataclass
class Result:
    spearman: float
    scale: float
    luce: float
    own: float
    established: float
    coverage: float  # NaN when nobody was established at any snapshot
    z_rms: float


def rate_all(
    rater: Rater, own: Predictor, skills: Skills, tables: list[list[int]], orders: list[Places]
) -> Result:
    train = len(tables) - len(tables) // 10
    every = max(1, train // SNAPSHOTS)
    ratings = [Rating() for _ in skills]
    covered: list[float] = []
    rms: list[float] = []
    for n in range(train):
        seats = tables[n]
        for seat, new in zip(seats, rater([ratings[p] for p in seats], orders[n]), strict=True):
            ratings[seat] = new
        if (n + 1) % every == 0:
            z = z_scores(ratings, skills)
            rms.append(math.sqrt(statistics.fmean(x * x for _, x in z)))
            established = [abs(x) <= 1.96 for ok, x in z if ok]
            if established:
                covered.append(sum(established) / len(established))
    held = [
        ([ratings[p] for p in tables[n]], orders[n].index(1)) for n in range(train, len(tables))
    ]
    final = np.array([r.rating for r in ratings])
    return Result(
        spearman=float(np.corrcoef(ranks(list(final)), ranks(list(skills)))[0, 1]),
        scale=float(np.polyfit(skills, final, 1)[0]),
        luce=statistics.fmean(luce_loss(r, w) for r, w in held),
        own=statistics.fmean(own(r, w) for r, w in held),
        established=sum(not r.provisional for r in ratings) / len(ratings),
        coverage=statistics.fmean(covered) if covered else math.nan,
        z_rms=statistics.fmean(rms),
    )


def simulate(
    seed: int, games: int, outcome: str, players: int, skill_sd: float
) -> tuple[dict[str, Result], float, float]:
    """One population and one sequence of games, rated by every system; also the held-out
    log-loss of a uniform guess and of the oracle (Luce on the true skills)."""
    rng = np.random.default_rng(seed)
    skills = rng.normal(1500.0, skill_sd, size=players)
    tables = [
        [int(p) for p in rng.choice(players, size=int(rng.integers(3, 5)), replace=False)]
        for _ in range(games)
    ]
    orders = [finish(rng, skills[table], outcome) for table in tables]
    results = {
        name: rate_all(rater, own, skills, tables, orders) for name, (rater, own) in SYSTEMS.items()
    }
    held = range(games - games // 10, games)
    uniform = statistics.fmean(math.log(len(tables[n])) for n in held)
    oracle = statistics.fmean(
        luce_loss([Rating(float(skills[p])) for p in tables[n]], orders[n].index(1)) for n in held
    )
    return results, uniform, oracle


def cell(values: Sequence[float], digits: int, unit: str = "") -> str:
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "–"
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):.{digits}f}{unit} ± {spread:.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Plackett-Luce or pairwise Glicko-2 for 3-4 players"
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, nargs="+", default=[3000, 20000])
    parser.add_argument("--skill-sd", type=float, default=200.0, help="true-skill spread, points")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()
    started = time.perf_counter()
    print(
        f"{args.players} players, true skill ~ N(1500, {args.skill_sd:g}), tables of 3 or 4 at"
        f" random; mean ± sd over {args.repeats} populations\n"
    )
    print(
        "| outcomes | games | system | Spearman ρ | scale | log-loss, Glicko-scale Luce"
        " | log-loss, own law | own law − Glicko-2 | established at end"
        " | within 1.96·RD (established) | RMS z |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for outcome in ("Plackett-Luce", "Thurstone"):
        for games in args.games:
            runs = [
                simulate(args.seed + k, games, outcome, args.players, args.skill_sd)
                for k in range(args.repeats)
            ]
            for name in SYSTEMS:
                rows = [run[0][name] for run in runs]
                # Paired with Glicko-2 on the same held-out games: far less noisy than the losses.
                gaps = [run[0][name].own - run[0][BASELINE].own for run in runs]
                print(
                    f"| {outcome} | {games} | {name} | {cell([r.spearman for r in rows], 3)}"
                    f" | {cell([r.scale for r in rows], 2)}"
                    f" | {cell([r.luce for r in rows], 3)} | {cell([r.own for r in rows], 3)}"
                    f" | {cell(gaps, 4) if name != BASELINE else ''}"
                    f" | {cell([100 * r.established for r in rows], 0, '%')}"
                    f" | {cell([100 * r.coverage for r in rows], 1, '%')}"
                    f" | {cell([r.z_rms for r in rows], 2)} |"
                )
            uniform = statistics.fmean(run[1] for run in runs)
            oracle = statistics.fmean(run[2] for run in runs)
            print(
                f"| {outcome} | {games} | *uniform guess / true skills* | | |"
                f" {uniform:.3f} / {oracle:.3f} | | | | | |"
            )
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
