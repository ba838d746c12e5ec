"""Request bodies of the seek and challenge routes (``api/lobby.py``), strict and bounded as
in ``models.py``: an unknown field is refused, every string and number has a ceiling."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, field_validator

from boardplay.web import safejson
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.models import Body, Options
from boardplay.web.table import DAYS, MAX_BASE, MAX_INCREMENT, ClockRequest
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
    seat: Literal[0, 1] | None = Field(
        None, description="the challenger's seat (0 moves first); absent or null: drawn"
    )


FORM_JSON = Limits()
"""The JSON ceilings a form's JSON field is read within (the defaults: depth, digits)."""
COLOURS: dict[str, Literal[0, 1] | None] = {"white": 0, "black": 1, "random": None}
"""lichess's ``color`` (the challenger's) as a seat: white moves first, seat 0."""


class ApiChallengeRequest(Body):
    """A challenge sent with a personal API token (``POST /api/challenge/{username}``: the
    challenged player is named in the path, as lichess has it), in boardplay's fields (``game``,
    ``options``, ``clock``) or lichess's (``variant``, ``clock.limit``, ``clock.increment``,
    ``days``, ``color``), as JSON or as a form (``api/bodies.py``). A lichess client sends every
    field it knows, unused ones null (berserk); null is absent. In a form, ``options`` is the
    options' JSON object as text."""

    game: GameName | None = None
    variant: GameName | None = Field(
        None, description="lichess's name for 'game': the game's key (proteus, montana, ...)"
    )
    options: Options | None = Field(
        None, description="the game's options (docs/formats/<game>.md); in a form, as JSON text"
    )
    rated: bool | None = Field(False, description="the result changes both players' ratings")
    clock: Clock = None
    clock_limit: Annotated[int | float, Field(ge=0, le=MAX_BASE)] | None = Field(
        None, alias="clock.limit", description="lichess: each player's time at the start, seconds"
    )
    clock_increment: Annotated[int | float, Field(ge=0, le=MAX_INCREMENT)] | None = Field(
        None, alias="clock.increment", description="lichess: seconds added per turn"
    )
    days: Annotated[int, Field(ge=1, le=max(DAYS))] | None = Field(
        None, description="lichess: correspondence, days per move"
    )
    color: Literal["white", "black", "random"] | None = Field(
        None, description="lichess: the challenger's seat, white 0 or black 1 (random: drawn)"
    )
    fen: None = Field(None, description="lichess's starting position: chess only, always null")

    @field_validator("options", mode="before")
    @classmethod
    def _options_text(cls, value: Any) -> Any:
        """A form carries the options as JSON text (its values are all text), parsed within the
        ceilings every JSON body meets (``safejson``; the options' own are far lower)."""
        if isinstance(value, str):
            try:
                return safejson.parse(value, FORM_JSON, "field 'options'")
            except ApiError as exc:
                raise ValueError(exc.message) from None
        return value

    def challenge_to(self, username: str) -> ChallengeRequest:
        """The challenge in boardplay's fields (a 400 naming the fields that disagree)."""
        game = self.game or self.variant
        if game is None:
            raise bad_request("field 'variant' (or 'game') is required: the game's key")
        if self.game and self.variant and self.game != self.variant:
            raise bad_request("fields 'game' and 'variant' name different games: give one")
        lichess = {"clock.limit": self.clock_limit, "clock.increment": self.clock_increment}
        given = [k for k, v in (*lichess.items(), ("days", self.days)) if v is not None]
        if self.clock is not None and given:
            raise bad_request(f"give the time control once: 'clock' or {', '.join(given)}")
        if self.days is not None and self.clock_limit is not None:
            raise bad_request("give 'clock.limit' (real time) or 'days' (correspondence), not both")
        if self.clock_increment is not None and self.clock_limit is None:
            raise bad_request("'clock.increment' needs 'clock.limit'")
        clock = self.clock
        if self.days is not None:
            clock = ClockRequest(base=None, increment=None, days=self.days)
        elif self.clock_limit is not None:
            increment = self.clock_increment or 0
            clock = ClockRequest(base=self.clock_limit, increment=increment, days=None)
        return ChallengeRequest(
            to=username,
            game=game,
            options=self.options,
            rated=bool(self.rated),
            clock=clock,
            seat=COLOURS[self.color or "random"],
        )


DeclineReason = Literal[
    "generic",
    "later",
    "tooFast",
    "tooSlow",
    "timeControl",
    "rated",
    "casual",
    "standard",
    "variant",
    "noBot",
    "onlyBot",
]
"""lichess's reasons for declining a challenge (its ``reason`` field's keys)."""


class DeclineRequest(Body):
    """What may come with an answer to a challenge: lichess's decline ``reason`` (read and
    checked, not kept: a decline is a decline whatever its reason)."""

    reason: DeclineReason | None = Field(
        None, description=f"why, in lichess's keys: {', '.join(get_args(DeclineReason))}"
    )
