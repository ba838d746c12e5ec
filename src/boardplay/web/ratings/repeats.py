"""Repeated results between the same two players: how much a rated result counts, the one rule
that keeps ratings both honest and unfarmable (pure: no database; ``store.py`` counts the
earlier results and stores what this returns).

**Honest games move in full.** A rated result between two accounts that have no other rated
result against each other in the same pool within ``REPEAT_WINDOW`` (24 hours) counts as a
whole game: the move is Glicko-2's, to the last digit (a newcomer's first decisive game against
another newcomer moves about ±162, as Glickman's formulas say).

**Repeats count less.** A result that follows ``k`` others between the same two players in
that pool within the window counts ``REPEAT_RATIO ** k`` of a game (½, ¼, ⅛ ...): that share
of its Glicko-2 move against that opponent, and that share of the step its deviation and
volatility take. Farming needs many results between few accounts in a short time; a tournament
or a lobby gives honest players many opponents, or few games against one.

**Several opponents.** At a table of three or four, Glicko-2 moves a rating by the sum of one
term per opponent (``maths.period``'s shares); each term is weighed by that pair's own weight,
so a repeated opponent at the table counts less without touching the others. The deviation and
volatility take the mean of the weights of the player's opponents.

**The bound, and why it holds.** No result moves a rating by more than ``MOVE_CEILING`` (720) points
against one opponent: a share beyond it is cut to it. Glicko-2 itself moves a rating against one
opponent by phi'² · g · (score − expected) < phi*² = phi² + sigma'² in its own units, which at the
largest deviation kept (350, a newcomer's) is 705 Glicko points plus 173.7 · sigma'²: the ceiling
binds only past a volatility of 0.29, five times a newcomer's, so an honest game never meets it. Now
take the results between two accounts in one pool within any 24 hours, in the order they were
settled: the i-th has the i − 1 before it within its own window, so it weighs at most ½^(i−1), and
it moves either rating through that opponent by at most ½^(i−1) · 720. However many games they play,
the sum stays below 720 · (1 + ½ + ¼ + ...) = ``PAIR_BOUND`` (1,440 points, in any 24 hours, per
pool, up or down). Two new accounts of one person or two colluding ones can therefore win one honest
game's worth a day from each other, and little more: ten decisive games in a few minutes move them
1500 → 1712 and 1288 (the first game 162 points, the nine after it 50 together;
``tests/web/ratings/test_web_repeats.py``), where Glicko-2 with no weighing gives 1842 and 1158."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from boardplay.web.ratings.maths import Rating, against, check_game, period

REPEAT_WINDOW = 86_400.0
"""Seconds within which an earlier rated result between the same two players makes the next
one count less (a day: farming is many games in a short time)."""
REPEAT_RATIO = 0.5
"""What each earlier result between the two within ``REPEAT_WINDOW`` multiplies the next
one's weight by."""
MOVE_CEILING = 720.0
"""The most a result moves a rating against one opponent, in Glicko points: above
Glicko-2's own largest move (a newcomer's 705 at an ordinary volatility), a guard that makes
the bound below a number rather than a property of the volatility's iteration."""
PAIR_BOUND = MOVE_CEILING / (1.0 - REPEAT_RATIO)
"""Rating points the results between two accounts can move either one's rating in a pool,
within any ``REPEAT_WINDOW``: less than this, however many games they play (1,440)."""
SUSPECT_REPEATS = 5
"""Rated results between two accounts in one pool within ``REPEAT_WINDOW`` from which the
moderators' list of possible boosting names the pair (``Ratings.suspicious_pairs``): the
fifth counts a sixteenth of a game."""


def weight(earlier: int) -> float:
    """What a result counts for, as a share of a game, after ``earlier`` rated results between
    the same two players within the window: 1, then ½, ¼, ..."""
    if earlier < 0:
        raise ValueError("a count of earlier results is not negative")
    return float(REPEAT_RATIO**earlier)


@dataclass(frozen=True)
class Outcome:
    """What a rated game does to one player's rating: the rating after it, the points it moved
    (``change``) and the share of a game it counted for (``weight``: 1 in full; the mean of
    the pairs' weights at a table of three or four)."""

    rating: Rating
    change: float
    weight: float


def rate(
    players: Sequence[Rating], places: Sequence[int], earlier: Sequence[Sequence[int]]
) -> list[Outcome]:
    """Every player's outcome of a finished rated game, in the order given: ``players``' ratings
    before it, their ``places`` (1 is best, equals share), and ``earlier[i][j]``, how many rated
    results players ``i`` and ``j`` had against each other in the pool within the window before
    this one (symmetric; the diagonal is not read)."""
    check_game(players, places)
    outcomes = []
    for i, before in enumerate(players):
        full, shares = period(before, against(players, places, i))
        weights = [weight(earlier[i][j]) for j in range(len(players)) if j != i]
        cut = [max(-MOVE_CEILING, min(MOVE_CEILING, share)) for share in shares]
        if all(w == 1.0 for w in weights) and cut == shares:
            outcomes.append(Outcome(full, full.rating - before.rating, 1.0))
            continue
        change = math.fsum(w * share for w, share in zip(weights, cut, strict=True))
        counted = math.fsum(weights) / len(weights)
        rating = Rating(
            before.rating + change,
            before.deviation + counted * (full.deviation - before.deviation),
            before.volatility + counted * (full.volatility - before.volatility),
        )
        outcomes.append(Outcome(rating, change, counted))
    return outcomes
