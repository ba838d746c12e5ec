"""Position JSON (spec §11): loading with validation that names the bad field, and export.

Loading never trusts its input: every rule of §11 "Validation on load" is checked, plus the
shape of each field and two component limits the spec's invariants rely on (see
``docs/formats/potlatch.md``): at most 12 base tiles in all, and no mid-turn position in which
the mover's colour chips could run out before the turn ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardplay.core.fields import Field, read
from boardplay.core.game import Game
from boardplay.games.potlatch import fields
from boardplay.games.potlatch.notation import (
    CHIP_CODES,
    CHIP_STRINGS,
    Snapshot,
    hex_text,
    parse_hex,
    snapshot_to_json,
    unpack,
)
from boardplay.games.potlatch.state import PotlatchState, new_kernel
from boardplay.games.potlatch.tables import COLOUR_TOTAL, NEUTRAL_TOTAL, TILE_TOTAL

if TYPE_CHECKING:
    from boardplay.games.potlatch.kernel import SnapshotData

_KNOWN_FIELDS = (
    "tiles",
    "stock",
    "pawns",
    "to_move",
    "actions",
    "done",
    "visited",
    "run_open",
    "snapshots",
    "result",
    "turns_played",
)
_HEX = 'a hex "q,r" with integers and no spaces, e.g. "-1,0" (|q|, |r| <= 10000)'


def _hex(field: Field) -> int:
    key = parse_hex(field.value)
    if key is None:
        raise field.expected(_HEX)
    return key


def _chips(field: Field) -> int:
    """Chip code of a chip string, with the two §11 chip rules named separately."""
    value = field.value
    if not isinstance(value, str):
        raise field.expected('a chip string such as "NNR"')
    if any(letter not in "NRB" for letter in value):
        raise field.error(f"{value!r} has a letter other than N, R, B")
    if len(value) > 3:
        raise field.error(f"{value!r} has more than 3 chips")
    if value not in CHIP_CODES:
        raise field.error(
            f"{value!r} has a colour chip below the 3rd chip; R and B can only be the 3rd chip"
        )
    return CHIP_CODES[value]


def _tiles(field: Field) -> dict[int, int]:
    """``{"q,r": chips}``: each key a hex (named by the key's path), listed once."""
    field.mapping()
    tiles: dict[int, int] = {}
    for _text, entry in field.members():
        key = parse_hex(_text)
        if key is None:
            raise entry.error(f"the key is not {_HEX}")
        if key in tiles:
            raise entry.error("this hex is listed twice")
        tiles[key] = _chips(entry)
    return tiles


def load_position(game: Game, position: Mapping[str, Any]) -> PotlatchState:
    """A state for ``position``; raises ``PositionError`` naming the first bad field."""
    top = read(position)
    top.keys(_KNOWN_FIELDS, required=("tiles", "stock", "pawns", "to_move"))

    tiles_field = top.member("tiles")
    tiles = _tiles(tiles_field)
    stock_field = top.member("stock")
    stock = stock_field.integer(0)

    pawns_field = top.member("pawns")
    pawn_fields = pawns_field.items(2)
    pawns = [_hex(p) for p in pawn_fields]
    for field, key in zip(pawn_fields, pawns, strict=True):
        field.require(key in tiles, f"pawn on {hex_text(key)} is not on a listed tile")
    pawns_field.require(pawns[0] != pawns[1], f"both pawns are on {hex_text(pawns[0])}")

    to_move = top.member("to_move").choice((0, 1), "0 (Red) or 1 (Blue)")
    actions = top.optional("actions", game.options["actions"]).choice((2, 3))
    done_field = top.optional("done", 0)
    done = done_field.integer(0, actions - 1)

    mover_hex = pawns[to_move]
    visited_field = top.optional("visited", [hex_text(mover_hex)])
    visited: list[int] = []
    for entry in visited_field.items():
        key = _hex(entry)
        entry.require(key in tiles, f"{entry.value} is not a tile")
        entry.require(key not in visited, f"{entry.value} is listed twice")
        visited.append(key)
    visited_field.require(
        mover_hex in visited, f"must contain the mover's pawn hex {hex_text(mover_hex)}"
    )

    run_open_field = top.optional("run_open", False)
    run_open = run_open_field.boolean()
    run_open_field.require(
        not run_open or done > 0, "cannot be true when 'done' is 0 (no action taken yet)"
    )

    neutral = red = blue = 0
    for code in tiles.values():
        neutral += code if code <= 3 else 2
        red += code == 4
        blue += code == 5
    tiles_field.require(
        neutral <= NEUTRAL_TOTAL, f"holds {neutral} N chips; the game has {NEUTRAL_TOTAL}"
    )
    for letter, count in (("R", red), ("B", blue)):
        tiles_field.require(
            count <= COLOUR_TOTAL, f"holds {count} {letter} chips; the game has {COLOUR_TOTAL}"
        )
    stock_field.require(
        len(tiles) + stock <= TILE_TOTAL,
        f"{len(tiles)} tiles on the board plus {stock} in stock is more than the {TILE_TOTAL} "
        "base tiles of the game",
    )
    if done >= 1:
        # Runs that can still end this turn: the open one, then one per Pawn Move run among
        # the remaining actions. Real play never exceeds the supply (spec §13 inv. 5).
        remaining = actions - done
        more = 1 + remaining // 2 if run_open else (remaining + 1) // 2
        own = (red, blue)[to_move]
        tiles_field.require(
            own + more <= COLOUR_TOTAL,
            f"the mover has {own} colour chips on the board and could need {more} more this "
            f"turn, more than the {COLOUR_TOTAL} in the game",
        )

    turns_played = top.optional("turns_played", 0).integer(0)

    full = bool(game.options["repetition_compares_full_state"])
    snapshots: list[Snapshot | None] = [None, None]
    snaps_field = top.optional("snapshots", None)
    if snaps_field.value is not None:
        for seat, raw in enumerate(snaps_field.items(2)):
            if raw.value is not None:
                snapshots[seat] = snapshot_from_json(raw, full)

    kernel = new_kernel(game, actions)
    fields.load(
        kernel,
        {
            "tiles": [(*unpack(key), code) for key, code in tiles.items()],
            "stock": stock,
            "pawns": [unpack(key) for key in pawns],
            "to_move": to_move,
            "turns_played": turns_played,
            "snapshots": [None if snap is None else snapshot_to_kernel(snap) for snap in snapshots],
            "done": done,
            "visited": [unpack(key) for key in visited],
            "run_open": run_open,
            "n_actions": actions,
            "increases": 0,  # counted since setup or loading: the JSON does not keep it
            "blank_free": bool(game.options["blank_entry_ignores_height"]),
            "full_snapshots": full,
        },
    )
    return PotlatchState(game, kernel, (snapshots[0], snapshots[1]))


def snapshot_to_kernel(snapshot: Snapshot) -> SnapshotData:
    """A parsed snapshot in the kernel's form: ``(q, r, code)`` entries, and the pawns for
    a full-state snapshot (whose pawn pairs carry the codes -1 and -2)."""
    entries = [(*unpack(key), code) for key, code in snapshot if code >= 0]
    pawns = [unpack(key) for key, code in snapshot if code < 0]
    if not pawns:
        return entries, None
    return entries, (pawns[0], pawns[1])


def snapshot_from_json(field: Field, full: bool) -> Snapshot:
    """Parse one snapshot in the form the current ``repetition_compares_full_state`` uses."""
    if not full:
        tiles = _tiles(field)
        for key, code in tiles.items():
            field.require(
                code != 0,
                f"{hex_text(key)} is empty; a stack snapshot lists only hexes with chips",
            )
        return tuple(sorted(tiles.items()))
    if not isinstance(field.value, Mapping) or set(field.value) != {"tiles", "pawns"}:
        raise field.expected(
            '{"tiles": {...}, "pawns": [red, blue]} (option repetition_compares_full_state)'
        )
    tiles = _tiles(field.member("tiles"))
    red, blue = (_hex(p) for p in field.member("pawns").items(2))
    return (*sorted(tiles.items()), (red, -1), (blue, -2))


def export_position(state: PotlatchState) -> dict[str, Any]:
    """The position JSON of ``state`` (§11 "Export"). Optional fields are written only when
    they differ from their defaults, so a turn start looks exactly like the spec's examples."""
    kernel = state.kernel
    (rq, rr), (bq, br) = kernel.pawns()
    out: dict[str, Any] = {
        "tiles": {f"{q},{r}": CHIP_STRINGS[code] for q, r, code in kernel.tiles()},
        "stock": state.stock,
        "pawns": [f"{rq},{rr}", f"{bq},{br}"],
        "to_move": state.to_move,
        "actions": state.n_actions,
    }
    done = state.done
    if done >= 1:
        out["done"] = done
        out["visited"] = [f"{q},{r}" for q, r in kernel.visited()]
        out["run_open"] = state.run_open
    snaps = state.snapshots
    if done >= 1:
        snaps[state.to_move] = state.turn_start_snapshot
    if any(s is not None for s in snaps):
        full = state.full_snapshots
        out["snapshots"] = [None if s is None else snapshot_to_json(s, full) for s in snaps]
    if state.turns_played:
        out["turns_played"] = state.turns_played
    result = state.result
    if result is not None:
        out["result"] = {"winner": result[0], "condition": result[1]}
    return out
