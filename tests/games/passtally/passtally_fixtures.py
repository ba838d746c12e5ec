"""Positions and helpers shared by the Passtally tests (the spec's §15 scenario positions)."""

from __future__ import annotations

import copy
from typing import Any

import boardplay
from boardplay.games.passtally.game import PasstallyGame
from boardplay.games.passtally.state import PasstallyState

Position = dict[str, Any]

START_PILES = [
    {"face_up": "XX", "hidden": 13},
    {"face_up": "NENW", "hidden": 13},
    {"face_up": "XNE", "hidden": 13},
]


def game(**options: Any) -> PasstallyGame:
    loaded = boardplay.load("passtally", **options)
    assert isinstance(loaded, PasstallyGame)
    return loaded


def load(position: Position, **options: Any) -> PasstallyState:
    return game(players=position["players"], **options).state_from_json(copy.deepcopy(position))


def play(state: PasstallyState, *moves: str) -> PasstallyState:
    for move in moves:
        state.apply_move(move)
    return state


def probabilities(state: PasstallyState) -> dict[str, float]:
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}


def frac(counts: dict[str, int]) -> dict[str, float]:
    total = sum(counts.values())
    return {name: c / total for name, c in counts.items() if c}


def with_pile(pile: str, counts: dict[str, int]) -> dict[str, float]:
    """``{"A=XX": 6/39, ...}`` from a design -> unrevealed count mapping."""
    return {f"{pile}={name}": p for name, p in frac(counts).items()}


S1: Position = {
    "players": 2,
    "placements": [],
    "markers": {"2": 0, "4": 1, "7": 0, "10": 1, "15": 0, "16": 1, "20": 0, "21": 1},
    "piles": START_PILES,
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S3: Position = {
    "players": 2,
    "placements": [["XX", "a1", "E"]],
    "markers": {"2": 0, "4": 1, "6": 0, "10": 1, "16": 1, "20": 0, "21": 1, "23": 0},
    "piles": [
        {"face_up": "XX", "hidden": 12},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 13},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S4: Position = {
    "players": 2,
    "placements": [["XX", "a1", "S"], ["XX", "b1", "S"]],
    "markers": {"4": 1, "6": 0, "7": 0, "10": 1, "16": 1, "19": 1, "22": 0, "23": 0},
    "piles": [
        {"face_up": "XX", "hidden": 11},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 13},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S5: Position = {
    "players": 2,
    "placements": [["NWNW", "a1", "E"]],
    "markers": {"0": 0, "4": 1, "8": 0, "10": 1, "14": 0, "16": 1, "19": 1, "23": 0},
    "piles": [
        {"face_up": "XX", "hidden": 12},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 13},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S6: Position = {
    "players": 2,
    "placements": [["XX", "a1", "E"]],
    "markers": {"2": 0, "4": 1, "7": 0, "10": 1, "15": 0, "16": 1, "20": 0, "21": 1},
    "piles": [
        {"face_up": "XX", "hidden": 12},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 13},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S8: Position = {
    "players": 2,
    "placements": [],
    "markers": {"3": 0, "4": 1, "10": 1, "11": 0, "14": 1, "15": 0, "18": 1, "19": 0},
    "piles": START_PILES,
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S9: Position = {
    "players": 2,
    "placements": [],
    "markers": {"0": 0, "3": 1, "5": 0, "10": 1, "13": 0, "15": 1, "19": 0, "21": 1},
    "piles": START_PILES,
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S10_BOARD = [
    ["XX", "a1", "E"],
    ["XNW", "c1", "E"],
    ["NENE", "e1", "E"],
    ["XNW", "a2", "E"],
    ["XX", "c2", "E"],
    ["NWNW", "e2", "E"],
    ["NENE", "a3", "E"],
    ["XNW", "c3", "E"],
    ["XX", "e3", "E"],
    ["NWNW", "a4", "E"],
    ["NENE", "c4", "E"],
    ["NENW", "e4", "E"],
    ["XNE", "a5", "E"],
]

S10: Position = {
    "players": 2,
    "placements": S10_BOARD,
    "markers": {"3": 0, "5": 1, "6": 1, "9": 0, "11": 1, "16": 0, "20": 1, "23": 0},
    "piles": [
        {"face_up": "XX", "hidden": 0},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 13},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

S11_PILES = [
    {"face_up": None, "hidden": 0},
    {"face_up": "NENW", "hidden": 13},
    {"face_up": "XNE", "hidden": 13},
]

S11_TWO: Position = {
    "players": 2,
    "placements": [*S10_BOARD, ["XX", "e5", "E"]],
    "markers": {"1": 0, "3": 0, "5": 1, "8": 1, "11": 0, "13": 1, "16": 0, "20": 1},
    "piles": S11_PILES,
    "scores": [48, 45],
    "to_move": 1,
    "actions_left": 2,
    "final_round": True,
}

S11_THREE: Position = {
    "players": 3,
    "placements": [*S10_BOARD, ["XX", "e5", "E"]],
    "markers": {
        "0": 1,
        "1": 0,
        "2": 1,
        "3": 0,
        "5": 2,
        "8": 2,
        "9": 1,
        "11": 0,
        "13": 2,
        "16": 0,
        "19": 1,
        "20": 2,
    },
    "piles": S11_PILES,
    "scores": [40, 47, 44],
    "to_move": 2,
    "actions_left": 2,
    "final_round": True,
}

S12_START: Position = {
    "players": 3,
    "placements": [],
    "markers": {},
    "piles": [
        {"face_up": None, "hidden": 14},
        {"face_up": None, "hidden": 14},
        {"face_up": None, "hidden": 14},
    ],
    "scores": [0, 0, 0],
    "to_move": 0,
    "actions_left": 2,
    "setup": True,
}

S12_END: Position = {
    "players": 3,
    "placements": [],
    "markers": {
        "1": 0,
        "2": 1,
        "4": 2,
        "8": 0,
        "9": 1,
        "10": 2,
        "13": 2,
        "14": 1,
        "16": 0,
        "19": 2,
        "20": 1,
        "22": 0,
    },
    "piles": START_PILES,
    "scores": [0, 0, 0],
    "to_move": 0,
    "actions_left": 2,
}

SPEC_12_EXAMPLE: Position = {
    "players": 2,
    "placements": [["XX", "a1", "S"], ["XX", "b1", "S"]],
    "markers": {"0": 0, "2": 0, "7": 1, "9": 0, "12": 1, "15": 0, "20": 1, "22": 1},
    "piles": [
        {"face_up": "XX", "hidden": 12},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 12},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 2,
}

PENDING_EXAMPLE: Position = {
    "players": 2,
    "placements": [["XX", "b3", "E"]],
    "markers": {"2": 0, "4": 1, "7": 0, "10": 1, "15": 0, "16": 1, "20": 0, "21": 1},
    "piles": [
        {"face_up": None, "hidden": 13},
        {"face_up": "NENW", "hidden": 13},
        {"face_up": "XNE", "hidden": 13},
    ],
    "scores": [0, 0],
    "to_move": 0,
    "actions_left": 1,
}


def _stack_board() -> list[list[str]]:
    """42 legal placements, 7 of each design: a brick-bond stack three layers high (layer 1
    horizontal, layer 2 vertical across two layer-1 rows, layer 3 horizontal across columns)."""
    from boardplay.games.passtally.tables import DESIGNS

    cells: list[list[str]] = []
    for r in range(1, 7):
        cells.extend([f"{c}{r}", "E"] for c in "ace")
    for c in "abcdef":
        cells.extend([f"{c}{r}", "S"] for r in (1, 3, 5))
    for r in range(1, 7):
        cells.extend([f"{c}{r}", "E"] for c in "bd")
    return [[DESIGNS[i % 6], *cell] for i, cell in enumerate(cells[:42])]


FULL_BOARD = _stack_board()
"""All 42 tiles; the last one is ``FULL_BOARD[41]`` (NENW on d3 E)."""

LAST_TILE: Position = {
    "players": 3,
    "placements": FULL_BOARD[:41],
    "markers": {str(s): s % 3 for s in range(12)},
    "piles": [
        {"face_up": "NENW", "hidden": 0},
        {"face_up": None, "hidden": 0},
        {"face_up": None, "hidden": 0},
    ],
    "scores": [0, 0, 0],
    "to_move": 1,
    "actions_left": 2,
    "final_round": True,
}
"""Three players, one tile left in the box (face up on pile A), P2 to move."""
