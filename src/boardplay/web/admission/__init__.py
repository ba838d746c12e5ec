"""Who may sit at a table with whom: one rule for every door a game is made through (the
doors are registered in ``Door``; the table's ``GameMaker`` asks the rule for each)."""

from __future__ import annotations

from boardplay.web.admission.rule import (
    BLOCKED,
    MARKED,
    UNBLOCKED_DOORS,
    Admission,
    Door,
    Seating,
    Verdict,
)

__all__ = [
    "BLOCKED",
    "MARKED",
    "UNBLOCKED_DOORS",
    "Admission",
    "Door",
    "Seating",
    "Verdict",
]
