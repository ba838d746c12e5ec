"""Accounts that cannot be gamed (issue 47):

- ``throttles``: attempts counted per key before the work they guard (``throttles.py``); it
  replaces ``signin_failures``, which counted failures after the password check and so let a
  burst through;
- ``account_seen``: the addresses and devices (their hashes) an account signed in from, so a
  known device keeps its own sign-in allowance and a rated game between two accounts of one
  person can be told (``admission/rule.py``);
- ``games.owner_prefix`` and ``games.owner_account``: who made a game beyond its exact address
  (the address's network prefix, the signed-in account), for the AI's fair shares;
- ``rating_history.change``: the rating points a game moved, shown with its result and summed
  for the daily cap between two players;
- ``seats.seen``: when a seat's player last asked for the game with its token (a look or a move
  by HTTP counts as being at the table, not only an open socket).

Revision ID: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "throttles" not in tables:
        op.create_table(
            "throttles",
            sa.Column("key", sa.String(120), primary_key=True),
            sa.Column("start", sa.Float, nullable=False),
            sa.Column("count", sa.Integer, nullable=False),
            sa.Column("until", sa.Float, nullable=False),
        )
        op.create_index("ix_throttles_until", "throttles", ["until"])
    if "signin_failures" in tables:
        op.drop_table("signin_failures")
    if "account_seen" not in tables:
        op.create_table(
            "account_seen",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("kind", sa.String(8), primary_key=True),
            sa.Column("digest", sa.String(64), primary_key=True),
            sa.Column("first", sa.Float, nullable=False),
            sa.Column("last", sa.Float, nullable=False),
        )
        op.create_index("ix_account_seen_digest", "account_seen", ["kind", "digest"])
    games = _columns("games")
    if "owner_prefix" not in games:
        op.add_column("games", sa.Column("owner_prefix", sa.String(64), nullable=True))
        op.add_column("games", sa.Column("owner_account", sa.Integer, nullable=True))
        op.create_index("ix_games_ai_only_status", "games", ["ai_only", "status"])
    if "change" not in _columns("rating_history"):
        op.add_column("rating_history", sa.Column("change", sa.Float, nullable=True))
    if "seen" not in _columns("seats"):
        op.add_column("seats", sa.Column("seen", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "seen")
    op.drop_column("rating_history", "change")
    op.drop_index("ix_games_ai_only_status", "games")
    op.drop_column("games", "owner_account")
    op.drop_column("games", "owner_prefix")
    op.drop_table("account_seen")
    op.drop_table("throttles")
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_signin_failures_key_at", "signin_failures", ["key", "at"])
