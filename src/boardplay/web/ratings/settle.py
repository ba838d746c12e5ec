"""Rating settlement: each finished rated game rated once, whichever process gets there first
(``RatingStore.settle``: the rated result's row is the lock). The process that sees a rated
game end rates it at once (it hears ``GameFinished``); every ``RATINGS_INTERVAL`` seconds
each process also looks for rated games that ended unrated, which catches a process that died
between the end and its rating."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from boardplay.web.events import GameFinished
from boardplay.web.ratings.rated import UNRATED, FinishedGame, places_of, pool_of
from boardplay.web.ratings.store import RatingStore
from boardplay.web.tables import FINISHED

log = logging.getLogger("boardplay.web")

RATINGS_INTERVAL = 5.0
"""Seconds between a process's looks for rated games that ended unrated."""
Runner = Callable[..., Awaitable[Any]]


class SettledGame(FinishedGame, Protocol):
    """What settlement reads of a game (the table's ``GameRow`` is one)."""

    @property
    def rated(self) -> bool: ...
    @property
    def status(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def options(self) -> Mapping[str, Any]: ...


class Settlement:
    """Rates finished rated games: ``load(game_id)`` reads a game (on a storage thread)."""

    def __init__(
        self, store: RatingStore, db: Runner, load: Callable[[str], SettledGame | None]
    ) -> None:
        self.store = store
        self.db = db
        self.load = load

    async def finished(self, event: GameFinished) -> None:
        """A game ended on this process: a rated one is rated at once (``GameFinished``)."""
        if event.rated:
            await self.settle([event.game_id])

    async def settle(self, game_ids: Sequence[str] | None = None) -> None:
        """Rate finished rated games not yet rated (``game_ids``, else any the database lists):
        once each, whichever process gets there first."""
        if game_ids is None:
            game_ids = await self.db(self.store.unsettled, 20)
        for game_id in game_ids:
            try:
                row = await self.db(self.load, game_id)
                if row is None or not row.rated or row.status != FINISHED:
                    continue
                places = places_of(row)
                pool = pool_of(row.game, row.options, len(row.seats)) if places else UNRATED
                await self.db(self.store.settle, game_id, pool, places or [])
            except Exception:  # one game's trouble must not stop the others' ratings
                log.exception("could not rate game %s; the next look tries again", game_id)
