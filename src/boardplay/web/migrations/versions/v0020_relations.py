"""Follows and blocks between players, and who is on the site: ``relations``
(``relations/store.py``) and ``lobby_online`` (``lobby/onlinestore.py``).

Revision ID: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "relations" not in tables:
        op.create_table(
            "relations",
            sa.Column("owner", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("other", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
        op.create_index("ix_relations_other_kind", "relations", ["other", "kind"])
    if "lobby_online" not in tables:
        op.create_table(
            "lobby_online",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("process", sa.String(16), primary_key=True),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.create_index("ix_lobby_online_at", "lobby_online", ["at"])


def downgrade() -> None:
    op.drop_table("lobby_online")
    op.drop_table("relations")
