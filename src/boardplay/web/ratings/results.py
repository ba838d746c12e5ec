"""What a finished rated game did to its players' ratings, for its result ("You won · +12"): read
from the rating history the settling wrote (``store.py``: each row's ``change``, or for a
row settled before it kept one, its rating less the one before, and the share of a game it
counted for, ``weight``), so it is the same on every process and after a restart. A game is
rated a moment after its end (when the ratings hear ``GameFinished``: ``settle.py``), so until
then the answer is that it is not settled yet.

A rated game that moved a rating less than a whole game, or not at all, says why, so that a
player reading "±0" is not left to guess: ``unrated`` ``"early"`` for one settled without
rating anybody (it ended by a player's word, or before every seat moved, too early to say
anything: ``rated.places_of``), and a seat's ``weight`` below 1 for a result repeated between
the same players within the day (``repeats.py``)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from boardplay.web.database import Runner
from boardplay.web.played import FINISHED, Game
from boardplay.web.ratings.maths import NEW_RATING
from boardplay.web.ratings.store import RatingStore
from boardplay.web.ratings.tables import history_table, rated_games_table

EARLY = "early"
"""``unrated``'s word for a rated game settled without rating anybody (``rated.places_of``)."""


def changes_of(
    store: RatingStore, game_id: str
) -> dict[int, tuple[float, float, float | None]] | None:
    """account → (rating after the game, its change from the rating before it, a new player's
    counting 1500, and the share of a game it counted for: None for a game settled before
    weights were kept); None while the game is not settled yet, empty for one settled unrated
    (it ended before it said anything about the players: ``rated.places_of``)."""
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
        history_table.c.account_id,
        history_table.c.rating,
        history_table.c.change,
        history_table.c.weight,
        before,
    ).where(history_table.c.game_id == game_id)
    with store.autocommit.connect() as conn:
        if conn.execute(settled).first() is None:
            return None
        return {
            int(account): (
                after,
                change if change is not None else after - (NEW_RATING if prior is None else prior),
                weight,
            )
            for account, after, change, weight, prior in conn.execute(query)
        }


async def rating_changes(db: Runner, store: RatingStore, row: Game) -> dict[str, Any]:
    """``rated``; ``settled`` once the result is rated (a moment after the end, on whichever
    process sees it first); then ``unrated`` (``"early"`` if it rated nobody, else None) and
    ``seats``: each rated seat's ``rating`` after the game, its ``change`` and the share of a
    game it counted for (``weight``: 1 in full, less for a repeated result, None for a game
    rated before weights were kept)."""
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
            "weight": changes[s.account][2],
        }
        for s in row.seats
        if s.account is not None and s.account in changes
    ]
    return {"rated": True, "settled": True, "unrated": None if changes else EARLY, "seats": seats}


async def effect_of(db: Runner, store: RatingStore, row: Game, seats: list[int]) -> dict[str, Any]:
    """What a finished rated game did to the player holding ``seats``, as a list of games
    shows it beside the result: ``rating_change`` (None if the game is unrated, not settled
    yet, or settled without rating anyone), ``rating_weight`` (the share of a game it counted
    for) and ``rating_unrated`` (``"early"`` for a rated game settled without rating anyone)."""
    effect: dict[str, Any] = {"rating_change": None, "rating_weight": None, "rating_unrated": None}
    if not (row.rated and row.status == FINISHED):
        return effect
    moved = await rating_changes(db, store, row)
    if not moved["settled"]:
        return effect
    effect["rating_unrated"] = moved["unrated"]
    for seat in moved["seats"]:
        if seat["seat"] in seats:
            effect["rating_change"], effect["rating_weight"] = seat["change"], seat["weight"]
            break
    return effect
