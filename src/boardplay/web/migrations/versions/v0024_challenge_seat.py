"""The challenger's seat: ``challenges.seat`` (lichess's ``color``: 0 white, 1 black; null: drawn
when the game starts, as every challenge before this revision).

Revision ID: 0024
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("challenges")}
    if "seat" not in present:
        op.add_column("challenges", sa.Column("seat", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("seat")
