"""Request bodies of the seek and challenge routes (``api/lobby.py``), strict and bounded as
in ``models.py``: an unknown field is refused, every string and number has a ceiling."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from boardplay.web.models import Body, Options
from boardplay.web.table import ClockBody as Clock

GameName = Annotated[str, Field(max_length=64)]
RatingBound = Annotated[int, Field(ge=0, le=10_000)]


class SeekRequest(Body):
    game: GameName
    options: Options | None = None
    rated: bool = Field(
        False, description="the result changes both players' ratings (in the game's pool)"
    )
    clock: Clock = None
    rating_min: RatingBound | None = Field(
        None, description="lowest rating (in the game's pool) of an opponent you accept"
    )
    rating_max: RatingBound | None = Field(
        None, description="highest rating of an opponent you accept (a new player counts 1500)"
    )


class ChallengeRequest(Body):
    to: Annotated[str, Field(max_length=64)] = Field(description="the challenged player's name")
    game: GameName
    options: Options | None = None
    rated: bool = Field(False, description="the result changes both players' ratings")
    clock: Clock = None


class ApiChallengeRequest(Body):
    """A challenge sent with a personal API token (``POST /api/challenge/{username}``: the
    challenged player is named in the path, as lichess has it)."""

    game: GameName
    options: Options | None = None
    rated: bool = Field(False, description="the result changes both players' ratings")
    clock: Clock = None
