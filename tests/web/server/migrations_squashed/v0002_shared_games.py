"""Games shared by several server processes.

``revision`` counts every change of a game, so a process can tell with one small query whether
its cached copy is current, and a write names the revision it was based on (two processes can
never both accept a change of the same revision). ``ai_seat`` marks a game whose AI seat is to
move: an AI job, claimed by one process for a lease (``ai_owner``, ``ai_lease``) that it renews
while thinking, so another process takes the job over when the owner dies. Games stored before
this revision get ``ai_seat = -2`` ("not known yet") and are checked once by whichever process
meets them first.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

COLUMNS = (
    sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
    sa.Column("ai_seat", sa.Integer, nullable=True),
    sa.Column("ai_owner", sa.String(32), nullable=True),
    sa.Column("ai_lease", sa.Float, nullable=True),
    sa.Column("ai_attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("ai_error", sa.String(400), nullable=True),
)


def upgrade() -> None:
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    for column in COLUMNS:
        if column.name not in present:
            op.add_column("games", column)
    games = sa.table("games", sa.column("status", sa.String), sa.column("ai_seat", sa.Integer))
    op.execute(games.update().where(games.c.status == "active").values(ai_seat=-2))
    indexes = {i["name"] for i in sa.inspect(op.get_bind()).get_indexes("games")}
    if "ix_games_ai_seat" not in indexes:
        op.create_index("ix_games_ai_seat", "games", ["ai_seat"])


def downgrade() -> None:
    op.drop_index("ix_games_ai_seat", "games")
    for column in COLUMNS:
        op.drop_column("games", column.name)
