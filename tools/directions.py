"""The directions of docs/design.md §1, as ``tools/structure.py`` checks them: which part of the
package may import which. Calls run downwards and imports follow them:

- a game (``games/<game>/``) imports only ``core`` and ``i18n.phrase`` (the words of its
  ``describe`` and ``ending``): never ``ai``, ``web``, ``cli``, ``adapters``, nor another game;
- ``core`` imports no other part: it reaches a game only through the registry's
  ``"module:Class"`` strings (one named exception, ``EXCEPTIONS``);
- ``i18n`` imports only ``core``;
- ``ai`` imports only ``core``, never an interface (``web``, ``cli``, ``adapters``); a shipped
  game's evaluation (``ai/evaluation/``) may also read that game's feature indices;
- ``adapters`` import ``ai`` and ``core``; ``web`` imports ``ai``, ``core`` and ``i18n``;
- ``cli``, the top, may import every part but a game, and the package's ``__init__`` re-exports
  ``core``.

Every import counts, as for the cycles: at module level, inside a function, under
``if TYPE_CHECKING:``, and the Cython sources' imports, cimports and includes. A part no rule
names is not held to one. The rules name parts by their path below the checked package, so they
hold for any package laid out the same way (the tests build small made-up ones)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from structure import Import, Tree

FACE = "__init__"
"""The package's own ``__init__``, as the rules name it."""

LAYERS: dict[str, tuple[str, ...]] = {
    FACE: ("core",),
    "core": (),
    "games": ("core", "i18n.phrase"),
    "i18n": ("core",),
    "ai": ("core",),
    "ai.evaluation": ("core", "games"),
    "adapters": ("core", "ai"),
    "puzzles": ("core", "ai"),
    "puzzles.themes": ("core", "ai", "games"),
    "web": ("core", "ai", "i18n", "puzzles"),
    "cli": (FACE, "core", "ai", "i18n", "adapters", "puzzles", "web"),
}
"""A part (a dotted path below the package; the longest that holds a module decides) -> the
other parts it may import (each with everything below it). A part always imports itself."""

GAMES = "games"
"""The part whose every subpackage is a game of its own, which imports no other game."""

EXCEPTIONS: dict[tuple[str, str], str] = {
    ("core.registry", GAMES): (
        "the registry lists the game folders from the games package's __path__; that"
        " package's __init__ holds no game, and a game is loaded by its 'module:Class' string"
    ),
}
"""Imports allowed against ``LAYERS``, (importer, imported) exactly, each with its reason."""


def _below(root: str, module: str) -> str:
    """``root.a.b`` -> ``a.b``; the package itself -> ``FACE``."""
    return FACE if module == root else module.removeprefix(root + ".")


def _within(name: str, part: str) -> bool:
    return name == part or name.startswith(part + ".")


def rule_of(name: str) -> str | None:
    """The part of ``LAYERS`` whose rule holds ``name`` (a path below the package): the longest
    that contains it; None: no rule names it."""
    parts = [part for part in LAYERS if _within(name, part)]
    return max(parts, key=len) if parts else None


def _game_of(name: str) -> str | None:
    """``games.<game>...`` -> ``games.<game>``; anything else (the games package itself too)
    -> None."""
    pieces = name.split(".")
    return ".".join(pieces[:2]) if pieces[0] == GAMES and len(pieces) > 1 else None


def _allowed(source: str, target: str) -> bool:
    if source.split(".")[0] == target.split(".")[0] or (source, target) in EXCEPTIONS:
        return True
    rule = rule_of(source)
    return rule is None or any(_within(target, part) for part in LAYERS[rule])


def direction_problems(tree: Tree, where: Callable[[Import], str]) -> list[str]:
    """Imports against design §1's directions: one part importing a part above it or beside it
    that its rule does not name, and a game importing another game."""
    root = tree.root.name
    problems = []
    for imp in sorted(tree.imports, key=lambda i: (str(i.path), i.line)):
        source, target = _below(root, imp.source), _below(root, imp.target)
        mine, theirs = _game_of(source), _game_of(target)
        if mine and theirs and mine != theirs:
            problems.append(
                f"{where(imp)}: {imp.source} imports {imp.target} ({imp.kind}): a game never"
                f" imports another game (docs/design.md §1)"
            )
        elif not _allowed(source, target):
            rule = rule_of(source)
            assert rule is not None
            named = ", ".join(LAYERS[rule])
            allowed = f"may import only {named}" if named else "imports no other part"
            problems.append(
                f"{where(imp)}: {imp.source} imports {imp.target} ({imp.kind}): {rule}"
                f" {allowed} (docs/design.md §1)"
            )
    return problems
