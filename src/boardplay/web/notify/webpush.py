"""One Web Push, as the standards say: the payload encrypted to the subscription's keys (RFC 8291,
``aes128gcm``, RFC 8188), signed for by the server's VAPID key (RFC 8292), posted to the
subscription's endpoint with its lifetime, urgency and topic (RFC 8030).

``pywebpush`` encrypts (``WebPusher.encode``) and its ``py_vapid`` signs; the post itself is
``httpx``'s, so that it follows no redirect, runs on the event loop with a timeout of our own,
and goes only to a push service the operator allows (``allowed``): the endpoint is a URL a
browser handed us, and a server that posted wherever a visitor pointed it could be made to
reach its own network (SSRF)."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import time
import unicodedata
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from boardplay.web.notify.pushstore import Subscription

PUSH_SERVICES = (
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://*.notify.windows.com",
    "https://web.push.apple.com",
)
"""The push services of Chrome (and Android, Samsung Internet, Opera), Firefox, Edge and Safari:
the only hosts a push is posted to unless the operator says otherwise
(``BOARDPLAY_WEB_PUSH_SERVICES``). ``*.`` allows any subdomain."""
TIMEOUT = 10.0
"""Seconds one post may take (connect, send, answer) before it fails and is retried: each step
of it, and the whole."""
ANSWER_BYTES = 4096
"""Bytes of a push service's answer read at most: what it says is only kept for the log (its
first 200 characters), so a service that answers at length is not read further."""
TOKEN_LIFETIME = 12 * 3600
"""Seconds a VAPID token is valid (RFC 8292 allows at most 24 hours)."""
TOPIC = re.compile(r"[^A-Za-z0-9_-]")
CALLED = {
    "\t": "a tab",
    "\n": "a line feed (LF)",
    "\r": "a carriage return (CR)",
    " ": "a space",
    "\x00": "a NUL",
}
"""The characters an endpoint is most often refused for, by the names people know them by."""


def b64(data: bytes) -> str:
    """base64url without padding (what browsers and RFC 8292 use)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_private_key() -> str:
    """A fresh P-256 private key, as its 32-byte secret in base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64(key.private_numbers().private_value.to_bytes(32, "big"))


class ServerKey:
    """The server's VAPID key pair: what browsers subscribe with (``public``) and what signs
    each push's ``Authorization``."""

    def __init__(self, private: str) -> None:
        from py_vapid import Vapid02

        text = private.strip()
        if "BEGIN" in text:  # a PEM file's text
            loaded = serialization.load_pem_private_key(text.encode(), password=None)
            if not isinstance(loaded, ec.EllipticCurvePrivateKey):
                raise ValueError("the VAPID private key must be an EC (P-256) key")
            self.vapid = Vapid02(loaded)
        else:
            self.vapid = Vapid02.from_string(text)
        if not isinstance(self.vapid.private_key.curve, ec.SECP256R1):
            raise ValueError("the VAPID private key must be on the P-256 curve")
        point = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public = b64(point)
        """The ``applicationServerKey`` browsers subscribe with (base64url, 65 bytes)."""

    def authorization(self, endpoint: str, contact: str, now: float | None = None) -> str:
        """``vapid t=<JWT>, k=<public key>`` for a push to ``endpoint`` (the JWT's audience is
        the endpoint's origin; ``contact`` is the ``sub`` claim: a mailto: or https: URL)."""
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int((time.time() if now is None else now) + TOKEN_LIFETIME),
            "sub": contact,
        }
        header: str = self.vapid.sign(claims)["Authorization"]
        return header


def endpoint_problem(endpoint: str) -> str | None:
    """What makes ``endpoint`` a URL no push can be posted to, as it is stored (None: it is
    one). The check of the host (``allowed``) reads it with Python's ``urlsplit``, which
    quietly drops ASCII tab, CR and LF, and the post reads it with httpx, which refuses them:
    ``https://fcm.goog<TAB>leapis.com/x`` would pass as fcm.googleapis.com and then fail at
    every send. So a URL with any control character, white space or other character outside
    printable ASCII is refused whole (the push services' endpoints are printable ASCII, their
    tokens base64url or percent-encoded), and the one left must name the same host to both
    readers."""
    for at, char in enumerate(endpoint):
        if not "!" <= char <= "~":
            name = CALLED.get(char) or f"U+{ord(char):04X} ({unicodedata.name(char, 'control')})"
            return f"it holds {name} at position {at} (only printable ASCII, no spaces)"
    try:
        host = httpx.URL(endpoint).host
    except httpx.InvalidURL as exc:
        return f"it is not a URL the server can post to ({exc})"
    try:
        same = host == (urlsplit(endpoint).hostname or "").lower()
    except ValueError:
        same = False
    return None if same else "its host reads differently to the server's two URL parsers"


def service_of(endpoint: str) -> str:
    """The push service an endpoint is on, as the sender counts its posts: the URL's scheme,
    host and port as written, in lower case (``https://fcm.googleapis.com``); the endpoint
    begins with it, then ``/`` or ``?``, or ends (``pushstore.PushStore.claim`` matches so)."""
    try:
        parts = urlsplit(endpoint)
    except ValueError:
        return ""
    cut = endpoint.find("//") + 2 + len(parts.netloc)
    return endpoint[:cut].lower() if parts.scheme and parts.netloc else ""


def allowed(endpoint: str, services: tuple[str, ...]) -> bool:
    """Whether ``endpoint`` is an https (or an allowed origin's) URL on one of ``services``:
    the scheme and port must match and the host be the service's or, for ``*.host``, below
    it. No user info, no fragment, and nothing ``endpoint_problem`` finds (the host checked
    is the host posted to)."""
    if endpoint_problem(endpoint) is not None:
        return False
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if parts.username or parts.password or parts.fragment or not parts.hostname:
        return False
    host = parts.hostname.lower()
    for service in services:
        want = urlsplit(service)
        if want.scheme != parts.scheme or (want.port or 0) != (port or 0):
            continue
        pattern = (want.hostname or "").lower()
        if host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


def check_subscription(raw_endpoint: str, p256dh: str, auth: str) -> Subscription:
    """The subscription if its keys are what RFC 8291 needs (a P-256 point and a 16-byte
    secret, base64url), else ``ValueError`` saying what is wrong."""
    try:
        point = unb64(p256dh)
        secret = unb64(auth)
    except (ValueError, TypeError):
        raise ValueError("keys.p256dh and keys.auth must be base64url") from None
    if len(point) != 65 or point[0] != 4:
        raise ValueError("keys.p256dh must be an uncompressed P-256 point (65 bytes)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValueError("keys.p256dh is not a point on P-256") from None
    if len(secret) != 16:
        raise ValueError("keys.auth must be 16 bytes")
    return Subscription(raw_endpoint, b64(point), b64(secret))


def encrypt(target: Subscription, payload: bytes) -> bytes:
    """``payload`` encrypted to the subscription (RFC 8291, ``aes128gcm``), by pywebpush."""
    from pywebpush import WebPusher

    info = {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}}
    body: bytes = WebPusher(info).encode(payload, "aes128gcm")["body"]
    return body


def topic(kind: str, subject: str | None) -> str:
    """A push's ``Topic`` (RFC 8030 §5.4): a newer push of the same topic replaces one the
    device has not fetched yet. At most 32 base64url characters."""
    return TOPIC.sub("", f"{kind}-{subject or ''}")[:32]


@dataclass(frozen=True)
class Answer:
    """The push service's answer: its status, when to try again (429, 503), what it said."""

    status: int
    retry_after: float | None
    text: str

    @property
    def accepted(self) -> bool:
        return 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        """The subscription expired or was unsubscribed (RFC 8030 §7.3): forget it."""
        return self.status in (404, 410)

    @property
    def worth_retrying(self) -> bool:
        """A busy or failing service (429, 5xx); anything else is the push's own fault (400
        bad request, 403 a key the subscription was not made for, 413 too large)."""
        return self.status == 429 or self.status >= 500


def retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError):
        return None


async def post(
    client: httpx.AsyncClient,
    key: ServerKey,
    contact: str,
    target: Subscription,
    payload: dict[str, object],
    ttl: int,
    urgency: str,
    push_topic: str,
) -> Answer:
    """Encrypt and post one push; the service's answer (an ``httpx.HTTPError``, or
    ``TimeoutError`` past ``TIMEOUT`` in all, if none). The answer is streamed and read up to
    ``ANSWER_BYTES``, as it came (no content decoding), then the connection is closed: httpx's
    ``response.text`` would read a body of any size into memory first."""
    body = encrypt(target, json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    headers = {
        "Authorization": key.authorization(target.endpoint, contact),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Accept-Encoding": "identity",
        "TTL": str(max(0, ttl)),
        "Urgency": urgency,
    }
    if push_topic:
        headers["Topic"] = push_topic
    said = bytearray()
    async with asyncio.timeout(TIMEOUT):
        request = client.stream("POST", target.endpoint, content=body, headers=headers)
        async with request as response:
            async for chunk in response.aiter_raw():
                said += chunk[: ANSWER_BYTES - len(said)]
                if len(said) >= ANSWER_BYTES:
                    break
    return Answer(
        response.status_code,
        retry_after(response.headers.get("retry-after"), time.time()),
        said.decode("utf-8", "replace")[:200],
    )
