"""Request bodies of the Bot API and token routes, strict and bounded as every body is
(``models.Body``: an unknown field is refused, every string and list has a ceiling)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from boardplay.web.models import Body

Scope = Annotated[str, Field(max_length=40)]


class TokenRequest(Body):
    label: Annotated[str, Field(max_length=100)] = Field(
        "", description="what the token is for (shown in the list; 40 characters kept)"
    )
    scopes: list[Scope] = Field(
        max_length=10,
        description="bot:play, challenge:read, challenge:write, tournament:write",
    )


class UpgradeRequest(Body):
    confirm: Annotated[str, Field(max_length=64)] = Field(
        description="the account's name typed again: becoming a bot cannot be undone"
    )


class ChatLine(Body):
    room: Literal["player", "spectator"] = Field(
        "player", description="the players' chat, or the spectators'"
    )
    text: Annotated[str, Field(max_length=2000)]
