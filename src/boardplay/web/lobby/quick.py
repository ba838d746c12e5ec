"""Quick game: play the closest compatible open offer at once, else post this one and wait.

For two players it pairs with the open seek closest in rating among those of the same game,
options, clock and rated flag whose range includes the player and whose owner is within the
player's own range. For three or four it sits down at such a table, the fullest first (as Board
Game Arena's "play now" does: the table nearest to starting), then the closest in rating. If
none fits, it posts the seek (a table) or keeps the same one posted, or the seat already held at
such a table. Looking and posting are one step under a lock on the game (``SeekStore.post``),
so two players asking for the same quick game at once are paired, not both posted. An offer
whose players the admission rule keeps apart for a block is passed over for the next closest, as
lichess's pool never pairs two players one of whom blocks the other."""

from __future__ import annotations

import time

from boardplay.web.accounts import Account
from boardplay.web.admission import BLOCKED, Door
from boardplay.web.errors import ApiError
from boardplay.web.lobby.schemas import SeekRequest
from boardplay.web.lobby.seeks import (
    Offer,
    Posted,
    Started,
    check_range,
    offer_of,
    post,
    rating_of,
    take,
)
from boardplay.web.lobby.sockets import Lobby
from boardplay.web.lobby.store import Seek
from boardplay.web.lobby.tables import take_seat

QUICK_TRIES = 3
"""Closest fits a quick game tries to take before posting its own seek (another player may
take one first)."""


async def quick_game(
    lobby: Lobby, account: Account, visitor: str, body: SeekRequest
) -> tuple[Started | None, Seek | None]:
    """→ (the game, None) when it started; else (None, the seek posted or kept, or the table
    where the player now holds a seat)."""
    offer = offer_of(lobby, body.game, body.options, body.rated, body.clock)
    check_range(body.rating_min, body.rating_max)
    await lobby.maker.check_quota(visitor)  # it may start a game: refuse before anything changes
    mine = await rating_of(lobby, account.id, offer.pool)
    for seek in await lobby.db(lobby.store.mine, account.id, time.time(), lobby.limits.seek_ttl):
        same = (seek.game, seek.options, seek.rated, seek.clock) == (
            offer.game,
            offer.options,
            offer.rated,
            offer.clock,
        )
        if same and seek.account_id != account.id:
            return None, seek  # seated at such a table already
        if same and (seek.rating_min, seek.rating_max) == (body.rating_min, body.rating_max):
            return None, seek  # already looking for exactly this game

    passed: set[str] = set()  # refused for a block: the next closest is tried instead

    def pick(found: list[Seek]) -> Seek | None:
        fits = [s for s in _fits(found, offer, body, mine, account.id) if s.id not in passed]
        return fits[0] if fits else None

    for _ in range(QUICK_TRIES):
        result = await post(lobby, account, offer, body, mine, pick)
        if isinstance(result, Posted):
            return None, result.seek
        taken = await _try_take(lobby, account, visitor, result)
        if taken is not None:
            return taken
        passed.add(result.id)
    # Another player took the closest fit first, each time: post this seek after all.
    result = await post(lobby, account, offer, body, mine)
    assert isinstance(result, Posted)
    return None, result.seek


def _fits(
    found: list[Seek], offer: Offer, body: SeekRequest, mine: float, account_id: int
) -> list[Seek]:
    """The seeks among ``found`` (same game and rated flag) a quick game may take: the same
    options and clock, each player within the other's range; the fullest table first, then the
    closest in rating, then the oldest."""
    low = body.rating_min if body.rating_min is not None else -float("inf")
    high = body.rating_max if body.rating_max is not None else float("inf")
    fits = [
        s
        for s in found
        if s.options == offer.options
        and s.clock == offer.clock
        and s.accepts(mine)
        and low <= s.rating <= high
        and not s.holds(account_id)
    ]
    fits.sort(key=lambda s: (-len(s.seated), abs(s.rating - mine), s.created))
    return fits


async def _try_take(
    lobby: Lobby, account: Account, visitor: str, seek: Seek
) -> tuple[Started | None, Seek | None] | None:
    """Accept the seek (sit at the table), or None if another player took it first, its
    owner left, or the admission rule refuses it for a block: a quick game never pairs two
    players one of whom blocks the other, and never says that it passed one over."""
    try:
        if seek.table:
            return await take_seat(lobby, account, visitor, seek, Door.QUICK)
        return await take(lobby, account, visitor, seek, Door.QUICK), None
    except ApiError as exc:
        if exc.code in ("seek_taken", "not_found", BLOCKED):
            return None
        raise
