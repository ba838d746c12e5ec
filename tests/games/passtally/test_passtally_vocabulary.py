"""Passtally's own result words are thin aliases of the contract's (docs/design.md §2): the
position's ``game_over`` flag is ``is_terminal()``, ``winner()`` is ``winners()[0]`` (exactly one
seat wins, §8.5), and ``end`` is ``end_code()``, at every position of random games."""

from __future__ import annotations

import pytest

from support import walk


@pytest.mark.parametrize(
    "spec", ["passtally", "passtally(players=3)", "passtally(finish_turn_on_immediate_end=false)"]
)
@pytest.mark.parametrize("seed", range(4))
def test_game_over_and_winner_are_the_contracts(spec: str, seed: int) -> None:
    for state in walk(spec, seed):
        assert state.game_over == state.is_terminal()  # type: ignore[attr-defined]
        if not state.is_terminal():
            assert state.winners() == [] and state.end_code() is None
            with pytest.raises(ValueError, match="not over"):
                state.winner()  # type: ignore[attr-defined]
            continue
        points = state.points  # type: ignore[attr-defined]
        assert state.winners() == [state.winner()] == [points.index(max(points))]  # type: ignore[attr-defined]
        assert state.end_code() in ("no_placement", "final_round", "turn_limit")
