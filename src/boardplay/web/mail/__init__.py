"""E-mail notifications: the players' addresses and their confirmation, "your turn" and "game over"
mails in an outbox sent by one process at a time."""

from __future__ import annotations

from boardplay.web.mail.service import MailConfig, Mailer
from boardplay.web.mail.store import MailStore

__all__ = [
    "MailConfig",
    "MailStore",
    "Mailer",
]
