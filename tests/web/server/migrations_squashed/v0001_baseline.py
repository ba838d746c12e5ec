"""The schema of the single-process server (games, seats, actions).

A database made before migrations existed already has some of it (``create_all`` made the
tables, and games made before reproducible games lack that column): only what is missing is
created, so this revision brings any earlier database to the same starting point.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    tables = set(inspector.get_table_names())
    if "games" not in tables:
        op.create_table(
            "games",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("reproducible", sa.Boolean, nullable=False, server_default=sa.false()),
            sa.Column("start_position", sa.JSON, nullable=True),
            sa.Column("status", sa.String(16), nullable=False, index=True),
            sa.Column("result", sa.JSON, nullable=True),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated", sa.DateTime(timezone=True), nullable=False, index=True),
        )
    elif "reproducible" not in {c["name"] for c in inspector.get_columns("games")}:
        op.add_column(
            "games",
            sa.Column("reproducible", sa.Boolean, nullable=False, server_default=sa.false()),
        )
    if "seats" not in tables:
        op.create_table(
            "seats",
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("spec", sa.String(200), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True),
            sa.Column("invite_hash", sa.String(64), nullable=True),
        )
    if "actions" not in tables:
        op.create_table(
            "actions",
            sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("ply", sa.Integer, primary_key=True),
            sa.Column("action", sa.Integer, nullable=False),
            sa.Column("notation", sa.String(200), nullable=False),
            sa.Column("player", sa.Integer, nullable=False),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
