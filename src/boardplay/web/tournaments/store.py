"""The tournaments' storage: each call one transaction on the tournaments' tables
(``schema.py``), made of the statements of ``rows.py``.

**Exactly once across processes.** Any process may start a tournament, read its results and
pair its next round or arena wave; none holds a tournament. Each such step is one transaction
that begins by writing the tournament's row (``rows.hold``: on PostgreSQL the row's lock, on
SQLite the database's one writer), so the steps of every process on one tournament run one after
another, and each reads what the one before it committed. A round or wave is stored with the
tournament's ``round`` counter raised in the same transaction, and its tables' primary key is
(tournament, round, board): a pairing is stored whole or not at all, and never twice. Each
table's game id is chosen when it is paired, so making its game (``director.py``) is the same
step whoever does it, after a crash as before.

**A step reads only what can have changed.** Each process keeps, per tournament, its settled
rounds and its entrants as last read (``copies.py``), and reads only the later rounds' tables,
and the entrants only when their revision has moved."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import OneStatement, StorageThreads, autocommitting, lock
from boardplay.web.tournaments.copies import Copies
from boardplay.web.tournaments.model import (
    ACTIVE,
    CREATED,
    PAUSED,
    STARTED,
    WITHDRAWN,
    Ended,
    Entrant,
    Full,
    Snapshot,
    Tournament,
)
from boardplay.web.tournaments.rows import bump, hold, read, record
from boardplay.web.tournaments.schema import (
    boards_table,
    entrants_table,
    tournament_of,
    tournaments_table,
)

T = TypeVar("T")


class TournamentStore:
    """The tournaments' storage on one engine (each call one transaction)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # One statement needs no transaction (``autocommitting``): an arena reads which
        # tournament and which games, and claims and marks a table, at every game that ends.
        self.autocommit = autocommitting(engine)
        self.copies = Copies()
        """What this process keeps of the tournaments it read (``copies.py``)."""

    def _read(self, conn: sa.Connection, tournament_id: str) -> Snapshot:
        """The tournament whole (``rows.read``), from this process's copy of it (``copies.py``)."""
        known = self.copies.of(tournament_id)
        snap = read(conn, tournament_id, settled=known.settled, entrants=known.entrants)
        self.copies.keep(snap, known)
        return snap

    # ----- tournaments and entrants ------------------------------------------------------
    def create(self, tournament: Tournament, most: int) -> None:
        """Store a new tournament, unless its creator has ``most`` upcoming or running already
        (``Full``; counted and stored under one lock on the creator, so a burst gets no more)."""
        values = tournament.to_json()
        values.update(creator=tournament.creator, created=tournament.created)
        t = tournaments_table
        with self.engine.begin() as conn:
            lock(conn, f"tournaments:{tournament.creator}")
            if conn.dialect.name == "sqlite":
                # A write first, matching nothing: SQLite's one writer is taken before the
                # count is read (several processes on one file count one after another).
                conn.execute(t.update().where(sa.false()).values(round=t.c.round))
            open_ = conn.execute(
                sa.select(sa.func.count()).where(
                    t.c.creator == tournament.creator, t.c.status.in_([CREATED, STARTED])
                )
            ).scalar_one()
            if open_ >= most:
                raise Full(most)
            conn.execute(t.insert().values(**values))

    def get(self, tournament_id: str) -> Tournament | None:
        with self.autocommit.connect() as conn:
            row = conn.execute(
                tournaments_table.select().where(tournaments_table.c.id == tournament_id)
            ).first()
        return None if row is None else tournament_of(row)

    def listed(
        self, statuses: Sequence[str], limit: int = 100, latest: bool = False
    ) -> list[Tournament]:
        """The tournaments of ``statuses``, soonest start first (``latest``: last finished
        first)."""
        t = tournaments_table
        with self.autocommit.connect() as conn:
            rows = conn.execute(
                t.select()
                .where(t.c.status.in_(list(statuses)))
                .order_by(t.c.finished.desc() if latest else t.c.starts)
                .limit(limit)
            ).all()
        return [tournament_of(row) for row in rows]

    def revision(self, tournament_id: str) -> int | None:
        """The tournament's revision (None: no such tournament): one row's one column, what a
        poll reads before anything else."""
        t = tournaments_table
        with self.autocommit.connect() as conn:
            found = conn.execute(sa.select(t.c.revision).where(t.c.id == tournament_id)).first()
        return None if found is None else int(found.revision)

    def due(self, now: float) -> list[str]:
        """Tournaments a process has work in: started ones, and created ones past their start."""
        t = tournaments_table
        with self.autocommit.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.id).where(
                    sa.or_(t.c.status == STARTED, sa.and_(t.c.status == CREATED, t.c.starts <= now))
                )
            ).all()
        return [row.id for row in rows]

    def enter(self, tournament_id: str, entrant: Entrant, most: int) -> str | None:
        """Register ``entrant`` (or bring back one who withdrew or paused); the status they had
        before (None: new). ``LookupError`` if the tournament is over, ``Full`` if ``most``
        players have entered (counted under the tournament's row, so a burst gets no more)."""

        def step(conn: sa.Connection, snap: Snapshot) -> str | None:
            if snap.tournament.status not in (CREATED, STARTED):
                raise LookupError(snap.tournament.status)
            before = snap.status_of(entrant.account_id)
            if before is None and len(snap.entrants) >= most:
                raise Full(most)
            e = entrants_table
            if before is None:
                conn.execute(e.insert().values(tournament_id=tournament_id, **entrant.__dict__))
            else:
                conn.execute(
                    e.update()
                    .where(e.c.tournament_id == tournament_id, e.c.account_id == entrant.account_id)
                    .values(status=ACTIVE)
                )
            bump(conn, tournament_id, entrants=True)
            return before

        return self.step(tournament_id, step)

    def entered(self, tournament_id: str) -> list[int]:
        """The accounts entered and not withdrawn (playing, or on a break)."""
        e = entrants_table
        with self.autocommit.connect() as conn:
            return list(
                conn.execute(
                    sa.select(e.c.account_id).where(
                        e.c.tournament_id == tournament_id, e.c.status.in_([ACTIVE, PAUSED])
                    )
                ).scalars()
            )

    def running_entries(self, account_ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """Each account's running tournament it plays in (not paused or withdrawn): its id and
        name, the one started last. One query, whatever the number of accounts."""
        e, t = entrants_table, tournaments_table
        query = (
            sa.select(e.c.account_id, t.c.id, t.c.name)
            .join(t, t.c.id == e.c.tournament_id)
            .where(
                e.c.account_id.in_(sorted(set(account_ids))),
                e.c.status == ACTIVE,
                t.c.status == STARTED,
            )
            .order_by(t.c.starts.desc())
        )
        found: dict[int, tuple[str, str]] = {}
        with self.autocommit.connect() as conn:
            for row in conn.execute(query):
                found.setdefault(int(row.account_id), (row.id, row.name))
        return found

    def withdraw_everywhere(self, account_id: int, name: str | None, people_only: bool) -> int:
        """Withdraw the account from every tournament not over (``people_only``: only those
        closed to bots), renamed ``name`` if given (a deleted account); how many."""
        e, t = entrants_table, tournaments_table
        running = sa.select(t.c.id).where(t.c.status.in_([CREATED, STARTED]))
        if people_only:
            running = running.where(t.c.bots.is_(sa.false()))
        values: dict[str, Any] = {"status": WITHDRAWN}
        if name is not None:
            values["name"] = name
        mine = sa.select(e.c.tournament_id).where(e.c.account_id == account_id)
        with self.engine.begin() as conn:
            # Their pages show the new status or name (a new bot's mark too). The tournaments'
            # rows first, as every step takes them (``rows.hold``), so no step waits on us in turn.
            conn.execute(
                t.update()
                .where(t.c.id.in_(mine))
                .values(revision=t.c.revision + 1, entrants_revision=t.c.entrants_revision + 1)
            )
            done = conn.execute(
                e.update()
                .where(e.c.account_id == account_id, e.c.tournament_id.in_(running))
                .values(**values)
            )
            if name is not None:  # finished ones keep the results, under the new name
                conn.execute(e.update().where(e.c.account_id == account_id).values(name=name))
        return int(done.rowcount)

    def set_status(self, tournament_id: str, account_id: int, status: str) -> bool:
        """Withdraw or pause a player (True if they were entered)."""
        e = entrants_table
        with self.engine.begin() as conn:
            # The tournament's row first, as a step takes it.
            bump(conn, tournament_id, entrants=True)
            done = conn.execute(
                e.update()
                .where(e.c.tournament_id == tournament_id, e.c.account_id == account_id)
                .values(status=status)
            )
        return bool(done.rowcount)

    # ----- one step of a tournament --------------------------------------------------------
    def step(
        self,
        tournament_id: str,
        work: Callable[[sa.Connection, Snapshot], T],
        ended: Mapping[str, Ended] | None = None,
        now: float = 0.0,
    ) -> T:
        """Run ``work`` on the tournament's state within one transaction that holds the
        tournament (module docstring); ``LookupError`` if there is no such tournament. With
        ``ended``, their results are recorded first in it (``record_results``, at ``now``)."""
        with self.engine.begin() as conn:
            hold(conn, tournament_id)
            if ended:
                record(conn, tournament_id, ended, now)
            snap = self._read(conn, tournament_id)
            return work(conn, snap)

    def snapshot(self, tournament_id: str) -> Snapshot:
        """The tournament as one moment saw it. Its rows are read by several statements: on
        PostgreSQL they share one snapshot (repeatable read), or a round committed between the
        statement for the tables and the one for the byes would be seen as its bye alone. On
        SQLite a process reads and writes on one thread, so no step falls between them. The
        reads end with a commit: after a rollback psycopg forgets the statements it prepared
        on the connection (it cannot tell what the rollback undid) and prepares them again."""
        with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn.execution_options(isolation_level="REPEATABLE READ")
            snap = self._read(conn, tournament_id)
            conn.commit()
            return snap

    def unmade(self, tournament_id: str) -> Snapshot:
        """The tournament with only its tables whose games are not made yet (``rows.read``): each
        statement as it finds the rows, as the tables not made are only ever marked made."""
        with self.autocommit.connect() as conn:
            return read(conn, tournament_id, unmade=True)

    def playing(self, tournament_id: str) -> list[str]:
        """The games of the tournament's tables made and not ended yet (as far as it knows)."""
        b = boards_table
        query = sa.select(b.c.game_id).where(
            b.c.tournament_id == tournament_id, b.c.made.is_(sa.true()), b.c.places.is_(None)
        )
        with self.autocommit.connect() as conn:
            return list(conn.execute(query).scalars())

    def record_results(self, tournament_id: str, ended: Mapping[str, Ended], now: float) -> int:
        """Copy the places of the tournament's games that ended (``ended``: by game, as the
        table read it) into its tables, each once; how many were copied. A game's places are
        the ratings' reading of its result (``ratings.places``: the winners, then by score, a
        resigned seat last)."""
        if not ended:
            return 0
        with self.engine.begin() as conn:
            hold(conn, tournament_id)
            return record(conn, tournament_id, ended, now)

    def player_counts(self, tournament_ids: Sequence[str]) -> dict[str, int]:
        """How many players each tournament has (not counting those who withdrew)."""
        if not tournament_ids:
            return {}
        e = entrants_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(e.c.tournament_id, sa.func.count())
                .where(e.c.tournament_id.in_(list(tournament_ids)), e.c.status != WITHDRAWN)
                .group_by(e.c.tournament_id)
            ).all()
        return {row[0]: int(row[1]) for row in rows}

    def tournaments_of(self, game_ids: Sequence[str]) -> list[str]:
        """The tournaments these games were paired in."""
        if not game_ids:
            return []
        b = boards_table
        with self.autocommit.connect() as conn:
            rows = conn.execute(
                sa.select(b.c.tournament_id).distinct().where(b.c.game_id.in_(list(game_ids)))
            ).all()
        return [row.tournament_id for row in rows]

    def claim(self, tournament_id: str, round_: int, board: int, now: float, hold: float) -> bool:
        """``claim`` (below), called here and now."""
        return bool(_CLAIM.on(self.autocommit, _claimed(tournament_id, round_, board, now, hold)))

    def mark_made(self, tournament_id: str, round_: int, board: int) -> None:
        """``mark_made`` (below), called here and now."""
        _MADE.on(self.autocommit, _table(tournament_id, round_, board))


def _table(tournament_id: str, round_: int, board: int) -> dict[str, Any]:
    return {"tournament": tournament_id, "table_round": round_, "table_board": board}


def _claimed(
    tournament_id: str, round_: int, board: int, now: float, hold: float
) -> dict[str, Any]:
    return {**_table(tournament_id, round_, board), "now": now, "until": now + hold}


def _table_statements() -> tuple[OneStatement, OneStatement]:
    b = boards_table
    this_table = (
        b.c.tournament_id == sa.bindparam("tournament"),
        b.c.round == sa.bindparam("table_round"),
        b.c.board == sa.bindparam("table_board"),
    )
    unclaimed = sa.or_(b.c.claimed_until.is_(None), b.c.claimed_until < sa.bindparam("now"))
    claim = (
        b.update()
        .where(*this_table, b.c.made.is_(sa.false()), unclaimed)
        .values(claimed_until=sa.bindparam("until"))
        .returning(b.c.board)
    )
    return OneStatement(claim), OneStatement(b.update().where(*this_table).values(made=True))


_CLAIM, _MADE = _table_statements()


async def claim(
    db: StorageThreads, tournament_id: str, round_: int, board: int, now: float, hold: float
) -> bool:
    """Take the table to make its game until ``now + hold``: False if it is made or another
    claim holds it. One conditional update, so of claims at once exactly one wins (SQLite's
    one writer; on PostgreSQL the second waits for the first's commit and checks its condition
    again on that row). It ends with the game made, or expires (a dead process). One statement
    from the event loop where the database allows: every game of a tournament is claimed."""
    return bool(await db.rows(_CLAIM, _claimed(tournament_id, round_, board, now, hold)))


async def mark_made(db: StorageThreads, tournament_id: str, round_: int, board: int) -> None:
    """The table's game is made: its claim ends, and no process makes it again."""
    await db.rows(_MADE, _table(tournament_id, round_, board))
