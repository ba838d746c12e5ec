"""The game's fixed data (spec §2.1, §3): component counts, starting layouts and the names of
the end conditions. Data, not code, so the official layout figures can be dropped in once
checked (spec §3.3 "Engine advice")."""

from __future__ import annotations

from typing import Any

TILES_IN_PLAY = {2: 9, 3: 12}
"""Base tiles used by the 2-action and the 3-action game (spec §3.1 step 4)."""
TILE_TOTAL = 12
"""Base tiles in the box; a position may not use more (tiles on board + stock)."""
NEUTRAL_TOTAL = 36
COLOUR_TOTAL = 5
"""Neutral chips in the common supply and colour chips per player (spec §2.1)."""

LAYOUTS: dict[str, dict[str, Any]] = {
    # Spec §3.3 [P]: PROPOSED reconstructions; replace the data once the official figures
    # are checked. Each is symmetric under a 180° rotation that swaps the players
    # (``centre`` is the rotation: (q, r) -> (cq - q, -r)).
    "L3": {"tiles": [(-1, 0), (0, 0), (1, 0)], "pawns": [(-1, 0), (1, 0)], "centre": 0},
    "L4": {
        "tiles": [(1, -1), (0, 0), (1, 0), (0, 1)],
        "pawns": [(1, -1), (0, 1)],
        "centre": 1,
    },
}

DEFAULT_TURN_LIMIT = 1000

CONDITION_TEXT = {
    1: "three own stacks",
    2: "the mover could not complete the turn",
    3: "repetition",
    4: "turn limit (engine guard)",
}
"""End conditions by number (spec §8.2; 4 is the engine's turn-limit guard)."""
CONDITION_CODES = {1: "three_stacks", 2: "stuck", 3: "repetition", 4: "turn_limit"}
"""The same conditions as stable words, for translations (``State.end_code``)."""
CONDITION_NUMBERS = {code: number for number, code in CONDITION_CODES.items()}
