"""What the rest of the site reads of the ratings: the profiles' standings and history, the
leaderboards, fair play's established ratings, and the ratings a bot's ``gameStart`` and the
TV name (``ratings_of``, one statement). The store's writes (settlement, exclusions) are
``store.py``; both read the tables of ``tables.py``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.database import OneStatement, StorageThreads, bound_among
from boardplay.web.ratings.maths import PROVISIONAL_DEVIATION, Rating
from boardplay.web.ratings.tables import history_table, ratings_table

ACTIVE_DAYS = 90
"""A leaderboard lists players who played a rated game of its pool within this many days."""


@dataclass(frozen=True)
class Standing:
    """One player's rating in one pool."""

    account_id: int
    name: str
    pool: str
    rating: Rating
    games: int
    updated: float
    bot: bool = False
    """A bot account's rating (bots have a leaderboard of their own)."""


class Lookups:
    """The reads of ``RatingStore`` (synchronous: run on a storage thread)."""

    autocommit: Engine

    def _standings(self, where: Any, order: Any, limit: int) -> list[Standing]:
        query = (
            sa.select(ratings_table, people.c.name, people.c.bot)
            .join(people, people.c.id == ratings_table.c.account_id)
            .where(where, people.c.deleted.is_(sa.false()))
            .order_by(*order)
            .limit(limit)
        )
        with self.autocommit.connect() as conn:
            return [
                Standing(
                    r.account_id,
                    r.name,
                    r.pool,
                    Rating(r.rating, r.deviation, r.volatility),
                    int(r.games),
                    r.updated,
                    bool(r.bot),
                )
                for r in conn.execute(query)
            ]

    def leaderboard(self, pool: str, limit: int, bots: bool = False) -> list[Standing]:
        """Players active in ``pool`` lately, best first (established ratings before
        provisional ones, as a first lucky game should not top the list): people, or with
        ``bots`` the bot accounts, which have a leaderboard of their own (lichess's: a program
        that plays all day would otherwise top the people's)."""
        since = time.time() - ACTIVE_DAYS * 86400
        board = self._standings(
            sa.and_(
                ratings_table.c.pool == pool,
                ratings_table.c.updated >= since,
                people.c.bot.is_(sa.true() if bots else sa.false()),
            ),
            [ratings_table.c.rating.desc()],
            limit * 4,
        )
        board.sort(key=lambda s: (s.rating.provisional, -s.rating.rating))
        return board[:limit]

    def established(self, pool: str, account_ids: Sequence[int]) -> dict[int, float]:
        """The rating in ``pool`` of each of ``account_ids`` whose rating there is established
        (not provisional: ``Rating.provisional``), in one query."""
        if not account_ids:
            return {}
        r = ratings_table
        query = sa.select(r.c.account_id, r.c.rating).where(
            r.c.pool == pool,
            r.c.account_id.in_(sorted(set(account_ids))),
            r.c.deviation <= PROVISIONAL_DEVIATION,
        )
        with self.autocommit.connect() as conn:
            return {int(row.account_id): float(row.rating) for row in conn.execute(query)}

    def standings_of(self, account_id: int) -> list[Standing]:
        return self._standings(
            ratings_table.c.account_id == account_id, [ratings_table.c.pool], 100
        )

    def history_of(self, account_id: int, limit: int) -> dict[str, list[dict[str, Any]]]:
        """Each pool's rating after each rated game, oldest first (the profile's chart), with
        the points the game moved it (``change``) and the share of a game it counted for
        (``weight``; each None for games rated before it was kept)."""
        query = (
            history_table.select()
            .where(history_table.c.account_id == account_id)
            .order_by(history_table.c.at.desc())
            .limit(limit)
        )
        out: dict[str, list[dict[str, Any]]] = {}
        with self.autocommit.connect() as conn:
            for r in reversed(conn.execute(query).all()):
                out.setdefault(r.pool, []).append(
                    {
                        "game": r.game_id,
                        "rating": round(r.rating, 1),
                        "deviation": round(r.deviation, 1),
                        "at": r.at,
                        "change": None if r.change is None else round(r.change, 1),
                        "weight": r.weight,
                    }
                )
        return out


_RATINGS_OF = OneStatement(
    *(
        sa.select(ratings_table.c.account_id, ratings_table.c.pool, ratings_table.c.rating).where(
            among_ids
        )
        for among_ids in bound_among(ratings_table.c.account_id, "ids")
    )
)


async def ratings_of(
    db: StorageThreads, account_ids: Sequence[int]
) -> dict[tuple[int, str], float]:
    """The rating of each of ``account_ids`` in each pool it has one, in one statement (from the
    event loop where the database allows: a bot's ``gameStart`` names its opponent's)."""
    if not account_ids:
        return {}
    rows = await db.rows(_RATINGS_OF, {"ids": sorted(set(account_ids))})
    return {(int(account), pool): float(rating) for account, pool, rating in rows}
