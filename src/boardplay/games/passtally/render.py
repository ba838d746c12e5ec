"""The text picture of a Passtally position (``State.render``), plain ASCII within 80 columns.

Each cell shows its top half's pattern and its height (``X1``, ``NE2``, ``NW1``; ``.`` for the
bare board, which is a straight crossing at height 0); tile outlines follow the top tiles
(``:`` or a gap in the border marks the seam inside one tile). The ring's 24 slots sit around
the board with their numbers; a marker shows as its seat's player number. Below: the three
face-up tiles and pile sizes, scores and whose turn it is. ``detail`` adds every player's
complete lines with their passes, which is what the end-of-turn score is made of.
"""

from __future__ import annotations

import textwrap
from typing import Any

from boardplay.games.passtally import fields
from boardplay.games.passtally.layout import NUM_DESIGNS, NUM_PILES, SIZE
from boardplay.games.passtally.state import PasstallyState
from boardplay.games.passtally.tables import (
    CELL_NAMES,
    DESIGNS,
    PILE_NAMES,
    SHAPE_NAMES,
    vp_for_passes,
)

Fields = dict[str, Any]
"""``fields.snapshot(kernel)``, read once per picture."""

_PREFIX = 9  # width of the left margin: slot number, marker, row digit


def _cell(f: Fields, cell: int) -> str:
    h = f["height"][cell]
    if h == 0:
        return "  . "
    return f"{SHAPE_NAMES[f['shape'][cell]]:>2}{h:<2}"


def _mark(f: Fields, slot: int) -> str:
    seat = f["ring"][slot]
    return "." if seat < 0 else str(seat + 1)


def _columns(values: list[str]) -> str:
    """Place one short text per column, centred over the cells."""
    line = [" "] * (_PREFIX + 5 * SIZE + 1)
    for col, text in enumerate(values):
        start = _PREFIX + 1 + 5 * col + 2 - len(text) // 2
        line[start : start + len(text)] = list(text)
    return "".join(line).rstrip()


def _same_tile(f: Fields, a: int, b: int) -> bool:
    tid = f["tid"]
    return bool(tid[a] >= 0 and tid[a] == tid[b])


def board_lines(state: PasstallyState) -> list[str]:
    """The grid with tile outlines: ``:`` is the seam inside a horizontal tile and a blank
    border the seam inside a vertical one, so every top tile's footprint is visible."""
    f = fields.snapshot(state.kernel)
    border = " " * _PREFIX + "+----" * SIZE + "+"
    out = [
        _columns([str(c) for c in range(SIZE)]),
        _columns([_mark(f, c) for c in range(SIZE)]),
        _columns(list("abcdef")),
        border,
    ]
    for r in range(SIZE):
        west, east = 23 - r, 6 + r
        row = ""
        for c in range(SIZE):
            cell = r * SIZE + c
            row += _cell(f, cell)
            if c < SIZE - 1:
                row += ":" if _same_tile(f, cell, cell + 1) else "|"
        left = f"{west:>3} {_mark(f, west)} {r + 1:>2} "
        out.append(f"{left}|{row}| {_mark(f, east)} {east}")
        if r < SIZE - 1:
            walls = "".join(
                "+    " if _same_tile(f, r * SIZE + c, (r + 1) * SIZE + c) else "+----"
                for c in range(SIZE)
            )
            out.append(" " * _PREFIX + walls + "+")
    out.append(border)
    out.append(_columns([_mark(f, 17 - c) for c in range(SIZE)]))
    out.append(_columns([str(17 - c) for c in range(SIZE)]))
    return out


def _status(state: PasstallyState) -> str:
    game = state.game
    if state.game_over:
        return f"Game over: {state.result_text()}."
    if state.pending >= 0:
        who = game.seat_name(state.to_move)
        return f"Chance: pile {PILE_NAMES[state.pending]} reveals its next tile ({who}'s turn)."
    who = game.seat_name(state.to_move)
    if state.setup:
        return f"Setup: {who} places a marker on one of slots {state.setup_slots()}."
    left = state.actions_left
    return f"{who} to move, {left} action{'s' if left != 1 else ''} left."


def render_state(state: PasstallyState, detail: bool = False) -> str:
    lines = board_lines(state)
    f = fields.snapshot(state.kernel)
    face_up, hidden, unrevealed = f["face_up"], f["hidden"], f["unrevealed"]
    piles = []
    for p in range(NUM_PILES):
        face = face_up[p]
        shown = DESIGNS[face] if face >= 0 else ("-" if hidden[p] == 0 else "?")
        piles.append(f"{PILE_NAMES[p]}: {shown} (+{hidden[p]} face down)")
    lines.append("Tiles  " + "   ".join(piles))
    lines.append(
        "Unrevealed  " + "  ".join(f"{DESIGNS[d]} {unrevealed[d]}" for d in range(NUM_DESIGNS))
    )
    scores = "  ".join(
        f"{state.game.seat_name(seat)}: {score}" for seat, score in enumerate(f["points"])
    )
    flag = "  (final round)" if f["final_round"] and not f["game_over"] else ""
    lines.append(f"Scores  {scores}{flag}")
    lines.append(_status(state))
    if detail:
        lines.append("Complete lines (both ends on one player's markers):")
        for seat in range(state.num_players):
            own = state.player_lines(seat)
            name = state.game.seat_name(seat)
            if not own:
                lines.append(f"  {name}: none")
                continue
            total = sum(line[2] for line in own)
            for low, high, passes in own:
                cells = " ".join(CELL_NAMES[c] for c in state.trace_cells(low))
                text = f"  {name}: {low}-{high}, {passes} passes: {cells}"
                lines.extend(textwrap.wrap(text, 79, subsequent_indent=" " * 6))
            lines.append(f"  {name}: total {total} passes = {vp_for_passes(total)} VP")
    return "\n".join(lines)
