"""Bot accounts and the Bot API (lichess's conventions): personal API tokens with scopes, the
upgrade of a fresh account to a bot, the event stream and the game stream, and a bot's moves,
resignations, aborts, draws and chat."""

from __future__ import annotations

from boardplay.web.bots.limits import MOVES, REQUESTS, TOKEN_PREFIX, BotGate, Kind
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
from boardplay.web.bots.wire import game_event

__all__ = [
    "BOT_PLAY",
    "CHALLENGE_READ",
    "CHALLENGE_WRITE",
    "MOVES",
    "REQUESTS",
    "SCOPES",
    "TOKEN_PREFIX",
    "TOURNAMENT_WRITE",
    "ApiUser",
    "BotGate",
    "Bots",
    "ChatLine",
    "EventStream",
    "GameStream",
    "Kind",
    "TokenRequest",
    "UpgradeRequest",
    "game_event",
]
