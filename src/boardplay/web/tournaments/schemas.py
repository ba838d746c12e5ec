"""Request bodies of the tournament routes, strict and bounded as every body is (``models.py``):
an unknown field is refused, every string, list and number has a ceiling. The operator's
ceilings of rounds and minutes (``config.Limits``) are checked with the whole plan, naming them
(``plans.py``); the bounds here only keep a number sane."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boardplay.web.models import Body, Options
from boardplay.web.table import ClockRequest


class TournamentRequest(Body):
    name: Annotated[str, Field(max_length=80)] = ""
    kind: Literal["arena", "swiss", "pods"] = Field(
        description="arena: a fixed time, paired as soon as free; swiss: fixed rounds, one "
        "opponent each; pods: fixed rounds at tables of three or four"
    )
    game: Annotated[str, Field(max_length=64)]
    options: Options | None = None
    sizes: Annotated[list[Annotated[int, Field(ge=2, le=4)]], Field(min_length=1, max_length=3)] = (
        Field(default_factory=lambda: [2], description="players at one table (pods: 3 and/or 4)")
    )
    clock: ClockRequest = Field(description="every tournament game is on this clock")
    rated: bool = False
    bots: bool = Field(False, description="bot accounts may enter (casual tournaments only)")
    starts: Annotated[float, Field(ge=0, le=10**11)] = Field(
        description="when it starts, in seconds since 1970 (UTC)"
    )
    minutes: Annotated[int, Field(ge=1, le=10**6)] | None = Field(
        None, description="an arena's length"
    )
    rounds: Annotated[int, Field(ge=1, le=10**4)] | None = Field(
        None, description="a Swiss's or pods' rounds"
    )
