"""The statements a tournament's transaction runs on its rows (``schema.py``), each in the
transaction it is given: hold the tournament's row, read the tournament whole, store a round,
record results, raise its revisions. ``store.TournamentStore`` runs them in its transactions
(its module docstring says why a step is one); tests and benchmarks build fields with them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from boardplay.web.ratings import places
from boardplay.web.tournaments.model import (
    CANCELLED,
    DONE,
    Board,
    Ended,
    Entrant,
    Settled,
    Snapshot,
    StepLost,
    Tournament,
    tournament_result,
)
from boardplay.web.tournaments.records import Bye, Table
from boardplay.web.tournaments.schema import (
    boards_table,
    byes_table,
    entrants_table,
    tournament_of,
    tournaments_table,
)


def bump(conn: sa.Connection, tournament_id: str, entrants: bool = False) -> None:
    """Raise the tournament's revision in the transaction of a change its page shows, and its
    entrants' revision too for a change of its ``entrants`` (every one is such a change)."""
    t = tournaments_table
    values = {"revision": t.c.revision + 1}
    if entrants:
        values["entrants_revision"] = t.c.entrants_revision + 1
    conn.execute(t.update().where(t.c.id == tournament_id).values(values))


def add_entrants(
    conn: sa.Connection, tournament_id: str, entrants: Sequence[Mapping[str, Any]]
) -> None:
    """Enter many players at once, in ``conn``'s transaction, with no ceiling (the fields a
    benchmark's or a test's thousand need): their entrants' revision raised, as every
    change of them raises it."""
    conn.execute(entrants_table.insert(), [{"tournament_id": tournament_id, **e} for e in entrants])
    bump(conn, tournament_id, entrants=True)


def record(conn: sa.Connection, tournament_id: str, ended: Mapping[str, Ended], now: float) -> int:
    """``TournamentStore.record_results`` in ``conn``'s transaction, the tournament's row held."""
    b = boards_table
    rows = conn.execute(
        sa.select(b.c.round, b.c.board, b.c.game_id, b.c.players).where(
            b.c.tournament_id == tournament_id,
            b.c.game_id.in_(list(ended)),
            b.c.places.is_(None),
        )
    ).all()
    for row in rows:
        game = ended[row.game_id]
        result = tournament_result(game.result, game.resigned)
        conn.execute(
            b.update()
            .where(
                b.c.tournament_id == tournament_id,
                b.c.round == row.round,
                b.c.board == row.board,
                b.c.places.is_(None),
            )
            .values(places=places(result, len(row.players)), ended=now)
        )
    if rows:
        bump(conn, tournament_id)
    return len(rows)


def hold(conn: sa.Connection, tournament_id: str) -> None:
    t = tournaments_table
    done = conn.execute(t.update().where(t.c.id == tournament_id).values(round=t.c.round))
    if not done.rowcount:
        raise LookupError(tournament_id)


def read(
    conn: sa.Connection,
    tournament_id: str,
    unmade: bool = False,
    settled: Settled | None = None,
    entrants: tuple[int, Sequence[Entrant]] | None = None,
) -> Snapshot:
    """The tournament whole, or (``unmade``) with only its tables whose games are not made yet
    and no entrants or byes: what making the games needs, without every table ever played.
    With ``settled``, the tables of its rounds are taken from it and only later ones read; with
    ``entrants`` (a revision of the entrants and them), they are taken as they are if that is
    still their revision."""
    row = conn.execute(
        tournaments_table.select().where(tournaments_table.c.id == tournament_id)
    ).first()
    if row is None:
        raise LookupError(tournament_id)
    snap = Snapshot(tournament_of(row))
    e, b, y = entrants_table, boards_table, byes_table
    query = b.select().where(b.c.tournament_id == tournament_id).order_by(b.c.round, b.c.board)
    if unmade:
        query = query.where(b.c.made.is_(sa.false()))
    elif settled is not None:
        query = query.where(b.c.round > settled.upto)
        snap.boards.extend(settled.boards)
    if unmade:
        pass
    elif entrants is not None and entrants[0] == snap.tournament.entrants_revision:
        snap.entrants.extend(entrants[1])
    else:
        for r in conn.execute(e.select().where(e.c.tournament_id == tournament_id)).all():
            snap.entrants.append(Entrant(r.account_id, r.name, r.rating, r.joined, r.status))
    for r in conn.execute(query).all():
        places_ = None if r.places is None else tuple(r.places)
        table = Table(r.round, tuple(r.players), places_, r.ended or 0.0)
        snap.boards.append(Board(r.round, r.board, r.game_id, bool(r.made), table))
    if not unmade and snap.tournament.kind != "arena":  # an arena has no rounds to sit out
        query_byes = y.select().where(y.c.tournament_id == tournament_id).order_by(y.c.round)
        snap.byes = [Bye(r.round, r.account_id) for r in conn.execute(query_byes).all()]
    return snap


def store_round(
    conn: sa.Connection,
    snap: Snapshot,
    tables: Sequence[tuple[int, ...]],
    byes: Sequence[int],
    new_id: Callable[[], str],
) -> int:
    """Store the next round (or wave) of ``snap``'s tournament in the step's transaction, raise
    its counter and add the round's tables to ``snap`` (not made yet): the number of the round
    stored. ``StepLost`` if the counter moved since the snapshot was read (another step came
    first)."""
    t, b, y = tournaments_table, boards_table, byes_table
    tournament = snap.tournament
    number = tournament.round + 1
    done = conn.execute(
        t.update()
        .where(t.c.id == tournament.id, t.c.round == tournament.round)
        .values(round=number, revision=t.c.revision + 1)
    )
    if not done.rowcount:
        raise StepLost(tournament.id)
    boards = [
        Board(number, i, new_id(), False, Table(number, tuple(players), None, 0.0))
        for i, players in enumerate(tables)
    ]
    if boards:
        conn.execute(
            b.insert(),
            [
                {
                    "tournament_id": tournament.id,
                    "round": board.round,
                    "board": board.board,
                    "game_id": board.game_id,
                    "players": list(board.table.players),
                }
                for board in boards
            ],
        )
    snap.boards.extend(boards)
    if byes:
        conn.execute(
            y.insert(),
            [{"tournament_id": tournament.id, "round": number, "account_id": p} for p in byes],
        )
    tournament.round = number
    return number


def set_tournament_status(
    conn: sa.Connection, tournament: Tournament, status: str, now: float
) -> None:
    t = tournaments_table
    values: dict[str, Any] = {"status": status, "revision": t.c.revision + 1}
    if status in (DONE, CANCELLED):
        values["finished"] = now
    conn.execute(t.update().where(t.c.id == tournament.id).values(**values))
    tournament.status = status
