"""Helpers shared by the test modules (importable as ``support``; see pytest ``pythonpath``)."""

from __future__ import annotations

import os

SOAK = os.environ.get("BOARDPLAY_SOAK", "") not in ("", "0")


def games(default: int, soak: int) -> int:
    """How many random games a property test plays: ``default`` normally, ``soak`` under
    ``make soak`` (BOARDPLAY_SOAK=1)."""
    return soak if SOAK else default
