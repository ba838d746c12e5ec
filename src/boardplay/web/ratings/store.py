"""Stored ratings (migration 0006): each rated result once, the ratings it made, and their history.

A rating belongs to an account and a *pool*: the game, and the player count where the game
changes with it (``passtally-3`` is not ``passtally-2``). ``rated_games`` keeps every rated
result as places by account; its primary key is what makes an update happen exactly once
however many server processes see the game end: the process whose insert succeeds updates the
ratings in the same transaction, the others find the row and stop. Ratings are therefore
recomputable: ``recompute`` replays the stored results in the order they were settled.

**The cap between two players.** The points an account's rating moves in games against one
opponent are capped per day (``Limits.rating_pair_cap``, 60): past it a result still counts as
a game played (its deviation shrinks as usual) but moves the rating only up to the cap. Each
history row keeps the points its game moved (``change``), which the cap sums and the pages
show beside a result."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from boardplay.web.accounts import people
from boardplay.web.config import Limits
from boardplay.web.database import metadata
from boardplay.web.ratings.maths import Rating, update

rated_games_table = sa.Table(
    "rated_games",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("pool", sa.String(64), nullable=False),
    sa.Column("settled", sa.Float, nullable=False, index=True),
    sa.Column("places", sa.JSON, nullable=False),
)

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("pool", sa.String(64), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ix_ratings_pool_rating", "pool", "rating"),
)

history_table = sa.Table(
    "rating_history",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("pool", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("change", sa.Float, nullable=True),
)

DAY = 86_400.0
"""The window of the rating cap between two players."""
ACTIVE_DAYS = 90
"""A leaderboard lists players who played a rated game of its pool within this many days."""
SETTLE_TRIES = 3


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


class RatingStore:
    def __init__(self, engine: Engine, pair_cap: float = Limits.rating_pair_cap) -> None:
        self.engine = engine
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")
        self.pair_cap = pair_cap
        """Rating points one account may move against one opponent within ``DAY``."""

    def settle(self, game_id: str, pool: str, places: Sequence[tuple[int, int]]) -> bool:
        """Rate a finished game's ``places`` (account, place; 1 is best) once: True if this call
        did it, False if it was already done (by this process or another)."""
        for _ in range(SETTLE_TRIES):
            try:
                with self.engine.begin() as conn:
                    self._settle(conn, game_id, pool, places, time.time())
                return True
            except sa.exc.IntegrityError:
                # Either the game is rated already, or a new player's first rating row was
                # written by a concurrent game: look, and try again in the second case.
                with self.reader.connect() as conn:
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
        after = update(before, [place for _, place in places])
        changes = [
            self._capped(conn, account, pool, accounts, rating.rating - old.rating, now)
            for account, old, rating in zip(accounts, before, after, strict=True)
        ]
        after = [
            Rating(old.rating + change, rating.deviation, rating.volatility)
            for old, rating, change in zip(before, after, changes, strict=True)
        ]
        for account, rating, change in zip(accounts, after, changes, strict=True):
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
                    change=change,
                )
            )

    def _capped(
        self,
        conn: sa.Connection,
        account: int,
        pool: str,
        accounts: Sequence[int],
        change: float,
        now: float,
    ) -> float:
        """``change`` cut so that the points ``account`` moved against any one opponent of this
        game within the last ``DAY`` stay within ``pair_cap`` (win or loss alike: farming one
        account moves both)."""
        opponents = set(accounts) - {account}
        rows = conn.execute(
            sa.select(history_table.c.change, rated_games_table.c.places)
            .join(rated_games_table, rated_games_table.c.game_id == history_table.c.game_id)
            .where(
                history_table.c.account_id == account,
                history_table.c.pool == pool,
                history_table.c.at > now - DAY,
                history_table.c.at <= now,
            )
        ).all()
        used = 0.0
        for opponent in opponents:
            against = sum(
                abs(row.change or 0.0)
                for row in rows
                if any(int(a) == opponent for a, _ in row.places)
            )
            used = max(used, against)
        room = max(0.0, self.pair_cap - used)
        return max(-room, min(room, change))

    def recompute(self) -> int:
        """Rebuild every rating from the stored results; returns the number of games replayed."""
        with self.engine.begin() as conn:
            results = conn.execute(
                rated_games_table.select().order_by(
                    rated_games_table.c.settled, rated_games_table.c.game_id
                )
            ).all()
            conn.execute(history_table.delete())
            conn.execute(ratings_table.delete())
            conn.execute(rated_games_table.delete())
            for row in results:
                places = [(int(a), int(p)) for a, p in row.places]
                self._settle(conn, row.game_id, row.pool, places, row.settled)
        return len(results)

    def unsettled(self, game_ids: Sequence[str]) -> list[str]:
        """Those of ``game_ids`` not settled yet, in their order."""
        if not game_ids:
            return []
        query = sa.select(rated_games_table.c.game_id).where(
            rated_games_table.c.game_id.in_(list(game_ids))
        )
        with self.reader.connect() as conn:
            settled = set(conn.execute(query).scalars())
        return [g for g in game_ids if g not in settled]

    def is_settled(self, game_id: str) -> bool:
        query = sa.select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)
        with self.reader.connect() as conn:
            return conn.execute(query).first() is not None

    # ----- reading ------------------------------------------------------------------------
    def _standings(self, where: Any, order: Any, limit: int) -> list[Standing]:
        query = (
            sa.select(ratings_table, people.c.name, people.c.bot)
            .join(people, people.c.id == ratings_table.c.account_id)
            .where(where, people.c.deleted.is_(sa.false()))
            .order_by(*order)
            .limit(limit)
        )
        with self.reader.connect() as conn:
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

    def ratings_of(self, account_ids: Sequence[int]) -> dict[tuple[int, str], float]:
        """The rating of each of ``account_ids`` in each pool it has one, in one query."""
        if not account_ids:
            return {}
        query = sa.select(
            ratings_table.c.account_id, ratings_table.c.pool, ratings_table.c.rating
        ).where(ratings_table.c.account_id.in_(sorted(set(account_ids))))
        with self.reader.connect() as conn:
            return {(int(r.account_id), r.pool): float(r.rating) for r in conn.execute(query)}

    def standings_of(self, account_id: int) -> list[Standing]:
        return self._standings(
            ratings_table.c.account_id == account_id, [ratings_table.c.pool], 100
        )

    def history_of(self, account_id: int, limit: int) -> dict[str, list[dict[str, Any]]]:
        """Each pool's rating after each rated game, oldest first (the profile's chart), with
        the points the game moved it (``change``; None for games rated before it was kept)."""
        query = (
            history_table.select()
            .where(history_table.c.account_id == account_id)
            .order_by(history_table.c.at.desc())
            .limit(limit)
        )
        out: dict[str, list[dict[str, Any]]] = {}
        with self.reader.connect() as conn:
            for r in reversed(conn.execute(query).all()):
                out.setdefault(r.pool, []).append(
                    {
                        "game": r.game_id,
                        "rating": round(r.rating, 1),
                        "deviation": round(r.deviation, 1),
                        "at": r.at,
                        "change": None if r.change is None else round(r.change, 1),
                    }
                )
        return out
