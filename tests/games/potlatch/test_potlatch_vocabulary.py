"""Potlatch Klone's own result words are thin aliases of the contract's (docs/design.md §2):
``result``, the position JSON's ``{"winner", "condition"}``, is ``winners()`` and ``end_code()``
read the spec's way, at every position of random games."""

from __future__ import annotations

import pytest

from boardplay.games.potlatch.tables import CONDITION_CODES
from support import walk


@pytest.mark.parametrize(
    "spec", ["potlatch", "potlatch(actions=3,layout=L4)", "potlatch(turn_limit=12)"]
)
@pytest.mark.parametrize("seed", range(6))
def test_result_is_winners_and_end_code(spec: str, seed: int) -> None:
    for state in walk(spec, seed):
        result = state.result  # type: ignore[attr-defined]
        if not state.is_terminal():
            assert result is None and state.end_code() is None and state.winners() == []
            continue
        winner, condition = result
        assert state.winners() == ([] if winner is None else [winner])
        assert state.end_code() == CONDITION_CODES[condition]
        assert state.to_json()["result"] == {"winner": winner, "condition": condition}
