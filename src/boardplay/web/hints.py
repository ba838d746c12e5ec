"""Per-game drawing hints sent with every position: seat colours and names, and the facts a
board renderer needs that are not in the position JSON. The renderers in ``static/boards/`` read
the position JSON of each game's rules spec; these hints only add presentation."""

from __future__ import annotations

from typing import Any

from boardplay.core.game import Game

PALETTE = ("#d33c3c", "#2f6fd6", "#e0a020", "#3a9a4a", "#8d4fc9")
"""Default seat colours, in seat order."""

SEAT_COLOURS: dict[str, tuple[str, ...]] = {
    "potlatch": ("#d33c3c", "#2f6fd6"),  # Red, Blue (§2.2)
}


def hints_for(game: Game) -> dict[str, Any]:
    colours = SEAT_COLOURS.get(game.name, PALETTE)
    seats = range(game.num_players)
    return {
        "seat_colours": [colours[s % len(colours)] for s in seats],
        "seat_names": [game.seat_name(s) for s in seats],
        "renderer": game.name,
    }
