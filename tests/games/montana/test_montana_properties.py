"""Property tests: seeded random playouts for 2, 3 and 4 players and both recruit_grain modes,
checking the invariants of spec §15 after every action, round trips of notation and position
JSON, and termination (clones, seeds and records: ``tests/core/test_contract.py``). Game counts
come from ``support.games``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from montana_helpers import check_invariants, start_of_turn_checks

import boardplay
from boardplay.core.game import sample_chance
from boardplay.core.records import Record
from boardplay.games.montana.state import MAIN, OVER, MontanaState
from support import games

CONFIGS = [(n, mode) for n in (2, 3, 4) for mode in ("replace", "additional")]
END_COUNTS: Counter[tuple[int, str, str]] = Counter()


def play_random(
    state: MontanaState,
    rng: random.Random,
    *,
    every: int = 0,
    check: bool = True,
    record: Record | None = None,
) -> int:
    """Play to the end with uniformly random actions, checking invariants after each action
    and (every ``every`` actions) notation and JSON round trips."""
    actions = 0
    last_turn = -1
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        if every and actions % every == 0:
            round_trips(state)
        if record is not None:
            record.play(state, action)
        else:
            state.apply_action(action)
        actions += 1
        if check:
            check_invariants(state)
            if state.stage == MAIN and state.turn_number != last_turn:
                last_turn = state.turn_number
                start_of_turn_checks(state)
        assert actions <= state.game.max_game_length
    return actions


def round_trips(state: MontanaState) -> None:
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts), "two legal actions share a string"
    for action, text in zip(legal, texts, strict=True):
        assert state.string_to_action(text) == action
    position = state.to_json()
    loaded = state.game.state_from_json(position)
    assert loaded.to_json() == position
    assert loaded.legal_actions() == legal
    assert loaded.chance_outcomes() == state.chance_outcomes()
    # the loaded position behaves as the original: the same 30 random actions lead to the same
    # position
    original = state.clone()
    for copy in (original, loaded):
        rng = random.Random(len(legal))
        for _ in range(30):
            if copy.is_terminal():
                break
            options = copy.legal_actions()
            pick = sample_chance(copy, rng) if copy.is_chance_node() else rng.choice(options)
            copy.apply_action(pick)
    assert loaded.to_json() == original.to_json()


def check_end(state: MontanaState, key: tuple[int, str]) -> None:
    assert state.stage == OVER
    END_COUNTS[(*key, state.ended_by)] += 1
    if state.ended_by == "trigger":
        assert len(set(state.regular_turns)) == 1, "I14 equal turns"
        assert state.won is not None and all(state.tiles[p] == 0 for p in state.won)
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9


@pytest.mark.parametrize(("players", "mode"), CONFIGS)
def test_random_games_keep_invariants(players: int, mode: str) -> None:
    game = boardplay.load("montana", players=players, recruit_grain=mode)
    count = games(20, 1000)
    for seed in range(count):
        state = game.new_initial_state()
        play_random(state, random.Random(seed * 7919 + players), every=97 if seed < 3 else 0)
        check_end(state, (players, mode))
    counts = {k[2]: v for k, v in END_COUNTS.items() if k[:2] == (players, mode)}
    print(f"\nmontana players={players} recruit_grain={mode}: {count} games, ends {counts}")


@settings(max_examples=games(15, 300))
@given(
    seed=st.integers(0, 2**31 - 1),
    players=st.sampled_from([2, 3, 4]),
    mode=st.sampled_from(["replace", "additional"]),
    adjacent_any=st.booleans(),
    after_final=st.booleans(),
    board_seed=st.one_of(st.just("random"), st.integers(0, 2**31 - 1)),
    tiebreak=st.sampled_from(["silver", "coins"]),
)
def test_hypothesis_games(
    seed: int,
    players: int,
    mode: str,
    adjacent_any: bool,
    after_final: bool,
    board_seed: Any,
    tiebreak: str,
) -> None:
    game = boardplay.load(
        "montana",
        players=players,
        recruit_grain=mode,
        build_adjacent_any=adjacent_any,
        canteen_after_final=after_final,
        board_seed=board_seed,
        tiebreak_money=tiebreak,
    )
    state = game.new_initial_state()
    play_random(state, random.Random(seed), every=53)
    check_end(state, (players, mode))


def test_chance_probabilities_sum_to_one() -> None:
    game = boardplay.load("montana", players=3)
    state = game.new_initial_state()
    rng = random.Random(11)
    seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert [a for a, _ in outcomes] == state.legal_actions()
            seen.add(state.stage)
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(seen) == 4  # board, setup spin, start player, spin


def test_observation_fixed_size() -> None:
    for players in (2, 3, 4):
        game = boardplay.load("montana", players=players)
        state = game.new_initial_state()
        rng = random.Random(players)
        shape = game.observation_shape()
        for _ in range(300):
            if state.is_terminal():
                break
            for seat in range(players):
                assert len(state.observation_tensor(seat)) == shape[0]
            legal = state.legal_actions()
            state.apply_action(
                sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
            )
