"""Bot accounts and the Bot API (lichess's conventions): personal API tokens with scopes, the
upgrade of a fresh account to a bot, the event stream and the game stream, and a bot's moves,
resignations, aborts, draws and chat."""

from __future__ import annotations

from boardplay.web.bots.limits import TOKEN_PREFIX
from boardplay.web.bots.schemas import ChatLine, TokenRequest, UpgradeRequest
from boardplay.web.bots.service import (
    BOT_PLAY,
    CHALLENGE_READ,
    CHALLENGE_WRITE,
    SCOPES,
    TOURNAMENT_WRITE,
    ApiUser,
    Bots,
)
from boardplay.web.bots.streams import EventStream, GameStream

__all__ = [
    "BOT_PLAY",
    "CHALLENGE_READ",
    "CHALLENGE_WRITE",
    "SCOPES",
    "TOKEN_PREFIX",
    "TOURNAMENT_WRITE",
    "ApiUser",
    "Bots",
    "ChatLine",
    "EventStream",
    "GameStream",
    "TokenRequest",
    "UpgradeRequest",
]
