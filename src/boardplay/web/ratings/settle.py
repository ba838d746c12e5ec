"""Rating settlement: each finished rated game rated once, whichever process gets there first
(``RatingStore.settle``: the rated result's row is the lock). The process that sees a rated
game end rates it at once (it hears ``GameFinished``); every ``RATINGS_INTERVAL`` seconds
each process also looks for rated games that ended unrated, which catches a process that died
between the end and its rating."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from boardplay.web.database import Runner
from boardplay.web.events import Bus, GameFinished, RatingSettled
from boardplay.web.played import FINISHED, Game
from boardplay.web.ratings.rated import UNRATED, places_of, pool_of
from boardplay.web.ratings.store import RatingStore

log = logging.getLogger("boardplay.web")

RATINGS_INTERVAL = 5.0
"""Seconds between a process's looks for rated games that ended unrated."""


class Settlement:
    """Rates finished rated games. What it reads of the games is given by the wiring, the
    table's (this domain does not read the table's tables): ``load(game_id)`` reads a game,
    ``lately()`` lists the rated games that ended last."""

    def __init__(
        self,
        store: RatingStore,
        db: Runner,
        load: Callable[[str], Awaitable[Game | None]],
        lately: Callable[[], Awaitable[list[str]]],
        bus: Bus,
    ) -> None:
        self.store = store
        self.db = db
        self.load = load
        self.lately = lately
        self.bus = bus
        bus.subscribe(GameFinished, self.finished)

    async def finished(self, event: GameFinished) -> None:
        """A game ended on this process: a rated one is rated at once (``GameFinished``)."""
        if event.rated:
            await self.settle([event.game_id])

    async def settle(self, game_ids: Sequence[str] | None = None) -> None:
        """Rate finished rated games not yet rated (``game_ids``, else those that ended last
        and are not rated): once each, whichever process gets there first, each told
        (``RatingSettled``) by the process that rated it."""
        if game_ids is None:
            game_ids = await self.db(self.store.unsettled, await self.lately())
        for game_id in game_ids:
            try:
                row = await self.load(game_id)
                if row is None or not row.rated or row.status != FINISHED:
                    continue
                places = places_of(row)
                pool = pool_of(row.game, row.options, len(row.seats)) if places else UNRATED
                if await self.db(self.store.settle, game_id, pool, places or []):
                    accounts = tuple(account for account, _ in places or [])
                    await self.bus.publish(RatingSettled(game_id, accounts))
            except Exception:  # one game's trouble must not stop the others' ratings
                log.exception("could not rate game %s; the next look tries again", game_id)
