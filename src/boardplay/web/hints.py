"""Per-game drawing hints sent with every position: seat colours and names, and the facts a
board renderer needs that are not in the position JSON. The renderers in ``static/boards/`` read
the position JSON of each game's rules spec; these hints only add presentation."""

from __future__ import annotations

from typing import Any

from boardplay.core.game import Game, State

# Seat colours come from the Okabe–Ito palette, chosen to stay apart under the common forms of
# colour blindness (its red is a vermillion, its green a bluish green, so Montana's Green and Red
# no longer merge under deuteranopia). The boards add each seat's shape as a second cue
# (static/boards/common.js), so colour never carries a meaning alone.
VERMILLION, BLUE, YELLOW, GREEN, PURPLE = "#d55e00", "#0072b2", "#f0e442", "#009e73", "#cc79a7"

PALETTE = (VERMILLION, BLUE, YELLOW, GREEN, PURPLE)
"""Default seat colours, in seat order."""

SEAT_COLOURS: dict[str, tuple[str, ...]] = {
    "potlatch": (VERMILLION, BLUE),  # Red, Blue (§2.2)
    "proteus": ("#111111", "#fafafa"),  # Black, White (§2)
    "montana": (BLUE, YELLOW, GREEN, VERMILLION),  # Blue, Yellow, Green, Red
}

MONTANA_GOODS = ("c", "C", "s", "S", "g", "p")
"""Montana goods letters in the engine's GOODS order (copper, stone: small/large)."""


def hints_for(game: Game, state: State | None = None) -> dict[str, Any]:
    colours = SEAT_COLOURS.get(game.name, PALETTE)
    seats = range(game.num_players)
    hints: dict[str, Any] = {
        "seat_colours": [colours[s % len(colours)] for s in seats],
        "seat_names": [game.seat_name(s) for s in seats],
        "renderer": game.name,
    }
    if game.name == "montana":
        table = montana_table(game)
        if table is not None:
            hints["table"] = table
    if game.name == "montana" and state is not None:
        landscape = montana_landscape(state)
        if landscape is not None:
            hints["landscape"] = landscape
    return hints


MONTANA_COLOURS = ("Cu", "St", "Gr", "Pu")
"""Montana worker colour letters in the engine's COLOURS order; W is the wheel's wild symbol."""


def montana_table(game: Game) -> dict[str, Any] | None:
    """The printed values of Montana's worker board, General Store and wheel, from the game's
    component data file: the board draws them (costs and yields written on every space, rewards
    on every store row) and they are not in the position JSON, which holds only what changes.
    None if the engine changes shape."""
    data = getattr(game, "data", None)
    if data is None or not hasattr(data, "bank"):
        return None

    def colour(c: int) -> str:
        return MONTANA_COLOURS[c] if 0 <= c < len(MONTANA_COLOURS) else "W"

    return {
        "bank": [{"space": b.name, "workers": b.workers, "silver": b.silver} for b in data.bank],
        "areas": [
            {
                "area": area.name,
                "colour": colour(area.colour),
                "good": MONTANA_GOODS[area.good],
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
                "pick_from": [MONTANA_GOODS[g] for g in row.pick_from],
            }
            for row in data.rows
        ],
        "wheel": [[colour(c) for c in segment] for segment in data.wheel],
        "worker_cap": data.worker_cap,
        "max_builds": data.max_builds_per_action,
        "trade_silver": data.cattle_trade_silver,
    }


def montana_landscape(state: State) -> list[dict[str, Any]] | None:
    """The generated landscape's hexes (kind, building cost, double, cattle, canteen lake).

    Montana's position JSON holds only the board seed; the hexes are a function of it and of the
    data file, computed by the engine. The renderer needs them to draw the map, so they are read
    from the engine's board here (None before the board is dealt or if the engine changes)."""
    board = getattr(state, "board", None)
    coords = getattr(board, "coords", None)
    specs = getattr(board, "specs", None)
    if coords is None or specs is None:
        return None
    hexes: list[dict[str, Any]] = []
    for (q, r), spec in zip(coords, specs, strict=True):
        cost = "+".join(
            letter
            for letter, count in zip(MONTANA_GOODS, spec.cost, strict=True)
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
