"""Ratings: the Glicko-2 maths (pure; ``glicko2`` is the one update the puzzles' ratings use
too), what a rated game is and what its end means for each seat, settlement exactly once, how
much a result repeated between the same two players counts (``repeats.py``), and what the
profiles, leaderboards and moderators read (``service.py``; their routes are
``api/ratings.py``)."""

from __future__ import annotations

from boardplay.web.ratings.lookups import Standing
from boardplay.web.ratings.maths import (
    NEW_DEVIATION,
    NEW_RATING,
    NEW_VOLATILITY,
    PROVISIONAL_DEVIATION,
    Rating,
    glicko2,
)
from boardplay.web.ratings.rated import (
    RATED_MIN_TURNS,
    check_rated_clock,
    pool_of,
    pools,
)
from boardplay.web.ratings.repeats import PAIR_BOUND, REPEAT_WINDOW
from boardplay.web.ratings.results import effect_of
from boardplay.web.ratings.service import Ratings
from boardplay.web.ratings.settle import RATINGS_INTERVAL
from boardplay.web.ratings.standing import numeric_scores, places, verdict

__all__ = [
    "NEW_DEVIATION",
    "NEW_RATING",
    "NEW_VOLATILITY",
    "PAIR_BOUND",
    "PROVISIONAL_DEVIATION",
    "RATED_MIN_TURNS",
    "RATINGS_INTERVAL",
    "REPEAT_WINDOW",
    "Rating",
    "Ratings",
    "Standing",
    "check_rated_clock",
    "effect_of",
    "glicko2",
    "numeric_scores",
    "places",
    "pool_of",
    "pools",
    "verdict",
]
