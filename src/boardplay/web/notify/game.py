"""What a notice reads of a game: declared here, so the notices depend on these few fields and
not on the table's rows (the table's ``GameRow`` has them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class NoticeSeat(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def account(self) -> int | None: ...


class NoticeGame(Protocol):
    """A game as "your turn" and "game over" tell it: its id and game, who sits where, its
    result once over, its time control and when its running clock falls."""

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def seats(self) -> Sequence[NoticeSeat]: ...
    @property
    def result(self) -> dict[str, Any] | None: ...
    @property
    def clock(self) -> dict[str, Any] | None: ...
    @property
    def deadline(self) -> float | None: ...
