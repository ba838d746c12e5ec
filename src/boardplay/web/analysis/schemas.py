"""The request bodies of the analysis board (``api/analysis.py``; docs/api.md, "Analysis")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from boardplay.web.models import Body, Options, Secret

LINES_MOST = 5
"""Most engine lines one request may ask for (the issue's k ≤ 5)."""

Level = Literal["easy", "medium", "hard", "expert"]
"""The ladder's levels (``ai.specs.LEVEL_NAMES``; a test holds the two equal)."""


class StudyRequest(Body):
    """A new study. Its first position is one of: a game's start (``game`` and ``options``
    only), a ``position`` of that game (its position JSON, docs/formats), a ``record``
    (boardplay-record, its variations included), or a stored game (``from_game``: its moves
    so far as the mainline)."""

    game: Annotated[str, Field(max_length=64)] | None = None
    options: Options | None = None
    position: dict[str, Any] | None = Field(None, description="a position JSON of ``game``")
    record: dict[str, Any] | None = Field(None, description="a boardplay record")
    from_game: Annotated[str, Field(max_length=32)] | None = None
    token: Secret | None = None


class MoveRequest(Body):
    """A move from a study's position: ``move`` in the game's notation or as an id; at a chance
    node the outcome chosen, or ``draw`` for one drawn by the server."""

    move: Annotated[str, Field(max_length=200)] | Annotated[int, Field(ge=0, le=10**9)] | None = (
        None
    )
    draw: bool = False
    token: Secret | None = None


class PromoteRequest(Body):
    mainline: bool = Field(
        False, description="promote every position on its path too (it becomes the mainline)"
    )


class CommentRequest(Body):
    comment: Annotated[str, Field(max_length=20_000)] | None = None


class LinesRequest(Body):
    level: Level = "medium"
    k: Annotated[int, Field(ge=1, le=LINES_MOST)] = 3
    token: Secret | None = None
