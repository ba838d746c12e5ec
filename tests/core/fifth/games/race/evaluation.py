"""Race to ten's evaluation for the AI: the seat to move wins exactly when the distance left is
not a multiple of ``step + 1``. No evaluation in C: a game without a kernel is searched by the
Python search anyway."""

from __future__ import annotations

from boardplay.games.race.game import RaceState

from boardplay.core.game import State
from boardplay.core.heuristics import Heuristics


def evaluate(state: State) -> list[float]:
    if state.is_terminal():
        return state.returns()
    assert isinstance(state, RaceState)
    step = int(state.game.options["step"])  # type: ignore[arg-type]
    winning = (state.target - state.count) % (step + 1) != 0
    mover = 0.9 if winning else 0.1
    return [mover, 1 - mover] if state.to_move == 0 else [1 - mover, mover]


HEURISTICS = Heuristics(evaluate, None, "race: the distance left modulo step + 1")
