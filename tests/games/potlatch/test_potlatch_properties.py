"""Property tests (spec §13 invariants, §14 S12): seeded random playouts over every option
combination, checking every invariant after every action, export -> load round trips that must
continue identically and notation round trips (clones, seeds and records:
``tests/core/test_contract.py``).

Game counts: ``games(default, soak)`` per actions x layout combination; ``make soak`` plays the
2,000 games per combination the issue asks for."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from potlatch_util import game

from boardplay.core.records import Player, Record
from boardplay.games.potlatch.game import TILES_IN_PLAY
from boardplay.games.potlatch.notation import CHIP_STRINGS, HEIGHT, STEPS
from boardplay.games.potlatch.state import PotlatchState
from support import games

OPTIONS = st.fixed_dictionaries(
    {
        "first_player": st.sampled_from([0, 1]),
        "blank_entry_ignores_height": st.booleans(),
        "repetition_compares_full_state": st.booleans(),
        "filter_dead_ends": st.booleans(),
        # Shorter than the default guard (1000 turns) so the rare endless games stay cheap;
        # natural random games end well before 150 turns, and 5/12 exercise condition 4.
        "turn_limit": st.sampled_from([150, 150, 5, 12]),
    }
)
COMBOS = [(2, "L3"), (2, "L4"), (3, "L3"), (3, "L4")]


def chips_on_board(state: PotlatchState) -> int:
    return sum(HEIGHT[code] for code in state.tiles.values())


def colour_chips(state: PotlatchState) -> int:
    return sum(1 for code in state.tiles.values() if code >= 4)


def connected(tiles: dict[int, int]) -> bool:
    start = next(iter(tiles))
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for step in STEPS:
            nxt = here + step
            if nxt in tiles and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(tiles)


def check_position(state: PotlatchState, total_tiles: int) -> None:
    """Invariants 1-5 and 7 of §13."""
    for code in state.tiles.values():
        chips = CHIP_STRINGS[code]
        assert len(chips) <= 3  # 1. height
        assert "R" not in chips[:2] and "B" not in chips[:2]  # 2. colour only 3rd
    assert colour_chips(state) == state.own_stacks(0) + state.own_stacks(1)
    assert len(state.tiles) + state.stock == total_tiles  # 3. tiles
    assert state.stock >= 0
    assert connected(state.tiles)
    red, blue = state.pawns  # 4. pawns
    assert red != blue and red in state.tiles and blue in state.tiles
    neutral, red_supply, blue_supply = state.supplies()  # 5. supplies
    assert neutral >= 0 and red_supply >= 1 and blue_supply >= 1
    visited = state.visited  # 7. visited
    assert len(set(visited)) == len(visited)
    assert state.pawns[state.to_move] in visited
    if state.done == 0:
        assert visited == (state.pawns[state.to_move],)


def check_legal(state: PotlatchState, unfiltered: PotlatchState | None) -> list[int]:
    """Invariant 9: sorted, unique, empty exactly when over, each one performable; under the
    dead-end filter a subset of the literal list."""
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    assert bool(legal) != state.is_terminal()
    for action in legal:
        state.clone().apply_action(action)
        assert state.string_to_action(state.action_to_string(action)) == action
        assert state.string_to_action(str(action)) == action
    if unfiltered is not None:
        assert set(legal) <= set(unfiltered.legal_actions())
    return legal


def play_checked(
    options: dict[str, Any], seed: int, with_record: bool = True
) -> tuple[PotlatchState, Record]:
    g = game(**options)
    literal = game(**{**options, "filter_dead_ends": False})
    rng = random.Random(seed)
    state = g.new_initial_state()
    record = Record.begin(g, [Player("red", "agent", "random"), Player("blue", "agent", "random")])
    total_tiles = TILES_IN_PLAY[g.actions]
    n = g.actions
    round_trip_at = rng.randrange(0, 40)
    twin: PotlatchState | None = None
    started = {state.to_move}
    turn_start_chips = chips_on_board(state)
    turn_actions = 0
    ply = 0
    check_position(state, total_tiles)
    while not state.is_terminal():
        assert ply <= g.max_game_length
        unfiltered = (
            literal.state_from_json(state.to_json()) if g.options["filter_dead_ends"] else None
        )
        legal = check_legal(state, unfiltered)
        if ply == round_trip_at and twin is None:
            exported = state.to_json()
            twin = g.state_from_json(exported)
            assert twin.to_json() == exported  # same export, snapshots included
            assert len(state.observation_tensor(0)) == len(state.observation_tensor(1))
        action = legal[rng.randrange(len(legal))]
        mover, turns = state.to_move, state.turns_played
        before_chips = chips_on_board(state)
        before_colours = colour_chips(state)
        run_open = state.run_open
        pawn_height = state.height(state.pawns[mover])
        before_tiles = dict(state.tiles)
        record.play(state, action)
        if twin is not None:
            assert twin.legal_actions() == legal
            twin.apply_action(action)
        ply += 1
        turn_actions += 1
        check_position(state, total_tiles)
        turn_over = state.turns_played == turns + 1
        # 8. chip conservation (a pending increase resolves before a Chip Move).
        if action < 6:
            if not turn_over:
                assert {k: v for k, v in state.tiles.items() if k in before_tiles} == before_tiles
                assert state.tiles.get(state.pawns[mover], 0) == before_tiles.get(
                    state.pawns[mover], 0
                )
        else:
            resolved = 1 if run_open and pawn_height < 3 else 0
            assert chips_on_board(state) == before_chips + resolved
            made_colour = 1 if run_open and pawn_height == 2 else 0
            assert colour_chips(state) <= before_colours + made_colour
        if turn_over:
            # 6. every completed turn has exactly N actions and <= 1 / 2 increases.
            assert turn_actions == n
            assert 0 <= chips_on_board(state) - turn_start_chips <= n - 1
            turn_actions = 0
            turn_start_chips = chips_on_board(state)
            result = state.result
            # 11. condition 3 never at a player's first turn start, never with condition 1.
            if result is not None and result[1] == 3:
                assert state.to_move in started
                assert state.own_stacks(state.to_move) < 3
            started.add(state.to_move)
        elif state.is_terminal():
            # Mid-turn, only condition 2 ends a game; never under the dead-end filter.
            assert state.result is not None and state.result[1] == 2
            assert not g.options["filter_dead_ends"]
    assert state.legal_actions() == []
    assert state.history() == [m.action for m in record.moves]
    if twin is not None:
        assert twin.to_json() == state.to_json()
        assert twin.result == state.result
    reloaded = g.state_from_json(state.to_json())
    assert reloaded.result == state.result
    assert reloaded.to_json() == state.to_json()
    record.finish(state)
    if with_record:
        copy = Record.loads(record.dumps())
        assert copy.replay().to_json() == state.to_json()
    return state, record


def _test_combo(actions: int, layout: str, options: dict[str, Any], seed: int) -> None:
    state, _ = play_checked({"actions": actions, "layout": layout, **options}, seed)
    assert state.result is not None
    assert sum(state.returns()) == 1.0


@pytest.mark.parametrize(("actions", "layout"), COMBOS)
@settings(max_examples=games(100, 2000))
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_s12_random_playouts_keep_invariants(
    actions: int, layout: str, options: dict[str, Any], seed: int
) -> None:
    _test_combo(actions, layout, options, seed)
