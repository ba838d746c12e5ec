"""A tournament's revision: ``tournaments.revision``, raised in the transaction of every change its
page shows (an entry, a pause or withdrawal, a round or wave stored, a result copied, a start or an
end), so that a poll of its standings or view asks one row whether anything changed
(``tournaments/paging.py``) instead of recomputing the whole field.

Revision ID: 0027
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tournaments")}
    if "revision" not in present:
        op.add_column(
            "tournaments",
            sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("revision")
