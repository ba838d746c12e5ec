"""Persistent games: SQLAlchemy Core over embedded SQLite (default) or PostgreSQL.

A game is stored as what cannot be recomputed: the game name and options, whether its chance is
reproducible (then its agreed seed; other games draw chance from ``secrets`` and keep no seed:
column ``seed`` holds 0 for them), the seats (kind, AI spec, hashes of their secret tokens) and
the list of accepted actions. The engine state is never stored; it is rebuilt by replaying the
actions, so a server restart (or an engine upgrade that keeps the rules) resumes every game.
Each accepted action is committed before it is acknowledged to anyone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

from boardplay.core.records import Move

NAME_LENGTH = 64
"""Longest seat name the database stores (a default AI name is cut to fit)."""
SPEC_LENGTH = 200
"""Longest AI spec the database stores (a longer one is refused)."""

metadata = sa.MetaData()

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("reproducible", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("start_position", sa.JSON, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False, index=True),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(NAME_LENGTH), nullable=False),
    sa.Column("spec", sa.String(SPEC_LENGTH), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
)

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("notation", sa.String(200), nullable=False),
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

ACTIVE = "active"
FINISHED = "finished"

HUMAN = "human"
"""A seat played by the game's creator from their own browser."""
HOTSEAT = "hotseat"
"""A seat played from the creator's browser too, by whoever sits there (same token)."""
AI = "ai"
"""A seat played by the server with an agent spec (``easy`` .. ``expert``, ``random``)."""
INVITE = "invite"
"""A seat for a player who joins with the invitation link's code."""
OPEN = "open"
"""A seat anyone can take from the lobby's list of open games."""
SEAT_KINDS = (HUMAN, HOTSEAT, AI, INVITE, OPEN)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    spec: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None

    @property
    def claimed(self) -> bool:
        return self.kind == AI or self.token_hash is not None


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: int | None
    """The agreed seed of a reproducible game; None for a game whose chance is drawn by the
    server from ``secrets`` (never stored, never shown)."""
    seats: list[SeatRow]
    start_position: dict[str, Any] | None = None
    status: str = ACTIVE
    result: dict[str, Any] | None = None
    created: datetime = field(default_factory=_now)
    updated: datetime = field(default_factory=_now)
    moves: list[Move] = field(default_factory=list)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created on first use."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


class Storage:
    """All database access of the web app. Methods are synchronous and short (one transaction
    each); a SQLite commit of one action row takes well under a millisecond to a few ms."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        metadata.create_all(self.engine)
        self._add_missing_columns()

    def _add_missing_columns(self) -> None:
        """Bring a database made by an older version up to date (``create_all`` only makes
        missing tables): games gained ``reproducible``, false for every game made before."""
        present = {c["name"] for c in sa.inspect(self.engine).get_columns("games")}
        if "reproducible" not in present:
            false = "0" if self.engine.dialect.name == "sqlite" else "false"
            with self.engine.begin() as conn:
                conn.execute(
                    sa.text(
                        "ALTER TABLE games ADD COLUMN reproducible BOOLEAN NOT NULL "
                        f"DEFAULT {false}"
                    )
                )

    def close(self) -> None:
        self.engine.dispose()

    # ----- writing --------------------------------------------------------------------------
    def create_game(self, row: GameRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                games_table.insert().values(
                    id=row.id,
                    game=row.game,
                    options=row.options,
                    seed=row.seed if row.seed is not None else 0,
                    reproducible=row.seed is not None,
                    start_position=row.start_position,
                    status=row.status,
                    result=row.result,
                    created=row.created,
                    updated=row.updated,
                )
            )
            conn.execute(
                seats_table.insert(),
                [
                    {
                        "game_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "spec": s.spec,
                        "token_hash": s.token_hash,
                        "invite_hash": s.invite_hash,
                    }
                    for s in row.seats
                ],
            )

    def append_moves(
        self,
        game_id: str,
        first_ply: int,
        moves: Sequence[Move],
        status: str,
        result: dict[str, Any] | None,
    ) -> None:
        """Store ``moves`` as plies ``first_ply, first_ply + 1, ...`` in one transaction. The
        primary key (game, ply) makes a second writer for the same ply fail instead of forking
        the game."""
        now = _now()
        with self.engine.begin() as conn:
            if moves:
                conn.execute(
                    actions_table.insert(),
                    [
                        {
                            "game_id": game_id,
                            "ply": first_ply + i,
                            "action": m.action,
                            "notation": m.notation,
                            "player": m.player,
                            "created": now,
                        }
                        for i, m in enumerate(moves)
                    ],
                )
            conn.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(status=status, result=result, updated=now)
            )

    def truncate_moves(self, game_id: str, keep: int) -> None:
        """Delete every ply from ``keep`` on (an undo of the current turn's steps)."""
        with self.engine.begin() as conn:
            conn.execute(
                actions_table.delete().where(
                    actions_table.c.game_id == game_id, actions_table.c.ply >= keep
                )
            )
            conn.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(status=ACTIVE, result=None, updated=_now())
            )

    def claim_seat(self, game_id: str, seat: int, token_hash: str, name: str) -> bool:
        """Give an unclaimed seat its token hash; False if someone claimed it first."""
        with self.engine.begin() as conn:
            done = conn.execute(
                seats_table.update()
                .where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.seat == seat,
                    seats_table.c.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name)
            )
            conn.execute(
                games_table.update().where(games_table.c.id == game_id).values(updated=_now())
            )
            return done.rowcount == 1

    # ----- reading --------------------------------------------------------------------------
    def get_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                games_table.select().where(games_table.c.id == game_id)
            ).one_or_none()
            if found is None:
                return None
            seats = conn.execute(
                seats_table.select()
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
            moves = conn.execute(
                actions_table.select()
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.ply)
            ).all()
        return GameRow(
            id=found.id,
            game=found.game,
            options=dict(found.options),
            seed=int(found.seed) if found.reproducible else None,
            start_position=found.start_position,
            status=found.status,
            result=found.result,
            created=found.created,
            updated=found.updated,
            seats=[
                SeatRow(s.seat, s.kind, s.name, s.spec, s.token_hash, s.invite_hash) for s in seats
            ],
            moves=[Move(m.action, m.notation, m.player) for m in moves],
        )

    def game_ids(self, status: str | None = None, limit: int = 1000) -> list[str]:
        """Ids, most recently updated first."""
        query = sa.select(games_table.c.id).order_by(games_table.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def open_game_ids(self, limit: int = 100) -> list[str]:
        """Active games with an unclaimed open seat, most recent first."""
        query = (
            sa.select(games_table.c.id)
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(
                games_table.c.status == ACTIVE,
                seats_table.c.kind == OPEN,
                seats_table.c.token_hash.is_(None),
            )
            .group_by(games_table.c.id, games_table.c.updated)
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]
