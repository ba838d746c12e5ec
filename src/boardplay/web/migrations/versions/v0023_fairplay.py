"""The fair-play evidence (``fairplay/store.py``): ``fairplay_evidence``, one row per account's
seat in a judged rated game; and the system's reports: ``player_reports.reporter_id`` may be
empty (a report the fair-play check filed).

Revision ID: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if "fairplay_evidence" not in set(sa.inspect(bind).get_table_names()):
        op.create_table(
            "fairplay_evidence",
            sa.Column("game_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
            sa.Column("pool", sa.String(64), nullable=False),
            sa.Column("judged", sa.Integer, nullable=False),
            sa.Column("agreed", sa.Integer, nullable=False),
            sa.Column("forced", sa.Integer, nullable=False),
            sa.Column("loss", sa.Float, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        op.create_index(
            "ix_fairplay_evidence_account_pool", "fairplay_evidence", ["account_id", "pool"]
        )
    with op.batch_alter_table("player_reports") as batch:
        batch.alter_column("reporter_id", existing_type=sa.Integer, nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM player_reports WHERE reporter_id IS NULL")
    with op.batch_alter_table("player_reports") as batch:
        batch.alter_column("reporter_id", existing_type=sa.Integer, nullable=False)
    op.drop_index("ix_fairplay_evidence_account_pool", table_name="fairplay_evidence")
    op.drop_table("fairplay_evidence")
