"""Every game replays the frozen trajectories of its pre-kernel engine (``tests/golden.py``):
same actions, same digest of seats, legal actions, returns, chance, position JSON and tensors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import boardplay
from golden import load_cases, start, trajectory

HERE = Path(__file__).parent
CASES = [
    pytest.param(game, case, id=f"{game}-{i}")
    for game in sorted(p.name for p in HERE.iterdir() if (p / "golden.json").exists())
    for i, case in enumerate(load_cases(HERE / game / "golden.json"))
]


def test_every_game_has_frozen_trajectories() -> None:
    registered = set(boardplay.available())
    frozen = {game for game, *_ in (p.values for p in CASES)}
    assert frozen == registered, f"games without golden trajectories: {registered - frozen}"


@pytest.mark.parametrize(("game", "case"), CASES)
def test_replays_the_frozen_trajectory(game: str, case: dict[str, Any]) -> None:
    loaded = boardplay.load(game, **case["options"])
    played = trajectory(start(loaded, case), case["seed"], loaded.num_players)
    assert played == (case["actions"], case["digest"]), case["options"]
