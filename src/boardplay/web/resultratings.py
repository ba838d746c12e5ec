"""What a finished rated game did to its players' ratings, for its result ("You won · +12"): read
from the rating history the settling wrote (``ratingstore.py``: each row's ``change``, or for a
row settled before it kept one, its rating less the one before), so it is the same on every
process and after a restart. A game is rated a moment after its end (``Hub.settle_ratings``), so
until then the answer is that it is not settled yet."""

from __future__ import annotations

import sqlalchemy as sa

from boardplay.web.rating import NEW_RATING
from boardplay.web.ratingstore import RatingStore, history_table, rated_games_table


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
