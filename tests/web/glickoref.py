"""An independent Glicko-2, written from Mark Glickman's "Example of the Glicko-2 system" (steps
1-8) for the tests to compare the server's ratings with: no code shared with
``boardplay.web.ratings.maths``, and the volatility's equation solved by plain bisection rather
than the paper's Illinois iteration (over the paper's bracket), so a slip in either shows as a
difference.

Ratings are (rating, deviation, volatility) triples on the Glicko scale; a game of several
players is, as the server documents, one rating period per player against every other player,
scoring 1 against one placed below, ½ level, 0 above. No clamps: the tests use ratings whose
deviation stays inside the server's 30-350."""

from __future__ import annotations

import math
from collections.abc import Sequence

SCALE = 173.7178
TAU = 0.5
Triple = tuple[float, float, float]


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def period(player: Triple, results: Sequence[tuple[Triple, float]]) -> Triple:
    """Steps 1-8 for one player over one rating period."""
    rating, deviation, sigma = player
    mu, phi = (rating - 1500) / SCALE, deviation / SCALE  # step 2
    opponents = [((r - 1500) / SCALE, d / SCALE, s) for (r, d, _), s in results]
    v = 1 / sum(  # step 3
        _g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j))
        for mu_j, phi_j, _ in opponents
    )
    delta = v * sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    a = math.log(sigma**2)  # step 5: f(x) = 0 by bisection

    def f(x: float) -> float:
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / TAU**2
        )

    # The paper's bracket (step 5.2). A great surprise can give f more than one root in it; the
    # paper's iteration, starting from a, finds the one nearest a, so the bisection starts from
    # the first change of sign on the way from a to B.
    if delta**2 > phi**2 + v:
        b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        b = a - k * TAU
    step = (b - a) / max(1, math.ceil(abs(b - a) / (TAU / 16)))
    low = a
    while (f(low) > 0) == (f(low + step) > 0):
        low += step
    high = low + step
    if f(low) <= 0:
        low, high = high, low  # f(low) > 0 >= f(high)
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    sigma_new = math.exp((low + high) / 4)
    phi_star = math.sqrt(phi**2 + sigma_new**2)  # step 6
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)  # step 7
    mu_new = mu + phi_new**2 * sum(
        _g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents
    )
    return (SCALE * mu_new + 1500, SCALE * phi_new, sigma_new)  # step 8


def game(players: Sequence[Triple], places: Sequence[int]) -> list[Triple]:
    """Every player's rating after a game they finished at ``places`` (1 is best)."""

    def score(i: int, j: int) -> float:
        return 0.5 if places[i] == places[j] else float(places[i] < places[j])

    return [
        period(me, [(other, score(i, j)) for j, other in enumerate(players) if j != i])
        for i, me in enumerate(players)
    ]
