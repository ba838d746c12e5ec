"""The colours seats are drawn in, for the games' ``seat_colours`` and the web's default.

From the Okabe–Ito palette, chosen to stay apart under the common forms of colour blindness (its
red is a vermillion and its green a bluish green, so Montana's Green and Red do not merge under
deuteranopia). The boards add each seat's shape as a second cue (web/static/boards/common.js),
so colour never carries a meaning alone."""

from __future__ import annotations

from typing import Final

VERMILLION: Final = "#d55e00"
BLUE: Final = "#0072b2"
YELLOW: Final = "#f0e442"
GREEN: Final = "#009e73"
PURPLE: Final = "#cc79a7"
BLACK: Final = "#111111"
WHITE: Final = "#fafafa"

PALETTE: Final = (VERMILLION, BLUE, YELLOW, GREEN, PURPLE)
"""Seat colours of a game that names none, in seat order."""
