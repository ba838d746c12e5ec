"""Option parsing: values from Python and from the command line, canonical forms, and errors
that name what is allowed."""

from __future__ import annotations

import pytest

from boardplay.core.errors import OptionError
from boardplay.core.options import (
    OptionSet,
    OptionSpec,
    game_string,
    parse_game_string,
    parse_option_pairs,
)

SPECS = OptionSet(
    "demo",
    (
        OptionSpec("actions", 2, "actions per turn", int, choices=(2, 3)),
        OptionSpec("layout", "L3", "starting layout", str, choices=("L3", "L4")),
        OptionSpec("filter", False, "filter dead ends", bool),
        OptionSpec("max_turns", None, "guard", int, minimum=1, nullable=True),
        OptionSpec("seed", "random", "seed", int, minimum=0, maximum=99, specials=("random",)),
    ),
)


def test_defaults_fill_in_every_option_in_declaration_order() -> None:
    assert SPECS.canonical({}) == {
        "actions": 2,
        "layout": "L3",
        "filter": False,
        "max_turns": None,
        "seed": "random",
    }


@pytest.mark.parametrize(
    ("name", "raw", "value"),
    [
        ("actions", "3", 3),
        ("actions", 3, 3),
        ("layout", "l4", "L4"),
        ("filter", "true", True),
        ("filter", "no", False),
        ("filter", True, True),
        ("max_turns", "none", None),
        ("max_turns", "null", None),
        ("max_turns", None, None),
        ("max_turns", "40", 40),
        ("seed", "random", "random"),
        ("seed", "17", 17),
    ],
)
def test_values_parse_from_python_and_from_strings(name: str, raw: object, value: object) -> None:
    assert SPECS.canonical({name: raw})[name] == value


@pytest.mark.parametrize(
    ("name", "raw", "allowed"),
    [
        ("actions", "4", "allowed: 2, 3"),
        ("actions", True, "allowed: 2, 3"),
        ("layout", "L5", "allowed: L3, L4"),
        ("filter", "maybe", "allowed: "),
        ("max_turns", "0", "an integer >= 1 or none"),
        ("seed", "100", "an integer 0..99 or random"),
        ("seed", None, "an integer 0..99 or random"),
    ],
)
def test_bad_values_name_the_allowed_values(name: str, raw: object, allowed: str) -> None:
    with pytest.raises(OptionError, match=name) as info:
        SPECS.canonical({name: raw})
    assert allowed in str(info.value)


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(OptionError) as info:
        SPECS.canonical({"colour": "red"})
    assert "no option 'colour'" in str(info.value)
    assert "actions, layout, filter, max_turns, seed" in str(info.value)


def test_option_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        SPECS.canonical({"actions": 9})


def test_command_line_pairs() -> None:
    assert parse_option_pairs(["actions=3", "layout=L4,filter=true"]) == {
        "actions": "3",
        "layout": "L4",
        "filter": "true",
    }
    with pytest.raises(OptionError, match="name=value"):
        parse_option_pairs(["actions"])
    with pytest.raises(OptionError, match="given twice"):
        parse_option_pairs(["actions=2", "actions=3"])


def test_game_string_round_trip() -> None:
    assert parse_game_string("potlatch(actions=3,layout=L4)") == (
        "potlatch",
        {"actions": "3", "layout": "L4"},
    )
    assert parse_game_string("  proteus ") == ("proteus", {})
    with pytest.raises(OptionError, match="cannot read game string"):
        parse_game_string("potlatch(actions=3")
    options = SPECS.canonical({"actions": 3, "filter": True})
    text = game_string("demo", options, SPECS.defaults())
    assert text == "demo(actions=3,filter=true)"
    _, pairs = parse_game_string(text)
    assert SPECS.canonical(pairs) == options
