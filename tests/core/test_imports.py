"""The shape of ``src/boardplay``, as ``make lint`` checks it with ``tools/structure.py`` (these
tests run the same functions; no check lives here): no import cycle between its modules, counting
imports inside functions, imports made only for type checking and the Cython sources' imports,
cimports and includes; no module importing from its own package's ``__init__`` a name that
``__init__`` re-exports from a sibling; no module (``.py``, ``.pyx``, ``.pxd``, ``.pxi``,
``.js``) over 600 lines. Then the checker itself, on small made-up packages: it must catch each
kind of cycle, the re-export and a long module, and pass their mended versions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import structure


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
    """A made-up package with a ``web`` package of two domains, ``games`` and ``chat``."""
    return _tree(
        root,
        {
            "web/__init__.py": "",
            "web/config.py": "LIMIT = 1\n",
            "web/games/__init__.py": "from pkg.web.games.rooms import Room\n",
            "web/games/rooms.py": "class Room: ...\n",
            "web/chat/__init__.py": "from pkg.web.chat.relay import relay\n",
            "web/chat/relay.py": "def relay(): ...\n",
            "web/chat/routes.py": "router = None\n",
            **files,
        },
    )


def test_a_domain_that_uses_another_through_its_api_passes(tmp_path: Path) -> None:
    package = _web(
        tmp_path,
        {
            "web/chat/relay.py": (
                "from pkg.web.config import LIMIT\nfrom pkg.web.games import Room\n"
            ),
            "web/app.py": "from pkg.web.chat import routes\nfrom pkg.web.games import Room\n",
        },
    )
    assert structure.problems(package) == []


def test_a_domain_that_reaches_into_another_is_caught(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/chat/relay.py": "from pkg.web.games.rooms import Room\n"})
    (found,) = structure.problems(package)
    assert "pkg.web.chat.relay reaches into pkg.web.games.rooms" in found
    assert "import it from pkg.web.games" in found


def test_shared_infrastructure_that_imports_a_domain_is_caught(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/config.py": "from pkg.web.games import Room\n"})
    (found,) = structure.problems(package)
    assert "pkg.web.config, shared infrastructure, imports the domain pkg.web.games" in found


def test_only_the_wiring_includes_a_domains_routes(tmp_path: Path) -> None:
    package = _web(tmp_path, {"web/games/rooms.py": "from pkg.web.chat import routes\n"})
    (found,) = structure.problems(package)
    assert "pkg.web.games.rooms reaches into pkg.web.chat.routes" in found


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
