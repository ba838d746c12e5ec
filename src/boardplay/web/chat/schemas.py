"""The table chat's request bodies (``api/chat.py``; the game socket's chat message is one
too, ``table/schemas.ChatSend``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boardplay.web.models import Body, Secret

CHAT_TEXT_BOUND = 4_000
"""Characters a chat message's ``text`` may carry at all; the operator's ``chat_length`` (300)
is checked after the text is tidied, with a message that names it (``service.py``)."""
ChatChannel = Literal["players", "spectators"]


class ChatRequest(Body):
    channel: ChatChannel = Field(
        description="players (seat holders only) or spectators (signed-in watchers)"
    )
    text: Annotated[str, Field(max_length=CHAT_TEXT_BOUND)] = Field(
        description="plain text, shown as typed (never HTML); at most the server's chat length"
    )
    token: Secret | None = None


class ChatReportRequest(Body):
    token: Secret | None = None
