"""The compiled Montana engine against the frozen pre-kernel one (games/_legacy/montana), side by
side over random games for every option set: at every step the player to move, the legal actions,
the chance outcomes with their probabilities and the returns must agree; the position JSON, the
observation tensors and a JSON round trip through the new engine are compared every ``every``
steps (``JSON_EVERY``) and at the end of every game."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

import boardplay
from boardplay.ai.evaluation import softmax
from boardplay.ai.evaluation.montana import SETTLEMENTS, TEMPERATURE, TEMPO, evaluate, strength
from boardplay.core.game import sample_chance
from boardplay.games._legacy.montana.game import MontanaGame as LegacyGame
from boardplay.games.montana import fields
from boardplay.games.montana.board import make_board
from boardplay.games.montana.state import MAIN as NEW_MAIN
from support import SOAK, games

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "recruit_grain": "additional"},
    {"players": 3, "recruit_grain": "additional", "build_adjacent_any": True},
    {
        "players": 4,
        "recruit_grain": "additional",
        "canteen_after_final": True,
        "tiebreak_money": "coins",
    },
    {
        "players": 2,
        "build_adjacent_any": True,
        "canteen_after_final": True,
        "start_player": 1,
        "board_seed": 123456,
    },
    {"players": 3, "max_turns": 40},
]
JSON_EVERY = 100 if SOAK else 7
"""The JSON, tensor and round-trip comparisons cost about 30 steps of both engines, so they run
every 7th step in ``make test`` and every 100th under the soak (and at every game's end); the
player to move, legal actions, chance outcomes and returns are compared at every step."""


def _compare_positions(old: Any, new: Any) -> None:
    position = old.to_json()
    assert new.to_json() == position
    for seat in range(old.n):
        want = np.asarray(old.observation_tensor(seat), dtype=np.float32)
        got = np.asarray(new.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(want, got), seat
    loaded = new.game.state_from_json(position)
    assert loaded.to_json() == position
    assert loaded.legal_actions() == new.legal_actions()


def play_side_by_side(options: dict[str, Any], seed: int, every: int) -> int:
    old = LegacyGame(options).new_initial_state()
    new = boardplay.load("montana", **options).new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while True:
        player = old.current_player()
        assert new.current_player() == player
        assert new.returns() == old.returns()
        if every and steps % every == 0:
            _compare_positions(old, new)
        legal = old.legal_actions()
        assert new.legal_actions() == legal
        if old.is_terminal():
            break
        if player < 0:
            assert new.chance_outcomes() == old.chance_outcomes()
            action = sample_chance(old, rng)
        else:
            action = legal[rng.randrange(len(legal))]
        old.apply_action(action)
        new.apply_action(action)
        steps += 1
    _compare_positions(old, new)
    assert new.history() == old.history()
    return steps


@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_new_engine_equals_the_legacy_engine(options: dict[str, Any]) -> None:
    count = games(1, 10_000)
    started = time.perf_counter()
    steps = sum(play_side_by_side(options, 1000 * seed + 7, JSON_EVERY) for seed in range(count))
    seconds = time.perf_counter() - started
    print(f"\nmontana differential {options}: {count} games, {steps} actions, {seconds:.1f} s")


def test_clones_continue_like_the_original() -> None:
    game = boardplay.load("montana", players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(200):
        action = (
            sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
        state.apply_action(action)
    copy = state.clone()
    for target in (state, copy):
        pick = random.Random(9)
        while not target.is_terminal():
            legal = target.legal_actions()
            target.apply_action(
                sample_chance(target, pick) if target.is_chance_node() else pick.choice(legal)
            )
    assert copy.to_json() == state.to_json() and copy.history() == state.history()


def _legacy_evaluate(state: Any) -> list[float]:
    """The evaluation as it was before the kernel: holdings and build sites of the old engine."""
    if state.is_terminal():
        return list(state.returns())
    sites = state.build_sites()
    values = [
        strength(state.holdings(p), state.goods[6 * p : 6 * p + 6], sites[p], SETTLEMENTS[state.n])
        for p in range(state.n)
    ]
    if state.stage == NEW_MAIN and state.active >= 0:
        values[state.active] += TEMPO
    return softmax(values, TEMPERATURE)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluation_from_kernel_features_equals_the_old_evaluation(players: int) -> None:
    old = LegacyGame({"players": players}).new_initial_state()
    new = boardplay.load("montana", players=players).new_initial_state()
    rng = random.Random(players)
    checked = 0
    for _ in range(games(3, 100)):
        while not old.is_terminal():
            if rng.random() < 0.1:
                assert evaluate(new) == _legacy_evaluate(old)
                checked += 1
            action = (
                sample_chance(old, rng) if old.is_chance_node() else rng.choice(old.legal_actions())
            )
            old.apply_action(action)
            new.apply_action(action)
        old = LegacyGame({"players": players}).new_initial_state()
        new = boardplay.load("montana", players=players).new_initial_state()
    assert checked > 50


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_deals_the_boards_of_the_reference_generator(players: int) -> None:
    game = boardplay.load("montana", players=players)
    kernel = game.new_initial_state().kernel
    kinds = {"plain": 1, "mountain": 2, "lake": 3}
    for seed in [*range(0, 4096, games(61, 1)), 2**31 - 1]:
        assert fields.load_board(kernel, seed)
        board = make_board(game.data, players, seed)
        assert fields.landscape(kernel) == [
            (q, r, kinds[spec.kind], spec.cost, spec.double, spec.cattle, spec.canteen)
            for (q, r), spec in zip(board.coords, board.specs, strict=True)
        ]
        placed, attempts = fields.placement(kernel)
        assert attempts == board.attempts
        assert [(game.data.tile_ids[t], r) for t, r in placed] == [
            (tile, rotation) for _, tile, rotation in board.placed
        ]
