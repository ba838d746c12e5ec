"""The analysis board (issue 64): studies of any position, their trees of variations, their
export as records with variations, and the engine's lines at their positions."""

from __future__ import annotations

from boardplay.web.analysis.engine import Lines
from boardplay.web.analysis.schemas import (
    CommentRequest,
    LinesRequest,
    MoveRequest,
    PromoteRequest,
    StudyRequest,
)
from boardplay.web.analysis.service import Analysis, Study, Visitor

__all__ = [
    "Analysis",
    "CommentRequest",
    "Lines",
    "LinesRequest",
    "MoveRequest",
    "PromoteRequest",
    "Study",
    "StudyRequest",
    "Visitor",
]
