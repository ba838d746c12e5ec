"""The shared position-JSON reader (``core.fields``): every rejection is a ``PositionError`` whose
message starts with the bad value's path and says what was expected and what was found."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from boardplay.core.errors import PositionError, RecordError
from boardplay.core.fields import Field, read

DOC: dict[str, Any] = {
    "players": [{"silver": 3, "ready": True}, {"silver": "x", "ready": 1}],
    "tiles": {"0,0": "NNR", "a1": "N"},
    "stage": {"name": "MAIN", "spin": None},
}


def message(exc: pytest.ExceptionInfo[PositionError]) -> str:
    return str(exc.value)


def test_integer_names_the_path_the_range_and_the_value() -> None:
    top = read(DOC)
    assert top.at("players", 0, "silver").integer(0, 999) == 3
    with pytest.raises(PositionError) as exc:
        top.at("players", 1, "silver").integer(0, 999)
    assert message(exc) == 'players[1].silver: expected an integer 0..999, got "x"'


@pytest.mark.parametrize(
    ("value", "low", "high", "expected"),
    [
        (True, 0, 1, "expected an integer 0..1, got true"),
        (-1, 0, None, "expected an integer >= 0, got -1"),
        (5, None, 4, "expected an integer <= 4, got 5"),
        (1.5, None, None, "expected an integer, got 1.5"),
        (None, 0, 3, "expected an integer 0..3, got null"),
    ],
)
def test_integer_refuses_booleans_floats_and_out_of_range(
    value: object, low: int | None, high: int | None, expected: str
) -> None:
    with pytest.raises(PositionError, match=f"^x: {re.escape(expected)}$"):
        Field(value, "x").integer(low, high)


def test_optional_integer_takes_null() -> None:
    assert Field(None, "spin").optional_integer(1, 16) is None
    assert Field(4, "spin").optional_integer(1, 16) == 4
    with pytest.raises(PositionError, match=r"^spin: expected an integer 1\.\.16 or null, got 0$"):
        Field(0, "spin").optional_integer(1, 16)


def test_boolean_refuses_integers() -> None:
    top = read(DOC)
    assert top.at("players", 0, "ready").boolean() is True
    with pytest.raises(
        PositionError, match=r"^players\[1\]\.ready: expected true or false, got 1$"
    ):
        top.at("players", 1, "ready").boolean()


def test_choice_compares_type_and_value() -> None:
    assert Field("MAIN", "s").choice(("BOARD", "MAIN")) == "MAIN"
    assert Field(1, "s").index((0, 1)) == 1
    with pytest.raises(PositionError, match=r"^s: expected one of 0, 1, got true$"):
        Field(True, "s").choice((0, 1))
    with pytest.raises(PositionError, match=r"^s: expected 0 \(Red\) or 1 \(Blue\), got 2$"):
        Field(2, "s").choice((0, 1), "0 (Red) or 1 (Blue)")


def test_lists_of_fixed_and_bounded_length_name_each_entry() -> None:
    entries = Field([1, 2], "pawns").items(2)
    assert [e.path for e in entries] == ["pawns[0]", "pawns[1]"]
    with pytest.raises(PositionError, match=r"^pawns: expected a list of 2 entries, got \[1\]$"):
        Field([1], "pawns").items(2)
    with pytest.raises(PositionError, match=r"^x: expected a list of 1\.\.2 entries"):
        Field([1, 2, 3], "x").items(minimum=1, maximum=2)
    with pytest.raises(
        PositionError, match=r"^x: expected a list of at least 1 entries, got \[\]$"
    ):
        Field([], "x").items(minimum=1)
    with pytest.raises(PositionError, match=r'^x: expected a list, got "no"$'):
        Field("no", "x").items()


def test_members_quote_keys_that_are_not_names() -> None:
    tiles = read(DOC).member("tiles")
    assert [(k, f.path) for k, f in tiles.members()] == [
        ("0,0", 'tiles["0,0"]'),
        ("a1", "tiles.a1"),
    ]


def test_objects_name_missing_and_unknown_members() -> None:
    top = read({"board": {}, "turn": 3})
    with pytest.raises(
        PositionError, match=r"^turn: unknown field; the fields are: board, to_move$"
    ):
        top.keys(("board", "to_move"))
    with pytest.raises(PositionError, match=r"^to_move: is missing$"):
        read({"board": {}}).keys(("board", "to_move"), required=("board", "to_move"))
    with pytest.raises(PositionError, match=r"^stage\.decider: is missing$"):
        read(DOC).at("stage", "decider")
    with pytest.raises(PositionError, match=r"^position: expected an object, got \[\]$"):
        read([]).member("board")
    with pytest.raises(PositionError, match=r"^pile: expected exactly the fields face_up, hidden"):
        Field({"face_up": None}, "pile").exact_keys(("face_up", "hidden"))


def test_optional_members_default_at_their_path() -> None:
    field = read({"a": 1}).optional("passes", 0)
    assert (field.path, field.value) == ("passes", 0)


def test_semantic_errors_name_the_path() -> None:
    field = read(DOC).at("stage", "name")
    with pytest.raises(PositionError, match=r"^stage\.name: is BOARD although"):
        field.require(False, "is BOARD although the board is already generated")
    field.require(True, "never raised")


def test_long_values_are_cut_short_and_other_error_types_can_be_chosen() -> None:
    with pytest.raises(PositionError) as exc:
        Field("y" * 500, "x").integer()
    assert len(message(exc)) < 100 and message(exc).endswith("...")
    with pytest.raises(RecordError, match=r"^moves: expected a list"):
        read({"moves": 3}, RecordError).member("moves").items()


def test_reading_never_changes_the_document() -> None:
    before = copy.deepcopy(DOC)
    top = read(DOC)
    for path in (("players", 1, "silver"), ("players", 1, "ready")):
        with pytest.raises(PositionError):
            top.at(*path).boolean()
    assert before == DOC
