"""The shipped puzzle sets (boardplay/web/puzzles/data): every game's set is read by the site's
loader, and under ``make soak`` every puzzle of every set is confirmed again by an independent
search, deeper than the one that verified it when it was mined and from another seed."""

from __future__ import annotations

import pytest

from boardplay.core.registry import available
from boardplay.puzzles import Puzzle, verify
from boardplay.puzzles.puzzle import DEPTH, VERIFY_SEED
from boardplay.web.puzzles.sets import shipped

SOAK_DEPTH = 2 * DEPTH
"""The soak check searches twice as deep as the mining run's verification ..."""
SOAK_OFFSET = 2 * VERIFY_SEED
"""... from a seed of its own."""

PUZZLES = [Puzzle.from_json(data) for data in shipped(available())]


def test_the_sets_are_read_with_their_answer_groups() -> None:
    """Montana's set is picked up beside the first two (Passtally's mining finds none yet:
    docs/formats/puzzles.md), and an answer group always holds its solution."""
    games = {puzzle.game for puzzle in PUZZLES}
    assert {"proteus", "potlatch", "montana"} <= games
    assert any(len(puzzle.answer_turns()) > 1 for puzzle in PUZZLES)
    for puzzle in PUZZLES:
        assert puzzle.solution in puzzle.answer_turns(), puzzle.id


@pytest.mark.soak
@pytest.mark.parametrize("puzzle", PUZZLES, ids=[puzzle.id for puzzle in PUZZLES])
def test_a_shipped_puzzle_holds_at_a_deeper_search(puzzle: Puzzle) -> None:
    check = verify(puzzle, depth=SOAK_DEPTH, offset=SOAK_OFFSET)
    assert check["ok"], check
