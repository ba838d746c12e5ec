"""Stored ratings: each rated result once, the ratings it made, and their history.

A rating belongs to an account and a *pool*: the game, and the player count where the game
changes with it (``passtally-3`` is not ``passtally-2``). ``rated_games`` keeps every rated
result as places by account; its primary key is what makes an update happen exactly once
however many server processes see the game end: the process whose insert succeeds updates the
ratings in the same transaction, the others find the row and stop. Ratings are therefore
recomputable: ``recompute`` replays the stored results in the order they were settled.

**Repeated results.** How much a result counts is ``repeats.rate``'s: the store counts, for
each pair at the table, their rated results in the pool within ``REPEAT_WINDOW`` settled before
this one, and stores what the rule gives. Each history row keeps the points its game moved
(``change``) and the share of a game it counted for (``weight``), which the
pages show beside a result.

**Excluded accounts.** An account a moderator marked (for engine help or boosting) is
*excluded* (``rating_exclusions``): every rated game it sat at is taken out of the ratings, as
if never played. Its rated results stay stored (``rated_games``), so an exclusion lifted puts
them back. Excluding or readmitting replays every pool the account has a stored result in
(``_replay``), in the order the results were settled, skipping each game with an excluded
player: the other players' ratings, histories and repeat weights come out exactly as they
would have had those games never been rated, and the excluded account keeps no rating (so no
leaderboard lists it). A game with an excluded player that ends later is settled unrated.

**One writer.** Settling and replaying take the one ratings lock (``database.lock``, held to
the end of the transaction; SQLite has one writer anyway), so a game settled on another
process while a pool is replayed is either replayed with it or settled after it, reading the
exclusion: never lost, never rated twice."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.database import autocommitting, lock
from boardplay.web.ratings.lookups import Lookups
from boardplay.web.ratings.maths import Rating
from boardplay.web.ratings.repeats import REPEAT_WINDOW, rate
from boardplay.web.ratings.tables import (
    exclusions_table,
    history_table,
    rated_games_table,
    ratings_table,
)

RATINGS_LOCK = "ratings"
"""The lock a settlement and a replay hold to their transaction's end (``database.lock``)."""
SETTLE_TRIES = 3


@dataclass(frozen=True)
class PairRecord:
    """Two accounts' rated results against each other in one pool since some time: how many,
    who won how many (the rest drawn), the last one's time, and their names."""

    pool: str
    first: int
    second: int
    games: int
    first_won: int
    second_won: int
    last: float
    first_name: str = ""
    second_name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "players": [
                {"id": self.first, "name": self.first_name, "won": self.first_won},
                {"id": self.second, "name": self.second_name, "won": self.second_won},
            ],
            "games": self.games,
            "drawn": self.games - self.first_won - self.second_won,
            "last": self.last,
        }


class RatingStore(Lookups):
    """Settling rated games once, and excluding or readmitting an account; its reads are
    ``Lookups``'."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.autocommit = autocommitting(engine)

    def settle(self, game_id: str, pool: str, places: Sequence[tuple[int, int]]) -> bool:
        """Rate a finished game's ``places`` (account, place; 1 is best) once: True if this call
        did it, False if it was already done (by this process or another)."""
        for _ in range(SETTLE_TRIES):
            try:
                with self.engine.begin() as conn:
                    lock(conn, RATINGS_LOCK)
                    self._settle(conn, game_id, pool, places, time.time())
                return True
            except sa.exc.IntegrityError:
                # Either the game is rated already, or a new player's first rating row was
                # written by a concurrent game: look, and try again in the second case.
                with self.autocommit.connect() as conn:
                    done = conn.execute(
                        sa.select(rated_games_table.c.game_id).where(
                            rated_games_table.c.game_id == game_id
                        )
                    ).first()
                if done is not None:
                    return False
        raise RuntimeError(f"could not settle the ratings of game {game_id}")

    def _settle(
        self,
        conn: sa.Connection,
        game_id: str,
        pool: str,
        places: Sequence[tuple[int, int]],
        now: float,
    ) -> None:
        conn.execute(
            rated_games_table.insert().values(
                game_id=game_id, pool=pool, settled=now, places=[list(p) for p in places]
            )
        )
        if not places:
            return  # ended too early to count (rated.py): settled, rating nobody
        accounts = [account for account, _ in places]
        excluded = sa.select(exclusions_table.c.account_id).where(
            exclusions_table.c.account_id.in_(accounts)
        )
        if conn.execute(excluded).first() is None:
            self._rate(conn, game_id, pool, places, now)

    def _rate(
        self,
        conn: sa.Connection,
        game_id: str,
        pool: str,
        places: Sequence[tuple[int, int]],
        now: float,
    ) -> None:
        """Move the ratings of a settled game's players (none of them excluded)."""
        accounts = [account for account, _ in places]
        current = {
            r.account_id: r
            for r in conn.execute(
                ratings_table.select()
                .where(ratings_table.c.pool == pool, ratings_table.c.account_id.in_(accounts))
                .with_for_update()
            )
        }
        before = [
            Rating(current[a].rating, current[a].deviation, current[a].volatility)
            if a in current
            else Rating()
            for a in accounts
        ]
        earlier = self._earlier(conn, game_id, pool, accounts, now)
        outcomes = rate(before, [place for _, place in places], earlier)
        for account, outcome in zip(accounts, outcomes, strict=True):
            rating = outcome.rating
            values: dict[str, Any] = {
                "rating": rating.rating,
                "deviation": rating.deviation,
                "volatility": rating.volatility,
                "updated": now,
            }
            if account in current:
                conn.execute(
                    ratings_table.update()
                    .where(ratings_table.c.account_id == account, ratings_table.c.pool == pool)
                    .values(games=ratings_table.c.games + 1, **values)
                )
            else:
                conn.execute(
                    ratings_table.insert().values(account_id=account, pool=pool, games=1, **values)
                )
            conn.execute(
                history_table.insert().values(
                    account_id=account,
                    pool=pool,
                    game_id=game_id,
                    rating=rating.rating,
                    deviation=rating.deviation,
                    at=now,
                    change=outcome.change,
                    weight=outcome.weight,
                )
            )

    def _earlier(
        self,
        conn: sa.Connection,
        game_id: str,
        pool: str,
        accounts: Sequence[int],
        now: float,
    ) -> list[list[int]]:
        """For each two of ``accounts``, their other rated results against each other in
        ``pool`` settled since ``now - REPEAT_WINDOW``. No upper end: two processes settling
        two games of one pair at once run one after the other (the players' rating rows are
        locked first), and the second must find the first whatever the clocks said, for the
        pair's bound (``repeats.py``) to hold."""
        rows = conn.execute(
            sa.select(rated_games_table.c.game_id, rated_games_table.c.places)
            .join(history_table, rated_games_table.c.game_id == history_table.c.game_id)
            .where(
                history_table.c.account_id.in_(list(accounts)),
                history_table.c.pool == pool,
                history_table.c.at > now - REPEAT_WINDOW,
                history_table.c.game_id != game_id,
            )
        ).all()
        tables = {row.game_id: {int(a) for a, _ in row.places} for row in rows}
        return [
            [
                sum(1 for seated in tables.values() if a in seated and b in seated) if a != b else 0
                for b in accounts
            ]
            for a in accounts
        ]

    def recompute(self) -> int:
        """Rebuild every rating from the stored results; returns the number of games replayed."""
        with self.engine.begin() as conn:
            lock(conn, RATINGS_LOCK)
            pools = sorted(set(conn.execute(sa.select(rated_games_table.c.pool)).scalars()))
            return sum(self._replay(conn, pool) for pool in pools)

    def exclude(self, account_id: int, excluded: bool, now: float | None = None) -> bool:
        """Exclude the account's rated games from the ratings (``excluded``), or put them back,
        replaying the pools it has a stored result in; whether anything changed (nothing is
        replayed if the account already was, or was not, excluded)."""
        table = exclusions_table
        with self.engine.begin() as conn:
            lock(conn, RATINGS_LOCK)
            mine = table.c.account_id == account_id
            there = conn.execute(sa.select(table.c.account_id).where(mine)).first() is not None
            if there == excluded:
                return False
            if excluded:
                since = time.time() if now is None else now
                conn.execute(table.insert().values(account_id=account_id, since=since))
            else:
                conn.execute(table.delete().where(mine))
            query = sa.select(rated_games_table.c.pool, rated_games_table.c.places)
            pools = sorted(
                {
                    row.pool
                    for row in conn.execute(query)
                    if any(int(a) == account_id for a, _ in row.places)
                }
            )
            for pool in pools:
                self._replay(conn, pool)
        return True

    def _replay(self, conn: sa.Connection, pool: str) -> int:
        """Rebuild ``pool``'s ratings and history from its stored results, in the order they
        were settled, leaving out every game an excluded account sat at (the caller holds
        ``RATINGS_LOCK``); returns the number of results read."""
        conn.execute(history_table.delete().where(history_table.c.pool == pool))
        conn.execute(ratings_table.delete().where(ratings_table.c.pool == pool))
        excluded = set(conn.execute(sa.select(exclusions_table.c.account_id)).scalars())
        results = conn.execute(
            rated_games_table.select()
            .where(rated_games_table.c.pool == pool)
            .order_by(rated_games_table.c.settled, rated_games_table.c.game_id)
        ).all()
        for row in results:
            places = [(int(a), int(p)) for a, p in row.places]
            if places and not excluded.intersection(a for a, _ in places):
                self._rate(conn, row.game_id, row.pool, places, row.settled)
        return len(results)

    def excluded_among(self, account_ids: Sequence[int]) -> set[int]:
        """Those of ``account_ids`` that are excluded."""
        if not account_ids:
            return set()
        table = exclusions_table
        asked = sorted(set(account_ids))
        query = sa.select(table.c.account_id).where(table.c.account_id.in_(asked))
        with self.autocommit.connect() as conn:
            return {int(a) for a in conn.execute(query).scalars()}

    def unsettled(self, game_ids: Sequence[str]) -> list[str]:
        """Those of ``game_ids`` not settled yet, in their order."""
        if not game_ids:
            return []
        query = sa.select(rated_games_table.c.game_id).where(
            rated_games_table.c.game_id.in_(list(game_ids))
        )
        with self.autocommit.connect() as conn:
            settled = set(conn.execute(query).scalars())
        return [g for g in game_ids if g not in settled]

    def pairs(self, since: float, least: int, limit: int) -> list[PairRecord]:
        """Every two accounts with at least ``least`` rated results against each other in one
        pool settled since ``since``, most games first (at most ``limit``): the results are
        read once, each table giving a result to every two of its players."""
        query = sa.select(
            rated_games_table.c.pool, rated_games_table.c.settled, rated_games_table.c.places
        ).where(rated_games_table.c.settled >= since)
        counts: dict[tuple[str, int, int], list[float]] = {}
        with self.autocommit.connect() as conn:
            for row in conn.execute(query):
                seated = sorted((int(a), int(p)) for a, p in row.places)
                for i, (a, place_a) in enumerate(seated):
                    for b, place_b in seated[i + 1 :]:
                        tally = counts.setdefault((row.pool, a, b), [0, 0, 0, 0.0])
                        tally[0] += 1
                        tally[1] += place_a < place_b
                        tally[2] += place_b < place_a
                        tally[3] = max(tally[3], row.settled)
            found = sorted(
                (
                    PairRecord(pool, a, b, int(n), int(won_a), int(won_b), last)
                    for (pool, a, b), (n, won_a, won_b, last) in counts.items()
                    if n >= least
                ),
                key=lambda r: (-r.games, -r.last),
            )[:limit]
            ids = {r.first for r in found} | {r.second for r in found}
            names = {
                r.id: r.name
                for r in conn.execute(
                    sa.select(people.c.id, people.c.name).where(people.c.id.in_(ids))
                )
            }
        return [
            PairRecord(
                r.pool,
                r.first,
                r.second,
                r.games,
                r.first_won,
                r.second_won,
                r.last,
                names.get(r.first, ""),
                names.get(r.second, ""),
            )
            for r in found
        ]

    def is_settled(self, game_id: str) -> bool:
        query = sa.select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)
        with self.autocommit.connect() as conn:
            return conn.execute(query).first() is not None
