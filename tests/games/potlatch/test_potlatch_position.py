"""Position JSON (spec §11): every validation rule rejects with a ``PositionError`` naming the
field, the defaults of optional fields, export form, and what loading does."""

from __future__ import annotations

from typing import Any

import pytest
from potlatch_util import game, load, same_position

from boardplay.core.errors import PositionError

GOOD: dict[str, Any] = {
    "tiles": {"0,0": "", "1,0": "N", "-1,0": "NNR"},
    "stock": 6,
    "pawns": ["-1,0", "1,0"],
    "to_move": 0,
}
MID: dict[str, Any] = {
    "tiles": {"0,0": "", "1,0": "", "2,0": "", "5,5": ""},
    "stock": 0,
    "pawns": ["1,0", "5,5"],
    "to_move": 0,
    "actions": 3,
    "done": 1,
    "visited": ["0,0", "1,0"],
    "run_open": True,
}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = dict(base)
    for key, value in changes.items():
        if value is ...:
            out.pop(key)
        else:
            out[key] = value
    return out


# Each case: (description, position, regex the message must match: it names the field).
CASES: list[tuple[str, dict[str, Any], str]] = [
    (
        "letter other than N, R, B",
        with_(GOOD, tiles={"0,0": "X", "1,0": "", "-1,0": ""}),
        r'tiles\["0,0"\]: .*other than N, R, B',
    ),
    (
        "more than 3 letters",
        with_(GOOD, tiles={"0,0": "NNNN", "1,0": "", "-1,0": ""}),
        r'tiles\["0,0"\]: .*more than 3',
    ),
    (
        "colour chip not 3rd",
        with_(GOOD, tiles={"0,0": "NR", "1,0": "", "-1,0": ""}),
        r'tiles\["0,0"\]: .*only be the 3rd',
    ),
    (
        "colour chip at the bottom",
        with_(GOOD, tiles={"0,0": "RNN", "1,0": "", "-1,0": ""}),
        r'tiles\["0,0"\]: .*only be the 3rd',
    ),
    ("pawn not on a tile", with_(GOOD, pawns=["-1,0", "3,0"]), r"pawns\[1\].*not on a listed"),
    ("pawns share a hex", with_(GOOD, pawns=["1,0", "1,0"]), r"^pawns: both pawns"),
    ("stock < 0", with_(GOOD, stock=-1), r"^stock: expected an integer >= 0, got -1"),
    ("to_move not 0/1", with_(GOOD, to_move=2), r"^to_move: expected 0 \(Red\) or 1"),
    ("done >= N", with_(MID, done=3), r"^done: expected an integer 0\.\.2, got 3"),
    ("done < 0", with_(MID, done=-1), r"^done: expected an integer 0\.\.2"),
    (
        "visited without the pawn",
        with_(MID, visited=["0,0"]),
        r"^visited: must contain the mover's pawn hex 1,0",
    ),
    ("visited non-tile", with_(MID, visited=["0,0", "1,0", "9,9"]), r"visited\[2\].*not a tile"),
    (
        "visited duplicate",
        with_(MID, visited=["0,0", "1,0", "0,0"]),
        r"^visited\[2\]: 0,0 is listed twice",
    ),
    ("run_open with done 0", with_(MID, done=0), r"^run_open: cannot be true"),
    (
        "more than 36 N",
        {
            "tiles": {f"{q},0": "NNN" for q in range(13)},
            "stock": 0,
            "pawns": ["0,0", "1,0"],
            "to_move": 0,
        },
        r"^tiles: holds 39 N",
    ),
    (
        "more than 5 R",
        {
            "tiles": {f"{q},0": "NNR" for q in range(6)} | {"9,9": "", "8,9": ""},
            "stock": 0,
            "pawns": ["9,9", "8,9"],
            "to_move": 1,
        },
        r"^tiles: holds 6 R",
    ),
    (
        "more than 5 B",
        {
            "tiles": {f"{q},0": "NNB" for q in range(6)} | {"9,9": "", "8,9": ""},
            "stock": 0,
            "pawns": ["9,9", "8,9"],
            "to_move": 0,
        },
        r"^tiles: holds 6 B",
    ),
    # Shape errors and the engine's own limits (docs/formats/potlatch.md).
    ("missing field", with_(GOOD, stock=...), r"^stock: is missing"),
    ("unknown field", with_(GOOD, colour="red"), r"^colour: unknown field"),
    ("tiles not an object", with_(GOOD, tiles=["0,0"]), r"^tiles: expected an object"),
    (
        "bad hex text",
        with_(GOOD, tiles={"0, 0": "", "1,0": "", "-1,0": ""}),
        r'^tiles\["0, 0"\]: the key is not a hex',
    ),
    (
        "non-canonical hex",
        with_(GOOD, tiles={"+0,0": "", "1,0": "", "-1,0": ""}),
        r'^tiles\["\+0,0"\]: the key is not a hex',
    ),
    ("hex out of range", with_(GOOD, pawns=["-1,0", "20000,0"]), r"^pawns\[1\]: expected a hex"),
    (
        "chips not a string",
        with_(GOOD, tiles={"0,0": 3, "1,0": "", "-1,0": ""}),
        r'^tiles\["0,0"\]: expected a chip string',
    ),
    ("stock not an int", with_(GOOD, stock="6"), r'^stock: expected an integer >= 0, got "6"'),
    ("pawns not a pair", with_(GOOD, pawns=["-1,0"]), r"^pawns: expected a list of 2 entries"),
    ("actions not 2/3", with_(GOOD, actions=4), r"^actions: expected one of 2, 3, got 4"),
    ("to_move a bool", with_(GOOD, to_move=True), r"^to_move: .*got true"),
    ("visited not a list", with_(MID, visited="1,0"), r"^visited: expected a list"),
    ("run_open not a bool", with_(MID, run_open=1), r"^run_open: expected true or false, got 1"),
    ("more than 12 tiles", with_(GOOD, stock=10), r"^stock: .*more than the 12 base tiles"),
    (
        "colour chips could run out mid-turn",
        {
            "tiles": {
                "0,0": "NN",
                "1,0": "NNR",
                "2,0": "NNR",
                "3,0": "NNR",
                "4,0": "NNR",
                "5,5": "",
            },
            "stock": 0,
            "pawns": ["0,0", "5,5"],
            "to_move": 0,
            "actions": 3,
            "done": 1,
            "run_open": True,
            "visited": ["0,0"],
        },
        r"^tiles: the mover has 4 colour chips",
    ),
    (
        "snapshots not a pair",
        with_(GOOD, snapshots=[None]),
        r"^snapshots: expected a list of 2 entries",
    ),
    (
        "snapshot with an empty hex",
        with_(GOOD, snapshots=[{"0,0": ""}, None]),
        r"^snapshots\[0\]: .*only hexes with chips",
    ),
    (
        "snapshot with bad chips",
        with_(GOOD, snapshots=[None, {"0,0": "RRR"}]),
        r'^snapshots\[1\]\["0,0"\]: ',
    ),
    (
        "turns_played negative",
        with_(GOOD, turns_played=-3),
        r"^turns_played: expected an integer >= 0",
    ),
]


@pytest.mark.parametrize(("why", "position", "message"), CASES, ids=[c[0] for c in CASES])
def test_malformed_position_is_rejected_naming_the_field(
    why: str, position: dict[str, Any], message: str
) -> None:
    with pytest.raises(PositionError, match=message):
        load(position)


def test_full_state_snapshot_shape_is_checked() -> None:
    full = {"repetition_compares_full_state": True}
    with pytest.raises(PositionError, match=r'^snapshots\[0\]: expected \{"tiles"'):
        load(with_(GOOD, snapshots=[{"0,0": "NNN"}, None]), **full)
    with pytest.raises(PositionError, match=r"^snapshots\[0\]\.pawns: expected a list of 2"):
        load(with_(GOOD, snapshots=[{"tiles": {}, "pawns": "x"}, None]), **full)


def test_not_a_mapping_is_rejected() -> None:
    with pytest.raises(PositionError, match=r"^position: expected an object, got \[1, 2\]"):
        game().state_from_json([1, 2])  # type: ignore[arg-type]


def test_defaults_of_optional_fields() -> None:
    state = load(GOOD)
    assert state.n_actions == 2
    assert state.done == 0
    assert state.run_open is False
    assert state.visited == (state.pawns[0],)
    assert state.snapshots == [None, None]
    assert load(GOOD, actions=3).n_actions == 3
    assert load(with_(GOOD, actions=3)).n_actions == 3  # the position overrides the option


def test_detached_tiles_and_odd_tile_totals_are_accepted() -> None:
    state = load(
        {"tiles": {"0,0": "", "7,-7": ""}, "stock": 0, "pawns": ["0,0", "7,-7"], "to_move": 0}
    )
    assert state.result == (1, 2)


def test_export_writes_mid_turn_fields_only_after_an_action() -> None:
    state = load(with_(GOOD, to_move=1))
    assert set(state.to_json()) == {"tiles", "stock", "pawns", "to_move", "actions"}
    state.apply_move("P-W")
    exported = state.to_json()
    assert exported["done"] == 1
    assert exported["visited"] == ["1,0", "0,0"]
    assert exported["run_open"] is True


def test_loading_ignores_result_and_recomputes_it() -> None:
    state = load(with_(GOOD, result={"winner": 1, "condition": 1}))
    assert state.result is None
    assert "result" not in state.to_json()


def test_loading_mid_turn_applies_only_the_condition_2_check() -> None:
    # Red has 3 own stacks but it is mid-turn: condition 1 is not checked now.
    tiles = {"0,0": "", "1,0": "NNR", "2,0": "NNR", "3,0": "NNR", "-1,0": "", "-2,0": ""}
    state = load(
        {
            "tiles": tiles,
            "stock": 0,
            "pawns": ["-1,0", "-2,0"],
            "to_move": 0,
            "done": 1,
            "visited": ["-1,0"],
        }
    )
    assert not state.is_terminal()
    stuck = load(
        {
            "tiles": {"0,0": "", "5,5": ""},
            "stock": 0,
            "pawns": ["0,0", "5,5"],
            "to_move": 0,
            "done": 1,
        }
    )
    assert stuck.result == (1, 2)


def test_mid_turn_snapshot_is_the_current_turns_start_snapshot() -> None:
    # Red mid-turn with its turn-start snapshot given: at Red's next turn start the check
    # compares against it (shuffling on 3-high stacks changes nothing: repetition).
    tiles = {"0,0": "NNN", "1,0": "NNN", "0,1": "NNN", "5,5": "NNN", "6,5": "NNN", "5,6": "NNN"}
    snap = dict(tiles)
    state = load(
        {
            "tiles": tiles,
            "stock": 0,
            "pawns": ["1,0", "5,5"],
            "to_move": 0,
            "done": 1,
            "visited": ["0,0", "1,0"],
            "run_open": True,
            "snapshots": [snap, None],
        }
    )
    state.apply_move("P-SW")
    state.apply_move("P-E")
    state.apply_move("P-SW")
    assert state.result == (None, 3)
    without = load(
        {
            "tiles": tiles,
            "stock": 0,
            "pawns": ["1,0", "5,5"],
            "to_move": 0,
            "done": 1,
            "visited": ["0,0", "1,0"],
            "run_open": True,
        }
    )
    for move in ["P-SW", "P-E", "P-SW"]:
        without.apply_move(move)
    assert not without.is_terminal()  # unknown reference: no check at that turn start


def test_round_trip_of_a_mid_turn_export() -> None:
    state = load(MID)
    again = load(state.to_json())
    assert again.to_json() == state.to_json()
    assert same_position(again.to_json(), MID)
