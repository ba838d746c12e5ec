"""The table chat: the players' and the spectators' channels, their ceilings, reports, and the
relay of messages to every socket allowed to read them."""

from __future__ import annotations

from boardplay.web.chat.schemas import ChatChannel, ChatReportRequest, ChatRequest
from boardplay.web.chat.service import (
    ChatRelay,
    author_of,
    clean,
    default_channel,
    post,
    read,
    readable,
    report,
)
from boardplay.web.chat.store import CHANNELS, PLAYERS, SPECTATORS

__all__ = [
    "CHANNELS",
    "PLAYERS",
    "SPECTATORS",
    "ChatChannel",
    "ChatRelay",
    "ChatReportRequest",
    "ChatRequest",
    "author_of",
    "clean",
    "default_channel",
    "post",
    "read",
    "readable",
    "report",
]
