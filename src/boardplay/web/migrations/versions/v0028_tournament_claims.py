"""A tournament table's claim: ``tournament_tables.claimed_until``, the time (on the tournament
clock's seconds) until which one process is making the table's game. Every process ticking a
tournament makes its games not made yet; a process claims a table before making its game
(``TournamentStore.claim``, one conditional update), so two processes never both make one game,
and a claim left by a process that died expires for the next one (``director.HOLD``).

Revision ID: 0028
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tournament_tables")}
    if "claimed_until" not in present:
        op.add_column(
            "tournament_tables",
            sa.Column("claimed_until", sa.Float, nullable=True),
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables") as batch:
        batch.drop_column("claimed_until")
