"""Where the luck of a server game comes from: the operating system's secret source, or the
agreed seed of a reproducible game (docs/web.md, "Security")."""

from __future__ import annotations

import random
import secrets

SERVER_CHANCE = secrets.SystemRandom()
"""Chance of ordinary games: the operating system's cryptographic source. Nothing about it is
stored or shown, and no number of revealed outcomes predicts the next one."""


def chance_rng(seed: int | None, ply: int) -> random.Random:
    """The generator for the chance outcome at ``ply``. A reproducible game's agreed ``seed``
    fixes it (a replay and a fresh sample agree); otherwise the server's secret source. Either
    way the outcome is stored at once, so nobody can re-roll by reconnecting."""
    if seed is None:
        return SERVER_CHANCE
    return random.Random(f"boardplay:{seed}:{ply}")
