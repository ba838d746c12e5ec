"""Push notifications and each account's language (issue 52):

- ``push_subscriptions``: a device's push subscription per account (the device as the hash of
  its device cookie; the endpoint, its keys and the server key it was made for);
- ``push_outbox``: every push from queued to sent, claimed by one process at a time, retried,
  given up, or gone with its subscription (``notify/pushstore.py``);
- ``push_keys``: the server's VAPID private key, made once by the first process that needs it;
- ``accounts.language``: the language the account chose on the page, which its mails and pushes
  are written in (null: never chosen, English).

Revision ID: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "push_subscriptions" not in tables:
        op.create_table(
            "push_subscriptions",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
            sa.Column("device_hash", sa.String(64), nullable=False),
            sa.Column("endpoint", sa.String(1000), nullable=False),
            sa.Column("endpoint_hash", sa.String(64), nullable=False),
            sa.Column("p256dh", sa.String(100), nullable=False),
            sa.Column("auth", sa.String(100), nullable=False),
            sa.Column("server_key", sa.String(100), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("last_sent", sa.Float, nullable=True),
        )
        op.create_index(
            "ix_push_subscriptions_device",
            "push_subscriptions",
            ["account_id", "device_hash"],
            unique=True,
        )
        op.create_index(
            "ix_push_subscriptions_endpoint", "push_subscriptions", ["endpoint_hash"], unique=True
        )
    if "push_outbox" not in tables:
        op.create_table(
            "push_outbox",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("subscription_id", sa.Integer, nullable=False),
            sa.Column("account_id", sa.Integer, nullable=False),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("subject", sa.String(32), nullable=True),
            sa.Column("payload", sa.Text, nullable=False),
            sa.Column("ttl", sa.Integer, nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("state", sa.String(16), nullable=False),
            sa.Column("attempts", sa.Integer, nullable=False),
            sa.Column("claimed_by", sa.String(32), nullable=True),
            sa.Column("claimed_until", sa.Float, nullable=True),
            sa.Column("sent_at", sa.Float, nullable=True),
            sa.Column("status_code", sa.Integer, nullable=True),
            sa.Column("last_error", sa.String(400), nullable=True),
        )
        op.create_index("ix_push_outbox_subscription_id", "push_outbox", ["subscription_id"])
        op.create_index("ix_push_outbox_state", "push_outbox", ["state"])
        op.create_index("ix_push_outbox_account_created", "push_outbox", ["account_id", "created"])
    if "push_keys" not in tables:
        op.create_table(
            "push_keys",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("private_key", sa.String(100), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
        )
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("accounts")}
    if "language" not in columns:
        op.add_column("accounts", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "language")
    op.drop_table("push_keys")
    op.drop_table("push_outbox")
    op.drop_table("push_subscriptions")
