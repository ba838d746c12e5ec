"""The shipped puzzle sets: ``data/<game>.jsonl`` beside this module, mined and verified by
``boardplay puzzles mine`` (docs/formats/puzzles.md; the commands that made them are in
docs/web.md, "Puzzles"). They are package data, so an installed wheel has them; no request
names a file.

A set is read whole at start and loaded into the database by puzzle id (``PuzzleStore.
add_missing``): a puzzle already there keeps its rating, a new one in a newer set is added. Only
puzzles whose deeper check passed (``verified.ok``) are offered."""

from __future__ import annotations

import functools
import json
import logging
from importlib import resources
from typing import Any

from boardplay.puzzles import Puzzle, PuzzleError

log = logging.getLogger("boardplay.web")

DATA = "data"
"""The folder of the sets, inside this package."""


def shipped(games: list[str]) -> list[dict[str, Any]]:
    """The verified puzzles of the shipped sets of ``games`` (a game without a set has none),
    as their files hold them. The caller must not change them: each game's set is read once
    per process (``_game_set``)."""
    return [puzzle for game in games for puzzle in _game_set(game)]


@functools.cache
def _game_set(game: str) -> tuple[dict[str, Any], ...]:
    """One game's verified puzzles, read and checked once per process: every start of the web
    app looks for missing puzzles (``PuzzleStore.add_missing``), and a process may start more
    than one app (the test suite starts hundreds, 70 ms of parsing each)."""
    entry = resources.files(__package__ or __name__).joinpath(DATA, f"{game}.jsonl")
    if not entry.is_file():
        return ()
    found: list[dict[str, Any]] = []
    for number, line in enumerate(entry.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            puzzle = Puzzle.from_json(data)
        except (json.JSONDecodeError, PuzzleError) as exc:
            log.error("puzzle set %s, line %d is skipped: %s", game, number, exc)
            continue
        if puzzle.game != game or not (puzzle.verified or {}).get("ok"):
            continue
        found.append({**data, "id": puzzle.id})
    return tuple(found)
