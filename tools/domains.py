"""The walls between the domains of a package built of domains (the web tier: ``accounts/``,
``table/``, ``lobby/`` ...), checked by ``structure.py`` on the import graph it reads.

A package built of domains has three kinds of module:

- the **wiring** (``app``, ``hub`` and the routes under ``api/``): it builds the domains and
  serves them over HTTP; nothing below imports it (lila's ``app/Env.scala`` and its
  controllers, the FastAPI template's ``api/routes``);
- the **domains**, one package each, whose ``__init__`` declares the API the others use;
- the **shared infrastructure**: the package's other modules (its config, database, broker,
  events), which know no domain and no wiring.

The rules, each a message naming file and line:

1. infrastructure imports no domain and no wiring;
2. a domain imports no wiring (a route or the hub: the arrows run down);
3. a domain, or the wiring, uses another domain only through its package (``__init__``), never
   a module inside it;
4. a domain's package hands out no store, table or rows (``*Store``, ``*Storage``, ``*Row``,
   ``*Rows``, ``*_table``, ``metadata``): they stay private to their domain, and the others get
   its service's API;
5. the domains form no loop (lila's build cannot hold one): the graph of which domain imports
   which, over every kind of import, is acyclic."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

LAYERED: dict[str, tuple[str, ...]] = {"web": ("app", "hub", "api")}
"""Packages built of domains (by their path below the checked package), each with its wiring:
modules or packages whose every module is wiring. Every other subpackage is a domain (but those
in ``NOT_DOMAINS``), every other module shared infrastructure."""
NOT_DOMAINS = frozenset({"migrations"})
PRIVATE = re.compile(r"(Store|Storage|Row|Rows|_table)$|^metadata$")
"""Names a domain's package may not hand out: its stores, tables and rows."""


@dataclass(frozen=True)
class Edge:
    """An import, as ``structure.Import``: who imports what, where."""

    source: str
    target: str
    where: str


class Layout:
    """Which kind each module of one layered package is."""

    def __init__(self, layered: str, wiring: Iterable[str], packages: set[str]) -> None:
        self.layered = layered
        self.wiring = tuple(f"{layered}.{name}" for name in wiring)
        self.packages = packages

    def inside(self, module: str) -> bool:
        return module.startswith(self.layered + ".")

    def is_wiring(self, module: str) -> bool:
        return any(module == w or module.startswith(w + ".") for w in self.wiring)

    def domain_of(self, module: str) -> str | None:
        """The domain package ``module`` lies in (None: wiring or infrastructure)."""
        if not self.inside(module) or self.is_wiring(module):
            return None
        first = module[len(self.layered) + 1 :].split(".")[0]
        package = f"{self.layered}.{first}"
        if first in NOT_DOMAINS or package not in self.packages:
            return None
        return package


def problems(
    edges: Iterable[Edge],
    packages: set[str],
    exports: dict[str, dict[str, str]],
    root: str,
    cycles: Callable[[dict[str, set[str]]], list[list[str]]],
) -> list[str]:
    """Every broken wall. ``packages``: the modules that are packages; ``exports``: what each
    package's ``__init__`` hands out (name -> the module it comes from); ``cycles``: the
    strongly connected components of a graph that hold a cycle, as ``structure.cycles``."""
    found: list[str] = []
    edges = sorted(edges, key=lambda e: e.where)
    for path, wiring in LAYERED.items():
        layout = Layout(f"{root}.{path.replace('/', '.')}", wiring, packages)
        graph: dict[str, set[str]] = {}
        for edge in edges:
            if layout.inside(edge.source) and layout.inside(edge.target):
                found.extend(_wall(layout, edge))
                mine, theirs = layout.domain_of(edge.source), layout.domain_of(edge.target)
                if mine and theirs and mine != theirs:
                    graph.setdefault(mine, set()).add(theirs)
                    graph.setdefault(theirs, set())
        found.extend(_faces(layout, exports))
        for component in cycles(graph):
            found.append(f"{layout.layered}: the domains {', '.join(component)} form a loop")
    return found


def _wall(layout: Layout, edge: Edge) -> list[str]:
    """What ``edge`` breaks of rules 1-3."""
    mine, theirs = layout.domain_of(edge.source), layout.domain_of(edge.target)
    wiring = layout.is_wiring(edge.source)
    if layout.is_wiring(edge.target) and not wiring:
        kind = "the domain " + mine if mine else "shared infrastructure"
        return [
            f"{edge.where}: {edge.source}, {kind}, imports the wiring ({edge.target}): the"
            " wiring sits above every domain"
        ]
    if theirs is None or mine == theirs:
        return []
    if mine is None and not wiring:
        return [
            f"{edge.where}: {edge.source}, shared infrastructure, imports the domain"
            f" {theirs} ({edge.target}): infrastructure knows no domain"
        ]
    if edge.target != theirs:
        return [
            f"{edge.where}: {edge.source} reaches into {edge.target}: import it from"
            f" {theirs}, the API that domain declares"
        ]
    return []


def _faces(layout: Layout, exports: dict[str, dict[str, str]]) -> list[str]:
    """Rule 4: each domain's package hands out no store, table or rows."""
    found = []
    for package, names in sorted(exports.items()):
        if layout.domain_of(package) != package:
            continue
        for name, origin in sorted(names.items()):
            if PRIVATE.search(name):
                found.append(
                    f"{package} hands out {name} ({origin}): a domain's store, tables and rows"
                    " stay private to it; give the others its service's API"
                )
    return found
