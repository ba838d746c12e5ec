"""What a game must provide beyond its rules, checked piece by piece (docs/contributing.md,
"Adding a game", is the same list). Each piece is declared on the game's ``Game`` class, kept in
its folder, exported by its board module (``boards/<game>.js``) or written in its docs;
``missing`` names every piece a game lacks (a missing word by its key), so a test fails where a
part of boardplay would otherwise fall back silently (the Python search for a game with a kernel
but no evaluation in C, an undrawable board, a draw that cannot be agreed, the generic lobby
card, a title left in English in every language, a walk-through showing its keys)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from babel.messages.pofile import read_po

from boardplay.ai import MCTSAgent
from boardplay.ai.az import AZAgent
from boardplay.ai.specs import LEVEL_NAMES, make_agent
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.heuristics import Heuristics
from boardplay.core.leaf import LeafEvaluation
from boardplay.core.registry import find
from boardplay.i18n import LANGUAGES
from boardplay.i18n.webtable import read_table

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "boardplay" / "web" / "static"
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"
EXPERT = re.compile(r"^<!-- expert: (.+?) -->\n(.*?)^<!-- /expert -->\n", re.M | re.S)
"""The experts' fold of the player rules: option names, notation and engine notes, folded under
its title (``markdown.js``), in one block that closes the text."""
BOARD_EXPORTS = {
    "draw": r"^export function draw\(",
    "miniature": r"^export function miniature\(",
    "about": r"^export const about = \{ minutes: \[\d+, \d+\], order: \d+ \};",
    "tutorial": (
        r"^export const tutorial = \{ "
        r"(steps: (?P<steps>\d+)|byStage: true, turn: \w+, step: \w+)[^;]*\};"
    ),
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
    elif not _levels_are_capped_searches(cls):
        missing.append("Game.levels (each a search with an iteration cap, hard and expert timed)")
    if not cls.describer:
        missing.append("Game.describer")
    if not cls.end_describer:  # else the end of a game says only its kind, marks nothing
        missing.append("Game.end_describer")
    heuristics = find(cls.heuristics) if cls.heuristics else None
    if not isinstance(heuristics, Heuristics):
        missing.append("Game.heuristics")
    elif heuristics.compiled is None:
        if _has_kernel(cls):  # else the Python search is the only one that can play it
            missing.append("Heuristics.compiled")
    elif not issubclass(find(heuristics.compiled), LeafEvaluation):
        missing.append("Heuristics.compiled (a LeafEvaluation)")
    package = resources.files(cls.__module__.rpartition(".")[0])
    for rules in (cls.rules_file, cls.rules_file.replace(".md", ".ja.md")):
        if not package.joinpath(rules).is_file():
            missing.append(f"{rules} in the game's package")
            continue
        text = package.joinpath(rules).read_text("utf-8")
        if len(EXPERT.findall(text)) != 1 or not text.rstrip().endswith("<!-- /expert -->"):
            missing.append(f"{rules} ending in one experts' fold (<!-- expert: … -->)")
    if not package.joinpath("terms.ja.txt").is_file():
        missing.append("terms.ja.txt in the game's package (its Japanese key terms)")
    for catalogue in (
        "locale/web.pot",
        *(f"locale/{lang}/LC_MESSAGES/web.po" for lang in LANGUAGES),
    ):
        if not package.joinpath(catalogue).is_file():  # its words, in the site's web catalogue
            missing.append(f"{catalogue} in the game's package (make i18n)")
    japanese = package.joinpath("locale/ja/LC_MESSAGES/web.po")
    if japanese.is_file():
        with japanese.open("rb") as handle:
            untranslated = [m for m in read_po(handle) if m.id and (m.fuzzy or not m.string)]
        if untranslated:
            missing.append(f"the Japanese of {len(untranslated)} of its words (locale/ja/…/web.po)")
    return missing


def _levels_are_capped_searches(cls: type[Game]) -> bool:
    """Whether every level (``LEVEL_NAMES``) is a search (``mcts``, or ``az`` with a shipped
    network) with an iteration cap, so it plays the same wherever the cap is reached first;
    hard and expert also think for at most a time (expert 2 s a move), and no level's budget is
    below the one under it (docs/ai.md)."""
    levels = cls.levels or {}
    if set(levels) != set(LEVEL_NAMES):
        return False
    try:
        agents = [make_agent(levels[level], cls(), 0) for level in LEVEL_NAMES]
    except OptionError:  # a level that cannot be made, e.g. az(mix=...) with no evaluation in C
        return False
    if not all(isinstance(a, (MCTSAgent, AZAgent)) and a.iterations for a in agents):
        return False
    budgets = [(a.time_limit or 0.0, a.iterations) for a in agents]
    return budgets == sorted(budgets) and budgets[2][0] > 0 and budgets[-1][0] <= 2.0


def _has_kernel(cls: type[Game]) -> bool:
    """Whether the game's rules are compiled, so the compiled search could run them."""
    return cls().new_initial_state().kernel is not None


def _web_pieces(name: str, static: Path) -> list[str]:
    missing = []
    board = static / "boards" / f"{name}.js"
    text = board.read_text() if board.is_file() else ""
    found = {export: re.search(p, text, re.M) for export, p in BOARD_EXPORTS.items()}
    missing += [f"boards/{name}.js exporting {export}" for export, hit in found.items() if not hit]
    # The game's words: its board module's EN table (boards/load.js adds it to the page's words).
    words = {key for _, key, _ in read_table(text, required=False)}
    steps = found["tutorial"] and found["tutorial"]["steps"]
    wanted = [
        f"title.{name}",
        f"about.{name}.line",
        *(f"tutorial.{name}.{n + 1}" for n in range(int(steps or 0))),
    ]
    missing += [f"the words {key}" for key in wanted if key not in words]
    if not steps and not any(key.startswith(f"tutorial.{name}.") for key in words):
        missing.append(f"the words tutorial.{name}.*")
    return missing


def _doc_pieces(cls: type[Game], docs: Path, tests: Path) -> list[str]:
    name = cls.name
    wanted = [
        docs / "rules" / f"{name}.md",
        docs / "rules" / f"{name}.ja.md",
        docs / "formats" / f"{name}.md",
        tests / "games" / name / "golden.json",
    ]
    missing = [
        f"{p.parent.parent.name}/{p.parent.name}/{p.name}" for p in wanted if not p.is_file()
    ]
    package = resources.files(cls.__module__.rpartition(".")[0])
    shipped_rules = (cls.rules_file, cls.rules_file.replace(".md", ".ja.md"))
    for page, rules in zip(wanted[:2], shipped_rules, strict=True):
        shipped = package.joinpath(rules)
        if page.is_file() and shipped.is_file() and page.read_text() != shipped.read_text():
            missing.append(f"docs/rules/{page.name} the same as the game's {rules}")
    return missing


def missing(
    cls: type[Game], static: Path = STATIC, docs: Path = DOCS, tests: Path = TESTS
) -> list[str]:
    """Every piece ``cls`` lacks (empty: the game is complete)."""
    return [
        *_class_pieces(cls),
        *_web_pieces(cls.name, static),
        *_doc_pieces(cls, docs, tests),
    ]
