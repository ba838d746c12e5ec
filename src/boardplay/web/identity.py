"""Who a request speaks for: a signed-in player's account and session, as every part of the
server passes them around (the accounts domain stores them, ``accounts/``; a socket, a chat
message, a seat or a rated game only reads them)."""

from __future__ import annotations

from dataclasses import dataclass

NAME_MAX = 20
"""Longest username (3-20 characters: letters, digits, ``_`` and ``-``)."""


@dataclass(frozen=True)
class Account:
    """A player as every domain sees them (lila's light user): never what signs them in (a
    password's hash, a passkey's handle), which stays in the accounts domain."""

    id: int
    name: str
    created: float = 0.0
    """When the account was made (seconds since the epoch)."""
    language: str | None = None
    """The language chosen on the page, for its mails and pushes (``notify/words.py``)."""
    bot: bool = False
    """A bot account (``bots/``): played by a program through the Bot API, marked BOT wherever
    its name is shown. Set once, for an account that had played no game, and never taken back."""

    def age(self, now: float) -> float:
        """Seconds since the account was made."""
        return now - self.created


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str
    expires: float
