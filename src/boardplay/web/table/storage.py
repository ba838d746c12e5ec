"""Persistent games: SQLAlchemy Core over embedded SQLite (default) or PostgreSQL.

A game is stored as what cannot be recomputed: the game name and options, whether its chance is
reproducible (then its agreed seed; other games draw chance from ``secrets`` and keep no seed:
column ``seed`` holds 0 for them), the seats (kind, AI spec, hashes of their secret tokens) and
the list of accepted actions. The engine state is never stored; it is rebuilt by replaying the
actions, so a server restart (or an engine upgrade that keeps the rules) resumes every game.
Each accepted action is committed before it is acknowledged to anyone.

The database is the single source of truth when several server processes share it: every
change of a game raises its ``revision`` and names the revision it was based on, so of two
processes writing the same game at once exactly one succeeds (the other gets ``StaleWrite``,
reloads and decides again); the primary key (game, ply) backs this up for actions. A game whose
AI seat is to move is an AI *job* (``ai_seat``), claimed by one process at a time for a renewable
lease. The schema is made and upgraded by the Alembic migrations (``migrate.py``). The rows it
reads and writes are ``rows.py``'s (and named here too, as the storage's vocabulary)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.core.records import Move
from boardplay.web.accounts import people
from boardplay.web.database import autocommitting, make_engine
from boardplay.web.played import ACTIVE as ACTIVE
from boardplay.web.played import FINISHED as FINISHED
from boardplay.web.table.clocks import Clock
from boardplay.web.table.jobstore import AiJobStore
from boardplay.web.table.rows import (
    AI,
    AI_ERROR_LENGTH,
    HOTSEAT,
    HUMAN,
    INVITE,
    OPEN,
    SEAT_KINDS,
    UNKNOWN_AI,
    GameRow,
    MoveWrite,
    SeatRow,
    StaleWrite,
    ai_to_move,
    clock_values,
    job_values,
    utc_now,
)
from boardplay.web.table.schema import actions_table, games_table, seat_keys_table, seats_table
from boardplay.web.table.watchstore import CLOCKS_PER_SWEEP, WatchStore

READS = 5
"""Reads of a game (``get_game``) before its last is taken though the revision moved during
it: five moves of one game stored within four short reads do not happen in play."""


class Storage(AiJobStore, WatchStore):
    """All database access of the games. Methods are synchronous and short (one transaction
    each); a SQLite commit of one action row takes well under a millisecond to a few ms."""

    def __init__(self, url: str | Engine, migrate: bool = True) -> None:
        """The games on the database at ``url`` (migrated first, unless ``migrate`` is
        false), or on an engine opened already (``migrate.open_database``)."""
        if isinstance(url, Engine):
            self.engine, self.url = url, url.url.render_as_string(hide_password=False)
            migrate = False
        else:
            self.url, self.engine = url, make_engine(url)
        self.autocommit = autocommitting(self.engine)
        """For reads and one-statement writes (``database.autocommitting``)."""
        if migrate:
            from boardplay.web.migrate import upgrade

            upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ----- writing --------------------------------------------------------------------------
    def create_game(self, row: GameRow) -> None:
        """Store ``row`` as a new game (no ceiling counted: ``quotas.py`` counts them)."""
        with self.engine.begin() as conn:
            insert_game(conn, row)

    def _bump(self, conn: sa.Connection, game_id: str, revision: int | None, **values: Any) -> int:
        """Raise the game's revision (only from ``revision`` when given, else from whatever it
        is) with ``values``; returns the new revision or raises ``StaleWrite``. The update takes
        the game's row lock, so concurrent writers of one game queue here and all but the first
        find the revision moved on."""
        query = games_table.update().where(games_table.c.id == game_id)
        if revision is not None:
            query = query.where(games_table.c.revision == revision)
        done = conn.execute(
            query.values(
                revision=games_table.c.revision + 1, updated=utc_now(), **values
            ).returning(games_table.c.revision)
        ).one_or_none()
        if done is None:
            raise StaleWrite(game_id)
        return int(done.revision)

    def _set(self, game_id: str, revision: int | None, **values: Any) -> int:
        """``_bump`` as a statement of its own (``database.autocommitting``)."""
        with self.autocommit.connect() as conn:
            return self._bump(conn, game_id, revision, **values)

    def append_moves(self, *fields: Any, **named: Any) -> int:
        """``write`` of the ``MoveWrite`` of these fields (the storage's tests write so)."""
        return self.write(MoveWrite(*fields, **named))

    def write(self, move: MoveWrite) -> int:
        """Store ``move``'s plies in one transaction, based on its revision (when given);
        returns the new revision. ``StaleWrite`` if another writer got there first (a changed
        revision, or the primary key (game, ply) taken): nothing is stored then."""
        game_id, first_ply = move.game_id, move.first_ply
        try:
            with self.engine.begin() as conn:
                new_revision = self._bump(conn, game_id, move.revision, **move.values())
                if move.moves:
                    created = utc_now()
                    conn.execute(
                        actions_table.insert(),
                        [
                            {
                                "game_id": game_id,
                                "ply": first_ply + i,
                                "action": m.action,
                                "notation": m.notation,
                                "player": m.player,
                                "created": created,
                            }
                            for i, m in enumerate(move.moves)
                        ],
                    )
        except sa.exc.IntegrityError:
            raise StaleWrite(game_id) from None
        return new_revision

    def truncate_moves(
        self,
        game_id: str,
        keep: int,
        *,
        revision: int | None = None,
        ai_seat: int | None = UNKNOWN_AI,
    ) -> int:
        """Delete every ply from ``keep`` on (an undo of the current turn's steps); returns the
        new revision, or ``StaleWrite`` as for ``write``."""
        with self.engine.begin() as conn:
            new_revision = self._bump(
                conn,
                game_id,
                revision,
                status=ACTIVE,
                result=None,
                **job_values(ai_seat, None),
            )
            conn.execute(
                actions_table.delete().where(
                    actions_table.c.game_id == game_id, actions_table.c.ply >= keep
                )
            )
        return new_revision

    def set_ai_seat(self, game_id: str, revision: int, ai_seat: int | None) -> int:
        """Store who is to move of a game checked for the first time (``UNKNOWN_AI`` before)."""
        return self._set(game_id, revision, **job_values(ai_seat, None))

    def claim_seat(
        self, game_id: str, seat: int, token_hash: str, name: str, account: int | None = None
    ) -> int | None:
        """Give an unclaimed seat its token hash (and its player's account); the game's new
        revision, or None if someone claimed it first."""
        with self.engine.begin() as conn:
            done = conn.execute(
                seats_table.update()
                .where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.seat == seat,
                    seats_table.c.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name, account_id=account)
            )
            if done.rowcount != 1:
                return None
            return self._bump(conn, game_id, None)

    def finish(
        self,
        game_id: str,
        revision: int,
        result: dict[str, Any],
        resigned: list[int],
        clock: Clock | None = None,
    ) -> int:
        """End a game the rules have not ended (a resignation, an agreed draw): store its result
        and who resigned, settle any draw offer and end any AI job; ``StaleWrite`` as above."""
        return self._set(
            game_id,
            revision,
            status=FINISHED,
            result=result,
            resigned=resigned,
            draw_offer=None,
            **job_values(None, None),
            **clock_values(clock),
        )

    def resign_seat(
        self,
        game_id: str,
        revision: int,
        seat: int,
        spec: str,
        resigned: list[int],
        ai_seat: int | None,
        clock: Clock | None = None,
    ) -> int:
        """A player leaves a game that goes on without them: their seat is played out by an AI
        (``spec``), their token no longer holds it, and it can no longer win."""
        with self.engine.begin() as conn:
            new_revision = self._bump(
                conn,
                game_id,
                revision,
                resigned=resigned,
                draw_offer=None,
                **job_values(ai_seat, None),
                **clock_values(clock),
            )
            conn.execute(
                seats_table.update()
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                .values(kind=AI, spec=spec, token_hash=None)
            )
        return new_revision

    def set_draw_offer(self, game_id: str, revision: int, offer: dict[str, Any] | None) -> int:
        """Store a draw offer (or its end, ``None``); ``StaleWrite`` as above."""
        return self._set(game_id, revision, draw_offer=offer)

    def set_clock(self, game_id: str, revision: int, clock: Clock | None) -> int:
        """Store a clock that starts (the table filled); ``StaleWrite`` as above."""
        return self._set(game_id, revision, **clock_values(clock))

    def set_rematch_offer(self, game_id: str, revision: int, offer: dict[str, Any] | None) -> int:
        """Store a proposed rematch (or its end, ``None``); ``StaleWrite`` as above."""
        return self._set(game_id, revision, rematch_offer=offer)

    def set_rematch(self, game_id: str, revision: int, rematch: str) -> int:
        """Point a finished game at its rematch; ``StaleWrite`` as above."""
        return self._set(game_id, revision, rematch=rematch, rematch_offer=None)

    # ----- reading --------------------------------------------------------------------------
    def get_game(self, game_id: str) -> GameRow | None:
        """The stored game whole, its revision true of everything read with it. The reads are
        separate statements, each seeing what is committed when it runs, so a move committed
        between the game's row and its moves would give a copy whose revision is older than its
        moves: another process's notice of that very revision (a clock's start, say) would
        then be taken as this copy's and its view shown with a move it does not have (a bot
        was told it was to move again). So the revision is read again after the rest, and the
        whole read made again while it moved meanwhile."""
        with self.autocommit.connect() as conn:
            for _ in range(READS):
                read = self._read_game(conn, game_id)
                if read is None:
                    return None
                again = conn.execute(
                    sa.select(games_table.c.revision).where(games_table.c.id == game_id)
                ).scalar_one_or_none()
                if again == read.revision:
                    break
            return read

    def _read_game(self, conn: sa.Connection, game_id: str) -> GameRow | None:
        found = conn.execute(games_table.select().where(games_table.c.id == game_id)).one_or_none()
        if found is None:
            return None
        seats = conn.execute(
            sa.select(seats_table, people.c.bot)
            .outerjoin(people, people.c.id == seats_table.c.account_id)
            .where(seats_table.c.game_id == game_id)
            .order_by(seats_table.c.seat)
        ).all()
        moves = conn.execute(
            actions_table.select()
            .where(actions_table.c.game_id == game_id)
            .order_by(actions_table.c.ply)
        ).all()
        keys: dict[int, tuple[str, ...]] = {}
        for key in conn.execute(
            sa.select(seat_keys_table.c.seat, seat_keys_table.c.token_hash).where(
                seat_keys_table.c.game_id == game_id
            )
        ):
            keys[key.seat] = (*keys.get(key.seat, ()), key.token_hash)
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
                SeatRow(
                    s.seat,
                    s.kind,
                    s.name,
                    s.spec,
                    s.token_hash,
                    s.invite_hash,
                    s.account_id,
                    keys.get(s.seat, ()),
                    bool(s.bot),
                )
                for s in seats
            ],
            moves=[Move(m.action, m.notation, m.player) for m in moves],
            revision=int(found.revision),
            ai_seat=found.ai_seat,
            ai_error=found.ai_error,
            private=bool(found.private),
            resigned=list(found.resigned or []),
            draw_offer=found.draw_offer,
            rematch=found.rematch,
            rematch_offer=found.rematch_offer,
            owner=found.owner,
            owner_network=found.owner_prefix,
            rated=bool(found.rated),
            clock=found.clock,
            clock_state=found.clock_state,
            deadline=found.deadline,
        )


def insert_game(conn: sa.Connection, row: GameRow) -> None:
    """Store ``row`` as a new game, within the caller's transaction."""
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
            revision=row.revision,
            ai_seat=row.ai_seat,
            private=row.private,
            owner=row.owner,
            owner_prefix=row.owner_network,
            owner_account=row.owner_account,
            ai_only=row.ai_only,
            rated=row.rated,
            clock=row.clock,
            clock_state=row.clock_state,
            deadline=row.deadline,
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
                "account_id": s.account,
            }
            for s in row.seats
        ],
    )


__all__ = [
    "ACTIVE",
    "AI",
    "AI_ERROR_LENGTH",
    "CLOCKS_PER_SWEEP",
    "FINISHED",
    "HOTSEAT",
    "HUMAN",
    "INVITE",
    "OPEN",
    "SEAT_KINDS",
    "UNKNOWN_AI",
    "GameRow",
    "SeatRow",
    "StaleWrite",
    "Storage",
    "ai_to_move",
    "insert_game",
    "utc_now",
]
