"""Puzzles: positions where exactly one turn wins or saves the game, mined from finished games
and the engine's own, confirmed by a deeper search, tagged with themes in each game's words
(docs/formats/puzzles.md), and the rule of solving one move by move (``solve.py``). A library:
the CLI (``boardplay puzzles``) and the web (``boardplay.web.puzzles``) use it; it imports
neither."""

from boardplay.puzzles.mine import Tally, candidates, mine, selfplay
from boardplay.puzzles.puzzle import Puzzle, PuzzleError, find, read_puzzles, verify, write_puzzles
from boardplay.puzzles.solve import RIGHT, SOLVED, WRONG, Solving, Step
from boardplay.puzzles.themes import THEMES

__all__ = [
    "RIGHT",
    "SOLVED",
    "THEMES",
    "WRONG",
    "Puzzle",
    "PuzzleError",
    "Solving",
    "Step",
    "Tally",
    "candidates",
    "find",
    "mine",
    "read_puzzles",
    "selfplay",
    "verify",
    "write_puzzles",
]
