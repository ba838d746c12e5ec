"""The moderation's request bodies (``api/moderation.py``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boardplay.web.models import Body

TEXT_BOUND = 2_000
"""Characters a note or a reason may carry at all; the service checks ``NOTE_LENGTH`` (500)
once the text is tidied, with a message that names it."""


class PlayerReportRequest(Body):
    reason: Literal["abuse", "cheating", "farming", "other"] = Field(
        description="why: abuse, cheating, farming or other"
    )
    note: Annotated[str, Field(max_length=TEXT_BOUND)] = Field(
        "", description="what happened, in a few words (optional; plain text)"
    )
    game: Annotated[str, Field(min_length=1, max_length=32)] | None = Field(
        None, description="the game reported from, which the reported player played"
    )


class ActionRequest(Body):
    action: Literal["dismiss", "warn", "chat_ban", "close", "mark", "unmark"]
    reason: Annotated[str, Field(max_length=TEXT_BOUND)] = Field(
        description="why, for the audit log and the player's notice"
    )
    report: Annotated[str, Field(max_length=24)] | None = Field(
        None, description="the report decided: chat:<id> or player:<id>"
    )
    account: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="the account decided about, when no report is named"
    )
    days: Annotated[int, Field(ge=1, le=365)] | None = Field(
        None, description="a chat ban's length in days"
    )
    grounds: Literal["engine", "boosting"] | None = Field(
        None, description="what a mark is for: engine help, or boosting a rating"
    )
