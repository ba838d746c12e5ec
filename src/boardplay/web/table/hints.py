"""Per-game drawing hints sent with every position: seat colours and names, and the facts a
board renderer needs that are not in the position JSON. The renderers in ``static/boards/`` read
the position JSON of each game's rules spec; these hints only add presentation, all of it
declared by the game (``Game.seat_colours``, ``Game.presentation``)."""

from __future__ import annotations

from typing import Any

from boardplay.core.game import Game, State
from boardplay.core.palette import PALETTE


def hints_for(game: Game, state: State | None = None) -> dict[str, Any]:
    colours = game.seat_colours or PALETTE
    seats = range(game.num_players)
    hints: dict[str, Any] = {
        "seat_colours": [colours[s % len(colours)] for s in seats],
        "seat_names": [game.seat_name(s) for s in seats],
        "renderer": game.name,
    }
    hints.update(game.presentation(state))
    return hints
