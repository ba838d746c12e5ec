"""``.venv/bin/python tools/structure.py [PACKAGE_DIR]``: the shape of ``src/boardplay``, checked
by ``make lint`` (and by tests/core/test_imports.py, which runs these same functions). It fails,
naming files and lines, on

- an import cycle between the package's modules. Every import counts: a ``.py`` module's imports
  wherever they stand (at module level, inside a function: a function-local import that dodges a
  cycle is still a cycle, and under ``if TYPE_CHECKING:``: a circle of types still ties the
  modules together for a reader), read with ``ast``; and the Cython sources' ``import``,
  ``from X import``, ``cimport X``, ``from X cimport`` and ``include "x.pxi"``, read with regular
  expressions (relative names resolved). A ``.pyx`` and its ``.pxd`` (or a ``.py`` and its
  ``.pxd``) are one module; a ``.pxi`` is a module of its own, ``<package>.<name>.pxi``, imported
  by whatever includes it;
- a module that imports, from its own package's ``__init__``, a name the ``__init__`` only
  re-exports from a sibling (import it from the sibling);
- a module over 600 lines (``.py``, ``.pyx``, ``.pxd``, ``.pxi`` and ``.js``): split it by job;
- in a package built of domains (the web tier's ``accounts/``, ``table/``, ``ratings/`` ...),
  a broken wall between them (``domains.py``): infrastructure importing a domain or the wiring,
  a domain importing the wiring (``app``, ``hub``, the routes of ``api/``), an import that
  reaches into another domain past its package's API, a domain's package handing out its
  store, tables or rows, and a loop between domains.
- an import against the directions of docs/design.md §1 (a game importing ``ai``, ``core``
  importing an interface ...): the rules are ``tools/directions.py``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import domains
from directions import direction_problems

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "boardplay"
"""The package checked when no directory is named."""

LONGEST = 600
"""The guide's limit for a module, in lines."""
WARN = 500
"""Past this many lines a module is named (a warning, not a failure): it holds two jobs by
now, so split it by job before it nears the limit, never by moving lines."""

SIZED = (".py", ".pyx", ".pxd", ".pxi", ".js")
"""The kinds of file held to ``LONGEST`` lines."""

PYTHON = (".py",)
CYTHON = (".pyx", ".pxd", ".pxi")


@dataclass(frozen=True)
class Import:
    """One import of a package module by another, where it is written."""

    source: str
    target: str
    path: Path
    line: int
    kind: str
    """``import``, ``local import`` (inside a function), ``type-only import`` (under
    ``if TYPE_CHECKING:``), ``cimport`` or ``include``."""


@dataclass
class Tree:
    """A package's modules (name -> its files) and the imports between them."""

    root: Path
    modules: dict[str, list[Path]] = field(default_factory=dict)
    imports: list[Import] = field(default_factory=list)
    reexports: dict[str, dict[str, str]] = field(default_factory=dict)
    """Package -> the names its ``__init__`` imports from its own submodules -> that module."""
    reaches: list[tuple[Import, str, str]] = field(default_factory=list)
    """Imports from a module's own package's ``__init__``: (where, the name, the package), kept
    until every ``__init__`` has been read."""

    def graph(self) -> dict[str, set[str]]:
        edges: dict[str, set[str]] = {name: set() for name in self.modules}
        for imp in self.imports:
            edges[imp.source].add(imp.target)
        return edges


def module_name(root: Path, path: Path) -> str:
    """``root/a/b.py`` -> ``<root's name>.a.b`` (``__init__`` names its package); a ``.pxi``
    keeps its suffix: ``<root's name>.a.b.pxi``."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    name = ".".join(parts)
    return name + ".pxi" if path.suffix == ".pxi" else name


def _files(root: Path, suffixes: Iterable[str]) -> list[Path]:
    wanted = tuple(suffixes)
    return sorted(p for p in root.rglob("*") if p.suffix in wanted and p.is_file())


def _is_package(path: Path) -> bool:
    return path.stem == "__init__"


def _relative(module: str, is_package: bool, level: int, name: str) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if level == 0:
        return name
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


class _Resolver:
    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.package = tree.root.name
        self.seen: set[Import] = set()

    def owner(self, dotted: str) -> str | None:
        """The package module that ``dotted`` names or lies in, or None outside the package."""
        target = dotted
        while target and target not in self.tree.modules:
            target = target.rpartition(".")[0]
        if target == self.package or target.startswith(self.package + "."):
            return target
        return None

    def add(self, source: str, dotted: str, path: Path, line: int, kind: str) -> None:
        target = self.owner(dotted)
        if target is not None and target != source:
            imp = Import(source, target, path, line, kind)
            if imp not in self.seen:
                self.seen.add(imp)
                self.tree.imports.append(imp)

    def add_from(
        self, source: str, base: str, names: Iterable[str], path: Path, line: int, kind: str
    ) -> None:
        """``from base import names``: each name that is a submodule is an import of it."""
        for name in names:
            dotted = f"{base}.{name}"
            if dotted in self.tree.modules:
                self.add(source, dotted, path, line, kind)
                continue
            self.add(source, base, path, line, kind)
            package = source.removesuffix(".pxi").rpartition(".")[0]
            if base == package and kind != "cimport":
                self.tree.reaches.append((Import(source, base, path, line, kind), name, base))


# ----- Python ---------------------------------------------------------------------------------


def _type_checking(test: ast.expr) -> bool:
    return "TYPE_CHECKING" in ast.unparse(test)


def _python_imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of a module, with its kind (``import``, ``local import``,
    ``type-only import``)."""

    def walk(
        nodes: Iterable[ast.AST], kind: str
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node, kind
            elif isinstance(node, ast.If) and _type_checking(node.test):
                yield from walk(node.body, "type-only import")
                yield from walk(node.orelse, kind)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = kind if kind == "type-only import" else "local import"
                yield from walk(ast.iter_child_nodes(node), inner)
            else:
                yield from walk(ast.iter_child_nodes(node), kind)

    yield from walk(tree.body, "import")


def _read_python(resolver: _Resolver, name: str, path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    for node, kind in _python_imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                resolver.add(name, alias.name, path, node.lineno, kind)
            continue
        base = _relative(name, _is_package(path), node.level, node.module or "")
        names = [alias.name for alias in node.names]
        resolver.add_from(name, base, names, path, node.lineno, kind)
        if _is_package(path):
            for alias in node.names:
                target = resolver.owner(f"{base}.{alias.name}") or resolver.owner(base)
                if target is not None and target.rpartition(".")[0] == name:
                    exported = resolver.tree.reexports.setdefault(name, {})
                    exported[alias.asname or alias.name] = target


# ----- Cython ---------------------------------------------------------------------------------

_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
_COMMENT = re.compile(r"#[^\n]*")
_FROM = re.compile(
    r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+(c?import)[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE
)
_IMPORT = re.compile(r"^[ \t]*(c?import)[ \t]+([^\n(]*)", re.MULTILINE)
_INCLUDE = re.compile(r"^[ \t]*include[ \t]+[\"']([^\"']+)[\"']", re.MULTILINE)


def _code(text: str) -> str:
    """Cython source with its triple-quoted strings and comments blanked, lines kept."""
    text = _STRING.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return _COMMENT.sub("", text)


def _names(listed: str) -> list[str]:
    """``a, b as c`` (or ``(a,\\n b)``) -> ``[a, b]``; ``*`` is left out."""
    found = []
    for part in listed.strip().strip("()").split(","):
        words = part.split()
        if words and words[0] != "*":
            found.append(words[0])
    return found


def _read_cython(resolver: _Resolver, name: str, path: Path) -> None:
    code = _code(path.read_text("utf-8"))
    owner = name.removesuffix(".pxi") if path.suffix == ".pxi" else name
    is_package = _is_package(path)

    def line_of(offset: int) -> int:
        return code.count("\n", 0, offset) + 1

    for match in _FROM.finditer(code):
        dots, module, verb, listed = match.groups()
        base = _relative(owner, is_package, len(dots), module)
        kind = "cimport" if verb == "cimport" else "import"
        line = line_of(match.start())
        resolver.add_from(name, base, _names(listed), path, line, kind)
    for match in _IMPORT.finditer(code):
        verb, listed = match.groups()
        kind = "cimport" if verb == "cimport" else "import"
        for dotted in _names(listed):
            resolver.add(name, dotted, path, line_of(match.start()), kind)
    for match in _INCLUDE.finditer(code):
        for place in (path.parent, resolver.tree.root.parent):
            included = place / match.group(1)
            if included.is_file() and resolver.tree.root in included.resolve().parents:
                target = module_name(resolver.tree.root, included.resolve())
                resolver.add(name, target, path, line_of(match.start()), "include")
                break


# ----- the checks -----------------------------------------------------------------------------


def scan(root: Path) -> Tree:
    """The modules of the package at ``root`` and every import between them."""
    root = root.resolve()
    tree = Tree(root)
    sources = _files(root, PYTHON + CYTHON)
    for path in sources:
        tree.modules.setdefault(module_name(root, path), []).append(path)
    resolver = _Resolver(tree)
    for path in sources:
        name = module_name(root, path)
        if path.suffix in PYTHON:
            _read_python(resolver, name, path)
        else:
            _read_cython(resolver, name, path)
    return tree


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
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

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def shortest_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One shortest cycle through the component's first module, first module repeated last."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for other in sorted(graph[node] & members):
            if other == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if other not in came_from:
                came_from[other] = node
                queue.append(other)
    return [start]


def shown(path: Path) -> str:
    """A path as a message names it: from the working directory when it lies below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _where(imp: Import) -> str:
    return f"{shown(imp.path)}:{imp.line}"


def cycle_problems(tree: Tree) -> list[str]:
    graph = tree.graph()
    problems = []
    for component in cycles(graph):
        members = set(component)
        within = sorted(
            (i for i in tree.imports if i.source in members and i.target in members),
            key=lambda i: (i.source, i.target, i.line),
        )
        lines = [
            f"import cycle: {' -> '.join(shortest_cycle(graph, component))}"
            f" ({len(component)} modules: {', '.join(component)}); its imports:"
        ]
        lines += [f"    {_where(i)}: {i.source} -> {i.target} ({i.kind})" for i in within]
        problems.append("\n".join(lines))
    return problems


def reexport_problems(tree: Tree) -> list[str]:
    problems = []
    for imp, name, package in tree.reaches:
        sibling = tree.reexports.get(package, {}).get(name)
        if sibling is not None and sibling != package:
            problems.append(
                f"{_where(imp)}: {imp.source} imports {name} from its own package's"
                f" __init__ ({package}), which only re-exports it: import it from {sibling}"
            )
    return problems


def domain_problems(tree: Tree) -> list[str]:
    """The walls between the domains of the web tier (``domains.py`` has the rules)."""
    edges = [domains.Edge(imp.source, imp.target, _where(imp)) for imp in tree.imports]
    packages = {name for name, files in tree.modules.items() if any(_is_package(p) for p in files)}
    return domains.problems(edges, packages, tree.reexports, tree.root.name, cycles)


def lengths(root: Path) -> dict[Path, int]:
    """Every sized file under ``root`` -> its number of lines."""
    return {p: len(p.read_text("utf-8").splitlines()) for p in _files(root, SIZED)}


def length_problems(root: Path, limit: int = LONGEST) -> list[str]:
    root = root.resolve()
    return [
        f"{shown(path)}: {count} lines, over {limit}: split it by job"
        for path, count in sorted(lengths(root).items())
        if count > limit
    ]


def problems(root: Path = PACKAGE, limit: int = LONGEST, tree: Tree | None = None) -> list[str]:
    """Everything wrong with the package at ``root``, one message each (empty: all well)."""
    tree = tree or scan(root)
    return [
        *cycle_problems(tree),
        *reexport_problems(tree),
        *domain_problems(tree),
        *direction_problems(tree, _where),
        *length_problems(root, limit),
    ]


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else PACKAGE
    if not root.is_dir():
        print(f"structure: {root} is not a directory", file=sys.stderr)
        return 2
    tree = scan(root)
    found = problems(root, tree=tree)
    for message in found:
        print(message, file=sys.stderr)
    if found:
        print(f"structure: {len(found)} problem(s) in {root}", file=sys.stderr)
        return 1
    for path, count in sorted(lengths(root.resolve()).items()):
        if count > WARN:
            print(f"warning: {shown(path)}: {count} lines, past {WARN}: split it by job soon")
    print(
        f"structure: {len(tree.modules)} modules, {len(tree.imports)} imports in {root.name}:"
        f" no import cycle, none over {LONGEST} lines"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
