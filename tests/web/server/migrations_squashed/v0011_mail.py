"""E-mail: the addresses players give for notifications, and the mails waiting to be sent
(``mail.py``).

``mail_addresses`` holds one address per account, whether it is confirmed, what its player wants
mailed and the hash of its pending confirmation link; ``mail_outbox`` every mail from queued to
sent (claimed by one process at a time, retried, given up); ``mail_unsubscribe`` the hashes of
the unsubscribe links mails carried (``mailstore.py``).

Revision ID: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

TABLES = ("mail_unsubscribe", "mail_outbox", "mail_addresses")


def upgrade() -> None:
    if "mail_addresses" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "mail_addresses",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.Column("notify_turns", sa.Boolean, nullable=False),
        sa.Column("notify_end", sa.Boolean, nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=True),
        sa.Column("confirm_expires", sa.Float, nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_mail_addresses_confirm_hash", "mail_addresses", ["confirm_hash"])
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("to_address", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(150), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("sent_at", sa.Float, nullable=True),
        sa.Column("last_error", sa.String(400), nullable=True),
    )
    op.create_index("ix_mail_outbox_state", "mail_outbox", ["state"])
    op.create_index("ix_mail_outbox_account_created", "mail_outbox", ["account_id", "created"])
    op.create_index("ix_mail_outbox_to_created", "mail_outbox", ["to_address", "created"])
    op.create_table(
        "mail_unsubscribe",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_mail_unsubscribe_account_id", "mail_unsubscribe", ["account_id"])
    op.create_index("ix_mail_unsubscribe_created", "mail_unsubscribe", ["created"])


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
