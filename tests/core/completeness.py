"""What a game must provide beyond its rules, checked piece by piece (docs/contributing.md,
"Adding a game", is the same list). Each piece is declared on the game's ``Game`` class or
exported by a file the game brings; ``missing`` names every piece a game lacks, so a test fails
where a part of boardplay would otherwise fall back silently (the Python search for a game
without an evaluation in C, an undrawable board, a draw that cannot be agreed, the generic
lobby card)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from boardplay.ai.evaluation import Heuristics
from boardplay.ai.evaluation.compiled import LeafEvaluation
from boardplay.core.game import Game
from boardplay.core.registry import find

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "boardplay" / "web" / "static"
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"
DOC_NAMES = {"potlatch": "potlatch-klone"}
"""Rules pages named by the game's full title rather than its short name."""
BOARD_EXPORTS = {
    "draw": r"^export function draw\(",
    "miniature": r"^export function miniature\(",
    "about": r"^export const about = \{ minutes: \[\d+, \d+\], order: \d+ \};",
    "tutorial": r"^export const tutorial = \{ (steps: \d+|byStage: true, turn: \w+, step: \w+) \};",
}
"""What every game's board module exports for the pages (``boards/load.js``); no page names a
game."""
COLOUR = re.compile(r"^#[0-9a-f]{6}$")


def declared(cls: type[Game], attribute: str) -> bool:
    """Whether a class below ``Game`` sets ``attribute`` (a default on ``Game`` does not count)."""
    return any(attribute in vars(k) for k in cls.__mro__ if k is not Game and issubclass(k, Game))


def _class_pieces(cls: type[Game]) -> list[str]:
    missing = []
    for attribute in ("name", "title", "option_set", "num_distinct_actions", "can_draw"):
        if not declared(cls, attribute):
            missing.append(f"Game.{attribute}")
    if declared(cls, "can_draw") and not isinstance(cls.can_draw, bool):
        missing.append("Game.can_draw (a bool)")
    if len(cls.seat_colours) < cls.max_players:
        missing.append("Game.seat_colours (one per seat)")
    if cls.seat_names and len(cls.seat_names) < cls.max_players:  # none: "Player 1", ...
        missing.append("Game.seat_names (one per seat)")
    if not all(COLOUR.match(c) for c in cls.seat_colours):
        missing.append("Game.seat_colours (as #rrggbb)")
    if not cls.levels:
        missing.append("Game.levels")
    if not cls.describer:
        missing.append("Game.describer")
    if not cls.end_describer:  # else the end of a game says only its kind, marks nothing
        missing.append("Game.end_describer")
    heuristics = find(cls.heuristics) if cls.heuristics else None
    if not isinstance(heuristics, Heuristics):
        missing.append("Game.heuristics")
    elif heuristics.compiled is None:
        missing.append("Heuristics.compiled")
    elif not issubclass(find(heuristics.compiled), LeafEvaluation):
        missing.append("Heuristics.compiled (a LeafEvaluation)")
    package = resources.files(cls.__module__.rpartition(".")[0])
    for rules in (cls.rules_file, cls.rules_file.replace(".md", ".ja.md")):
        if not package.joinpath(rules).is_file():
            missing.append(f"{rules} in the game's package")
    return missing


def _web_pieces(name: str, static: Path) -> list[str]:
    missing = []
    board = static / "boards" / f"{name}.js"
    text = board.read_text() if board.is_file() else ""
    for export, pattern in BOARD_EXPORTS.items():
        if not re.search(pattern, text, re.M):
            missing.append(f"boards/{name}.js exporting {export}")
    tables = {
        "strings-games.js about.*": (static / "strings-games.js", rf'"about\.{name}\.'),
        "strings-games.js tutorial.*": (static / "strings-games.js", rf'"tutorial\.{name}\.'),
    }
    for piece, (path, pattern) in tables.items():
        if not path.is_file() or not re.search(pattern, path.read_text(), re.M):
            missing.append(piece)
    return missing


def _doc_pieces(name: str, docs: Path, tests: Path) -> list[str]:
    page = DOC_NAMES.get(name, name)
    wanted = [
        docs / "rules" / f"{page}.md",
        docs / "rules" / f"{page}.ja.md",
        docs / "formats" / f"{name}.md",
        tests / "games" / name / "golden.json",
    ]
    return [f"{p.parent.parent.name}/{p.parent.name}/{p.name}" for p in wanted if not p.is_file()]


def missing(
    cls: type[Game], static: Path = STATIC, docs: Path = DOCS, tests: Path = TESTS
) -> list[str]:
    """Every piece ``cls`` lacks (empty: the game is complete)."""
    return [
        *_class_pieces(cls),
        *_web_pieces(cls.name, static),
        *_doc_pieces(cls.name, docs, tests),
    ]
