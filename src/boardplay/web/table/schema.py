"""The table domain's tables: a game, its seats, its accepted actions and the extra tokens of
seats that belong to accounts (private to the table: other domains read games through its API).
Every domain's tables share ``database.metadata``; the Alembic migrations create them."""

from __future__ import annotations

import sqlalchemy as sa

from boardplay.web.database import metadata

NAME_LENGTH = 64
"""Longest seat name the database stores (a default AI name is cut to fit)."""
SPEC_LENGTH = 200
"""Longest AI spec the database stores (a longer one is refused)."""


games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("reproducible", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("start_position", sa.JSON, nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
    sa.Column("ai_seat", sa.Integer, nullable=True, index=True),
    sa.Column("ai_owner", sa.String(32), nullable=True),
    sa.Column("ai_lease", sa.Float, nullable=True),
    sa.Column("ai_attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("ai_error", sa.String(400), nullable=True),
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("resigned", sa.JSON, nullable=True),
    sa.Column("draw_offer", sa.JSON, nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Column("rematch_offer", sa.JSON, nullable=True),
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("owner_prefix", sa.String(64), nullable=True),
    sa.Column("owner_account", sa.Integer, nullable=True),
    sa.Column("ai_only", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("clock_state", sa.JSON, nullable=True),
    sa.Column("deadline", sa.Float, nullable=True, index=True),
    sa.Index("ix_games_owner_created", "owner", "created"),
    sa.Index("ix_games_ai_only_status", "ai_only", "status"),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(NAME_LENGTH), nullable=False),
    sa.Column("spec", sa.String(SPEC_LENGTH), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
    sa.Column("account_id", sa.Integer, nullable=True, index=True),
    sa.Column("seen", sa.Float, nullable=True),
)

seat_keys_table = sa.Table(
    "seat_keys",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("account_id", sa.Integer, nullable=False, index=True),
)
"""More tokens for a seat that belongs to an account: one per browser the account opened the game in
(``SeatStore.seat_key``, ``seatkeys.py``), so a seat follows its player to every device while the
first browser's token keeps working."""

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("notation", sa.String(200), nullable=False),
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
