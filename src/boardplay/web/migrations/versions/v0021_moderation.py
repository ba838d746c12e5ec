"""The moderators' tables (``moderation/store.py``): ``moderation_roles`` (the roles the operator
gave), ``player_reports`` (players' reports of players), ``moderation_decided`` (the reports
decided, chat lines' and players'), ``moderation_log`` (the audit log), ``chat_bans`` and
``moderation_notices`` (what a player is told of a decision about them).

Revision ID: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make the tables that are missing (a database whose ``alembic_version`` was lost has
    them all, and keeps them as they are)."""
    bind = op.get_bind()
    present = set(sa.inspect(bind).get_table_names())
    for table in _tables().sorted_tables:
        if table.name not in present:
            table.create(bind)


def downgrade() -> None:
    for table in (
        "moderation_notices",
        "chat_bans",
        "moderation_log",
        "moderation_decided",
        "player_reports",
        "moderation_roles",
    ):
        op.drop_table(table)


def _tables() -> sa.MetaData:
    """The moderators' tables, with their indexes."""
    schema = sa.MetaData()
    sa.Table("accounts", schema, sa.Column("id", sa.Integer, primary_key=True))  # always there
    sa.Table(
        "moderation_roles",
        schema,
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted", sa.Float, nullable=False),
    )
    sa.Table(
        "player_reports",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column(
            "reported_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True
        ),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False, index=True),
    )
    sa.Table(
        "moderation_decided",
        schema,
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("report_id", sa.Integer, primary_key=True),
        sa.Column("entry_id", sa.Integer, nullable=False),
    )
    sa.Table(
        "moderation_log",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("moderator_id", sa.Integer, nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True, index=True),
        sa.Column("account", sa.String(64), nullable=True),
        sa.Column("report", sa.String(24), nullable=True),
        sa.Column("days", sa.Integer, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False, index=True),
    )
    sa.Table(
        "chat_bans",
        schema,
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )
    sa.Table(
        "moderation_notices",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False, index=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("days", sa.Integer, nullable=True),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    return schema
