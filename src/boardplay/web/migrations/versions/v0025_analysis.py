"""The analysis board (``analysis/store.py``): ``analysis_studies``, one row per study, and
``analysis_nodes``, one row per position of a study's tree of variations.

Revision ID: 0025
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "analysis_studies" not in present:
        op.create_table(
            "analysis_studies",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("owner", sa.String(80), nullable=False),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("start_position", sa.JSON, nullable=True),
            sa.Column("players", sa.JSON, nullable=False),
            sa.Column("source", sa.JSON, nullable=False),
            sa.Column("source_game", sa.String(32), nullable=True),
            sa.Column("nodes", sa.Integer, nullable=False),
            sa.Column("next_node", sa.Integer, nullable=False),
            sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
        )
        op.create_index("ix_analysis_studies_owner", "analysis_studies", ["owner"])
        op.create_index("ix_analysis_studies_source_game", "analysis_studies", ["source_game"])
    if "analysis_nodes" not in present:
        op.create_table(
            "analysis_nodes",
            sa.Column(
                "study_id",
                sa.String(16),
                sa.ForeignKey("analysis_studies.id"),
                primary_key=True,
            ),
            sa.Column("node", sa.Integer, primary_key=True),
            sa.Column("parent", sa.Integer, nullable=True),
            sa.Column("rank", sa.Integer, nullable=False),
            sa.Column("action", sa.Integer, nullable=True),
            sa.Column("move", sa.String(64), nullable=True),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("comment", sa.Text, nullable=True),
            sa.Column("lines", sa.JSON, nullable=True),
        )


def downgrade() -> None:
    op.drop_table("analysis_nodes")
    op.drop_index("ix_analysis_studies_source_game", table_name="analysis_studies")
    op.drop_index("ix_analysis_studies_owner", table_name="analysis_studies")
    op.drop_table("analysis_studies")
