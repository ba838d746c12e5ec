"""Montana's own result word ``won`` (the position JSON's ``result.winners``) is a thin alias of
the contract's ``winners()`` (docs/design.md §2), at every position of random games; a win shared
by every player is a shared win there, not a draw (``returns`` splits it as one)."""

from __future__ import annotations

import pytest

from support import walk


@pytest.mark.parametrize("spec", ["montana", "montana(players=3)", "montana(players=4)"])
@pytest.mark.parametrize("seed", range(3))
def test_won_is_winners(spec: str, seed: int) -> None:
    for state in walk(spec, seed):
        won = state.won  # type: ignore[attr-defined]
        if not state.is_terminal():
            assert won is None and state.winners() == [] and state.end_code() is None
            continue
        assert state.winners() == won
        result = state.to_json()["result"]
        assert result["winners"] == won and state.end_code() in ("final_round", "turn_limit")
