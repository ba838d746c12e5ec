"""The request bodies of the puzzles (``api/puzzles.py``; docs/web.md, "Puzzles")."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from boardplay.web.models import Body


class GameRequest(Body):
    """Which game's puzzles: the next one for the visitor, or a new streak."""

    game: Annotated[str, Field(max_length=64)]


class PuzzleMove(Body):
    """The solver's move: in the game's notation, or its id in the position's legal list."""

    move: Annotated[str, Field(max_length=200)] | Annotated[int, Field(ge=0, le=10**9)]
