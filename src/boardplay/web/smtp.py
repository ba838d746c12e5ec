"""The operator's SMTP server (``BOARDPLAY_WEB_SMTP_URL``) and handing it one message.

The URL names how to reach it: ``smtp://user:password@host:port`` (plain, port 25 by default),
``smtps://…`` (TLS from the first byte, port 465) or ``smtp+starttls://…`` (plain, upgraded
with STARTTLS before anything else is said, port 587). User and password are optional and
percent-decoded. ``send`` is blocking (``smtplib``): the ``Mailer`` (``notify/mailer.py``) calls
it in a thread of its own, never on the event loop."""

from __future__ import annotations

import functools
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

SCHEMES = {"smtp": 25, "smtps": 465, "smtp+starttls": 587}
"""The URL schemes understood, with their default ports."""
TIMEOUT = 20.0
"""Seconds any one exchange with the SMTP server may take before the attempt fails (and is
retried later): a hung server must not hold a mail's claim past its lease (``LEASE`` in
``notify/mailer.py``)."""


@dataclass(frozen=True)
class SmtpServer:
    scheme: str
    host: str
    port: int
    user: str | None = None
    password: str | None = None

    def __repr__(self) -> str:  # never the password, wherever it is logged
        who = f"{self.user}@" if self.user else ""
        return f"SmtpServer({self.scheme}://{who}{self.host}:{self.port})"


def parse_smtp_url(url: str, variable: str = "BOARDPLAY_WEB_SMTP_URL") -> SmtpServer:
    """The server ``url`` names, or a ``ValueError`` naming ``variable`` and what is allowed
    (the message never repeats the URL: it may hold a password)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"{variable} is not a URL with a valid port") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise ValueError(
            f"{variable} must start with smtp://, smtps:// or smtp+starttls:// "
            f"(got {scheme + '://' if scheme else 'no scheme'})"
        )
    if not parts.hostname:
        raise ValueError(f"{variable} names no host (smtp://user:password@host:port)")
    return SmtpServer(
        scheme,
        parts.hostname,
        port or SCHEMES[scheme],
        unquote(parts.username) if parts.username else None,
        unquote(parts.password) if parts.password is not None else None,
    )


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS context of every delivery, made at the first: making one reads the system's
    certificates, about 20 ms of CPU, which each mail paid."""
    return ssl.create_default_context()


def send(server: SmtpServer, message: EmailMessage) -> None:
    """Deliver ``message`` to ``server`` (blocking). Raises ``smtplib.SMTPException`` or
    ``OSError`` when it was not accepted; ``permanent`` tells which failures retrying cannot
    mend."""
    context = _tls()
    client: smtplib.SMTP
    if server.scheme == "smtps":
        client = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT, context=context)
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
    with client:
        if server.scheme == "smtp+starttls":
            client.starttls(context=context)
        if server.user:
            client.login(server.user, server.password or "")
        client.send_message(message)


def permanent(error: BaseException) -> bool:
    """A refusal retrying will not change (a 5xx answer: no such mailbox, sender refused, bad
    credentials); anything else (4xx, a timeout, a connection refused) is worth a retry."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        return bool(codes) and all(code >= 500 for code in codes)
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code >= 500
    return False
