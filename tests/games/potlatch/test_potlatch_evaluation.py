"""The Potlatch evaluation reads the kernel's typed features; it must give exactly what the
formula over the position JSON gave before the kernel existed (kept here as the reference)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardplay
from boardplay.ai.evaluation.potlatch import HEURISTICS, TEMPERATURE
from boardplay.core.heuristics import softmax
from support import games


def json_strengths(position: dict[str, Any]) -> list[float]:
    """The evaluation's strengths as they were computed from the position JSON before the
    kernel had features (``ai/evaluation/potlatch.py`` at the start of issue 14)."""
    tiles = {tuple(map(int, k.split(","))): str(v) for k, v in position["tiles"].items()}
    out: list[float] = []
    for seat, colour in enumerate(("R", "B")):
        other = ("R", "B")[1 - seat]
        own = sum(1 for chips in tiles.values() if len(chips) == 3 and chips[2] == colour)
        q, r = map(int, position["pawns"][seat].split(","))
        height = len(tiles.get((q, r), ""))
        crowns = breaks = 0
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            chips = tiles.get((q + dq, r + dr))
            if chips is None:
                continue
            if len(chips) == 2 and height >= 1:
                crowns += 1
            if len(chips) == 3 and chips[2] == other and height >= 2:
                breaks += 1
        value = own + 0.35 * min(crowns, 2) + 0.25 * min(breaks, 1)
        if position.get("to_move") == seat:
            value += 0.25
        elif own >= 3:
            value += 0.8
        out.append(value)
    return out


@pytest.mark.parametrize("options", [{"actions": 2}, {"actions": 3, "layout": "L4"}])
def test_evaluation_from_features_equals_the_json_formula(options: dict[str, Any]) -> None:
    game = boardplay.load("potlatch", **options)
    rng = random.Random(11)
    for _ in range(games(20, 2_000)):
        state = game.new_initial_state()
        while not state.is_terminal():
            expected = softmax(json_strengths(state.to_json()), TEMPERATURE)
            assert HEURISTICS.evaluate(state) == expected
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert HEURISTICS.evaluate(state) == state.returns()
