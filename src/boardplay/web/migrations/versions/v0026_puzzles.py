"""Puzzles (``puzzles/store.py``): ``puzzles`` (the shipped sets with their ratings),
``puzzle_players`` (puzzle ratings per account and game), ``puzzle_attempts``,
``puzzle_results`` (the rated attempts' rating changes, in order) and ``puzzle_streaks``.

Revision ID: 0026
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "puzzles" not in present:
        op.create_table(
            "puzzles",
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("choices", sa.Integer, nullable=False),
            sa.Column("data", sa.JSON, nullable=False),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("deviation", sa.Float, nullable=False),
            sa.Column("volatility", sa.Float, nullable=False),
            sa.Column("plays", sa.Integer, nullable=False, server_default="0"),
            sa.Column("added", sa.Float, nullable=False),
        )
        op.create_index("ix_puzzles_game", "puzzles", ["game"])
    if "puzzle_players" not in present:
        op.create_table(
            "puzzle_players",
            sa.Column("account_id", sa.Integer, primary_key=True),
            sa.Column("game", sa.String(64), primary_key=True),
            sa.Column("rating", sa.Float, nullable=False),
            sa.Column("deviation", sa.Float, nullable=False),
            sa.Column("volatility", sa.Float, nullable=False),
            sa.Column("plays", sa.Integer, nullable=False, server_default="0"),
            sa.Column("updated", sa.Float, nullable=False),
        )
    if "puzzle_attempts" not in present:
        op.create_table(
            "puzzle_attempts",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("puzzle_id", sa.String(40), nullable=False),
            sa.Column("owner", sa.String(80), nullable=False),
            sa.Column("account_id", sa.Integer, nullable=True),
            sa.Column("rated_for", sa.Integer, nullable=True),
            sa.Column("mode", sa.String(8), nullable=False),
            sa.Column("streak_id", sa.String(16), nullable=True),
            sa.Column("actions", sa.JSON, nullable=False),
            sa.Column("moves", sa.Integer, nullable=False, server_default="0"),
            sa.Column("status", sa.String(8), nullable=False),
            sa.Column("started", sa.Float, nullable=False),
            sa.Column("finished", sa.Float, nullable=True),
            sa.UniqueConstraint("puzzle_id", "rated_for", name="uq_puzzle_attempts_rated"),
        )
        op.create_index("ix_puzzle_attempts_owner", "puzzle_attempts", ["owner"])
        op.create_index("ix_puzzle_attempts_streak_id", "puzzle_attempts", ["streak_id"])
    if "puzzle_results" not in present:
        op.create_table(
            "puzzle_results",
            sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("attempt_id", sa.String(16), nullable=False, unique=True),
            sa.Column("puzzle_id", sa.String(40), nullable=False),
            sa.Column("account_id", sa.Integer, nullable=False),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("solved", sa.Boolean, nullable=False),
            sa.Column("player_before", sa.JSON, nullable=False),
            sa.Column("player_after", sa.JSON, nullable=False),
            sa.Column("puzzle_before", sa.JSON, nullable=False),
            sa.Column("puzzle_after", sa.JSON, nullable=False),
            sa.Column("settled", sa.Float, nullable=False),
        )
        op.create_index("ix_puzzle_results_puzzle_id", "puzzle_results", ["puzzle_id"])
        op.create_index("ix_puzzle_results_account_id", "puzzle_results", ["account_id"])
    if "puzzle_streaks" not in present:
        op.create_table(
            "puzzle_streaks",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("owner", sa.String(80), nullable=False),
            sa.Column("game", sa.String(64), nullable=False),
            sa.Column("seed", sa.Integer, nullable=False),
            sa.Column("solved", sa.Integer, nullable=False, server_default="0"),
            sa.Column("current", sa.String(40), nullable=True),
            sa.Column("alive", sa.Boolean, nullable=False),
            sa.Column("started", sa.Float, nullable=False),
        )
        op.create_index("ix_puzzle_streaks_owner", "puzzle_streaks", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_streaks_owner", table_name="puzzle_streaks")
    op.drop_table("puzzle_streaks")
    op.drop_index("ix_puzzle_results_account_id", table_name="puzzle_results")
    op.drop_index("ix_puzzle_results_puzzle_id", table_name="puzzle_results")
    op.drop_table("puzzle_results")
    op.drop_index("ix_puzzle_attempts_streak_id", table_name="puzzle_attempts")
    op.drop_index("ix_puzzle_attempts_owner", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_index("ix_puzzles_game", table_name="puzzles")
    op.drop_table("puzzles")
