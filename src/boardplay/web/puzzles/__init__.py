"""Puzzles on the site (issue 64): the shipped sets (``sets.py``, ``data/``), attempts judged on
the server, puzzle ratings per player and game apart from game ratings, the daily puzzle and the
streak (``service.py``), their tables (``store.py``, migration 0026)."""

from __future__ import annotations

from boardplay.web.puzzles.schemas import GameRequest, PuzzleMove
from boardplay.web.puzzles.service import NEWCOMER, Puzzles, Solver, daily_pick, rate, streak_pick

__all__ = [
    "NEWCOMER",
    "GameRequest",
    "PuzzleMove",
    "Puzzles",
    "Solver",
    "daily_pick",
    "rate",
    "streak_pick",
]
