"""The table chat: the players' and the spectators' channels, their ceilings, reports, and the
relay of messages to every socket allowed to read them."""

from __future__ import annotations

from boardplay.web.chat.rights import author_of, clean, default_channel, readable
from boardplay.web.chat.schemas import ChatChannel, ChatReportRequest, ChatRequest
from boardplay.web.chat.service import ChatRelay, Silenced, check_voice, post, read, report
from boardplay.web.chat.store import CHANNELS, PLAYERS, SPECTATORS, ChatMessage, ReportedLine

__all__ = [
    "CHANNELS",
    "PLAYERS",
    "SPECTATORS",
    "ChatChannel",
    "ChatMessage",
    "ChatRelay",
    "ChatReportRequest",
    "ChatRequest",
    "ReportedLine",
    "Silenced",
    "author_of",
    "check_voice",
    "clean",
    "default_channel",
    "post",
    "read",
    "readable",
    "report",
]
