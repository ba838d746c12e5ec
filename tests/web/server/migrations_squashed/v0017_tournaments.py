"""Tournaments (issue 49): ``tournaments`` (an arena, a Swiss or pods: game, time control, rated,
start, length, open to bots or not), ``tournament_players`` (registrations, with pause and
withdrawal), ``tournament_tables`` (each round's or arena wave's tables, their game and its
places) and ``tournament_byes`` (``tournaments/store.py``).

Revision ID: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "tournaments" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("sizes", sa.JSON, nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("creator", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_tournament_players_account_id", "tournament_players", ["account_id"])
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False, unique=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("made", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("places", sa.JSON, nullable=True),
        sa.Column("ended", sa.Float, nullable=True),
    )
    op.create_table(
        "tournament_byes",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_byes")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
