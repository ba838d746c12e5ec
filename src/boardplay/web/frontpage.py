"""The page every visit starts from: ``static/index.html`` with a ``modulepreload`` link for each
script the front end imports before it can draw anything.

The front end is plain ES modules, and a browser learns a module's imports only once that module
has arrived. Without the links, each level of imports costs one more round trip: on a slow
connection that waterfall, not the bytes, kept a page from being usable for seconds. With them,
every module of the first screen is asked for at once. The list is read from the modules' own
``import`` statements when the server starts, so it cannot go stale. The games' board modules
are loaded with ``import()`` by name (``boards/load.js``), which no ``import`` statement shows;
the lobby's cards need every one of them (picture, length, order), so each module of
``boards/`` that exports ``draw`` is preloaded too, with its imports."""

from __future__ import annotations

import re
from pathlib import Path

STATIC_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;"\']*?from\s+"(\.{1,2}/[^"]+\.js)"', re.M)
BARE_IMPORT = re.compile(r'^\s*import\s+"(\.{1,2}/[^"]+\.js)"', re.M)
ENTRY = 'src="/static/app.js"'
BOARD = re.compile(r"^export function draw\(", re.M)
"""What makes a module of ``boards/`` a game's board module."""


def static_imports(static: Path, *entries: str) -> list[str]:
    """The modules ``entries`` (default ``app.js``) import statically, directly or not, as paths
    under ``static`` (the entries first, then in the order they are first met)."""
    root = static.resolve()
    seen: list[str] = []
    stack = list(entries or ("app.js",))
    while stack:
        name = stack.pop(0)
        if name in seen:
            continue
        seen.append(name)
        path = (root / name).resolve()
        text = path.read_text("utf-8")
        for found in [*STATIC_IMPORT.findall(text), *BARE_IMPORT.findall(text)]:
            target = (path.parent / found).resolve()
            if target.is_relative_to(root) and target.is_file():
                stack.append(target.relative_to(root).as_posix())
    return seen


def index_html(static: Path) -> str:
    """``index.html`` with the first screen's modules preloaded beside its entry script."""
    page = (static / "index.html").read_text("utf-8")
    boards = sorted(
        f"boards/{path.name}"
        for path in (static / "boards").glob("*.js")
        if BOARD.search(path.read_text("utf-8"))
    )
    links = "".join(
        f'  <link rel="modulepreload" href="/static/{name}">\n'
        for name in static_imports(static, "app.js", *boards)
    )
    at = page.index('  <script type="module" ' + ENTRY)
    return page[:at] + links + page[at:]
