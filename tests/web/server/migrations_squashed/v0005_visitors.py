"""Who made a game, for the per-visitor ceilings that several processes must agree on.

``owner`` is a hash of the address that created the game (or started it as a rematch): the
creation quota counts a visitor's games of the last hour in the database, so every process and
every restart sees the same count, and the AI queue serves visitors in turn. ``ai_only`` marks a
game whose every seat is an AI, so a visitor's running AI-against-AI games can be counted. Games
stored before this revision have no owner and count for nobody.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

COLUMNS = (
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("ai_only", sa.Boolean, nullable=False, server_default=sa.false()),
)
INDEX = "ix_games_owner_created"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = {c["name"] for c in inspector.get_columns("games")}
    for column in COLUMNS:
        if column.name not in present:
            op.add_column("games", column)
    if INDEX not in {i["name"] for i in inspector.get_indexes("games")}:
        op.create_index(INDEX, "games", ["owner", "created"])


def downgrade() -> None:
    op.drop_index(INDEX, "games")
    for column in COLUMNS:
        op.drop_column("games", column.name)
