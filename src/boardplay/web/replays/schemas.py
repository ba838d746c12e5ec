"""The outline of an uploaded record (``api/replays.py``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class RecordUpload(BaseModel):
    """A boardplay record (docs/formats.md); checked in full by ``Record.from_json`` and a
    replay of every move, so only its outline is declared here."""

    model_config = ConfigDict(extra="allow")
    format: str
    version: int
    game: str
    options: dict[str, Any] = {}
    players: list[Any] = []
    actions: list[Any] = []
    moves: list[Any] = []
    seats: list[Any] = []
