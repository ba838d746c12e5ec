"""Helpers shared by the Proteus tests: loading positions and an independent re-statement of
the spec's geometry and trade rules, so the invariant checks do not reuse engine code."""

from __future__ import annotations

from typing import Any

import boardplay
from boardplay.games.proteus.state import ProteusState

CELLS = ("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3")

# Spec §6.2, copied from the table (not computed), keyed by the MOVE tile.
TARGETS: dict[str, dict[str, set[str]]] = {
    "Rc": {
        "a1": {"a2", "b1", "b2"},
        "a2": {"a1", "a3", "b1", "b2", "b3"},
        "a3": {"a2", "b2", "b3"},
        "b1": {"a1", "a2", "b2", "c1", "c2"},
        "b2": {"a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"},
        "b3": {"a2", "a3", "b2", "c2", "c3"},
        "c1": {"b1", "b2", "c2"},
        "c2": {"b1", "b2", "b3", "c1", "c3"},
        "c3": {"b2", "b3", "c2"},
    },
    "Rs": {
        "a1": {"a2", "a3", "b1", "c1"},
        "a2": {"a1", "a3", "b2", "c2"},
        "a3": {"a1", "a2", "b3", "c3"},
        "b1": {"a1", "b2", "b3", "c1"},
        "b2": {"a2", "b1", "b3", "c2"},
        "b3": {"a3", "b1", "b2", "c3"},
        "c1": {"a1", "b1", "c2", "c3"},
        "c2": {"a2", "b2", "c1", "c3"},
        "c3": {"a3", "b3", "c1", "c2"},
    },
    "Rt": {
        "a1": {"b2", "b3", "c2", "c3"},
        "a2": {"b1", "b3", "c1", "c3"},
        "a3": {"b1", "b2", "c1", "c2"},
        "b1": {"a2", "a3", "c2", "c3"},
        "b2": {"a1", "a3", "c1", "c3"},
        "b3": {"a1", "a2", "c1", "c2"},
        "c1": {"a2", "a3", "b2", "b3"},
        "c2": {"a1", "a3", "b1", "b3"},
        "c3": {"a1", "a2", "b1", "b2"},
    },
}

LINES = [
    {"a1", "b1", "c1"},
    {"a2", "b2", "c2"},
    {"a3", "b3", "c3"},
    {"a1", "a2", "a3"},
    {"b1", "b2", "b3"},
    {"c1", "c2", "c3"},
    {"a1", "b2", "c3"},
    {"c1", "b2", "a3"},
]


def load(board: dict[str, str], to_move: int = 0, **options: Any) -> ProteusState:
    game = boardplay.load("proteus", **options)
    state = game.state_from_json({"board": board, "to_move": to_move})
    assert isinstance(state, ProteusState)
    return state


def parse_board(state: ProteusState) -> dict[str, tuple[str, bool, str | None]]:
    """cell -> (tile, active, piece or None), read from the exported position JSON."""
    out: dict[str, tuple[str, bool, str | None]] = {}
    for cell, value in state.to_json()["board"].items():
        tile = value[:2]
        active = len(value) > 2 and value[2] == "*"
        rest = value[3:] if active else value[2:]
        out[cell] = (tile, active, rest or None)
    return out


def active_tiles(state: ProteusState) -> dict[str, str]:
    """colour letter -> (tile, cell) description of the active tiles, from the JSON."""
    return {v[0][0]: v[0] for v in parse_board(state).values() if v[1]}


def independent_trades(state: ProteusState) -> set[str]:
    """All trades the active TRADE tile allows (§6.3), recomputed from the position JSON."""
    board = parse_board(state)
    rule = next((tile for tile, active, _ in board.values() if active and tile[0] == "B"), None)
    out: set[str] = set()
    if rule is None:
        return out
    for i, a in enumerate(CELLS):
        for b in CELLS[i + 1 :]:
            if a not in board or b not in board:
                continue
            (ta, _, pa), (tb, _, pb) = board[a], board[b]
            if rule == "Bc":
                ok = pa is not None and pb is not None and pa[0] != pb[0]
            elif rule == "Bs":
                ok = ta[0] == tb[0]
            else:
                ok = ta[1] == tb[1]
            if ok:
                out.add(f"{a}~{b}")
    return out


def independent_moves(state: ProteusState) -> set[str]:
    """All piece moves the active MOVE tile allows the mover (§6.2), from the JSON."""
    board = parse_board(state)
    rule = next((tile for tile, active, _ in board.values() if active and tile[0] == "R"), None)
    if rule is None:
        return set()
    letter = "XO"[state.to_move]
    out: set[str] = set()
    for cell, (_, _, piece) in board.items():
        if piece is None or piece[0] != letter:
            continue
        for dst in TARGETS[rule][cell]:
            if dst in board and board[dst][2] is None:
                out.add(f"{cell}-{dst}")
    return out


def goal_met(state: ProteusState, player: int) -> bool:
    """§7.4 recomputed from the JSON."""
    board = parse_board(state)
    goal = next((tile for tile, active, _ in board.values() if active and tile[0] == "Y"), None)
    letter = "XO"[player]
    cells = {c for c, (_, _, p) in board.items() if p is not None and p[0] == letter}
    if goal is None or len(cells) < 3:
        return False
    if goal == "Yc":
        return cells in LINES
    index = 0 if goal == "Ys" else 1
    return len({board[c][0][index] for c in cells}) == 1
