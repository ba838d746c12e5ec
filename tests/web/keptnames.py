"""The Latin words the Japanese text of a move may hold: the Proteus rule names and the
Passtally tile designs (named by their halves), as the Japanese rules keep them. Shared by the
move-sentence tests and the Japanese page checks, which allow a few more on a page."""

from __future__ import annotations

RULE_NAMES = frozenset(
    {
        "KING",
        "ROOK",
        "BISHOP",
        "KNIGHT",
        "POLARITY",
        "COLOR",
        "SHAPE",
        "LINE",
        "NENE",
        "NWNW",
        "NENW",
        "XNE",
        "XNW",
    }
)
