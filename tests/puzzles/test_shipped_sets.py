"""The shipped puzzle sets (boardplay/web/puzzles/data): every game's set is read by the site's
loader, every puzzle in it passed its shipping check (a search many times deeper than the one
that mined it), and under ``make soak`` every puzzle is confirmed again by an independent search
as deep as that check, from a seed of its own."""

from __future__ import annotations

from collections import Counter

import pytest

from boardplay.core.registry import available
from boardplay.puzzles import Puzzle, verify
from boardplay.puzzles.puzzle import DEPTH, VERIFY_SEED
from boardplay.web.puzzles.sets import shipped

SHIPPING_DEPTH = {"potlatch": 16 * DEPTH, "proteus": 16 * DEPTH, "montana": 16 * DEPTH}
"""How much deeper than mining each set's shipping check searched (docs/web.md, "Puzzles"): 64
times, where each doubling up to there still turned up turns that win too (Montana: 58 of 69
passed at 16 times, 49 of those at 64); Passtally's, four times mining's verification (16
times): its puzzles are decided in the game's last turn, where a deeper search has little to
find, and 64 times costs about a minute a puzzle."""
SOAK_OFFSET = 3 * VERIFY_SEED
"""The soak check's seed offset: not the shipping check's (2 × ``VERIFY_SEED``), so its searches
are not the ones the sets were chosen by."""

PUZZLES = [Puzzle.from_json(data) for data in shipped(available())]


SIZES = {"potlatch": 300, "proteus": 300, "passtally": 100, "montana": 100}
"""The least each game ships (issue 64): turn puzzles are rarer in the two games of several
actions a turn, where many turns win alike."""


def test_the_sets_are_read_with_their_answer_groups() -> None:
    """Every game ships its set, at least its size, and an answer group always holds its
    solution."""
    counts = Counter(puzzle.game for puzzle in PUZZLES)
    assert set(counts) == set(available()) == set(SIZES)
    assert all(counts[game] >= size for game, size in SIZES.items()), counts
    assert any(len(puzzle.answer_turns()) > 1 for puzzle in PUZZLES)
    for puzzle in PUZZLES:
        assert puzzle.solution in puzzle.answer_turns(), puzzle.id


def test_every_shipped_puzzle_passed_its_shipping_check() -> None:
    for puzzle in PUZZLES:
        check = puzzle.verified or {}
        depth = SHIPPING_DEPTH.get(puzzle.game, 4 * DEPTH)
        assert check.get("ok") and check["iterations"] == depth * puzzle.iterations, puzzle.id
        assert check["seed"] == puzzle.seed + 2 * VERIFY_SEED, puzzle.id


@pytest.mark.soak
@pytest.mark.parametrize("puzzle", PUZZLES, ids=[puzzle.id for puzzle in PUZZLES])
def test_a_shipped_puzzle_holds_at_its_shipping_depth_from_another_seed(puzzle: Puzzle) -> None:
    depth = SHIPPING_DEPTH.get(puzzle.game, 4 * DEPTH)
    check = verify(puzzle, depth=depth, offset=SOAK_OFFSET)
    assert check["ok"], check
