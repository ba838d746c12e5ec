"""Per-game evaluations on constructed positions: the side that is closer to winning is rated
higher, values are win chances (non-negative, summing to 1), and finished games give returns."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ai_testgames import PigGame

import boardplay
from boardplay.ai.evaluation import generic_evaluate, heuristics_for
from boardplay.core.heuristics import softmax
from boardplay.core.playout import random_playout


def _needs(name: str) -> None:
    """Every engine is part of the package: a missing one fails the test, never skips it."""
    assert name in boardplay.available(), f"{name} is not among the registered games"


def test_softmax_temperature() -> None:
    assert softmax([1.0, 1.0], 1.0) == [0.5, 0.5]
    low, high = softmax([0.0, 1.0], 1.0)
    assert high / low == pytest.approx(2.718281828)


def test_generic_evaluation_uses_scores_then_returns() -> None:
    game = PigGame({"players": 3})
    state = game.state_from_json(
        {"scores": [10, 2, 2], "turn_total": 0, "seat": 1, "rolling": False, "turns": 4}
    )
    value = generic_evaluate(state)
    assert value[0] > value[1] == value[2] and sum(value) == pytest.approx(1.0)
    end = game.state_from_json(
        {"scores": [20, 2, 2], "turn_total": 0, "seat": 1, "rolling": False, "turns": 4}
    )
    assert generic_evaluate(end) == [1.0, 0.0, 0.0]


def test_potlatch_prefers_own_stacks() -> None:
    _needs("potlatch")
    game = boardplay.load("potlatch")
    position: dict[str, Any] = {
        "tiles": {"-1,0": "NNR", "0,0": "NNR", "1,0": "N", "2,0": "", "0,1": "NNB"},
        "stock": 4,
        "pawns": ["1,0", "2,0"],
        "to_move": 1,
    }
    red, blue = heuristics_for(game).evaluate(game.state_from_json(position))
    assert red > blue and red + blue == pytest.approx(1.0)


def test_proteus_prefers_the_player_one_step_from_the_active_goal() -> None:
    _needs("proteus")
    game = boardplay.load("proteus")
    # Yc (3-IN-LINE) is active; Black has two pieces on row 1, White is scattered.
    board = {
        "a1": "Yc*Xc", "b1": "RcXs", "c1": "Rs", "a2": "RtOc", "b2": "Bc",
        "c2": "BsOs", "a3": "Bt", "b3": "YsXt", "c3": "YtOt",
    }  # fmt: skip
    black, white = heuristics_for(game).evaluate(
        game.state_from_json({"board": board, "to_move": 0})
    )
    assert black > white


def test_passtally_values_the_lead_and_the_lines() -> None:
    _needs("passtally")
    game = boardplay.load("passtally")
    state = game.new_initial_state()
    rng = random.Random(3)
    random_playout(state, rng, max_actions=30)
    while state.is_chance_node():
        random_playout(state, rng, max_actions=1)
    position = state.to_json()
    evaluate = heuristics_for(game).evaluate
    before = evaluate(game.state_from_json(position))
    position["scores"] = [position["scores"][0] + 10, position["scores"][1]]
    after = evaluate(game.state_from_json(position))
    assert after[0] > before[0]


def test_montana_values_goods_by_the_builds_they_pay_for() -> None:
    _needs("montana")
    from boardplay.ai.evaluation.montana import PARTIAL_WEIGHT, READY_WEIGHT, readiness, strength
    from boardplay.games.montana.state import Holdings

    csgp = (1, 0, 1, 0, 1, 1)  # copper, stone, grain, pumpkin
    cs = (1, 0, 1, 0, 0, 0)
    # Goods paying for both sites: two settlements ready.
    assert readiness([2, 0, 2, 0, 1, 1], 0, [csgp, cs], 12) == pytest.approx(2 * READY_WEIGHT)
    # The cheap site first; the pumpkin-less rest covers 3 of csgp's 4 goods.
    assert readiness([2, 0, 2, 0, 1, 0], 0, [csgp, cs], 12) == pytest.approx(
        READY_WEIGHT + PARTIAL_WEIGHT * 3 / 4
    )
    # A cattle stands in for the missing pumpkin.
    assert readiness([2, 0, 2, 0, 1, 0], 1, [csgp, cs], 12) == pytest.approx(2 * READY_WEIGHT)
    # Goods that pay for no site are worth nothing here; one build places at most 3, and never
    # more than the settlements left.
    assert readiness([0, 0, 0, 0, 9, 0], 0, [cs], 12) == 0.0
    assert readiness([9] * 6, 0, [cs] * 5, 12) == pytest.approx(3 * READY_WEIGHT)
    assert readiness([9] * 6, 0, [cs] * 5, 1) == pytest.approx(READY_WEIGHT)
    # A placed settlement counts more than one whose goods are in hand.
    held = Holdings(settlements_left=10, goods=0, silver=0, workers=0, cattle=0, canteens=0)
    placed = strength(held._replace(settlements_left=9), [0] * 6, [cs], 12)
    ready = strength(held._replace(goods=2), [1, 0, 1, 0, 0, 0], [cs], 12)
    assert placed > ready > strength(held, [0] * 6, [cs], 12)


def test_montana_holdings_agree_with_the_position_json() -> None:
    _needs("montana")
    game = boardplay.load("montana")
    state = game.new_initial_state()
    random_playout(state, random.Random(5), max_actions=120)
    for seat, board in enumerate(state.to_json()["players"]):
        held = state.holdings(seat)  # type: ignore[attr-defined]
        assert held.settlements_left == board["settlements_left"]
        assert held.goods == sum(board["goods"].values())
        assert held.workers == sum(board["workers"].values())
        assert (held.silver, held.cattle, held.canteens) == (
            board["silver"],
            board["cattle"],
            board["canteens"],
        )


@pytest.mark.parametrize("name", boardplay.available())
def test_evaluations_are_win_chances_along_random_games(name: str) -> None:
    _needs(name)
    game = boardplay.load(name)
    evaluate = heuristics_for(game).evaluate
    state = game.new_initial_state()
    rng = random.Random(1)
    steps = 0
    while not state.is_terminal() and steps < 400:
        if steps % 7 == 0:
            value = evaluate(state)
            assert len(value) == game.num_players
            assert min(value) >= 0 and sum(value) == pytest.approx(1.0)
        random_playout(state, rng, max_actions=1)
        steps += 1
    if state.is_terminal():
        assert evaluate(state) == state.returns()
