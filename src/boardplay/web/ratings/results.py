"""What a finished rated game did to its players' ratings, for its result ("You won · +12"): read
from the rating history the settling wrote (``store.py``: each row's ``change``, or for a
row settled before it kept one, its rating less the one before), so it is the same on every
process and after a restart. A game is rated a moment after its end (when the ratings hear
``GameFinished``: ``settle.py``), so until then the answer is that it is not settled yet."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from boardplay.web.database import Runner
from boardplay.web.played import FINISHED, Game
from boardplay.web.ratings.maths import NEW_RATING
from boardplay.web.ratings.store import RatingStore, history_table, rated_games_table


def changes_of(store: RatingStore, game_id: str) -> dict[int, tuple[float, float]] | None:
    """account → (rating after the game, its change from the rating before it, a new player's
    counting 1500); None while the game is not settled yet, empty for one settled unrated (it
    ended before it said anything about the players: ``rated.places_of``)."""
    settled = sa.select(rated_games_table.c.game_id).where(rated_games_table.c.game_id == game_id)
    earlier = history_table.alias("earlier")
    before = (
        sa.select(earlier.c.rating)
        .where(
            earlier.c.account_id == history_table.c.account_id,
            earlier.c.pool == history_table.c.pool,
            earlier.c.at < history_table.c.at,
        )
        .order_by(earlier.c.at.desc())
        .limit(1)
        .scalar_subquery()
    )
    query = sa.select(
        history_table.c.account_id, history_table.c.rating, history_table.c.change, before
    ).where(history_table.c.game_id == game_id)
    with store.reader.connect() as conn:
        if conn.execute(settled).first() is None:
            return None
        return {
            int(account): (
                after,
                change if change is not None else after - (NEW_RATING if prior is None else prior),
            )
            for account, after, change, prior in conn.execute(query)
        }


async def rating_changes(db: Runner, store: RatingStore, row: Game) -> dict[str, Any]:
    """``rated``; ``settled`` once the result is rated (a moment after the end, on whichever
    process sees it first); ``seats``: each rated seat's ``rating`` after the game and its
    ``change`` (none for a game that ended before it said anything, which is not rated)."""
    if not row.rated:
        return {"rated": False, "settled": False, "seats": []}
    changes = None
    if row.status == FINISHED:
        changes = await db(changes_of, store, row.id)
    if changes is None:
        return {"rated": True, "settled": False, "seats": []}
    seats = [
        {
            "seat": s.seat,
            "rating": round(changes[s.account][0]),
            "change": round(changes[s.account][1], 1),
        }
        for s in row.seats
        if s.account is not None and s.account in changes
    ]
    return {"rated": True, "settled": True, "seats": seats}


async def change_of(db: Runner, store: RatingStore, row: Game, seats: list[int]) -> Any:
    """The rating change of the player holding ``seats`` in a finished rated game (None if the
    game is unrated, not settled yet, or settled without rating anyone)."""
    if not (row.rated and row.status == FINISHED):
        return None
    moved = await rating_changes(db, store, row)
    return next((s["change"] for s in moved["seats"] if s["seat"] in seats), None)
