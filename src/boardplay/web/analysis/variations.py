"""A study as a game record with its variations, both ways (docs/formats.md, "Variations").

The record's ``actions``, ``moves`` and ``seats`` are the study's mainline, so a reader that knows
nothing of variations replays the mainline as any record. Two optional fields carry the rest:

- ``variations``: a list of lines, each ``{"ply", "actions", "moves", "seats", "comments"?,
  "variations"?}``: an alternative to the move number ``ply`` (0-based) of the line it is listed
  in, played from the position after ``ply`` moves; its own ``variations`` branch from it
  (``ply`` after its first move and before its last). Lines at the same ply are listed in the
  study's order of those branches.
- ``comments``: ``{"<ply>": text}``: the comment on the position after ``ply`` moves of that line
  (``"0"``: the first position), in the record and in each line.

Reading checks every move of every line through the engine (``replays.steps``), as the mainline's
are, so a study never holds a move the rules refuse."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from boardplay.core.game import State
from boardplay.core.records import Move
from boardplay.web.analysis.tree import Node, Tree
from boardplay.web.errors import ApiError, bad_request, quote
from boardplay.web.replays import steps

PLY = re.compile("[0-9]{1,9}")
"""A ply as a comment's key writes it."""
Clean = Callable[[Any, str], str | None]
"""A comment as the study keeps it (tidied, within its ceiling), given the raw value and where it
was found; a 400 for one that cannot stand."""


# ----- writing --------------------------------------------------------------------------------
def variations_json(tree: Tree) -> dict[str, Any]:
    """The ``variations`` and ``comments`` of the record of ``tree`` (each only when present)."""
    return _branches(tree, [tree.get(0), *tree.mainline(0)], 0)


def _branches(tree: Tree, line: Sequence[Node], ply: int) -> dict[str, Any]:
    """The comments and variations along ``line``, whose first node is the position after
    ``ply`` moves: a node's children after its first are the lines that branch there."""
    comments = {str(ply + i): n.comment for i, n in enumerate(line) if n.comment}
    variations = [
        _line_json(tree, alternative, ply + i)
        for i, node in enumerate(line)
        for alternative in tree.children(node.id)[1:]
    ]
    out: dict[str, Any] = {}
    if comments:
        out["comments"] = comments
    if variations:
        out["variations"] = variations
    return out


def _line_json(tree: Tree, first: Node, ply: int) -> dict[str, Any]:
    """The line whose first move leads to ``first``: an alternative to move ``ply``."""
    nodes = [first, *tree.mainline(first.id)]
    return {
        "ply": ply,
        "actions": [n.action for n in nodes],
        "moves": [n.move for n in nodes],
        "seats": [n.seat for n in nodes],
        **_branches(tree, nodes, ply + 1),
    }


# ----- reading --------------------------------------------------------------------------------
class Builder:
    """A tree grown one move at a time from the first position, within ``most`` nodes."""

    def __init__(self, most: int, full: Callable[[int], ApiError]) -> None:
        self.nodes: dict[int, Node] = {0: Node(0, None, 0)}
        self.kids: dict[int, list[int]] = {}
        self.most = most
        self.full = full

    def child(self, parent: int, move: Move) -> int:
        """The node after ``move`` from ``parent`` (the one there already, if any)."""
        kids = self.kids.setdefault(parent, [])
        for kid in kids:
            if self.nodes[kid].action == move.action:
                return kid
        if len(self.nodes) >= self.most:
            raise self.full(self.most)
        node = Node(len(self.nodes), parent, len(kids), move.action, move.notation, move.player)
        self.nodes[node.id] = node
        kids.append(node.id)
        return node.id

    def comment(self, node: int, text: str | None) -> None:
        if text:
            old = self.nodes[node]
            self.nodes[node] = Node(
                old.id, old.parent, old.rank, old.action, old.move, old.seat, text, old.lines
            )

    def tree(self) -> list[Node]:
        return list(self.nodes.values())


def read_line(
    builder: Builder,
    origin: tuple[int, int, State],
    moves: Sequence[Move],
    extra: Mapping[str, Any],
    clean: Clean,
    where: str = "",
) -> None:
    """Add ``moves``, played from ``origin`` (its node, ply and position), to the tree, checked
    through the engine, with the ``comments`` and ``variations`` of ``extra`` (the record for
    its mainline, ``where`` empty; else a line of one, ``where`` naming it). A line's first
    position is its parent line's: its comments and branches start after its first move."""
    node, ply, start = origin
    nodes, states = [node], [start.clone()]
    for move, after in steps(start.clone(), moves, f"{where}move"):
        nodes.append(builder.child(nodes[-1], move))
        states.append(after.clone())
    own = 0 if not where else 1
    comments = extra.get("comments", {})
    if not isinstance(comments, dict):
        raise bad_request(f"field '{where}comments' must be an object of ply: text")
    for key, text in comments.items():
        at = _index(key, ply, own, len(nodes), f"{where}comments")
        builder.comment(nodes[at], clean(text, f"{where}comments.{key}"))
    lines = extra.get("variations", [])
    if not isinstance(lines, list):
        raise bad_request(f"field '{where}variations' must be a list")
    for number, line in enumerate(lines):
        here = f"{where}variations[{number}]."
        if not isinstance(line, dict):
            raise bad_request(f"field '{here[:-1]}' must be an object")
        # A line branches before one of this line's moves, not before its first if it is a
        # variation (that one's alternatives are its siblings, listed by its parent line).
        at = _index(line.get("ply"), ply, own, len(nodes) - 1, f"{here}ply")
        read_line(
            builder, (nodes[at], ply + at, states[at]), moves_of(line, here), line, clean, here
        )


def _index(key: Any, ply: int, low: int, count: int, field: str) -> int:
    """Where ``key`` (a ply, as a number or its text) falls in a line whose positions
    ``low .. count - 1`` are its own, the first of them ``ply`` moves from the start; a 400 if it
    is none of them."""
    text = str(key) if isinstance(key, int) and not isinstance(key, bool) else key
    digits = isinstance(text, str) and PLY.fullmatch(text) is not None
    at = int(text) - ply if digits else -1
    if not low <= at < count:
        raise bad_request(
            f"field '{field}' names ply {quote(key)}; plies {ply + low}..{ply + count - 1} "
            "are this line's"
        )
    return at


def moves_of(line: Mapping[str, Any], where: str) -> list[Move]:
    """The moves of a line (its parallel ``actions``, ``moves``, ``seats``), or a 400."""
    actions, notations, seats = (line.get(k, []) for k in ("actions", "moves", "seats"))
    if not (isinstance(actions, list) and isinstance(notations, list) and isinstance(seats, list)):
        raise bad_request(f"fields '{where}actions', 'moves' and 'seats' must be lists")
    if not len(actions) == len(notations) == len(seats) or not actions:
        raise bad_request(f"fields '{where}actions', 'moves' and 'seats' need one entry per move")
    out = []
    for a, m, s in zip(actions, notations, seats, strict=True):
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (a, s)) or not isinstance(
            m, str
        ):
            raise bad_request(f"a move of '{where}moves' needs an integer id and seat and a string")
        out.append(Move(a, m, s))
    return out
