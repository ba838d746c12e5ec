"""The ratings' API: what the other domains and the routes read of the players' ratings (a
player's standing in a pool, their history, a leaderboard, what a finished rated game did to
each seat), over the store that keeps them (``store.py``, private to this domain). Settling a
game's result is ``settle.py``'s."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy.engine import Engine

from boardplay.web.database import StorageThreads
from boardplay.web.events import Bus
from boardplay.web.played import Game
from boardplay.web.ratings.lookups import Standing, ratings_of
from boardplay.web.ratings.maths import NEW_RATING
from boardplay.web.ratings.repeats import REPEAT_WINDOW, SUSPECT_REPEATS
from boardplay.web.ratings.results import effect_of, rating_changes
from boardplay.web.ratings.settle import Settlement
from boardplay.web.ratings.store import PairRecord, RatingStore


class Ratings:
    """One process's reader of the ratings (``db`` runs the store's calls off the loop)."""

    def __init__(
        self,
        engine: Engine,
        db: StorageThreads,
        bus: Bus,
        load: Callable[[str], Awaitable[Game | None]],
        lately: Callable[[], Awaitable[list[str]]],
    ) -> None:
        self.store = RatingStore(engine)
        self.db = db
        self.settlement = Settlement(self.store, db, load, lately, bus)
        """Rates each finished rated game once (``settle.py``): what it reads of the games,
        ``load`` and ``lately``, is the table's, given by the wiring."""

    async def standings_of(self, account_id: int) -> list[Standing]:
        """The account's rating in each pool it has played rated."""
        found: list[Standing] = await self.db(self.store.standings_of, account_id)
        return found

    async def rating(self, account_id: int, pool: str) -> float:
        """The account's rating in ``pool`` (``NEW_RATING`` if it has none there)."""
        for standing in await self.standings_of(account_id):
            if standing.pool == pool:
                return float(standing.rating.rating)
        return NEW_RATING

    async def ratings_of(self, account_ids: Sequence[int]) -> dict[tuple[int, str], float]:
        """Each account's rating in each pool it has one, keyed (account, pool); a pool
        missing is ``NEW_RATING`` there."""
        return await ratings_of(self.db, account_ids)

    async def established(self, pool: str, account_ids: Sequence[int]) -> dict[int, float]:
        """The established (not provisional) rating in ``pool`` of each of ``account_ids``
        that has one: what fair play's norms are banded by."""
        found: dict[int, float] = await self.db(self.store.established, pool, account_ids)
        return found

    async def history_of(self, account_id: int, limit: int) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = await self.db(
            self.store.history_of, account_id, limit
        )
        return found

    async def leaderboard(self, pool: str, limit: int, bots: bool = False) -> list[Standing]:
        found: list[Standing] = await self.db(self.store.leaderboard, pool, limit, bots)
        return found

    async def changes(self, row: Game) -> dict[str, Any]:
        """What a finished rated game did to each seat's rating (``results.rating_changes``)."""
        return await rating_changes(self.db, self.store, row)

    async def suspicious_pairs(
        self, within: float = REPEAT_WINDOW, least: int = SUSPECT_REPEATS, limit: int = 100
    ) -> list[PairRecord]:
        """Two accounts that played each other rated at least ``least`` times in one pool within
        the last ``within`` seconds, most games first, with who won how many: the pattern of
        rating boosting (one account feeding another its points), for moderators to read.
        Nothing acts on it by itself: the repeated results already count less
        (``repeats.py``), and a pair of friends playing an evening's match looks the same."""
        found: list[PairRecord] = await self.db(
            self.store.pairs, time.time() - within, least, limit
        )
        return found

    async def exclude_account(self, account_id: int) -> bool:
        """Take every rated game the account sat at out of the ratings (a moderator's mark):
        each pool it played rated is replayed without them, so the other players' ratings are
        what they would be had those games never been rated, and it keeps no rating (it leaves
        the leaderboards). False if it was excluded already (nothing changes: asking again is
        safe). ``store.py``'s lock keeps a game settled meanwhile on any process in order."""
        return await self._exclude(account_id, True)

    async def include_account(self, account_id: int) -> bool:
        """Put the account's rated games back (its mark lifted), replaying the same pools;
        False if it was not excluded."""
        return await self._exclude(account_id, False)

    async def _exclude(self, account_id: int, excluded: bool) -> bool:
        changed: bool = await self.db(self.store.exclude, account_id, excluded)
        return changed

    async def excluded_among(self, account_ids: Sequence[int]) -> set[int]:
        """Those of ``account_ids`` whose rated games count for nobody (the admission rule
        keeps them from rated tables)."""
        found: set[int] = await self.db(self.store.excluded_among, account_ids)
        return found

    async def effect_of(self, row: Game, seats: list[int]) -> dict[str, Any]:
        """What the game did to the player holding ``seats`` (``results.effect_of``)."""
        return await effect_of(self.db, self.store, row, seats)
