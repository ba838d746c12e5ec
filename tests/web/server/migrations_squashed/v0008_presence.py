"""Who is at a game's table: a row per game and server process with the seats its sockets hold
and the number of its other sockets (spectators), refreshed every few seconds, so the processes
add up each other's sockets and a dead process's row stops counting (``presence.py``).

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "presence" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "presence",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("spectators", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_presence_at", "presence", ["at"])


def downgrade() -> None:
    op.drop_table("presence")
