"""Bot accounts and personal API tokens (issue 49): ``accounts.bot`` (a bot account, marked
BOT wherever it is named; set once, never unset) and ``api_tokens`` (each token's SHA-256, its
scopes and label; ``bots/store.py``).

Revision ID: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "bot" not in {c["name"] for c in inspector.get_columns("accounts")}:
        op.add_column(
            "accounts", sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false())
        )
    if "api_tokens" in inspector.get_table_names():
        return
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_table("api_tokens")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("bot")
