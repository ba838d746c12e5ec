"""Accounts, sessions, passkeys, seats that follow their account, and ratings.

``accounts`` are players (a name unique ignoring case, an argon2id password hash or none);
``sessions`` their signed-in browsers (SHA-256 of the cookie, a CSRF token, an expiry);
``passkeys`` their WebAuthn public keys; ``ceremonies`` WebAuthn challenges not yet answered;
``signin_failures`` what the sign-in throttle counts. A seat may belong to an account
(``seats.account_id``) and then holds more tokens, one per browser (``seat_keys``). A game may be
``rated``; ``rated_games`` keeps each rated result once (its key is what makes a rating update
happen exactly once), ``ratings`` the current rating per account and pool, ``rating_history``
each one after each game.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TABLES = (
    "rating_history",
    "ratings",
    "rated_games",
    "seat_keys",
    "signin_failures",
    "ceremonies",
    "passkeys",
    "sessions",
    "accounts",
)


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "rated" not in {c["name"] for c in inspector.get_columns("games")}:
        op.add_column(
            "games", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
        )
    if "account_id" not in {c["name"] for c in inspector.get_columns("seats")}:
        op.add_column("seats", sa.Column("account_id", sa.Integer, nullable=True))
        op.create_index("ix_seats_account_id", "seats", ["account_id"])
    if "accounts" in inspector.get_table_names():
        return
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "ceremonies",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(20), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_ceremonies_expires", "ceremonies", ["expires"])
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_signin_failures_key_at", "signin_failures", ["key", "at"])
    op.create_table(
        "seat_keys",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
    )
    op.create_index("ix_seat_keys_game_id", "seat_keys", ["game_id"])
    op.create_index("ix_seat_keys_account_id", "seat_keys", ["account_id"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("settled", sa.Float, nullable=False),
        sa.Column("places", sa.JSON, nullable=False),
    )
    op.create_index("ix_rated_games_settled", "rated_games", ["settled"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
    op.drop_index("ix_seats_account_id", "seats")
    op.drop_column("seats", "account_id")
    op.drop_column("games", "rated")
