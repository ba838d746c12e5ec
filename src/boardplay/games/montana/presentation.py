"""What Montana's board drawing needs beyond the position JSON (``MontanaGame.presentation``):
the printed values of the worker board, General Store and wheel, from the game's data file, and
the landscape its board seed generates. The position JSON holds only what changes; these are
functions of the data file and the seed, computed here once for the web's drawing hints."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from boardplay.games.montana.board import Board, make_board
from boardplay.games.montana.data import Components

GOODS_LETTERS = ("c", "C", "s", "S", "g", "p")
"""Montana goods letters in the engine's GOODS order (copper, stone: small/large)."""


COLOUR_LETTERS = ("Cu", "St", "Gr", "Pu")
"""Montana worker colour letters in the engine's COLOURS order; W is the wheel's wild symbol."""


def table(data: Components) -> dict[str, Any]:
    """The printed values of Montana's worker board, General Store and wheel, from the game's
    component data file: the board draws them (costs and yields written on every space, rewards
    on every store row) and they are not in the position JSON, which holds only what changes."""

    def colour(c: int) -> str:
        return COLOUR_LETTERS[c] if 0 <= c < len(COLOUR_LETTERS) else "W"

    return {
        "bank": [{"space": b.name, "workers": b.workers, "silver": b.silver} for b in data.bank],
        "areas": [
            {
                "area": area.name,
                "colour": colour(area.colour),
                "good": GOODS_LETTERS[area.good],
                "right_bonus": area.right_bonus,
                "spaces": [
                    {"space": sp.name, "cost": sp.cost, "yield": sp.yield_} for sp in area.spaces
                ],
            }
            for area in data.areas
        ],
        "column_cost": list(data.column_cost),
        "rows": [
            {
                "row": row.name,
                "cattle": row.cattle,
                "silver": row.silver,
                "upgrades": row.upgrades,
                "picks": row.picks,
                "pick_from": [GOODS_LETTERS[g] for g in row.pick_from],
            }
            for row in data.rows
        ],
        "wheel": [[colour(c) for c in segment] for segment in data.wheel],
        "worker_cap": data.worker_cap,
        "max_builds": data.max_builds_per_action,
        "trade_silver": data.cattle_trade_silver,
    }


def landscape(board: Board) -> list[dict[str, Any]]:
    """The generated landscape's hexes (kind, building cost, double, cattle, canteen lake).

    Montana's position JSON holds only the board seed; the hexes are a function of it and of the
    data file, computed by the engine. The renderer needs them to draw the map."""
    hexes: list[dict[str, Any]] = []
    for (q, r), spec in zip(board.coords, board.specs, strict=True):
        cost = "+".join(
            letter
            for letter, count in zip(GOODS_LETTERS, spec.cost, strict=True)
            for _ in range(count)
        )
        hexes.append(
            {
                "hex": [q, r],
                "kind": spec.kind,
                "cost": cost,
                "double": bool(spec.double),
                "cattle": bool(spec.cattle),
                "canteen": bool(spec.canteen),
            }
        )
    return hexes


@lru_cache(maxsize=256)
def dealt_landscape(data: Components, players: int, seed: int) -> list[dict[str, Any]]:
    """``landscape`` of the board ``seed`` deals, built once per board: every view of a game
    carries it, and it is the same from the deal to the end. Shared by every caller: never
    change it."""
    return landscape(make_board(data, players, seed))
