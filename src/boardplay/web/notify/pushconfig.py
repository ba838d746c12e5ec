"""The operator's push settings: the VAPID key, the push services pushes may go to, the contact
a push service reaches the operator by and the per-account ceilings, read from the environment
once at start (``PushConfig.from_env``), and whether this installation can push at all
(``available``). Kept apart from the sender (``pusher.py``), which only reads them."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass

from boardplay.web.notify.webpush import PUSH_SERVICES, ServerKey

KEY_ENV = "BOARDPLAY_WEB_VAPID_PRIVATE_KEY"
SERVICES_ENV = "BOARDPLAY_WEB_PUSH_SERVICES"
CONTACT_ENV = "BOARDPLAY_WEB_PUSH_CONTACT"


@dataclass(frozen=True)
class PushConfig:
    """The operator's push settings (``from_env``)."""

    private_key: str | None = None
    """``BOARDPLAY_WEB_VAPID_PRIVATE_KEY``: the VAPID key to sign with (base64url of its 32
    bytes, or a PEM); unset, the server makes one once and keeps it in the database."""
    services: tuple[str, ...] = PUSH_SERVICES
    """``BOARDPLAY_WEB_PUSH_SERVICES``: the push services pushes may be posted to (comma
    separated origins, ``https://*.host`` for any subdomain)."""
    contact: str = "https://localhost"
    """``BOARDPLAY_WEB_PUSH_CONTACT``, the VAPID ``sub`` a push service can reach the operator
    by; else the site's https origin, else ``mailto:`` the mails' sender."""
    pushes_per_account_hour: int = 20
    """``BOARDPLAY_WEB_PUSHES_PER_ACCOUNT_HOUR``: notifications one account is pushed per hour
    (each goes to all its devices); more are dropped and counted in the log."""
    devices_per_account: int = 10
    """``BOARDPLAY_WEB_PUSH_DEVICES_PER_ACCOUNT``: devices one account keeps subscribed; a new
    one pushes out the oldest."""
    challenge_ttl: int = 600
    """Seconds a challenge push lives (the challenge's own lifetime)."""
    posts_at_once: int = 16
    """Pushes one process posts at the same time: a push service that hangs holds its posts
    until they time out, while the others go on."""
    posts_per_service: int = 4
    """Of those, the posts to one push service (``webpush.service_of``) at the same time: one
    that hangs holds this many of the process's posts at most, never all of them."""

    @classmethod
    def from_env(
        cls,
        origin: str | None = None,
        mail_from: str | None = None,
        challenge_ttl: float = 600.0,
        environ: Mapping[str, str] | None = None,
    ) -> PushConfig:
        env = os.environ if environ is None else environ
        services = tuple(
            s.strip().rstrip("/") for s in env.get(SERVICES_ENV, "").split(",") if s.strip()
        )
        contact = env.get(CONTACT_ENV, "").strip()
        if not contact:
            if origin and origin.startswith("https://"):
                contact = origin.rstrip("/")
            elif mail_from and "@" in mail_from:
                contact = "mailto:" + mail_from.rsplit("<", 1)[-1].strip(" >")
            else:
                contact = cls.contact
        if not contact.startswith(("mailto:", "https://")):
            raise ValueError(f"{CONTACT_ENV} must be a mailto: or https:// URL, got {contact!r}")
        key = env.get(KEY_ENV, "").strip() or None
        if key is not None:
            try:
                ServerKey(key)
            except Exception:
                raise ValueError(
                    f"{KEY_ENV} must be a P-256 private key: base64url of its 32 bytes (as "
                    "`vapid --gen` or the server's own key) or PEM text"
                ) from None
        return cls(
            private_key=key,
            services=services or PUSH_SERVICES,
            contact=contact,
            pushes_per_account_hour=_positive(env, "BOARDPLAY_WEB_PUSHES_PER_ACCOUNT_HOUR", 20),
            devices_per_account=_positive(env, "BOARDPLAY_WEB_PUSH_DEVICES_PER_ACCOUNT", 10),
            challenge_ttl=int(challenge_ttl),
        )


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) <= 0:
        raise ValueError(f"{name} must be a positive whole number, got {raw!r}")
    return int(raw)


def available() -> bool:
    """Whether pushes can be made here (``pywebpush``, of the ``web`` extra, is installed).
    Found, not imported: importing it (and its HTTP and crypto stack) costs a second of every
    server's start; the first push imports it."""
    return importlib.util.find_spec("pywebpush") is not None
