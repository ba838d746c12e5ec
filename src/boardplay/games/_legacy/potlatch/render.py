"""The text picture of a position (``State.render``): a pointy-top hex map plus status lines.

Each hex is a 6-character cell: ``[NNR]`` is a tile holding N, N, R (bottom to top, ``-``
for no chip); a pawn is its letter just before the bracket, e.g. ``R[NN-]`` is Red's pawn on a
2-high neutral stack. Blank spaces next to the mover's pawn that could take a tile from the
stock are shown as ``.``. Rows are offset by half a cell per row, as on the table, and labelled
with their ``r``; the pawns' coordinates are printed below, which pins down every ``q``.
The picture fits 80 columns unless nearly all 12 tiles lie in one straight E-W line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardplay.games._legacy.potlatch.notation import CHIP_STRINGS, STEPS, hex_text, pack, unpack

if TYPE_CHECKING:
    from boardplay.games._legacy.potlatch.state import PotlatchState

_PAWN_LETTERS = ("R", "B")


def _cell(state: PotlatchState, key: int) -> str:
    code = state.tiles.get(key)
    if code is None:
        return "  .   "
    chips = CHIP_STRINGS[code].ljust(3, "-")
    mark = " "
    for seat in (0, 1):
        if state.pawns[seat] == key:
            mark = _PAWN_LETTERS[seat]
    return f"{mark}[{chips}]"


def render_state(state: PotlatchState, detail: bool = False) -> str:
    """The board, then stock, supplies, stacks, whose turn, and the result when over."""
    shown: set[int] = set(state.tiles)
    if state.result is None and state.stock > 0:
        here = state.pawns[state.to_move]
        shown.update(here + step for step in STEPS)
    coords = [unpack(key) for key in shown]
    rows = sorted({r for _, r in coords})
    # Doubled column x = 2q + r: neighbours in a row are 2 apart, rows shift by 1.
    x_min = min(2 * q + r for q, r in coords)
    lines: list[str] = []
    for r in rows:
        cells = sorted((2 * q + r, q) for q, rr in coords if rr == r)
        line = ""
        for x, q in cells:
            line = line.ljust((x - x_min) * 3) + _cell(state, pack(q, r))
        lines.append(f"{r:>3} {line.rstrip()}")
    lines.append(
        f"Pawns: Red {hex_text(state.pawns[0])}, Blue {hex_text(state.pawns[1])} "
        "(hex q,r; rows show r, q is +1 per 6 columns)"
    )

    neutral, red, blue = state.supplies()
    lines.append("")
    lines.append(
        f"Stock: {state.stock} tile{'s' if state.stock != 1 else ''}   "
        f"Supply: N {neutral}, R {red}, B {blue}   "
        f"Stacks: Red {state.own_stacks(0)}, Blue {state.own_stacks(1)}"
    )
    if state.result is not None:
        lines.append(f"Game over: {state.result_text()}.")
    else:
        mover = state.game.seat_name(state.to_move)
        left = state.n_actions - state.done
        text = (
            f"{mover} to move: action {state.done + 1} of {state.n_actions} ({left} left this turn)"
        )
        if state.run_open:
            text += "; chip increase pending on the pawn's hex"
        lines.append(text)
    if detail:
        lines.append("Visited this turn: " + ", ".join(hex_text(k) for k in state.visited))
        lines.append("Legal: " + (", ".join(state.legal_moves()) or "none"))
    return "\n".join(lines)
