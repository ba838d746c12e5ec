"""Helpers shared by the Potlatch Klone tests (imported as a plain module)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import boardplay
from boardplay.games.potlatch.game import PotlatchGame
from boardplay.games.potlatch.state import PotlatchState


def game(**options: Any) -> PotlatchGame:
    loaded = boardplay.load("potlatch", **options)
    assert isinstance(loaded, PotlatchGame)
    return loaded


def load(position: dict[str, Any], **options: Any) -> PotlatchState:
    return game(**options).state_from_json(position)


def legal(state: PotlatchState) -> list[str]:
    return state.legal_moves()


def play(state: PotlatchState, moves: Iterable[str]) -> PotlatchState:
    for move in moves:
        state.apply_move(move)
    return state


def normal(position: dict[str, Any], default_actions: int = 2) -> dict[str, Any]:
    """The §11 comparison form: defaults filled in, snapshots/result (and the engine's
    turns_played) ignored, visited as a set."""
    to_move = position["to_move"]
    return {
        "tiles": dict(position["tiles"]),
        "stock": position["stock"],
        "pawns": list(position["pawns"]),
        "to_move": to_move,
        "actions": position.get("actions", default_actions),
        "done": position.get("done", 0),
        "visited": set(position.get("visited", [position["pawns"][to_move]])),
        "run_open": position.get("run_open", False),
    }


def same_position(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return normal(a) == normal(b)
