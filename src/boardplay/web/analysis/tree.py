"""A study's tree of variations in memory: its positions (nodes), each reached from its parent by
one move (an action or a chance outcome), its children ordered by rank (0, the mainline, first),
and the study's JSON as the page reads it.

The tree holds moves, never positions: a position is the study's first one with the moves of its
path applied (``service.py`` replays them through the engine), so nothing stored can disagree
with the rules."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from boardplay.web.errors import not_found


@dataclass(frozen=True)
class Node:
    """One position of a study: ``id`` (0 for the first position), its ``parent`` (None for the
    first), its ``rank`` among its siblings (0: the mainline), the move that led here from the
    parent (``action``, its ``move`` in the game's notation, the ``seat`` that played it, -1 for
    a chance outcome; all None at the first position), a ``comment`` and the engine's stored
    ``lines`` by level."""

    id: int
    parent: int | None
    rank: int
    action: int | None = None
    move: str | None = None
    seat: int | None = None
    comment: str | None = None
    lines: dict[str, Any] | None = None


class Tree:
    """A study's nodes, by id and by parent."""

    def __init__(self, nodes: Iterable[Node]) -> None:
        self.nodes = {n.id: n for n in nodes}
        self.kids: dict[int, list[Node]] = {}
        for node in self.nodes.values():
            if node.parent is not None:
                self.kids.setdefault(node.parent, []).append(node)
        for kids in self.kids.values():
            kids.sort(key=lambda n: n.rank)

    def __len__(self) -> int:
        return len(self.nodes)

    def get(self, node: int) -> Node:
        """The node (404 if the study has none of that id)."""
        found = self.nodes.get(node)
        if found is None:
            raise not_found(f"the study has no position {node}")
        return found

    def children(self, node: int) -> list[Node]:
        """The positions one move after ``node``, the mainline first."""
        return self.kids.get(node, [])

    def path(self, node: int) -> list[Node]:
        """The nodes from the first move to ``node`` (empty for the first position)."""
        out: list[Node] = []
        at = self.get(node)
        while at.parent is not None:
            out.append(at)
            at = self.nodes[at.parent]
        out.reverse()
        return out

    def actions(self, node: int) -> list[int]:
        """The actions that lead from the first position to ``node``."""
        return [n.action for n in self.path(node) if n.action is not None]

    def subtree(self, node: int) -> list[int]:
        """``node`` and every node after it."""
        out, todo = [], [node]
        while todo:
            at = todo.pop()
            out.append(at)
            todo.extend(n.id for n in self.children(at))
        return out

    def mainline(self, node: int) -> list[Node]:
        """The nodes after ``node`` along the first children, to the end."""
        out: list[Node] = []
        kids = self.children(node)
        while kids:
            out.append(kids[0])
            kids = self.children(kids[0].id)
        return out

    def preorder(self, root: int = 0) -> Iterator[tuple[Node, int]]:
        """Every node with its ply, each before its children, the mainline first."""
        todo = [(self.get(root), 0)]
        while todo:
            node, ply = todo.pop()
            yield node, ply
            todo.extend((kid, ply + 1) for kid in reversed(self.children(node.id)))


def nodes_json(tree: Tree) -> list[dict[str, Any]]:
    """The tree as the page reads it: every node, each before its children (mainline first),
    with its ply, the move that led to it and its ordered children's ids."""
    return [
        {
            "id": node.id,
            "parent": node.parent,
            "ply": ply,
            "move": node.move,
            "action": node.action,
            "seat": node.seat,
            "comment": node.comment,
            "children": [kid.id for kid in tree.children(node.id)],
            "lines": sorted(node.lines or {}),
        }
        for node, ply in tree.preorder()
    ]
