"""Secrets for seats and invitations.

A seat is claimed with a random token that only its holder knows; the database keeps only a
SHA-256 hash, so a leaked database does not let anyone move for a player. Invitation codes work
the same way. Comparison is constant-time."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh URL-safe secret (256 bits)."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    """A short, unguessable id for a game's URL (not a secret: spectators may know it)."""
    return secrets.token_urlsafe(9)


@functools.lru_cache(maxsize=4096)
def hash_token(token: str) -> str:
    """A token's SHA-256, as stored (remembered for the tokens in use: a socket's token is
    hashed again for every view it is sent)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str | None, digest: str | None) -> bool:
    """True when ``token`` hashes to ``digest`` (both present)."""
    return digest_matches(hash_token(token) if token else None, digest)


def digest_matches(mine: str | None, digest: str | None) -> bool:
    """True when the two hashes are present and equal (compared in constant time)."""
    if not mine or not digest:
        return False
    return hmac.compare_digest(mine, digest)
