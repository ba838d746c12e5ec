"""How much each rated result counted: ``rating_history.weight``, the share of a game the result
counted for (1 in full; less for a result repeated between the same two players within a day,
``ratings/repeats.py``), which the pages show beside the points it moved. Rows rated before
this revision have none (they were rated under a daily cap between two players instead).

Revision ID: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("rating_history")}
    if "weight" not in present:
        op.add_column("rating_history", sa.Column("weight", sa.Float, nullable=True))


def downgrade() -> None:
    op.drop_column("rating_history", "weight")
