"""Table chat: the players' and the spectators' messages of a game, and the reports players make
of them (``chat.py``, ``chatstore.py``). Kept with the game, never in its public record.

Revision ID: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "chat_messages" not in existing:
        op.create_table(
            "chat_messages",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
            sa.Column("channel", sa.String(16), nullable=False),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("account_id", sa.Integer, nullable=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("text", sa.Text, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        op.create_index("ix_chat_messages_game_id_id", "chat_messages", ["game_id", "id"])
    if "chat_reports" not in existing:
        op.create_table(
            "chat_reports",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("message_id", sa.Integer, sa.ForeignKey("chat_messages.id"), nullable=False),
            sa.Column("game_id", sa.String(32), nullable=False),
            sa.Column("channel", sa.String(16), nullable=False),
            sa.Column("text", sa.Text, nullable=False),
            sa.Column("author", sa.String(200), nullable=False),
            sa.Column("reporter_key", sa.String(80), nullable=False),
            sa.Column("reporter", sa.String(200), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.UniqueConstraint(
                "message_id", "reporter_key", name="uq_chat_reports_message_reporter"
            ),
        )
        op.create_index("ix_chat_reports_game_id", "chat_reports", ["game_id"])
        op.create_index("ix_chat_reports_created", "chat_reports", ["created"])


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_table("chat_messages")
