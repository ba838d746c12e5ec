"""Clocks: a game's time control (``clock``: ``{"base", "increment"}`` seconds, Fischer, or
``{"days"}`` per move), its seats' time as of the last clock event (``clock_state``) and the
moment the running clock falls (``deadline``, indexed: the deadline sweep looks for games past
it, on every process, ``clocks.py``), and the time control a seek or challenge offers.

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for table in ("seeks", "challenges"):  # the time control a seek or challenge offers
        if "clock" not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, sa.Column("clock", sa.JSON, nullable=True))
    columns = {c["name"] for c in inspector.get_columns("games")}
    if "clock" not in columns:
        op.add_column("games", sa.Column("clock", sa.JSON, nullable=True))
    if "clock_state" not in columns:
        op.add_column("games", sa.Column("clock_state", sa.JSON, nullable=True))
    if "deadline" not in columns:
        op.add_column("games", sa.Column("deadline", sa.Float, nullable=True))
        op.create_index("ix_games_deadline", "games", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_games_deadline", table_name="games")
    op.drop_column("games", "deadline")
    op.drop_column("games", "clock_state")
    op.drop_column("games", "clock")
    for table in ("seeks", "challenges"):
        op.drop_column(table, "clock")
