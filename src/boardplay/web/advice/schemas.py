"""The request bodies of hints and reviews (``api/advice.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from boardplay.web.models import Body, Ply, Secret


class HintRequest(Body):
    ply: Ply | None = Field(None, description="the ply the hint is for; refused if stale")
    token: Secret | None = None


class ReviewRequest(Body):
    seat: Annotated[int, Field(ge=0, le=1000)] | None = Field(
        None, description="the seat to review (default: the token's seat, else seat 0)"
    )
    iterations: Annotated[int, Field(ge=1, le=10_000_000)] | None = Field(
        None, description="search iterations per position (default: the server's)"
    )
    token: Secret | None = None
