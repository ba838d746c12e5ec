"""A push service and a browser's side of Web Push, for the tests: a loopback HTTP server that
keeps every push it is sent (and answers each path with the status a test sets, as a push
service answers 410 for a subscription that is gone), and a device with its own P-256 key and
auth secret that decrypts what it receives (RFC 8291 ``aes128gcm``, with ``http_ece``) and
checks the sender's VAPID token (RFC 8292, with ``py_vapid``)."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One push as the service got it."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """The push service on ``origin``: ``received`` holds every push; ``answers[path]`` is the
    status a post to ``path`` gets (201 otherwise)."""

    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    origin: str = ""

    def to(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == path]

    def wait(self, path: str, count: int, timeout: float = 15.0) -> list[Received]:
        end = time.monotonic() + timeout
        while len(self.to(path)) < count:
            assert time.monotonic() < end, f"{path} got {len(self.to(path))} of {count} pushes"
            time.sleep(0.02)
        return self.to(path)


def start(service: PushService) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with service.lock:
                service.received.append(Received(self.path, dict(self.headers.items()), body))
                status = service.answers.get(self.path, 201)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.origin = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def push_service() -> Iterator[PushService]:
    service = PushService()
    server = start(service)
    yield service
    server.shutdown()
    server.server_close()


@dataclass
class Device:
    """A browser's push subscription: its own key pair and auth secret."""

    origin: str
    name: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    @property
    def path(self) -> str:
        return f"/push/{self.name}"

    @property
    def endpoint(self) -> str:
        return self.origin + self.path

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, push: Received) -> dict[str, Any]:
        """The push's payload, decrypted with this device's private key and auth secret."""
        assert push.headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


def vapid_claims(push: Received, server_key: str) -> dict[str, Any]:
    """The VAPID token's claims, once its signature is checked against ``server_key`` (the
    ``k`` the token names must be the server's public key)."""
    header = push.headers["Authorization"]
    assert header.startswith("vapid t="), header
    assert Vapid02.verify(header), "the VAPID signature does not verify"
    parts = dict(part.split("=", 1) for part in header.removeprefix("vapid ").split(","))
    assert parts["k"].strip() == server_key
    token = parts["t"].strip()
    claims: dict[str, Any] = json.loads(unb64(token.split(".")[1]))
    return claims
