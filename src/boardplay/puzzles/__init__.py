"""Puzzles: positions where exactly one turn wins or saves the game, mined from finished games
and the engine's own, confirmed by a deeper search, tagged with themes in each game's words
(docs/formats/puzzles.md). A library: the CLI (``boardplay puzzles``) and, later, the web use
it; it imports neither."""

from boardplay.puzzles.mine import Tally, candidates, mine, selfplay
from boardplay.puzzles.puzzle import Puzzle, PuzzleError, find, read_puzzles, verify, write_puzzles
from boardplay.puzzles.themes import THEMES

__all__ = [
    "THEMES",
    "Puzzle",
    "PuzzleError",
    "Tally",
    "candidates",
    "find",
    "mine",
    "read_puzzles",
    "selfplay",
    "verify",
    "write_puzzles",
]
