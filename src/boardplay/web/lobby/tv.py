"""TV (lichess's): for each game, the best game of it being played now, watchable at once from
the lobby (``GET /api/tv``; the page's ``#/tv/<game>`` follows its game's channel, moving on to
the next best when the one shown ends).

**The best** is the game whose players' mean rating in its pool is highest (a player with no
rating there counts as a new player's ``NEW_RATING``); a tie goes to the game moved last. Only
games worth watching live are on: public, real-time (on a running clock, or one held for its
players), signed-in players at every seat (no AI, no hot seat, no guests), read through the
table's ``Games.in_play`` and the ratings' ``Ratings.ratings_of``, never their stores.

**What it costs.** A reckoning is two queries of the table (the ``LOOK`` games moved last and
their seats) and one of the ratings, made at most once every ``FRESH`` seconds per process
however many pages ask, one at a time (a lock), and again at once when a game on the air ends
here (``GameFinished``), so its page's next look finds the next best."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from boardplay.web.events import Bus, GameFinished
from boardplay.web.ratings import NEW_RATING, Ratings, pool_of
from boardplay.web.table import Games, InPlay

LOOK = 200
"""Games in play looked at, the most recently moved: the best of them are on the air."""
FRESH = 5.0
"""Seconds a reckoning is reused."""


@dataclass(frozen=True)
class Channel:
    """A game's channel: the game on the air and what the lobby says of it."""

    game: str
    game_id: str
    names: tuple[str, ...]
    ratings: tuple[float, ...]
    rated: bool

    @property
    def rating(self) -> float:
        return sum(self.ratings) / len(self.ratings)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "id": self.game_id,
            "players": [
                {"name": name, "rating": round(rating)}
                for name, rating in zip(self.names, self.ratings, strict=True)
            ],
            "rating": round(self.rating),
            "rated": self.rated,
        }


def best_of(games: Sequence[InPlay], ratings: dict[tuple[int, str], float]) -> list[Channel]:
    """Each game name's best game of ``games`` (given moved last first), by its players' mean
    rating in its pool, a tie to the game moved last; sorted by game name."""
    best: dict[str, Channel] = {}
    for game in games:
        pool = pool_of(game.game, game.options, len(game.players))
        channel = Channel(
            game.game,
            game.id,
            game.names,
            tuple(ratings.get((p, pool), NEW_RATING) for p in game.players),
            game.rated,
        )
        shown = best.get(game.game)
        if shown is None or channel.rating > shown.rating:
            best[game.game] = channel
    return [best[name] for name in sorted(best)]


class Tv:
    """One process's TV (``Hub.tv``)."""

    def __init__(
        self,
        games: Games,
        ratings: Ratings,
        bus: Bus,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.games = games
        self.ratings = ratings
        self.clock = clock
        self._shown: list[Channel] = []
        self._at: float | None = None
        self._lock = asyncio.Lock()
        bus.subscribe(GameFinished, self._finished)

    async def channels(self) -> list[Channel]:
        """Each game's best game in play now (none for a game nobody plays so)."""
        async with self._lock:
            if self._at is not None and self.clock() - self._at < FRESH:
                return self._shown
            games = await self.games.in_play(LOOK)
            ratings = await self.ratings.ratings_of([p for g in games for p in g.players])
            self._shown = best_of(games, ratings)
            self._at = self.clock()
            return self._shown

    async def _finished(self, event: GameFinished) -> None:
        """A game on the air ended: the next look reckons again."""
        if any(channel.game_id == event.game_id for channel in self._shown):
            self._at = None
