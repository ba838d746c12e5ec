"""States of every game survive ``pickle`` and ``copy.deepcopy`` mid-game: the copy has the same
legal actions, returns, history and position JSON, and both then play on identically (process
pools, replay buffers and search trees rely on this)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

import boardplay
from boardplay.core.game import State, sample_chance
from boardplay.core.kernel import restore_kernel

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("potlatch", {}),
    ("potlatch", {"actions": 3, "repetition_compares_full_state": True}),
    ("proteus", {}),
    ("proteus", {"rules": "kadon", "repetition": "forbid"}),
    ("passtally", {"players": 2}),
    ("passtally", {"players": 3, "max_turns": 40}),
    ("montana", {"players": 2}),
    ("montana", {"players": 4}),
]


def step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def played(name: str, options: dict[str, Any], actions: int, seed: int) -> State:
    """A state ``actions`` random actions into a game (or the last one before its end)."""
    state = boardplay.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(actions):
        after = state.clone()
        step(after, rng)
        if after.is_terminal():
            break
        state = after
    return state


def assert_same(a: State, b: State) -> None:
    assert type(a) is type(b)
    assert a.game == b.game
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.chance_outcomes() == b.chance_outcomes()
    assert a.returns() == b.returns()
    assert a.history() == b.history()
    assert a.to_json() == b.to_json()
    assert str(a) == str(b)


def assert_play_on_alike(a: State, b: State, seed: int, actions: int = 400) -> None:
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(actions):
        if a.is_terminal():
            break
        step(a, rng_a)
        step(b, rng_b)
        assert a.legal_actions() == b.legal_actions()
        assert a.current_player() == b.current_player()
    assert_same(a, b)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{g}{o}" for g, o in GAMES])
@pytest.mark.parametrize("depth", [0, 17, 60])
def test_pickle_round_trip_mid_game_plays_on_identically(
    name: str, options: dict[str, Any], depth: int
) -> None:
    state = played(name, options, depth, seed=depth)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        loaded = pickle.loads(pickle.dumps(state, protocol))
        assert_same(state, loaded)
    assert_play_on_alike(state, loaded, seed=depth + 1)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{g}{o}" for g, o in GAMES])
def test_deepcopy_is_independent_and_plays_on_identically(
    name: str, options: dict[str, Any]
) -> None:
    state = played(name, options, 30, seed=7)
    before = state.to_json()
    twin = copy.deepcopy(state)
    assert_same(state, twin)
    assert twin.kernel is not state.kernel
    step(twin, random.Random(1))
    assert state.to_json() == before and len(state.history()) == len(twin.history()) - 1
    original = copy.deepcopy(state)
    assert_play_on_alike(state, original, seed=3)


@pytest.mark.parametrize(("name", "options"), GAMES[::2], ids=[g for g, _ in GAMES[::2]])
def test_a_shallow_copy_never_shares_the_kernel(name: str, options: dict[str, Any]) -> None:
    state = played(name, options, 12, seed=2)
    twin = copy.copy(state)
    assert twin.kernel is not state.kernel
    assert_same(state, twin)
    before = state.to_json()
    step(twin, random.Random(0))
    assert state.to_json() == before


def test_a_loaded_position_keeps_its_facade_fields() -> None:
    """Potlatch keeps loaded snapshots in the facade (outside the kernel): they travel too."""
    game = boardplay.load("potlatch")
    state = played("potlatch", {}, 25, seed=4)
    loaded = game.state_from_json(state.to_json())
    copied = pickle.loads(pickle.dumps(loaded))
    assert copied.__dict__ == loaded.__dict__
    assert_same(loaded, copied)
    assert_play_on_alike(loaded, copied, seed=5)


def test_proteus_repetition_memory_survives_pickling() -> None:
    """The positions met so far (``repetition="forbid"``) are not in the position JSON; a
    pickled state still forbids them, unlike one reloaded from its JSON."""
    state = played("proteus", {"repetition": "forbid"}, 80, seed=11)
    copied = pickle.loads(pickle.dumps(state))
    assert copied.kernel.save()[-1] and sorted(copied.kernel.save()[-1]) == sorted(
        state.kernel.save()[-1]
    )
    assert_play_on_alike(state, copied, seed=12)


def test_a_kernel_from_another_layout_is_refused() -> None:
    kernel = played("passtally", {}, 5, seed=1).kernel
    reducer, (cls, sizes, saved) = kernel.__reduce__()
    assert reducer is restore_kernel
    broken = (saved[0][:-1], *saved[1:])
    with pytest.raises(ValueError, match="same installed boardplay"):
        restore_kernel(cls, sizes, broken)
    with pytest.raises(TypeError, match="not a kernel class"):
        restore_kernel(dict, sizes, saved)  # type: ignore[arg-type]


def _sizes(kernel: Any) -> tuple[int, ...]:
    return (
        kernel.num_players,
        kernel.action_space,
        kernel.chance_space,
        kernel.observation_size,
        kernel.feature_size,
        kernel.compact_size,
        kernel.compact_dynamic,
    )


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{g}{o}" for g, o in GAMES])
def test_a_kernel_copied_or_unpickled_keeps_every_size(name: str, options: dict[str, Any]) -> None:
    """``copy()`` and unpickling make a bare instance (the constructor does not run), so every
    size travels, the compact observation's included: Potlatch's compact observation from a
    pickled kernel is the original's."""
    state = played(name, options, 17, seed=4)
    kernel = state.kernel
    for other in (pickle.loads(pickle.dumps(kernel)), state.clone().kernel):
        assert _sizes(other) == _sizes(kernel)
        if kernel.compact_size:
            for seat in range(kernel.num_players):
                mine = np.zeros(kernel.compact_size, dtype=np.uint8)
                theirs = np.zeros(kernel.compact_size, dtype=np.uint8)
                kernel.observe_compact(seat, mine)
                other.observe_compact(seat, theirs)
                assert mine.any() and (theirs == mine).all()
