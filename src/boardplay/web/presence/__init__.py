"""Who is at a game's table: the seats with a page open on any process, the spectators, and
the players' visits by HTTP (what an abandonment claim counts)."""

from __future__ import annotations

from boardplay.web.presence.store import (
    NOTE_EVERY,
    STALE,
    Here,
    Heres,
    PresenceStore,
    TablePresence,
    add_up,
    split,
)

__all__ = [
    "NOTE_EVERY",
    "STALE",
    "Here",
    "Heres",
    "PresenceStore",
    "TablePresence",
    "add_up",
    "split",
]
