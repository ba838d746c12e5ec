"""Open tables for three or four players (issue 52): ``seek_seats``, the seats taken at a seek
for more than two players, each kept alive by its holder's lobby socket as a seek is by its
owner's (``lobby/seatstore.py``).

Revision ID: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "seek_seats" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "seek_seats",
        sa.Column("seek_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("epoch", sa.String(16), nullable=False),
    )
    op.create_index("ix_seek_seats_account_id", "seek_seats", ["account_id"])
    op.create_index("ix_seek_seats_heartbeat", "seek_seats", ["heartbeat"])


def downgrade() -> None:
    op.drop_table("seek_seats")
