"""A tournament's chat (issue 49): ``tournament_chat``, its messages (``tournaments/talk.py``).

Revision ID: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "tournament_chat" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "tournament_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_tournament_chat_tournament_id_id", "tournament_chat", ["tournament_id", "id"]
    )


def downgrade() -> None:
    op.drop_table("tournament_chat")
