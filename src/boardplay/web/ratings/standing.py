"""What a finished game's result means for each seat: its place (1 is best) and whether it won,
drew or lost. One reading of a result that the profile's counts, the rating's places and the
pages share, so that a game counts alike everywhere. A result is the table's (``table.endings``):
``winners``, ``resigned`` (gave up, ran out of time or left: they cannot win) and ``scores``."""

from __future__ import annotations

from typing import Any

ENDED_BY_WORD = ("resignation", "agreement", "abandoned", "aborted")
"""The ``ended`` codes of results a player brings about at any moment by a request
(``table.endings``: a resignation, an agreed draw, an abandonment claim, an abort)."""


def numeric_scores(result: dict[str, Any], seats: int) -> list[float] | None:
    """The result's score per seat, if it keeps a number for every seat."""
    scores = result.get("scores")
    if (
        isinstance(scores, list)
        and len(scores) == seats
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in scores)
    ):
        return [float(x) for x in scores]
    return None


def places(result: dict[str, Any], seats: int) -> list[int]:
    """Each seat's place in a finished game's ``result`` (1 is best; equals share one): the
    winners first; then, if the game keeps a score per seat, the others by score; a seat that
    resigned (gave up, ran out of time or left) after every seat that did not."""
    winners = set(result.get("winners") or [])
    resigned = set(result.get("resigned") or [])
    scores = numeric_scores(result, seats) or [0.0] * seats
    keys = [(seat in resigned, seat not in winners, -scores[seat]) for seat in range(seats)]
    ordered = sorted(set(keys))
    return [1 + ordered.index(k) for k in keys]


def verdict(result: dict[str, Any], seat: int) -> str:
    """``won``, ``drawn`` or ``lost``: what a finished game was for ``seat`` (a profile's count,
    a mail's first words). A seat that resigned lost, whoever won."""
    winners = result.get("winners") or []
    if seat in (result.get("resigned") or []):
        return "lost"
    if seat in winners:
        return "won"
    return "lost" if winners else "drawn"
