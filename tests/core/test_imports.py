"""The shape of ``src/boardplay``, as ``make lint`` checks it with ``tools/structure.py`` (these
tests run the same functions; no check lives here): no import cycle between its modules, counting
imports inside functions, imports made only for type checking and the Cython sources' imports,
cimports and includes; no module importing from its own package's ``__init__`` a name that
``__init__`` re-exports from a sibling; no module (``.py``, ``.pyx``, ``.pxd``, ``.pxi``,
``.js``) over 600 lines; no import against the directions of docs/design.md §1
(``tools/directions.py``: a game imports only ``core`` and ``i18n.phrase``, ``core`` no other
part, ``ai`` no interface ...). Then the checker itself, on small made-up packages: it must catch
each kind of cycle, the re-export, a long module and each direction broken, and pass their
mended versions."""

from __future__ import annotations

import shutil
from pathlib import Path

import directions
import pytest
import structure
from fifthgame import FIFTH


def test_src_boardplay_has_no_import_cycle_and_no_long_module() -> None:
    found = structure.problems(structure.PACKAGE)
    assert not found, "\n".join(found)


def test_the_checker_reads_the_cython_sources() -> None:
    """Cimports, includes and Python-level imports of the real ``.pyx``/``.pxd`` files are
    edges of the graph (a checker that read none of them would pass vacuously)."""
    edges = {(i.source, i.target, i.kind) for i in structure.scan(structure.PACKAGE).imports}
    passtally = "boardplay.games.passtally"
    assert {
        (f"{passtally}.kernel", f"{passtally}.layout", "cimport"),
        (f"{passtally}.fields", f"{passtally}.kernel", "cimport"),
        (f"{passtally}.kernel", f"{passtally}.lines.pxi", "include"),
        (f"{passtally}.kernel", f"{passtally}.tables", "import"),
        ("boardplay.ai.search", "boardplay.core.leaf", "cimport"),
    } <= edges


def _tree(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return package


CYCLES = {
    "runtime": {
        "a.py": "from pkg.b import f\n",
        "b.py": "import pkg.a\n",
    },
    "function-local": {
        "a.py": "from pkg import b\n",
        "b.py": "def g():\n    from .a import x\n    return x\n",
    },
    "type-only": {
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
        "b.py": "from pkg.a import A\n",
    },
    "cimport through a .pxd": {
        "k.pyx": "from pkg.r cimport step\n",
        "k.pxd": "cdef struct P:\n    int x\n",
        "r.pxd": "from pkg.k cimport (\n    P,\n)\n",
    },
    "include": {
        "k.pyx": 'include "parts/moves.pxi"\n',
        "parts/moves.pxi": "cimport pkg.k\n",
    },
    "relative cimport": {
        "sub/__init__.py": "",
        "sub/k.pyx": "from ..r cimport step\n",
        "r.pxd": "from pkg.sub.k cimport P\n",
    },
}


@pytest.mark.parametrize("case", sorted(CYCLES))
def test_the_checker_catches_a_cycle(tmp_path: Path, case: str) -> None:
    found = structure.problems(_tree(tmp_path, CYCLES[case]))
    assert len(found) == 1, found
    assert found[0].startswith("import cycle: pkg."), found


def test_the_checker_passes_a_tree_without_cycles(tmp_path: Path) -> None:
    """The passtally shape after issue 31: shared declarations in a .pxd of their own."""
    package = _tree(
        tmp_path,
        {
            "board.pxd": "cdef enum:\n    SIZE = 6\n",
            "k.pyx": "from pkg.board cimport SIZE\nfrom pkg.r cimport step\nimport pkg.t\n",
            "k.pxd": "from pkg.board cimport SIZE\n",
            "r.pxd": (
                '"""The ring,\nfrom pkg.k cimport P no more.\n"""\n'
                "from pkg.board cimport SIZE  # not pkg.k\n"
                "# from pkg.k cimport P\n"
            ),
            "t.py": "def f():\n    import json\n    return json\n",
        },
    )
    assert structure.problems(package) == []
    assert ("pkg.r", "pkg.board") in {(i.source, i.target) for i in structure.scan(package).imports}


def test_the_checker_catches_a_reexport_from_the_own_package(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "sub/__init__.py": "from pkg.sub.one import helper\n\nVALUE = 1\n",
            "sub/one.py": "def helper(): ...\n",
            "sub/two.py": "from pkg.sub import VALUE, helper\n",
        },
    )
    found = structure.problems(package)
    assert len(found) == 1, found
    assert "imports helper from its own package's __init__" in found[0]
    assert "import it from pkg.sub.one" in found[0]


def test_the_checker_catches_a_long_module(tmp_path: Path) -> None:
    package = _tree(
        tmp_path,
        {
            "short.py": "x = 1\n" * structure.LONGEST,
            "static/long.js": "let x = 1;\n" * (structure.LONGEST + 1),
            "long.c": "int x;\n" * 1000,
        },
    )
    found = structure.problems(package)
    long = structure.shown(package / "static" / "long.js")
    assert found == [f"{long}: 601 lines, over 600: split it by job"]


def test_the_command_fails_with_the_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = _tree(tmp_path, CYCLES["runtime"])
    assert structure.main([str(package)]) == 1
    err = capsys.readouterr().err
    assert "import cycle: pkg.a -> pkg.b -> pkg.a" in err
    assert "a.py:1: pkg.a -> pkg.b (import)" in err
    assert structure.main([str(_tree(tmp_path / "fine", {}))]) == 0


# ----- the web tier's domains -----------------------------------------------------------------
def _web(root: Path, files: dict[str, str]) -> Path:
    """A made-up package with a ``web`` package of two domains, ``games`` and ``chat``, its
    wiring (``app``, ``hub`` and the routes of ``api/``) and a module of infrastructure."""
    return _tree(
        root,
        {
            "web/__init__.py": "",
            "web/config.py": "LIMIT = 1\n",
            "web/hub.py": "from pkg.web.chat import send\nfrom pkg.web.games import Room\n",
            "web/app.py": "from pkg.web.api import chat\nfrom pkg.web.hub import send\n",
            "web/api/__init__.py": "",
            "web/api/chat.py": "from pkg.web.chat import send\nfrom pkg.web.games import Room\n",
            "web/games/__init__.py": "from pkg.web.games.rooms import Room\n",
            "web/games/rooms.py": "class Room: ...\n",
            "web/games/store.py": "class RoomStore: ...\nrooms_table = None\n",
            "web/chat/__init__.py": "from pkg.web.chat.relay import send\n",
            "web/chat/relay.py": "def send(): ...\n",
            **files,
        },
    )


def test_a_domain_that_uses_another_through_its_api_passes(tmp_path: Path) -> None:
    package = _web(
        tmp_path,
        {
            "web/chat/relay.py": (
                "from pkg.web.config import LIMIT\n"
                "from pkg.web.games import Room\n"
                "def send(): ...\n"
            )
        },
    )
    assert structure.problems(package) == []


def test_a_domain_that_reaches_into_another_is_caught(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/chat/relay.py": "from pkg.web.games.rooms import Room\n"})
    (found,) = structure.problems(package)
    assert "pkg.web.chat.relay reaches into pkg.web.games.rooms" in found
    assert "import it from pkg.web.games" in found


def test_the_routes_that_reach_into_a_domain_are_caught(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/api/chat.py": "from pkg.web.games.store import RoomStore\n"})
    (found,) = structure.problems(package)
    assert "pkg.web.api.chat reaches into pkg.web.games.store" in found


def test_shared_infrastructure_that_imports_a_domain_is_caught(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/config.py": "from pkg.web.games import Room\n"})
    (found,) = structure.problems(package)
    assert "pkg.web.config, shared infrastructure, imports the domain pkg.web.games" in found


@pytest.mark.parametrize("wiring", ["pkg.web.hub", "pkg.web.api.chat", "pkg.web.app"])
def test_a_domain_that_imports_the_wiring_is_caught(tmp_path: Path, wiring: str) -> None:
    package = _web(tmp_path, {"web/games/rooms.py": f"import {wiring}\nclass Room: ...\n"})
    found = structure.problems(package)
    assert any(
        f"pkg.web.games.rooms, the domain pkg.web.games, imports the wiring ({wiring})" in f
        for f in found
    ), found


def test_shared_infrastructure_that_imports_the_wiring_is_caught(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/config.py": "from pkg.web.hub import send\n"})
    found = structure.problems(package)
    assert any("pkg.web.config, shared infrastructure, imports the wiring" in f for f in found)


@pytest.mark.parametrize("name", ["RoomStore", "rooms_table"])
def test_a_domain_that_hands_out_its_store_or_tables_is_caught(tmp_path: Path, name: str) -> None:
    face = f"from pkg.web.games.rooms import Room\nfrom pkg.web.games.store import {name}\n"
    package = _web(tmp_path, {"web/games/__init__.py": face})
    (found,) = structure.problems(package)
    assert f"pkg.web.games hands out {name} (pkg.web.games.store)" in found


def test_two_domains_that_import_each_other_are_caught(tmp_path: Path) -> None:
    """Through their faces, so no module imports another in a circle: only the domains do."""
    package = _web(
        tmp_path,
        {
            "web/chat/relay.py": "from pkg.web.games import Room\ndef send(): ...\n",
            "web/games/rooms.py": "def f():\n    from pkg.web.chat import send\nclass Room: ...\n",
        },
    )
    found = structure.problems(package)
    assert "pkg.web: the domains pkg.web.chat, pkg.web.games form a loop" in found, found


def test_the_real_web_tier_breaks_when_one_import_skips_an_api(tmp_path: Path) -> None:
    """The removal case on the real code: the game socket's import of the chat through its API,
    rewritten to reach into the chat's module, is named; the code as it is passes."""
    copy = tmp_path / "boardplay"
    shutil.copytree(
        structure.PACKAGE,
        copy,
        ignore=lambda _d, names: [
            n for n in names if "." in n and not n.endswith((".py", ".pyx", ".pxd", ".pxi"))
        ],
    )
    assert structure.domain_problems(structure.scan(copy)) == []
    live = copy / "web" / "table" / "live.py"
    text = live.read_text("utf-8")
    api = "from boardplay.web.chat import SPECTATORS, ChatRelay, post"
    assert api in text
    live.write_text(text.replace(api, "from boardplay.web.chat.service import ChatRelay, post"))
    found = structure.domain_problems(structure.scan(copy))
    assert any(
        "boardplay.web.table.live reaches into boardplay.web.chat.service" in f for f in found
    )


REAL_REMOVALS = {
    "a domain imports the hub": (
        "lobby/seeks.py",
        "from boardplay.web.hub import Hub\n",
        "boardplay.web.lobby.seeks, the domain boardplay.web.lobby, imports the wiring",
    ),
    "a domain imports the routes' dependencies": (
        "table/live.py",
        "from boardplay.web.api.deps import HubDep\n",
        "boardplay.web.table.live, the domain boardplay.web.table, imports the wiring",
    ),
    "a package hands out its store": (
        "accounts/__init__.py",
        "from boardplay.web.accounts.store import AccountStore\n",
        "boardplay.web.accounts hands out AccountStore",
    ),
    "a package hands out its table": (
        "tournaments/__init__.py",
        "from boardplay.web.tournaments.schema import entrants_table\n",
        "boardplay.web.tournaments hands out entrants_table",
    ),
    "two domains import each other": (
        "accounts/service.py",
        "from boardplay.web.table import Room\n",
        "form a loop",
    ),
}


@pytest.mark.parametrize("case", sorted(REAL_REMOVALS))
def test_the_real_web_tier_breaks_when_a_wall_is_removed(tmp_path: Path, case: str) -> None:
    """Each wall's removal case on the real code: one import added that breaks it is named
    (the code as it is passes: ``test_src_boardplay_has_no_import_cycle_and_no_long_module``)."""
    module, line, message = REAL_REMOVALS[case]
    copy = tmp_path / "boardplay"
    shutil.copytree(
        structure.PACKAGE,
        copy,
        ignore=lambda _d, names: [
            n for n in names if "." in n and not n.endswith((".py", ".pyx", ".pxd", ".pxi"))
        ],
    )
    path = copy / "web" / module
    text = path.read_text("utf-8")
    head, _, rest = text.partition("from __future__ import annotations\n")
    path.write_text(f"{head}from __future__ import annotations\n{line}{rest}", "utf-8")
    found = structure.domain_problems(structure.scan(copy))
    assert any(message in f for f in found), found


# ----- the directions of docs/design.md §1 (tools/directions.py) -------------------------------
def _sources_only(_folder: str, names: list[str]) -> list[str]:
    """``shutil.copytree``'s ignore: a package's Python and Cython sources are what is checked."""
    return [n for n in names if "." in n and not n.endswith((".py", ".pyx", ".pxd", ".pxi"))]


def _layered(root: Path, files: dict[str, str]) -> Path:
    """A made-up package laid out as boardplay is: the package's face, ``core`` (with its
    registry), ``i18n``, two games, ``ai`` (with a shipped game's evaluation), the interfaces,
    every import running down as design §1 draws them; ``files`` adds or replaces modules."""
    return _tree(
        root,
        {
            "__init__.py": "from pkg.core import load\n",
            "core/__init__.py": "from pkg.core.game import load\n",
            "core/game.py": "def load(): ...\n",
            "core/kernel.pxd": "cdef class Kernel:\n    pass\n",
            "core/registry.py": "import pkg.games\nfrom pkg.core.game import load\n",
            "i18n/__init__.py": "from pkg.core import load\n",
            "i18n/phrase.py": "def say(): ...\n",
            "games/__init__.py": "",
            "games/dice/__init__.py": "GAME = 'pkg.games.dice.game:Dice'\n",
            "games/dice/game.py": (
                "from pkg.core.game import load\nfrom pkg.i18n.phrase import say\n"
            ),
            "games/dice/kernel.pyx": "from pkg.core.kernel cimport Kernel\n",
            "games/race/__init__.py": "GAME = 'pkg.games.race.game:Race'\n",
            "games/race/game.py": "from pkg.core import load\n",
            "ai/__init__.py": "",
            "ai/agents.py": "from pkg.core.game import load\n",
            "ai/evaluation/__init__.py": "",
            "ai/evaluation/dice.py": "from pkg.games.dice import game\n",
            "adapters/__init__.py": "",
            "adapters/gym.py": "from pkg.ai import agents\nfrom pkg.core.game import load\n",
            "web/__init__.py": "",
            "web/app.py": "from pkg.ai import agents\nfrom pkg.i18n import phrase\n",
            "cli/__init__.py": "",
            "cli/main.py": (
                "from pkg import load\nfrom pkg.web import app\nfrom pkg.adapters import gym\n"
            ),
            **files,
        },
    )


def test_a_package_whose_imports_run_down_passes(tmp_path: Path) -> None:
    assert structure.problems(_layered(tmp_path, {})) == []


UPWARD = {
    # a game package never imports from web, cli, ai or adapters, nor another game
    "a game imports ai": ("games/dice/evaluation.py", "from pkg.ai.agents import load\n"),
    "a game cimports ai": ("games/dice/leaf.pyx", "from pkg.ai.evaluation cimport Leaf\n"),
    "a game imports web": ("games/dice/describe.py", "import pkg.web.app\n"),
    "a game imports cli": ("games/dice/game.py", "def f():\n    from pkg.cli import main\n"),
    "a game imports adapters": ("games/race/game.py", "from pkg.adapters.gym import load\n"),
    "a game imports more of i18n than its phrases": ("games/dice/game.py", "import pkg.i18n\n"),
    # core never imports ai, an interface, or a game
    "core imports ai": ("core/records.py", "from pkg.ai import agents\n"),
    "core imports web": (
        "core/records.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.web import app\n",
    ),
    "core imports cli": ("core/options.py", "import pkg.cli.main\n"),
    "core imports adapters": ("core/playout.py", "from pkg.adapters import gym\n"),
    "core imports a game": ("core/registry.py", "from pkg.games.dice.game import Dice\n"),
    "core imports i18n": ("core/game.py", "from pkg.i18n.phrase import say\n"),
    # ai never imports web, cli or adapters, and only its evaluations read a game
    "ai imports web": ("ai/review.py", "from pkg.web.app import agents\n"),
    "ai imports cli": ("ai/agents.py", "import pkg.cli\n"),
    "ai imports adapters": ("ai/bench.py", "def f():\n    from pkg.adapters import gym\n"),
    "ai's search imports a game": ("ai/search.pyx", "from pkg.games.dice.kernel cimport K\n"),
    # the interfaces reach a game through the registry, and never the one above them
    "web imports a game": ("web/app.py", "from pkg.games.dice.game import Dice\n"),
    "web imports cli": ("web/routes.py", "from pkg.cli.main import load\n"),
    "adapters import web": ("adapters/gym.py", "from pkg.web import app\n"),
    "cli imports a game": ("cli/main.py", "from pkg.games.race import game\n"),
    "i18n imports ai": ("i18n/phrase.py", "from pkg.ai import agents\n"),
    "the package's face imports ai": ("__init__.py", "from pkg.ai.agents import load\n"),
}


@pytest.mark.parametrize("case", sorted(UPWARD))
def test_the_checker_catches_an_import_against_the_directions(tmp_path: Path, case: str) -> None:
    name, text = UPWARD[case]
    (found,) = structure.problems(_layered(tmp_path, {name: text}))
    source = "pkg" if name == "__init__.py" else "pkg." + name.rpartition(".")[0].replace("/", ".")
    assert found.startswith(f"{structure.shown(tmp_path / 'pkg' / name)}:"), found
    assert f": {source} imports pkg." in found, found
    assert "only" in found or "no other part" in found, found
    assert found.endswith("(docs/design.md §1)"), found


def test_the_checker_names_what_a_part_may_import(tmp_path: Path) -> None:
    (found,) = structure.problems(_layered(tmp_path, dict([UPWARD["a game imports ai"]])))
    assert (
        "pkg.games.dice.evaluation imports pkg.ai.agents (import): games may import only core,"
        " i18n.phrase (docs/design.md §1)"
    ) in found
    (found,) = structure.problems(_layered(tmp_path / "core", dict([UPWARD["core imports ai"]])))
    assert "pkg.core.records imports pkg.ai.agents (import): core imports no other part" in found


def test_the_checker_catches_a_game_that_imports_another(tmp_path: Path) -> None:
    package = _layered(tmp_path, {"games/race/game.py": "from pkg.games.dice import game\n"})
    (found,) = structure.problems(package)
    assert "pkg.games.race.game imports pkg.games.dice" in found
    assert "a game never imports another game" in found


def test_the_registry_alone_may_read_the_games_package(tmp_path: Path) -> None:
    """The named exception: ``core.registry`` imports the games package (its ``__path__``), no
    game; another module of ``core`` doing the same is caught."""
    assert structure.problems(_layered(tmp_path, {})) == []
    package = _layered(tmp_path / "other", {"core/game.py": "import pkg.games\n"})
    (found,) = structure.problems(package)
    assert "pkg.core.game imports pkg.games (import): core imports no other part" in found


def test_every_part_of_the_package_has_a_direction() -> None:
    """A new top-level part of ``src/boardplay`` takes its place in design §1's picture (and in
    ``directions.LAYERS``) instead of escaping every rule."""
    package = structure.PACKAGE
    parts = {p.parent.name for p in package.glob("*/__init__.py")}
    parts |= {p.stem for p in package.glob("*.py")}
    assert "__init__" in parts and "games" in parts
    assert parts <= set(directions.LAYERS), parts - set(directions.LAYERS)


def test_the_laid_out_fifth_game_breaks_when_its_evaluation_imports_the_ai(
    tmp_path: Path,
) -> None:
    """The toy fifth game copied where a contributor puts a new game (``games/race``, in a copy of
    the package): its folder, evaluation included, imports only ``core`` and passes; the same
    evaluation importing ``Heuristics`` from the AI, as it did, is named."""
    copy = tmp_path / "boardplay"
    shutil.copytree(structure.PACKAGE, copy, ignore=_sources_only)
    shutil.copytree(FIFTH / "games" / "race", copy / "games" / "race", ignore=_sources_only)
    assert structure.problems(copy) == []
    evaluation = copy / "games" / "race" / "evaluation.py"
    text = evaluation.read_text("utf-8")
    assert "from boardplay.core.heuristics import Heuristics" in text
    evaluation.write_text(text.replace("boardplay.core.heuristics", "boardplay.ai.evaluation"))
    (found,) = structure.problems(copy)
    assert "boardplay.games.race.evaluation imports boardplay.ai.evaluation (import)" in found
    assert "games may import only core, i18n.phrase" in found
