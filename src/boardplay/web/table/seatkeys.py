"""The seats accounts hold, as the table stores them: which games an account plays, the extra
tokens a seat of an account gets for each browser that opens its game (``seat_keys``), and what
ending an account's credentials or the account itself does to its seats. Every method is one
short transaction; a change of a game's seats raises its revision, so every process's copy of
it reloads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.database import OneStatement, StorageThreads, among, autocommitting, bound_among
from boardplay.web.played import ACTIVE, FINISHED
from boardplay.web.table.rows import HUMAN, INVITE, OPEN, GameEnd, InPlay, utc_now
from boardplay.web.table.schema import games_table, seat_keys_table, seats_table
from boardplay.web.tokens import hash_token, new_token


def _touch(conn: sa.Connection, game_ids: Sequence[str]) -> None:
    """Raise these games' revisions: their seats changed, so every process's copy reloads."""
    if game_ids:
        conn.execute(
            games_table.update()
            .where(games_table.c.id.in_(list(game_ids)))
            .values(revision=games_table.c.revision + 1)
        )


def _revoke(conn: sa.Connection, account_id: int) -> set[str]:
    """End every seat token the account's browsers hold: the extra ones (``seat_keys``) go, and
    each seat's own token (from creating or joining the game) is replaced by the hash of a
    secret nobody knows, so the seat stays taken but no earlier token acts for it. The account
    gets new tokens where it signs in again (``seat_key``). Returns the games changed."""
    games: set[str] = set()
    seats = conn.execute(
        sa.select(seats_table.c.game_id, seats_table.c.seat).where(
            seats_table.c.account_id == account_id, seats_table.c.token_hash.is_not(None)
        )
    ).all()
    for game_id, seat in seats:
        conn.execute(
            seats_table.update()
            .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
            .values(token_hash=hash_token(new_token()))
        )
        games.add(game_id)
    keys = conn.execute(
        sa.select(seat_keys_table.c.game_id).where(seat_keys_table.c.account_id == account_id)
    ).all()
    games.update(r.game_id for r in keys)
    conn.execute(seat_keys_table.delete().where(seat_keys_table.c.account_id == account_id))
    return games


@dataclass(frozen=True)
class SeatKeyed:
    """What ``SeatStore.seat_key`` stored: the account's seats that took the new token, and the
    revision the game was raised to (``Room.keyed`` takes it without reading the game back when
    it is the very next one)."""

    seats: list[int] = field(default_factory=list)
    revision: int | None = None


class SeatStore:
    """The accounts' seats (synchronous; the table's ``Games`` runs it off the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    def revoke(self, account_id: int) -> list[str]:
        """Every seat token of the account ends (``_revoke``); the games changed."""
        with self.engine.begin() as conn:
            changed = sorted(_revoke(conn, account_id))
            _touch(conn, changed)
        return changed

    def close(self, account_id: int, name: str) -> list[str]:
        """A deleted account's seats: their tokens end and they are called ``name`` from now on
        (finished games keep their results). Returns the games changed."""
        with self.engine.begin() as conn:
            games = set(
                conn.execute(
                    sa.select(seats_table.c.game_id)
                    .where(seats_table.c.account_id == account_id)
                    .distinct()
                ).scalars()
            )
            games.update(_revoke(conn, account_id))
            conn.execute(
                seats_table.update().where(seats_table.c.account_id == account_id).values(name=name)
            )
            changed = sorted(games)
            _touch(conn, changed)
        return changed

    def adopt(self, account_id: int, name: str, seats: Sequence[tuple[str, int]]) -> list[str]:
        """Make the given (game, seat) pairs the account's, where no account holds them yet
        (a guest's games on signing in); returns the games changed."""
        changed: list[str] = []
        with self.engine.begin() as conn:
            for game_id, seat in seats:
                done = conn.execute(
                    seats_table.update()
                    .where(
                        seats_table.c.game_id == game_id,
                        seats_table.c.seat == seat,
                        seats_table.c.account_id.is_(None),
                        seats_table.c.token_hash.is_not(None),
                    )
                    .values(account_id=account_id, name=name)
                )
                if done.rowcount == 1 and game_id not in changed:
                    changed.append(game_id)
            _touch(conn, changed)
        return changed

    def seat_key(self, account_id: int, game_id: str, token_hash: str) -> SeatKeyed:
        """One more token for every seat the account holds in the game (a browser opening it; a
        bot's is granted in memory instead, ``Room.grant``); the seats (none: nothing stored)
        and the game's new revision."""
        with self.engine.begin() as conn:
            seats = [
                int(seat)
                for seat in conn.execute(
                    sa.select(seats_table.c.seat).where(
                        seats_table.c.game_id == game_id, seats_table.c.account_id == account_id
                    )
                ).scalars()
            ]
            if not seats:
                return SeatKeyed()
            rows = [{"token_hash": token_hash, "game_id": game_id, "seat": seat} for seat in seats]
            conn.execute(seat_keys_table.insert(), [{**r, "account_id": account_id} for r in rows])
            revision = conn.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(revision=games_table.c.revision + 1)
                .returning(games_table.c.revision)
            ).scalar_one()
        return SeatKeyed(seats, int(revision))

    def has_played(self, account_id: int) -> bool:
        """Whether the account holds a seat in any game."""
        query = sa.select(seats_table.c.game_id).where(seats_table.c.account_id == account_id)
        with self.autocommit.connect() as conn:
            return conn.execute(query.limit(1)).first() is not None

    def has_finished_game(self, account_id: int) -> bool:
        """Whether the account held a seat in a game that has ended (any kind of game)."""
        query = (
            sa.select(seats_table.c.game_id)
            .join(games_table, games_table.c.id == seats_table.c.game_id)
            .where(seats_table.c.account_id == account_id, games_table.c.status == FINISHED)
            .limit(1)
        )
        with self.autocommit.connect() as conn:
            return conn.execute(query).first() is not None

    def games_of(self, account_id: int, limit: int) -> list[tuple[str, str, datetime]]:
        """(game id, status, last change) of the account's games, most recent change first."""
        query = (
            sa.select(games_table.c.id, games_table.c.status, games_table.c.updated)
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(seats_table.c.account_id == account_id)
            .group_by(games_table.c.id, games_table.c.status, games_table.c.updated)
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return [(r.id, r.status, r.updated) for r in conn.execute(query)]

    def in_progress(self, account_ids: Sequence[int]) -> dict[int, set[str]]:
        """Each of these accounts' games in progress (one query for them all)."""
        if not account_ids:
            return {}
        query = (
            sa.select(seats_table.c.account_id, games_table.c.id)
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(
                among(seats_table.c.account_id, account_ids, self.engine),
                games_table.c.status == ACTIVE,
            )
        )
        found: dict[int, set[str]] = {}
        with self.autocommit.connect() as conn:
            for r in conn.execute(query):
                found.setdefault(int(r.account_id), set()).add(r.id)
        return found

    def seated(self, game_ids: Sequence[str]) -> dict[str, tuple[str, datetime, list[str]]]:
        """Each game's name, last change and the names at its seats, in seat order (one
        query)."""
        if not game_ids:
            return {}
        query = (
            sa.select(
                games_table.c.id, games_table.c.game, games_table.c.updated, seats_table.c.name
            )
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(games_table.c.id.in_(list(game_ids)))
            .order_by(games_table.c.id, seats_table.c.seat)
        )
        found: dict[str, tuple[str, datetime, list[str]]] = {}
        with self.autocommit.connect() as conn:
            for r in conn.execute(query):
                found.setdefault(r.id, (r.game, r.updated, []))[2].append(r.name)
        return found

    def results_of(self, account_id: int, limit: int) -> list[tuple[str, str, int, dict[str, Any]]]:
        """(game id, game name, seat, result) of the account's seats in finished games, most
        recent first."""
        query = (
            sa.select(
                games_table.c.id, games_table.c.game, seats_table.c.seat, games_table.c.result
            )
            .join(seats_table, seats_table.c.game_id == games_table.c.id)
            .where(
                seats_table.c.account_id == account_id,
                games_table.c.status == FINISHED,
                games_table.c.private.is_(sa.false()),
            )
            .order_by(games_table.c.updated.desc())
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return [(r.id, r.game, int(r.seat), dict(r.result or {})) for r in conn.execute(query)]

    def ended(self, game_ids: Sequence[str]) -> dict[str, GameEnd]:
        """Those of ``game_ids`` that have ended, with how: one query, whatever their number
        (a tournament asks for every game it is playing each time one of them ends)."""
        if not game_ids:
            return {}
        t = games_table
        query = sa.select(t.c.id, t.c.result, t.c.resigned).where(
            t.c.id.in_(list(game_ids)), t.c.status != ACTIVE
        )
        with self.autocommit.connect() as conn:
            return {r.id: GameEnd(r.result, list(r.resigned or [])) for r in conn.execute(query)}

    def finished_rated(self, limit: int) -> list[str]:
        """The rated games that ended most recently (the ratings' periodic look for games the
        process that saw them end did not rate: it died first)."""
        table = games_table
        query = (
            sa.select(table.c.id)
            .where(table.c.rated.is_(sa.true()), table.c.status == FINISHED)
            .order_by(table.c.updated.desc())
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return list(conn.execute(query).scalars())

    def playing(self, account_ids: Sequence[int], quiet: float) -> dict[int, str]:
        """Each account's game under way that anyone may watch, the latest changed: a public
        game with every seat taken, played on a real-time clock or none, changed within
        ``quiet`` seconds (a correspondence game, or one left for longer, is not being played
        now). One query, whatever the number of accounts."""
        if not account_ids:
            return {}
        games, seats = games_table, seats_table
        waiting = seats.alias("waiting")
        open_seat = (
            sa.exists()
            .where(
                waiting.c.game_id == games.c.id,
                waiting.c.kind.in_([INVITE, OPEN]),
                waiting.c.token_hash.is_(None),
            )
            .correlate(games)
        )
        query = (
            sa.select(seats.c.account_id, games.c.id, games.c.clock)
            .join(games, games.c.id == seats.c.game_id)
            .where(
                seats.c.account_id.in_(sorted(set(account_ids))),
                games.c.status == ACTIVE,
                games.c.private.is_(sa.false()),
                games.c.updated >= utc_now() - timedelta(seconds=quiet),
                ~open_seat,
            )
            .order_by(games.c.updated.desc())
        )
        found: dict[int, str] = {}
        with self.autocommit.connect() as conn:
            for row in conn.execute(query):
                if row.account_id not in found and "days" not in (row.clock or {}):
                    found[int(row.account_id)] = row.id
        return found

    def in_play(self, limit: int) -> list[InPlay]:
        """The public games whose real-time clock runs (or waits for its players), played by
        signed-in players at every seat: of the ``limit`` such games moved most recently, in
        two queries whatever their number."""
        t, s = games_table, seats_table
        query = (
            sa.select(t.c.id, t.c.game, t.c.options, t.c.rated, t.c.clock)
            .where(
                t.c.status == ACTIVE,
                t.c.private.is_(sa.false()),
                t.c.ai_only.is_(sa.false()),
                t.c.deadline.is_not(None),
            )
            .order_by(t.c.updated.desc())
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            games = [g for g in conn.execute(query) if not (g.clock or {}).get("days")]
            if not games:
                return []
            seats: dict[str, list[Any]] = {}
            rows = conn.execute(
                sa.select(s.c.game_id, s.c.kind, s.c.account_id, s.c.name)
                .where(s.c.game_id.in_([g.id for g in games]))
                .order_by(s.c.game_id, s.c.seat)
            )
            for row in rows:
                seats.setdefault(row.game_id, []).append(row)
        found = []
        for game in games:
            held = seats.get(game.id, [])
            if len(held) < 2 or any(r.kind != HUMAN or r.account_id is None for r in held):
                continue
            players = tuple(int(r.account_id) for r in held)
            names = tuple(str(r.name) for r in held)
            found.append(InPlay(game.id, game.game, dict(game.options), players, names, game.rated))
        return found


_STILL_PLAYING = OneStatement(
    *(
        sa.select(games_table.c.id).where(among_ids, games_table.c.status != FINISHED)
        for among_ids in bound_among(games_table.c.id, "ids")
    )
)


async def still_playing(db: StorageThreads, game_ids: Sequence[str]) -> set[str]:
    """Those of ``game_ids`` that exist and have not ended, in one statement (from the event
    loop where the database allows: a tournament's every game asks before it is made)."""
    if not game_ids:
        return set()
    return {row[0] for row in await db.rows(_STILL_PLAYING, {"ids": list(game_ids)})}
