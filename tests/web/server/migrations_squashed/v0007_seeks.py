"""Finding an opponent: seeks, challenges and the lobby's events between processes.

``seeks`` are open offers of a game by a signed-in player (a rating range, the owner's rating
when posted, the heartbeat and process that keep it alive while its owner has the lobby open);
``challenges`` offers to one named player and their answer (and the game an acceptance
started); ``lobby_events`` the changes other server processes read to update their lobby
sockets (kept a minute). See ``seekstore.py``.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

TABLES = ("lobby_events", "challenges", "seeks")


def upgrade() -> None:
    if "seeks" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rating_min", sa.Integer, nullable=True),
        sa.Column("rating_max", sa.Integer, nullable=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("epoch", sa.String(16), nullable=False),
    )
    op.create_index("ix_seeks_account_id", "seeks", ["account_id"])
    op.create_index("ix_seeks_heartbeat", "seeks", ["heartbeat"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("from_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_challenges_created", "challenges", ["created"])
    op.create_index("ix_challenges_from_account", "challenges", ["from_account"])
    op.create_index("ix_challenges_to_account", "challenges", ["to_account"])
    op.create_table(
        "lobby_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("message", sa.JSON, nullable=True),
    )
    op.create_index("ix_lobby_events_at", "lobby_events", ["at"])


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
