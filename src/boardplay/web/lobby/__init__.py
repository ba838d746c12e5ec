"""Finding an opponent: seeks, quick games, challenges and the live lobby socket."""

from __future__ import annotations

from boardplay.web.lobby.sockets import Lobby
from boardplay.web.lobby.store import SeekStore

__all__ = [
    "Lobby",
    "SeekStore",
]
