"""The ratings' tables: every rated result once (``rated_games``), each account's rating per pool
and its history, and the accounts a moderator excluded. Declared here for the store that
writes them (``store.py``) and the lookups that read them (``lookups.py``)."""

from __future__ import annotations

import sqlalchemy as sa

from boardplay.web.database import metadata

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
    sa.Column("weight", sa.Float, nullable=True),
)

exclusions_table = sa.Table(
    "rating_exclusions",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("since", sa.Float, nullable=False),
)
"""An account whose rated games count for nobody (a moderator's mark)."""
