"""Every compiled game shows its kernel one way (``core/face.pyx``): a field table in its
``fields.pyx`` (``FACE``), from which come the facade's read-only properties, ``snapshot`` and
``load``. Play changes a position only through ``apply_action``; writing a field of a facade
raises, and the facade keeps no other way to write (no setter, no ``edit``)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

import boardplay
from boardplay.core.face import Face, Field
from boardplay.core.game import State
from boardplay.core.kernel import KernelState
from option_sets import KERNEL_GAMES

GAMES = KERNEL_GAMES
"""The compiled games (a toy game in pure Python has no kernel to show)."""


def _face(name: str) -> Face:
    face = importlib.import_module(f"boardplay.games.{name}.fields").FACE
    assert isinstance(face, Face)
    return face


def _midgame(name: str, seed: int = 3, steps: int = 40) -> State:
    state = boardplay.load(name).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _fields(state: State) -> dict[str, Field]:
    found: dict[str, Field] = {}
    for klass in reversed(type(state).__mro__):
        found.update({k: v for k, v in vars(klass).items() if isinstance(v, Field)})
    return found


def test_every_compiled_game_has_a_field_table() -> None:
    assert GAMES, "no registered game runs on a compiled kernel"
    for name in GAMES:
        state = boardplay.load(name).new_initial_state()
        assert isinstance(state, KernelState)
        face = _face(name)
        assert face.kernel_type is type(state.kernel)
        assert set(_fields(state)) == set(face.fields), "the facade inherits the whole table"


@pytest.mark.parametrize("name", GAMES)
def test_every_field_reads_and_refuses_writes(name: str) -> None:
    state = _midgame(name)
    before = state.to_json()
    snapshot = _face(name).snapshot(state.kernel)
    for field_name in _face(name).fields:
        value = getattr(state, field_name)
        assert value == snapshot[field_name], field_name
        with pytest.raises(AttributeError, match="read-only"):
            setattr(state, field_name, value)
        with pytest.raises(AttributeError, match="read-only"):
            delattr(state, field_name)
        if isinstance(value, tuple):  # arrays are copies that cannot be written either
            with pytest.raises(TypeError):
                value[0] = 1  # type: ignore[index]
    assert state.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_the_facade_has_no_other_way_to_write(name: str) -> None:
    state = boardplay.load(name).new_initial_state()
    for klass in type(state).__mro__:
        for attribute, value in vars(klass).items():
            if isinstance(value, property):
                assert value.fset is None and value.fdel is None, f"{klass.__name__}.{attribute}"
    assert not hasattr(state, "edit")


@pytest.mark.parametrize("name", GAMES)
def test_snapshot_and_load_round_trip(name: str) -> None:
    face = _face(name)
    state = _midgame(name, seed=11)
    other = boardplay.load(name).new_initial_state()
    # Fields beside the table (Montana's hexes, Passtally's placements) are the game's own
    # fields.snapshot/load; the table alone carries every field it declares.
    face.load(other.kernel, face.snapshot(state.kernel))
    assert face.snapshot(other.kernel) == face.snapshot(state.kernel)
    for field_name in face.fields:
        assert face.get(other.kernel, field_name) == getattr(state, field_name)


@pytest.mark.parametrize("name", GAMES)
def test_load_refuses_what_the_table_does_not_hold(name: str) -> None:
    face = _face(name)
    state = boardplay.load(name).new_initial_state()
    before = face.snapshot(state.kernel)
    with pytest.raises(KeyError, match="no field 'nonsense'"):
        face.load(state.kernel, {"nonsense": 1})
    arrays = [n for n, v in before.items() if isinstance(v, list)]
    for field_name in arrays:
        with pytest.raises(ValueError, match="needs"):
            face.load(state.kernel, {field_name: [*before[field_name], 0]})
    assert face.snapshot(state.kernel) == before
    others = [other for other in GAMES if other != name]
    foreign: Any = boardplay.load(others[0]).new_initial_state().kernel
    with pytest.raises(TypeError, match="is a field of"):
        face.snapshot(foreign)


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_snapshot_loads_into_a_fresh_kernel(name: str) -> None:
    """Each game's ``fields`` module carries the whole position (the table and what it cannot
    show): loading its snapshot into a fresh kernel gives the same position."""
    fields = importlib.import_module(f"boardplay.games.{name}.fields")
    new_kernel = importlib.import_module(f"boardplay.games.{name}.state").new_kernel
    for seed in range(6):
        state = _midgame(name, seed=seed, steps=25 + 20 * seed)
        snapshot = fields.snapshot(state.kernel)
        assert set(snapshot) == set(fields.FIELDS)
        kernel = new_kernel(state.game)
        fields.load(kernel, snapshot)
        copy = type(state)(state.game, kernel)
        assert copy.to_json() == state.to_json()
        assert copy.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_the_position_loader_writes_through_fields_load(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game's position JSON loader sets its kernel one way, through its ``fields.load``
    (no direct ``setup``/``set_position`` call of its own): the loaded position is the one
    ``fields.load`` wrote (Passtally and Montana write a draft and then the rest, into the
    same kernel)."""
    fields = importlib.import_module(f"boardplay.games.{name}.fields")
    real_load = fields.load
    written: list[object] = []

    def spy(kernel: object, values: Any) -> None:
        written.append(kernel)
        real_load(kernel, values)

    monkeypatch.setattr(fields, "load", spy)
    state = _midgame(name, seed=5, steps=30)
    loaded = state.game.state_from_json(state.to_json())
    assert written
    assert all(kernel is loaded.kernel for kernel in written)
    assert loaded.to_json() == state.to_json()
    assert loaded.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_every_facade_names_its_mover_to_move(name: str) -> None:
    """One name across the games for the seat the kernel's ``current_player`` reports while a
    player decides (Montana's auction decider too, not only the active player)."""
    state = _midgame(name, seed=1, steps=20)
    assert "to_move" in _face(name).fields
    while state.is_chance_node() and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    if not state.is_terminal():
        assert _face(name).get(state.kernel, "to_move") == state.current_player()
