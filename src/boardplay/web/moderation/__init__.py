"""The moderators: roles given by the operator, the players' reports of players, the queue of
reports (the chat's reported lines among them) with their evidence, the moderators' actions
and their audit log, the chat bans every chat asks, and the notices telling a player what was
decided (``service.py``). The ``/api/moderation`` routes are ``api/moderation.py``."""

from __future__ import annotations

from boardplay.web.moderation.schemas import ActionRequest, PlayerReportRequest
from boardplay.web.moderation.service import (
    ACTIONS,
    BAN_DAYS_MAX,
    GROUNDS,
    NOTE_LENGTH,
    REASONS,
    ChatBans,
    GameReader,
    Marks,
    Moderation,
)
from boardplay.web.moderation.store import MODERATOR, ROLES, Entry, Notice

__all__ = [
    "ACTIONS",
    "BAN_DAYS_MAX",
    "GROUNDS",
    "MODERATOR",
    "NOTE_LENGTH",
    "REASONS",
    "ROLES",
    "ActionRequest",
    "ChatBans",
    "Entry",
    "GameReader",
    "Marks",
    "Moderation",
    "Notice",
    "PlayerReportRequest",
]
