"""A moderator's mark (``moderation/``, ``ratings/store.py``): ``rating_exclusions``, the
accounts whose rated games count for nobody, and ``grounds`` on ``moderation_log`` and
``moderation_notices``, what an account was marked for (``engine`` or ``boosting``; empty for
every other decision).

Revision ID: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

GROUNDS = ("moderation_log", "moderation_notices")


def upgrade() -> None:
    """Make what is missing (a database whose ``alembic_version`` was lost keeps what it has)."""
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    if "rating_exclusions" not in set(inspector.get_table_names()):
        op.create_table(
            "rating_exclusions",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("since", sa.Float, nullable=False),
        )
    for table in GROUNDS:
        if "grounds" not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, sa.Column("grounds", sa.String(16), nullable=True))


def downgrade() -> None:
    for table in GROUNDS:
        op.drop_column(table, "grounds")
    op.drop_table("rating_exclusions")
