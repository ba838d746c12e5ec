"""Every game's position loader names the bad field: corrupting any one value of a real position
(a random game's, mid-game) is a ``PositionError`` whose message starts with that value's path
in the shared reader's spelling (``players[1].silver: ...``), and loading never changes its
input."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardplay
from boardplay.core.errors import PositionError
from boardplay.core.fields import Field, read
from boardplay.core.game import sample_chance

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("potlatch", {}),
    ("potlatch", {"actions": 3, "repetition_compares_full_state": True}),
    ("proteus", {}),
    ("proteus", {"rules": "kadon"}),
    ("passtally", {"players": 2}),
    ("passtally", {"players": 3, "max_turns": 60}),
    ("montana", {"players": 2}),
    ("montana", {"players": 3}),
]


def midgame(name: str, options: dict[str, Any], actions: int, seed: int) -> dict[str, Any]:
    """The position JSON of a random game after ``actions`` actions (fewer if it would end)."""
    state = boardplay.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(actions):
        after = state.clone()
        if after.is_chance_node():
            after.apply_action(sample_chance(after, rng))
        else:
            legal = after.legal_actions()
            after.apply_action(legal[rng.randrange(len(legal))])
        if after.is_terminal():
            break
        state = after
    return state.to_json()


Leaf = tuple[Field, tuple[Any, ...]]


def leaves(field: Field, keys: tuple[Any, ...] = ()) -> Iterator[Leaf]:
    """Every scalar value and every empty list or object of a JSON document: its ``Field``
    (whose path is spelt by the reader itself) and the keys that lead to it."""
    value = field.value
    if isinstance(value, dict) and value:
        for key, member in field.members():
            yield from leaves(member, (*keys, key))
    elif isinstance(value, list) and value:
        for index, entry in enumerate(field.items()):
            yield from leaves(entry, (*keys, index))
    else:
        yield field, keys


def corrupted(position: dict[str, Any], keys: tuple[Any, ...]) -> dict[str, Any]:
    """``position`` with the value at ``keys`` replaced by one of the wrong JSON type: a list
    for a scalar, a string for an empty list or object."""
    out = copy.deepcopy(position)
    parent: Any = out
    for key in keys[:-1]:
        parent = parent[key]
    old = parent[keys[-1]]
    parent[keys[-1]] = "corrupt" if isinstance(old, (list, dict)) else ["corrupt"]
    return out


CASES = [(name, options, depth) for name, options in GAMES for depth in (3, 25, 90)]


@pytest.mark.parametrize(
    ("name", "options", "depth"), CASES, ids=[f"{n}{o}@{d}" for n, o, d in CASES]
)
def test_corrupting_any_value_names_its_path(
    name: str, options: dict[str, Any], depth: int
) -> None:
    game = boardplay.load(name, **options)
    position = midgame(name, options, depth, seed=depth)
    game.state_from_json(position)  # the real position loads
    found = list(leaves(read(position)))
    assert len(found) >= 3
    for leaf, keys in found:
        path = leaf.path
        bad = corrupted(position, keys)
        untouched = copy.deepcopy(bad)
        with pytest.raises(PositionError) as info:
            game.state_from_json(bad)
        assert str(info.value).startswith(f"{path}: "), (path, str(info.value))
        assert bad == untouched


@given(
    st.sampled_from(GAMES),
    st.integers(min_value=0, max_value=120),
    st.data(),
)
def test_any_one_corruption_is_named_hypothesis(
    game_options: tuple[str, dict[str, Any]], depth: int, data: st.DataObject
) -> None:
    """The same property over random depths and seeds (Hypothesis picks the value)."""
    name, options = game_options
    position = midgame(name, options, depth, seed=depth * 7 + 1)
    leaf, keys = data.draw(st.sampled_from(list(leaves(read(position)))))
    path = leaf.path
    bad = corrupted(position, keys)
    with pytest.raises(PositionError) as info:
        boardplay.load(name, **options).state_from_json(bad)
    assert str(info.value).startswith(f"{path}: "), (path, str(info.value))
