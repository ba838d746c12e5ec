"""Hints and reviews: positions judged by a search in the worker pool, a review's progress and its
stored results."""

from __future__ import annotations

from boardplay.web.advice.reviews import ReviewAsk, Reviewer
from boardplay.web.advice.schemas import HintRequest, ReviewRequest

__all__ = [
    "HintRequest",
    "ReviewAsk",
    "ReviewRequest",
    "Reviewer",
]
