"""The analysis board's tables: ``analysis_studies`` (one row per study: its game, where it
started, its owner and counts) and ``analysis_nodes`` (one row per position of its tree of
variations: the move that led there from its parent, its place among its siblings, a comment,
the engine lines stored for it).

Every change of a tree first raises the study's ``revision`` in the same transaction: that
update takes the study row's lock (PostgreSQL; SQLite has one writer), so the edits of one study
queue, and a count checked after it (the nodes ceiling, a sibling's rank) is the one the change
writes. A move refused by the ceiling rolls the transaction back and changes nothing.

Ranks order a node's children from 0, the mainline, up; they stay dense (0, 1, 2 ...)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.analysis.tree import Node, Tree
from boardplay.web.database import by_id, metadata
from boardplay.web.errors import ApiError, bad_request, not_found

ID_LENGTH = 16
OWNER_LENGTH = 80
MOVE_LENGTH = 64
ROOT = 0
"""The root's node id: the study's first position."""

studies_table = sa.Table(
    "analysis_studies",
    metadata,
    sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
    sa.Column("owner", sa.String(OWNER_LENGTH), nullable=False, index=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("start_position", sa.JSON, nullable=True),
    sa.Column("players", sa.JSON, nullable=False),
    sa.Column("source", sa.JSON, nullable=False),
    sa.Column("source_game", sa.String(32), nullable=True, index=True),
    sa.Column("nodes", sa.Integer, nullable=False),
    sa.Column("next_node", sa.Integer, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
"""``source``: how the study began (``{"kind": "start" | "position" | "record" | "game" |
"fork", ...}``); ``source_game``: the stored game whose positions it holds, if any (a fork
keeps its original's), which fair play's rule is asked about at every door (``service.py``)."""

nodes_table = sa.Table(
    "analysis_nodes",
    metadata,
    sa.Column(
        "study_id",
        sa.String(ID_LENGTH),
        sa.ForeignKey("analysis_studies.id"),
        primary_key=True,
    ),
    sa.Column("node", sa.Integer, primary_key=True),
    sa.Column("parent", sa.Integer, nullable=True),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("action", sa.Integer, nullable=True),
    sa.Column("move", sa.String(MOVE_LENGTH), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("comment", sa.Text, nullable=True),
    sa.Column("lines", sa.JSON, nullable=True),
)
"""The root has no parent, action, move or seat; a chance outcome's seat is -1."""


@dataclass(frozen=True)
class StudyFields:
    """What a study is made with and its row keeps unchanged (``studies_table``'s columns of
    the same names)."""

    id: str
    owner: str
    game: str
    options: dict[str, Any]
    start_position: dict[str, Any] | None
    players: list[str]
    source: dict[str, Any]
    source_game: str | None


@dataclass(frozen=True)
class StudyRow(StudyFields):
    """A stored study: its fields, with what its edits change (its count of positions and its
    revision) and when it was made."""

    nodes: int
    revision: int
    created: float


@dataclass(frozen=True)
class NewStudy(StudyFields):
    """A study to store: its fields and its first tree (the root first)."""

    tree: Sequence[Node]


def study_full(most: int) -> ApiError:
    return ApiError(
        409,
        "study_full",
        f"this study holds the most positions a study may: {most:,} "
        "(BOARDPLAY_WEB_ANALYSIS_NODES); delete a variation or fork a new study",
    )


class StudyStore:
    """The analysis tables of the process's database (synchronous: run off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ----- reading ------------------------------------------------------------------------
    def load(self, study_id: str) -> tuple[StudyRow, Tree]:
        """The study and its tree, read in one transaction (404 if there is none)."""
        with self.engine.connect() as conn:
            row = by_id(conn, studies_table, study_id, "study")
            nodes = conn.execute(
                nodes_table.select().where(nodes_table.c.study_id == study_id)
            ).all()
        study = StudyRow(
            row.id,
            row.owner,
            row.game,
            dict(row.options),
            row.start_position,
            list(row.players),
            dict(row.source),
            row.source_game,
            row.nodes,
            row.revision,
            row.created,
        )
        return study, Tree(_node(n) for n in nodes)

    # ----- writing ------------------------------------------------------------------------
    def create(self, new: NewStudy) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                studies_table.insert().values(
                    id=new.id,
                    owner=new.owner,
                    game=new.game,
                    options=new.options,
                    start_position=new.start_position,
                    players=new.players,
                    source=new.source,
                    source_game=new.source_game,
                    nodes=len(new.tree),
                    next_node=max(n.id for n in new.tree) + 1,
                    created=now,
                    updated=now,
                )
            )
            conn.execute(
                nodes_table.insert(),
                [{"study_id": new.id, **_values(n)} for n in new.tree],
            )

    def add(
        self, study_id: str, parent: int, move: tuple[int, str, int], most: int
    ) -> tuple[int, bool]:
        """The child of ``parent`` reached by ``move`` (action, notation, seat): the one there
        already (False), else a new last variation (True), within ``most`` nodes."""
        action, notation, seat = move
        try:
            with self.engine.begin() as conn:
                return self._add(conn, study_id, parent, (action, notation, seat), most), True
        except _Played as played:  # rolled back: the revision stays
            return played.node, False

    def _add(
        self, conn: sa.Connection, study_id: str, parent: int, move: tuple[int, str, int], most: int
    ) -> int:
        action, notation, seat = move
        count = _lock(conn, study_id)
        kids = conn.execute(
            sa.select(nodes_table.c.node, nodes_table.c.action).where(
                nodes_table.c.study_id == study_id, nodes_table.c.parent == parent
            )
        ).all()
        for kid in kids:
            if kid.action == action:
                raise _Played(int(kid.node))
        if count >= most:
            raise study_full(most)
        node = (
            conn.execute(
                studies_table.update()
                .where(studies_table.c.id == study_id)
                .values(nodes=studies_table.c.nodes + 1, next_node=studies_table.c.next_node + 1)
                .returning(studies_table.c.next_node)
            ).scalar_one()
            - 1
        )
        conn.execute(
            nodes_table.insert().values(
                study_id=study_id,
                node=node,
                parent=parent,
                rank=len(kids),
                action=action,
                move=notation[:MOVE_LENGTH],
                seat=seat,
            )
        )
        return int(node)

    def promote(self, study_id: str, node: int, mainline: bool) -> None:
        """Make ``node`` its parent's first child (the mainline there); with ``mainline``, each
        of its ancestors too, so that the study's mainline runs through it."""
        with self.engine.begin() as conn:
            _lock(conn, study_id)
            tree = Tree(_node(n) for n in _rows(conn, study_id))
            target = tree.get(node)
            if target.parent is None:
                raise bad_request("the study's first position has no siblings to come before")
            for step in reversed(tree.path(node)) if mainline else [target]:
                assert step.parent is not None
                for sibling in tree.children(step.parent):
                    rank = (
                        0
                        if sibling.id == step.id
                        else sibling.rank + (1 if sibling.rank < step.rank else 0)
                    )
                    if rank != sibling.rank:
                        _set(conn, study_id, sibling.id, rank=rank)

    def delete(self, study_id: str, node: int) -> int:
        """Delete ``node`` and every position after it; the number deleted."""
        with self.engine.begin() as conn:
            _lock(conn, study_id)
            tree = Tree(_node(n) for n in _rows(conn, study_id))
            target = tree.get(node)
            if target.parent is None:
                raise bad_request("the study's first position cannot be deleted; delete the study")
            gone = tree.subtree(node)
            conn.execute(
                nodes_table.delete().where(
                    nodes_table.c.study_id == study_id, nodes_table.c.node.in_(gone)
                )
            )
            for sibling in tree.children(target.parent):
                if sibling.rank > target.rank:
                    _set(conn, study_id, sibling.id, rank=sibling.rank - 1)
            conn.execute(
                studies_table.update()
                .where(studies_table.c.id == study_id)
                .values(nodes=studies_table.c.nodes - len(gone))
            )
        return len(gone)

    def comment(self, study_id: str, node: int, text: str | None) -> None:
        with self.engine.begin() as conn:
            _lock(conn, study_id)
            if not _set(conn, study_id, node, comment=text):
                raise not_found(f"the study has no position {node}")

    def keep_lines(self, study_id: str, node: int, level: str, lines: dict[str, Any]) -> None:
        """Store the engine's lines at ``level`` on ``node`` (gone meanwhile: nothing), for the
        study's next readers. Not an edit of the tree: the revision stays."""
        with self.engine.begin() as conn:
            where = (nodes_table.c.study_id == study_id, nodes_table.c.node == node)
            kept = conn.execute(sa.select(nodes_table.c.lines).where(*where)).one_or_none()
            if kept is None:
                return
            merged = {**(kept.lines or {}), level: lines}
            conn.execute(nodes_table.update().where(*where).values(lines=merged))


class _Played(Exception):
    """The move asked for is a child of the position already: its node."""

    def __init__(self, node: int) -> None:
        super().__init__(node)
        self.node = node


def _lock(conn: sa.Connection, study_id: str) -> int:
    """Raise the study's revision, holding its row until the transaction ends; its node count
    (404 if there is no such study)."""
    found = conn.execute(
        studies_table.update()
        .where(studies_table.c.id == study_id)
        .values(revision=studies_table.c.revision + 1, updated=time.time())
        .returning(studies_table.c.nodes)
    ).one_or_none()
    if found is None:
        raise not_found(f"no study {study_id!r}")
    return int(found.nodes)


def _rows(conn: sa.Connection, study_id: str) -> Sequence[Any]:
    return conn.execute(nodes_table.select().where(nodes_table.c.study_id == study_id)).all()


def _set(conn: sa.Connection, study_id: str, node: int, **values: Any) -> bool:
    done = conn.execute(
        nodes_table.update()
        .where(nodes_table.c.study_id == study_id, nodes_table.c.node == node)
        .values(**values)
    )
    return done.rowcount == 1


def _node(row: Any) -> Node:
    return Node(
        row.node, row.parent, row.rank, row.action, row.move, row.seat, row.comment, row.lines
    )


def _values(node: Node) -> dict[str, Any]:
    return {
        "node": node.id,
        "parent": node.parent,
        "rank": node.rank,
        "action": node.action,
        "move": None if node.move is None else node.move[:MOVE_LENGTH],
        "seat": node.seat,
        "comment": node.comment,
        "lines": node.lines,
    }
