"""Imports inside ``src/boardplay`` run one way: no import cycle between its modules, counting
imports inside functions too (a function-local import that dodges a cycle is still a cycle),
imports made only for type checking (a circle of types still ties the modules together for a
reader) and the Cython sources' imports and cimports; no module imports its own package's
``__init__`` to reach a sibling; and no module grows past about 600 lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


CYTHON_IMPORT = re.compile(
    r"^\s*from\s+(boardplay[\w.]*)\s+import\s+(\w+)|^\s*import\s+(boardplay[\w.]*)", re.M
)
"""A Python-level import of a Cython source. Its ``cimport``s are left out: they are resolved
by the compiler from ``.pxd`` declarations and run nothing."""
CYTHON_INCLUDE = re.compile(r'^include\s+"([\w.]+)"', re.M)


def _cython_imports(path: Path, files: dict[str, Path]) -> set[str]:
    """The ``boardplay`` modules a ``.pyx`` (with the ``.pxi`` files it includes) imports."""
    text = path.read_text("utf-8")
    for included in CYTHON_INCLUDE.findall(text):
        text += (path.parent / included).read_text("utf-8")
    found: set[str] = set()
    for match in CYTHON_IMPORT.finditer(text):
        base, name, plain = match.groups()
        target = plain or (f"{base}.{name}" if f"{base}.{name}" in files else base)
        while target and target not in files:
            target = target.rpartition(".")[0]
        found.add(target)
    return found


def import_graph(typing: bool = False) -> dict[str, set[str]]:
    """Module -> the ``boardplay`` modules it imports (``TYPE_CHECKING`` blocks only with
    ``typing``: they never run, but they still tie modules together)."""
    paths = [*SRC.rglob("*.py"), *SRC.rglob("*.pyx")]
    files = {_module_name(p): p for p in paths}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        if path.suffix == ".pyx":
            graph[name] = {t for t in _cython_imports(path, files) if t != name}
            continue
        tree = ast.parse(path.read_text("utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            if (
                not typing
                and isinstance(node, ast.If)
                and "TYPE_CHECKING" in ast.unparse(node.test)
            ):
                skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, node, path.name == "__init__.py")
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names
                ]
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target.startswith("boardplay") and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_inside_boardplay() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_import_cycle_even_for_types() -> None:
    """The web server's five modules once formed a circle of type-only imports through the
    rooms' back-pointer to their hub; the rooms now receive a declared ``RoomHost``."""
    found = cycles(import_graph(typing=True))
    assert not found, "import cycles (types counted): " + "; ".join(" <-> ".join(c) for c in found)


LONGEST = 600
"""The guide's limit for a module of code (``.py``, ``.pyx`` and the ``.pxd``/``.pxi`` parts)."""


def test_modules_stay_under_about_600_lines() -> None:
    lengths = {
        str(p.relative_to(SRC)): len(p.read_text("utf-8").splitlines())
        for pattern in ("*.py", "*.pyx", "*.pxd", "*.pxi")
        for p in SRC.rglob(pattern)
    }
    over = {name: n for name, n in lengths.items() if n > LONGEST}
    assert not over, f"modules over {LONGEST} lines (split them): {over}"
