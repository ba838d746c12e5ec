"""The toy fifth game, Race to ten, as a new game arrives: ``tests/core/fifth`` holds exactly
what it adds to boardplay (laid out as in the repository): its folder (``games/race``: the
declaration in ``__init__``, the rules and facade, the AI's evaluation, the move and end words,
the rules text in two languages), its board module (``static/boards/race.js``, carrying its own
words), its docs (``docs/rules``, ``docs/formats``) and its frozen trajectories
(``tests/games/race/golden.json``). ``arrived`` puts the folder where boardplay finds games
(``boardplay.games.__path__``), as a folder under ``src/boardplay/games`` is; nothing else in
boardplay changes."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import boardplay.games

FIFTH = Path(__file__).parent / "fifth"
"""The fifth game's files, in the repository's layout."""
ROOT = Path(__file__).resolve().parents[2]
"""The checkout."""
PLACES = {
    "games": Path("src/boardplay/games"),
    "static": Path("src/boardplay/web/static"),
    "docs": Path("docs"),
    "tests": Path("tests"),
}
"""Where each folder of ``tests/core/fifth`` lies in the repository."""


def _forget() -> None:
    """Drop the fifth game's modules, so the next import reads them from wherever it is now."""
    for module in [m for m in sys.modules if m.split(".")[:3] == ["boardplay", "games", "race"]]:
        del sys.modules[module]


@contextmanager
def arrived(root: Path = FIFTH) -> Iterator[Path]:
    """The fifth game found from ``root/games`` while the block runs (then gone again)."""
    path = boardplay.games.__path__
    entry = str(root / "games")
    _forget()
    path.append(entry)
    try:
        yield root
    finally:
        path.remove(entry)
        _forget()


def laid_out(tree: Path) -> Path:
    """A copy of the checkout at ``tree`` with the fifth game copied in where a new game's files
    go (``PLACES``), as a contributor adds them: the package (with its compiled kernels, so
    nothing is built), the tests, the tools, the docs the tests read and the build and
    extraction settings. Nothing else is touched. Import ``boardplay`` from ``tree/src``
    (``PYTHONPATH``) to play in it; the fifth game is then one of ``boardplay.available()``."""
    skip = shutil.ignore_patterns("__pycache__", "*.c", "*.html", "dist", ".dist-*")
    for folder in ("src", "tests", "tools", "docs/rules", "docs/formats"):
        shutil.copytree(ROOT / folder, tree / folder, ignore=skip, symlinks=True)
    for name in ("pyproject.toml", "babel.cfg", "babel-web.cfg"):
        shutil.copy(ROOT / name, tree / name)
    for part, place in PLACES.items():  # the docs' links to the rules copied as what they show
        shutil.copytree(FIFTH / part, tree / place, ignore=skip, dirs_exist_ok=True)
    return tree
