"""The text picture of a Proteus position (``State.render``): the 3x3 board with row 3 at the
top, each tile's colour and shape, its rule name when active, and the piece on it; then the
three rules in force, the pool, both hands, whose turn and the result. Fits 80 columns."""

from __future__ import annotations

import textwrap

from boardplay.games.proteus.state import ProteusState
from boardplay.games.proteus.tables import (
    COLOUR_WORDS,
    PLAYER_WORDS,
    PLAYERS,
    RULE_NAMES,
    SHAPE_WORDS,
    TILES,
)

WIDTH = 18
"""Inner width of one cell: wide enough for "Yt yellow triangle"."""


def _cell_lines(state: ProteusState, cell: int) -> tuple[str, str, str]:
    tile = state.tile_at(cell)
    if tile < 0:
        return "", "(empty)", ""
    first = f"{TILES[tile]} {COLOUR_WORDS[tile // 3]} {SHAPE_WORDS[tile % 3]}"
    second = f"*{RULE_NAMES[tile]}*" if state.is_active(tile) else "face down"
    piece = state.piece_at(cell)
    third = "" if piece < 0 else f"{PLAYER_WORDS[piece // 3]} {SHAPE_WORDS[piece % 3]}"
    return first, second, third


def _hand(state: ProteusState, player: int) -> str:
    shapes = [SHAPE_WORDS[s] for s in range(3) if state.cell_of_piece(3 * player + s) < 0]
    return ", ".join(shapes) if shapes else "empty"


def render_state(state: ProteusState, detail: bool = False) -> str:
    game = state.game
    phase = "placement" if state.in_placement else "movement"
    # The ruleset always shows (it changes what is legal); other options only when set.
    defaults = game.option_set.defaults()
    settings = [f"rules={game.options['rules']}"] + [
        f"{k}={v}" for k, v in game.options.items() if k != "rules" and v != defaults[k]
    ]
    lines = [f"{game.title} ({', '.join(settings)}) - {phase} phase, turn {state.turns}"]
    rule = "   +" + "+".join("-" * (WIDTH + 2) for _ in range(3)) + "+"
    lines.append("    " + "".join(f" {col:^{WIDTH}}  " for col in "abc").rstrip())
    lines.append(rule)
    for row in (2, 1, 0):
        cells = [_cell_lines(state, col * 3 + row) for col in range(3)]
        for part in range(3):
            label = f" {row + 1} " if part == 1 else "   "
            body = "|".join(f" {c[part]:^{WIDTH}} " for c in cells)
            lines.append(f"{label}|{body}|")
        lines.append(rule)
    lines.append("Rules in force:")
    lines.extend(f"  {line}" for line in state.rules_in_force())
    pool = [TILES[t] for t in range(9) if state.cell_of_tile(t) < 0]
    lines.append(f"Pool: {' '.join(pool) if pool else 'empty'}")
    for player in (0, 1):
        lines.append(f"{PLAYER_WORDS[player]} ({PLAYERS[player]}) hand: {_hand(state, player)}")
    if state.is_terminal():
        lines.append(f"Result: {state.result_text()}")
    else:
        pending = f" (passes: {state.passes})" if state.passes else ""
        lines.append(f"{PLAYER_WORDS[state.to_move]} to move{pending}")
        if detail:
            legal = " ".join(state.legal_moves())
            lines.extend(textwrap.wrap(f"Legal: {legal}", 76, subsequent_indent="  "))
    return "\n".join(lines)
