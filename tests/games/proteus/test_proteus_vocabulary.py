"""Proteus's scenario word ``outcome`` is a thin alias of the contract's ``winners()`` and
``end_code()`` (docs/design.md §2), at every position of random games."""

from __future__ import annotations

import pytest

from support import walk

OUTCOME_WINNERS = {"black-wins": [0], "white-wins": [1], "draw": []}


@pytest.mark.parametrize(
    "spec", ["proteus(max_turns=60)", "proteus(rules=kadon)", "proteus(repetition=forbid)"]
)
@pytest.mark.parametrize("seed", range(6))
def test_outcome_is_winners_and_end_code(spec: str, seed: int) -> None:
    for state in walk(spec, seed):
        outcome = state.outcome  # type: ignore[attr-defined]
        if not state.is_terminal():
            assert outcome == "ongoing" and state.end_code() is None and state.winners() == []
            continue
        assert state.winners() == OUTCOME_WINNERS[outcome]
        assert (state.end_code() == "goal") == (outcome != "draw")
