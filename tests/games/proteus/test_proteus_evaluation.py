"""The AI's Proteus evaluation, now weighing the kernel's features, gives exactly the values
of the previous evaluation that parsed the position JSON (restated here as the reference), so
the AI levels measured in docs/ai.md stay valid."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardplay
import support
from boardplay.ai.evaluation import heuristics_for
from boardplay.core.heuristics import softmax
from boardplay.games.proteus.layout import FEATURE_NAMES as FEATURES

LINES = (
    ("a1", "b1", "c1"),
    ("a2", "b2", "c2"),
    ("a3", "b3", "c3"),
    ("a1", "a2", "a3"),
    ("b1", "b2", "b3"),
    ("c1", "c2", "c3"),
    ("a1", "b2", "c3"),
    ("c1", "b2", "a3"),
)


def _triples(tiles: dict[str, str], goal: str) -> list[tuple[str, ...]]:
    if goal == "Yc":
        return list(LINES)
    index = 0 if goal == "Ys" else 1
    groups: dict[str, list[str]] = {}
    for cell, tile in tiles.items():
        groups.setdefault(tile[index], []).append(cell)
    return [tuple(cells) for cells in groups.values() if len(cells) == 3]


def _closeness(triples: list[tuple[str, ...]], mine: set[str], theirs: set[str]) -> float:
    best = 0.0
    for triple in triples:
        value = sum(1.0 for c in triple if c in mine) - 0.5 * sum(1 for c in triple if c in theirs)
        best = max(best, value)
    return best


def json_strengths(position: dict[str, Any]) -> list[float]:
    """The previous evaluation's strengths, read from the position JSON."""
    tiles: dict[str, str] = {}
    pieces: tuple[set[str], set[str]] = (set(), set())
    active_goal = None
    for cell, raw in position["board"].items():
        tile, rest = raw[:2], raw[2:]
        tiles[cell] = tile
        if rest.startswith("*"):
            rest = rest[1:]
            if tile[0] == "Y":
                active_goal = tile
        if rest:
            pieces["XO".index(rest[0])].add(cell)
    out: list[float] = []
    for seat in (0, 1):
        mine, theirs = pieces[seat], pieces[1 - seat]
        value = 0.0
        for goal in ("Yc", "Ys", "Yt"):
            weight = 1.0 if goal == active_goal else 0.3
            value += weight * _closeness(_triples(tiles, goal), mine, theirs)
        if position.get("to_move") == seat:
            value += 0.3
        out.append(value)
    return out


@pytest.mark.parametrize("rules", ["seed", "kadon"])
def test_the_evaluation_equals_the_json_evaluation(rules: str) -> None:
    game = boardplay.load("proteus", rules=rules, max_turns=60)
    evaluate = heuristics_for(game).evaluate
    rng = random.Random(11)
    positions = 0
    for _ in range(support.games(60, 2_000)):
        state = game.new_initial_state()
        while True:
            expected = state.returns() if state.is_terminal() else None
            if expected is None:
                expected = softmax(json_strengths(state.to_json()), 0.5)
            assert evaluate(state) == expected
            assert len(state.kernel.features()) == len(FEATURES)
            positions += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert positions > 1000


def test_the_features_name_the_active_goal_and_the_mover() -> None:
    game = boardplay.load("proteus")
    board = {"a1": "Yc*Xc", "b1": "RcXs", "c1": "Rs", "a2": "RtOc", "b2": "Bc", "c2": "BsOs"}
    state = game.state_from_json({"board": board, "to_move": 1})
    features = dict(zip(FEATURES, state.kernel.features(), strict=True))
    assert features["active_goal"] == 0 and features["to_move"] == 1
    assert features["black_line"] == 2.0  # a1 b1 on row 1, c1 free
    assert features["white_line"] == 2.0  # a2 c2 on row 2, b2 free
    assert features["black_color"] == features["white_color"] == 0.5  # red: one each
    assert features["black_shape"] == 2.0  # circles Yc Rc Bc: a1 b1 Black's, b2 free
    assert features["white_shape"] == 0.0  # no other shape has all three tiles down
