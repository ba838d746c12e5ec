"""A game as the domains that are not the table read it: its status words, and the fields they
read of a game (declared once as protocols, which the table's rows fulfil), as lila declares a
game in ``lila.core``. The table stores and changes games; the ratings, the notices, the chat,
the replays and the lobby only read them, so they depend on these few names, not on the
table's package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

ACTIVE = "active"
"""A game still being played..."""
FINISHED = "finished"
"""...and one that has ended."""


class Seat(Protocol):
    """A seat as read off a game: its number, who sits there, the account that holds it."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def account(self) -> int | None: ...


class Move(Protocol):
    @property
    def player(self) -> int: ...


class Game(Protocol):
    """A game as read by another domain: what it is, who sits where, how it went."""

    @property
    def id(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def rated(self) -> bool: ...
    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def moves(self) -> Sequence[Move]: ...
    @property
    def result(self) -> dict[str, Any] | None: ...
    @property
    def resigned(self) -> Sequence[int]: ...
    @property
    def clock(self) -> dict[str, Any] | None: ...
    @property
    def deadline(self) -> float | None: ...
