"""Ratings: the Glicko-2 maths (pure), what a rated game is and what its end means for each seat,
settlement exactly once, the daily cap between two players, and what the profiles and
leaderboards read (``service.py``; their routes are ``api/ratings.py``)."""

from __future__ import annotations

from boardplay.web.ratings.maths import NEW_RATING, Rating
from boardplay.web.ratings.rated import (
    RATED_MIN_TURNS,
    UNRATED,
    check_rated_clock,
    places_of,
    pool_of,
    pools,
)
from boardplay.web.ratings.results import change_of, rating_changes
from boardplay.web.ratings.service import Ratings
from boardplay.web.ratings.settle import RATINGS_INTERVAL, Settlement
from boardplay.web.ratings.standing import numeric_scores, places, verdict
from boardplay.web.ratings.store import Standing

__all__ = [
    "NEW_RATING",
    "RATED_MIN_TURNS",
    "RATINGS_INTERVAL",
    "UNRATED",
    "Rating",
    "Ratings",
    "Settlement",
    "Standing",
    "change_of",
    "check_rated_clock",
    "numeric_scores",
    "places",
    "places_of",
    "pool_of",
    "pools",
    "rating_changes",
    "verdict",
]
