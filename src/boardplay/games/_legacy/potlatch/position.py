"""Position JSON (spec §11): loading with validation that names the bad field, and export.

Loading never trusts its input: every rule of §11 "Validation on load" is checked, plus the
shape of each field and two component limits the spec's invariants rely on (see
``docs/formats/potlatch.md``): at most 12 base tiles in all, and no mid-turn position in which
the mover's colour chips could run out before the turn ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardplay.core.errors import PositionError
from boardplay.games._legacy.potlatch.notation import CHIP_CODES, CHIP_STRINGS, hex_text, parse_hex
from boardplay.games._legacy.potlatch.state import (
    COLOUR_TOTAL,
    NEUTRAL_TOTAL,
    PotlatchState,
    Snapshot,
)

if TYPE_CHECKING:
    from boardplay.games._legacy.potlatch.game import PotlatchGame

TILE_TOTAL = 12
"""Base tiles in the box; a position may not use more (tiles on board + stock)."""

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


def _fail(message: str) -> PositionError:
    return PositionError(message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hex(value: object, field: str) -> int:
    key = parse_hex(value)
    if key is None:
        raise _fail(
            f'field {field!r}: {value!r} is not a hex; write "q,r" with integers and no '
            'spaces, e.g. "-1,0" (|q|, |r| <= 10000)'
        )
    return key


def _chips(value: object, field: str) -> int:
    """Chip code of a chip string, with the two §11 chip rules named separately."""
    if not isinstance(value, str):
        raise _fail(f'field {field!r}: chips must be a string such as "NNR", got {value!r}')
    if any(letter not in "NRB" for letter in value):
        raise _fail(f"field {field!r}: {value!r} has a letter other than N, R, B")
    if len(value) > 3:
        raise _fail(f"field {field!r}: {value!r} has more than 3 chips")
    if value not in CHIP_CODES:
        raise _fail(
            f"field {field!r}: {value!r} has a colour chip below the 3rd chip; "
            "R and B can only be the 3rd chip"
        )
    return CHIP_CODES[value]


def _tiles(value: object, field: str) -> dict[int, int]:
    if not isinstance(value, Mapping):
        raise _fail(f'field {field!r} must be an object mapping "q,r" to a chip string')
    tiles: dict[int, int] = {}
    for text, chips in value.items():
        key = _hex(text, field)
        if key in tiles:
            raise _fail(f"field {field!r}: hex {text!r} is listed twice")
        tiles[key] = _chips(chips, f"{field}[{text!r}]")
    return tiles


def load_position(game: PotlatchGame, position: Mapping[str, Any]) -> PotlatchState:
    """A state for ``position``; raises ``PositionError`` naming the first bad field."""
    if not isinstance(position, Mapping):
        raise _fail("a Potlatch Klone position must be a JSON object")
    unknown = [k for k in position if k not in _KNOWN_FIELDS]
    if unknown:
        raise _fail(f"unknown field {unknown[0]!r}; the fields are: {', '.join(_KNOWN_FIELDS)}")
    for required in ("tiles", "stock", "pawns", "to_move"):
        if required not in position:
            raise _fail(f"field {required!r} is missing")

    tiles = _tiles(position["tiles"], "tiles")

    stock = position["stock"]
    if not _is_int(stock):
        raise _fail(f"field 'stock' must be an integer, got {stock!r}")
    if stock < 0:
        raise _fail(f"field 'stock' must be >= 0, got {stock}")

    pawns_raw = position["pawns"]
    if not isinstance(pawns_raw, list) or len(pawns_raw) != 2:
        raise _fail("field 'pawns' must be a list of two hexes [red hex, blue hex]")
    pawns = [_hex(p, f"pawns[{i}]") for i, p in enumerate(pawns_raw)]
    for i, key in enumerate(pawns):
        if key not in tiles:
            raise _fail(f"field 'pawns[{i}]': pawn on {hex_text(key)} is not on a listed tile")
    if pawns[0] == pawns[1]:
        raise _fail(f"field 'pawns': both pawns are on {hex_text(pawns[0])}")

    to_move = position["to_move"]
    if not _is_int(to_move) or to_move not in (0, 1):
        raise _fail(f"field 'to_move' must be 0 (Red) or 1 (Blue), got {to_move!r}")

    actions = position.get("actions", game.options["actions"])
    if not _is_int(actions) or actions not in (2, 3):
        raise _fail(f"field 'actions' must be 2 or 3, got {actions!r}")

    done = position.get("done", 0)
    if not _is_int(done) or not 0 <= done < actions:
        raise _fail(f"field 'done' must be an integer 0..{actions - 1}, got {done!r}")

    mover_hex = pawns[to_move]
    visited_raw = position.get("visited", [hex_text(mover_hex)])
    if not isinstance(visited_raw, list):
        raise _fail("field 'visited' must be a list of hexes")
    visited: list[int] = []
    for i, text in enumerate(visited_raw):
        key = _hex(text, f"visited[{i}]")
        if key not in tiles:
            raise _fail(f"field 'visited[{i}]': {text} is not a tile")
        if key in visited:
            raise _fail(f"field 'visited': {text} is listed twice")
        visited.append(key)
    if mover_hex not in visited:
        raise _fail(f"field 'visited' must contain the mover's pawn hex {hex_text(mover_hex)}")

    run_open = position.get("run_open", False)
    if not isinstance(run_open, bool):
        raise _fail(f"field 'run_open' must be true or false, got {run_open!r}")
    if run_open and done == 0:
        raise _fail("field 'run_open' cannot be true when 'done' is 0 (no action taken yet)")

    neutral = red = blue = 0
    for code in tiles.values():
        neutral += code if code <= 3 else 2
        red += code == 4
        blue += code == 5
    if neutral > NEUTRAL_TOTAL:
        raise _fail(f"field 'tiles' holds {neutral} N chips; the game has {NEUTRAL_TOTAL}")
    for letter, count in (("R", red), ("B", blue)):
        if count > COLOUR_TOTAL:
            raise _fail(f"field 'tiles' holds {count} {letter} chips; the game has {COLOUR_TOTAL}")
    if len(tiles) + stock > TILE_TOTAL:
        raise _fail(
            f"field 'stock': {len(tiles)} tiles on the board plus {stock} in stock is more "
            f"than the {TILE_TOTAL} base tiles of the game"
        )
    if done >= 1:
        # Runs that can still end this turn: the open one, then one per Pawn Move run among
        # the remaining actions. Real play never exceeds the supply (spec §13 inv. 5).
        remaining = actions - done
        more = 1 + remaining // 2 if run_open else (remaining + 1) // 2
        own = (red, blue)[to_move]
        if own + more > COLOUR_TOTAL:
            raise _fail(
                f"field 'tiles': the mover has {own} colour chips on the board and could "
                f"need {more} more this turn, more than the {COLOUR_TOTAL} in the game"
            )

    turns_played = position.get("turns_played", 0)
    if not _is_int(turns_played) or turns_played < 0:
        raise _fail(f"field 'turns_played' must be an integer >= 0, got {turns_played!r}")

    full = bool(game.options["repetition_compares_full_state"])
    snapshots: list[Snapshot | None] = [None, None]
    raw_snaps = position.get("snapshots")
    if raw_snaps is not None:
        if not isinstance(raw_snaps, list) or len(raw_snaps) != 2:
            raise _fail("field 'snapshots' must be a list [S0, S1] of snapshots or nulls")
        for seat, raw in enumerate(raw_snaps):
            if raw is not None:
                snapshots[seat] = snapshot_from_json(raw, full, f"snapshots[{seat}]")

    state = PotlatchState(game, tiles, stock, pawns, to_move, actions)
    state.turns_played = turns_played
    state.snapshots = snapshots
    if done == 0:
        state.begin_turn()
    else:
        state.done = done
        state.visited = tuple(visited)
        state.run_open = run_open
        state.turn_start_snapshot = snapshots[to_move]
        if not state.legal_actions():
            state.result = (1 - to_move, 2)
    return state


def snapshot_from_json(raw: object, full: bool, field: str) -> Snapshot:
    """Parse one snapshot in the form the current ``repetition_compares_full_state`` uses."""
    if not full:
        tiles = _tiles(raw, field)
        for key, code in tiles.items():
            if code == 0:
                raise _fail(
                    f"field {field!r}: {hex_text(key)} is empty; a stack snapshot lists only "
                    "hexes with chips"
                )
        return tuple(sorted(tiles.items()))
    if not isinstance(raw, Mapping) or set(raw) != {"tiles", "pawns"}:
        raise _fail(
            f'field {field!r} must be {{"tiles": {{...}}, "pawns": [red, blue]}} '
            "(option repetition_compares_full_state)"
        )
    tiles = _tiles(raw["tiles"], f"{field}.tiles")
    pawns = raw["pawns"]
    if not isinstance(pawns, list) or len(pawns) != 2:
        raise _fail(f"field '{field}.pawns' must be a list of two hexes")
    red, blue = (_hex(p, f"{field}.pawns[{i}]") for i, p in enumerate(pawns))
    return (*sorted(tiles.items()), (red, -1), (blue, -2))


def snapshot_to_json(snapshot: Snapshot, full: bool) -> dict[str, Any]:
    """The JSON form of a snapshot (§11 ``"snapshots"``)."""
    if not full:
        return {hex_text(key): CHIP_STRINGS[code] for key, code in snapshot}
    tiles = {hex_text(key): CHIP_STRINGS[code] for key, code in snapshot if code >= 0}
    pawns = [hex_text(key) for key, code in snapshot if code < 0]
    return {"tiles": tiles, "pawns": pawns}


def export_position(state: PotlatchState) -> dict[str, Any]:
    """The position JSON of ``state`` (§11 "Export"). Optional fields are written only when
    they differ from their defaults, so a turn start looks exactly like the spec's examples."""
    out: dict[str, Any] = {
        "tiles": {hex_text(key): CHIP_STRINGS[code] for key, code in state.tiles.items()},
        "stock": state.stock,
        "pawns": [hex_text(state.pawns[0]), hex_text(state.pawns[1])],
        "to_move": state.to_move,
        "actions": state.n_actions,
    }
    if state.done >= 1:
        out["done"] = state.done
        out["visited"] = [hex_text(key) for key in state.visited]
        out["run_open"] = state.run_open
    mover = state.to_move
    snaps = list(state.snapshots)
    if state.done >= 1:
        snaps[mover] = state.turn_start_snapshot
    if any(s is not None for s in snaps):
        full = bool(state.game.options["repetition_compares_full_state"])
        out["snapshots"] = [None if s is None else snapshot_to_json(s, full) for s in snaps]
    if state.turns_played:
        out["turns_played"] = state.turns_played
    if state.result is not None:
        out["result"] = {"winner": state.result[0], "condition": state.result[1]}
    return out
