"""Rating mathematics of rated online games: pure functions, no database, no I/O.

Every player carries one :class:`Rating` on the Glicko scale (1500 for a newcomer). A finished
game is one Glicko-2 rating period for each player (Glickman, "Example of the Glicko-2 system")
against everybody else at the table, scored by place: a two-player game is the classic case, and
a game of three or four is the same period with two or three opponents. The server calls
:func:`update` once per finished rated game and stores what it returns.

:func:`plackett_luce` (OpenSkill's model mapped onto the same scale) is the alternative that was
measured against this and lost (``tools/ratingstudy.py``, docs/web.md "Accounts, sessions and
ratings"): its ratings of 3-4 player games come out stretched 1.5-2.3 times against the Glicko scale
two-player games use, its deviations are over-confident (70 % of established players within 1.96
deviations, against 93-97 % for pairwise Glicko-2), and it predicts winners worse for the first ~50
games a player plays. It stays here for that comparison and its test against OpenSkill's published
values."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

NEW_RATING = 1500.0
"""A newcomer's rating: the centre of the Glicko scale, so two newcomers are an even match."""
NEW_DEVIATION = 350.0
"""A newcomer's deviation (Glickman's value): about a 95% chance that the true strength lies
within 700 points, i.e. 'we know nothing yet' among human players."""
NEW_VOLATILITY = 0.06
"""A newcomer's volatility, the value of Glickman's worked example (how erratic we assume form
to be before we have seen any)."""

MAX_DEVIATION = NEW_DEVIATION
"""Upper clamp: a deviation above a newcomer's would claim we know less about a returning player
than about a stranger, and would let a comeback game swing the rating further than a debut."""
MIN_DEVIATION = 30.0
"""Lower clamp. Rating changes scale with the square of the deviation, so a deviation that kept
shrinking would freeze a rating that the player's real strength has long left behind; at 30 a win
over an equal still moves about three points. With one game per period the volatility alone
keeps Glicko-2 deviations near 50-60 (tools/ratingstudy.py), so the floor is a guard, rarely hit."""
PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is shown as provisional ('?'), the threshold lichess uses:
roughly, until the 95% interval is narrower than +-220 points."""

TAU = 0.5
"""Glicko-2's system constant: how far volatility may move in one period. Glickman advises 0.3 to
1.2, smaller where improbable results are common. Some of our games have chance in them, where
an upset says more about luck than about a change of form, so we stay near the low end (0.5 is
also the value of his worked example, which the tests reproduce)."""
EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration (the paper's value)."""
GLICKO2_SCALE = 400.0 / math.log(10.0)
"""Glicko points per Glicko-2 unit (the paper's 173.7178): it turns the base-10 logistic of the
Glicko scale into the natural one Glicko-2 computes with."""

_MAX_ITERATIONS = 100
"""Guard on the volatility iteration; the Illinois method converges in a handful of steps."""
_MIN_INFORMATION = 1e-12
"""Smallest information a period may carry: keeps 1/v finite when every game was a certainty."""

_MODEL = PlackettLuce()
"""OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300). Only the beta enters
:data:`PL_SCALE`; the model keeps no state between calls, so one instance serves everybody."""
PL_MU = _MODEL.mu
"""The Plackett-Luce mu that stands for :data:`NEW_RATING`."""
PL_SCALE = 400.0 / (math.log(10.0) * math.sqrt(2.0) * _MODEL.beta)
"""Glicko points per Plackett-Luce mu unit (about 29.48).

Glicko expects a score of 1/(1+10^(-dr/400)) = 1/(1+exp(-dr*ln10/400)). Plackett-Luce, for two
players, gives the better one 1/(1+exp(-dmu/c)) with c = sqrt(sigma_a^2 + sigma_b^2 + 2*beta^2),
which for established players (small sigmas) is sqrt(2)*beta. The two agree for every difference
exactly when dr*ln10/400 = dmu/(sqrt(2)*beta), i.e. dr = dmu * 400/(ln10*sqrt(2)*beta). Sigma is
a spread of the same quantity as mu, so it maps with the same factor (and no offset)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale: the estimate, its standard deviation, and the
    Glicko-2 volatility (how erratic the player's results have been)."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too uncertain to be shown without a question mark."""
        return self.deviation > PROVISIONAL_DEVIATION


def _clamp_deviation(deviation: float) -> float:
    return min(MAX_DEVIATION, max(MIN_DEVIATION, deviation))


def _g(phi: float) -> float:
    """Glickman's g: an uncertain opponent's result says less, so it is weighted down."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> tuple[float, float]:
    """1/(1+e^-x) and its derivative, computed so that neither rounds to 0 for large |x|."""
    q = math.exp(-abs(x))
    p = 1.0 / (1.0 + q) if x >= 0 else q / (1.0 + q)
    return p, q / ((1.0 + q) * (1.0 + q))


def expected_score(a: Rating, b: Rating) -> float:
    """Glicko-2's expected score of ``a`` against ``b``: the logistic of the rating difference,
    flattened by g of b's deviation (a doubtful opponent makes the outcome less predictable)."""
    mu_diff = (a.rating - b.rating) / GLICKO2_SCALE
    return _logistic(_g(b.deviation / GLICKO2_SCALE) * mu_diff)[0]


def _new_volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Steps 5.1-5.4 of the paper: the volatility solves f(x) = 0 for x = ln(sigma'^2), found by
    the Illinois variant of regula falsi (a bracket that cannot be lost, and fast)."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (TAU * TAU)

    low = a
    if d2 > p2 + v:
        high = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    for _ in range(_MAX_ITERATIONS):
        if abs(high - low) <= EPSILON:
            break
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = new, f_new
    return math.exp(low / 2.0)


def glicko2(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """One Glicko-2 rating period for ``player``: ``results`` holds each opponent's rating as it
    was before the period and the score against them (1, 0.5 or 0). Without results the rating
    stays and only the deviation widens by the volatility (step 6): time makes us less sure."""
    return period(player, results)[0]


def period(player: Rating, results: Sequence[tuple[Rating, float]]) -> tuple[Rating, list[float]]:
    """:func:`glicko2`, with each result's *share* of the move: Glicko-2 moves the rating by
    phi'^2 * sum of g * (score - expected) (step 7), so each opponent's term, in Glicko points,
    is the part of the move that result made; the shares add up to the whole move. What the
    ratings do with a result repeated between the same two players (``repeats.py``) is said
    per share, so a game of three or four is weighed opponent by opponent."""
    mu = (player.rating - NEW_RATING) / GLICKO2_SCALE
    phi = player.deviation / GLICKO2_SCALE
    sigma = player.volatility
    if not results:
        widened = math.sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE
        return Rating(player.rating, _clamp_deviation(widened), sigma), []
    information = 0.0
    terms = []  # each result's g * (score - expected)
    for opponent, score in results:
        g = _g(opponent.deviation / GLICKO2_SCALE)
        expected, slope = _logistic(g * (mu - (opponent.rating - NEW_RATING) / GLICKO2_SCALE))
        information += g * g * slope
        terms.append(g * (score - expected))
    pull = sum(terms)
    v = 1.0 / max(information, _MIN_INFORMATION)
    new_sigma = _new_volatility(phi, sigma, v, v * pull)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * pull
    rated = Rating(
        NEW_RATING + new_mu * GLICKO2_SCALE,
        _clamp_deviation(new_phi * GLICKO2_SCALE),
        new_sigma,
    )
    return rated, [new_phi * new_phi * term * GLICKO2_SCALE for term in terms]


def _check_places(count: int, places: Sequence[int]) -> None:
    if len(places) != count:
        raise ValueError(f"{count} players but {len(places)} places")
    if count < 2:
        raise ValueError("a rated game needs at least two players")
    if min(places) < 1:
        raise ValueError("places start at 1")


def _tie_breaks(places: Sequence[int]) -> list[list[float]]:
    """Every strict finishing order consistent with ``places`` (one when nobody tied)."""
    count = len(places)
    orders: list[list[float]] = []
    for seating in itertools.permutations(range(count)):
        if all(places[a] <= places[b] for a, b in itertools.pairwise(seating)):
            ranks = [0.0] * count
            for position, player in enumerate(seating):
                ranks[player] = float(position + 1)
            orders.append(ranks)
    return orders


def plackett_luce(players: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings after one game of several players, each finishing at ``places[i]`` (1 is
    best, equal places tie). OpenSkill's Plackett-Luce model sees the whole finishing order at
    once, so a game counts as one piece of evidence rather than a bundle of duels. Ratings go
    through :data:`PL_SCALE` and back; the volatility is a Glicko-2 notion and passes through.

    Ties are not handed to OpenSkill as equal ranks: its tie rule (6.2) can give the next
    finisher as much as the co-winners (places 1, 1, 2, 3 among equals: the third player gains
    exactly what the two winners gain; openskill.py issue #155). Instead the game is rated once
    for every way of breaking the ties and the results are averaged (at most 4! = 24 rate calls),
    so tied players come out equal and still ahead of whoever finished behind them."""
    _check_places(len(players), places)
    teams = [
        [_MODEL.rating(mu=PL_MU + (p.rating - NEW_RATING) / PL_SCALE, sigma=p.deviation / PL_SCALE)]
        for p in players
    ]
    outcomes = [_MODEL.rate(teams, ranks=ranks) for ranks in _tie_breaks(places)]
    rated = []
    for i, before in enumerate(players):
        # fsum is exactly rounded: the order of the tie breaks cannot make tied equals differ.
        mu = math.fsum(outcome[i][0].mu for outcome in outcomes) / len(outcomes)
        sigma = math.fsum(outcome[i][0].sigma for outcome in outcomes) / len(outcomes)
        deviation = _clamp_deviation(sigma * PL_SCALE)
        rated.append(Rating(NEW_RATING + (mu - PL_MU) * PL_SCALE, deviation, before.volatility))
    return rated


def _score(place: int, other: int) -> float:
    if place == other:
        return 0.5
    return 1.0 if place < other else 0.0


def update(players: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings of everybody at a finished rated game, in the order given: one Glicko-2
    period each against every other player's rating before the game, a better place scoring 1
    against them, an equal one 0.5, a worse one 0."""
    check_game(players, places)
    return [glicko2(me, against(players, places, i)) for i, me in enumerate(players)]


def check_game(players: Sequence[Rating], places: Sequence[int]) -> None:
    """ValueError unless ``places`` can be a rated game's: two to four players, places from 1."""
    _check_places(len(players), places)
    if len(players) > 4:
        raise ValueError("rated games have two to four players")


def against(players: Sequence[Rating], places: Sequence[int], i: int) -> list[tuple[Rating, float]]:
    """Player ``i``'s results of a game: every other player's rating before it, in the order
    given, and ``i``'s score against them (1 placed above, 0.5 level, 0 below)."""
    return [(other, _score(places[i], places[j])) for j, other in enumerate(players) if j != i]
