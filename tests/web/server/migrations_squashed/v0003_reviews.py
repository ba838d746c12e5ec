"""Game reviews, kept so a second visitor does not pay for the same review again.

One row per (game, reviewed seat, iterations per position): while the review runs, how many of
its positions are judged (``done`` of ``total``), which process runs it and when it last said
so (``beat``: a row nobody has touched for a while belongs to a process that died, and the next
request starts the review again); when it is done, the review itself (``result``). A finished
game never changes, so a stored review never goes stale.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "reviews" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("iterations", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("owner", sa.String(32), nullable=True),
        sa.Column("beat", sa.Float, nullable=False),
        sa.Column("error", sa.String(400), nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reviews")
