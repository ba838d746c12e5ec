"""What the schema gained after release 0.1.0, the revisions 0012 to 0018 squashed into one.

No release shipped them: they are one revision that keeps the id of the last, 0018, so a
database at 0018 is at this one, and one at 0012 to 0017, which only a development version
made, is refused (``migrate.py``). The seven stand as they were under
``tests/web/server/migrations_squashed``, where ``test_web_migrations.py`` shows this revision
makes the same schema as they do, on SQLite and PostgreSQL. It adds:

- ``games``: ``rematch_offer``, a rematch one player proposed and the others have not all
  accepted (``{"by": seat, "agreed": [seats]}``); ``owner_prefix`` and ``owner_account``, who
  made a game beyond its exact address (the network prefix, the signed-in account), for the
  AI's fair shares (indexed with ``ai_only`` and ``status``);
- ``seats.seen``: when a seat's player last asked for the game with its token;
- ``rating_history.change``: the points a game moved, shown with its result and summed for the
  daily cap between two players;
- ``accounts``: ``language``, the one its mails and pushes are written in (null: English);
  ``bot``, a bot account (set once, never unset);
- ``throttles``: attempts counted per key before the work they guard (``throttles.py``); it
  replaces ``signin_failures``, which counted after the password check, and is dropped;
- ``account_seen``: the addresses and devices (their hashes) an account signed in from, for a
  known device's sign-in allowance and two accounts of one person (``admission/rule.py``);
- ``push_subscriptions``, ``push_outbox`` and ``push_keys``: a device's push subscription per
  account, every push from queued to sent, and the server's VAPID key
  (``notify/pushstore.py``);
- ``seek_seats``: the seats taken at an open table for three or four (``lobby/seatstore.py``);
- ``api_tokens``: personal API tokens, each one's SHA-256, scopes and label (``bots/store.py``);
- ``tournaments``, ``tournament_players``, ``tournament_tables``, ``tournament_byes`` and
  ``tournament_chat``: a tournament, its registrations, each round's tables, its byes
  (``tournaments/store.py``) and its chat (``tournaments/talk.py``).

Like the seven, it makes only what is missing (a table, a column, ``games``' index) and drops
``signin_failures`` only if it is there. A database with no revision at all is brought up by the
baseline and then by this revision whatever tables it already has; ``test_web_security.py``
keeps one that has them all. On a database at 0011 none of it is there and the checks cost
nothing.

Revision ID: 0018
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    present = set(inspector.get_table_names())
    for name, columns in _added_columns().items():
        there = {c["name"] for c in inspector.get_columns(name)}
        for column in columns:
            if column.name not in there:
                op.add_column(name, column)
    if "ix_games_ai_only_status" not in {i["name"] for i in inspector.get_indexes("games")}:
        op.create_index("ix_games_ai_only_status", "games", ["ai_only", "status"])
    if "signin_failures" in present:
        op.drop_table("signin_failures")
    for table in _new_tables().sorted_tables:
        if table.name not in present:
            table.create(bind)


def downgrade() -> None:
    for table in (
        "tournament_chat",
        "tournament_byes",
        "tournament_tables",
        "tournament_players",
        "tournaments",
        "api_tokens",
    ):
        op.drop_table(table)
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("bot")
    op.drop_table("seek_seats")
    op.drop_column("accounts", "language")
    for table in ("push_keys", "push_outbox", "push_subscriptions"):
        op.drop_table(table)
    op.drop_column("seats", "seen")
    op.drop_column("rating_history", "change")
    op.drop_index("ix_games_ai_only_status", "games")
    op.drop_column("games", "owner_account")
    op.drop_column("games", "owner_prefix")
    op.drop_table("account_seen")
    op.drop_table("throttles")
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_signin_failures_key_at", "signin_failures", ["key", "at"])
    op.drop_column("games", "rematch_offer")


def _added_columns() -> dict[str, list[sa.Column[Any]]]:
    """The columns added to 0.1.0's tables, each table's in the order they were added."""
    return {
        "games": [
            sa.Column("rematch_offer", sa.JSON, nullable=True),
            sa.Column("owner_prefix", sa.String(64), nullable=True),
            sa.Column("owner_account", sa.Integer, nullable=True),
        ],
        "seats": [sa.Column("seen", sa.Float, nullable=True)],
        "rating_history": [sa.Column("change", sa.Float, nullable=True)],
        "accounts": [
            sa.Column("language", sa.String(8), nullable=True),
            sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
        ],
    }


def _new_tables() -> sa.MetaData:
    """The tables made after 0.1.0, with their indexes under the names they had."""
    schema = sa.MetaData()
    # 0011's accounts, as far as the foreign keys name it: always there, so never made here
    sa.Table("accounts", schema, sa.Column("id", sa.Integer, primary_key=True))
    _accounts(schema)
    _push(schema)
    _lobby_and_bots(schema)
    _tournaments(schema)
    return schema


def _accounts(schema: sa.MetaData) -> None:
    """Throttles, in place of sign-in failures; where an account signed in from."""
    sa.Table(
        "throttles",
        schema,
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("start", sa.Float, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Index("ix_throttles_until", "until"),
    )
    sa.Table(
        "account_seen",
        schema,
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("first", sa.Float, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
        sa.Index("ix_account_seen_digest", "kind", "digest"),
    )


def _push(schema: sa.MetaData) -> None:
    """Web Push: the devices, the outbox, the server's key."""
    sa.Table(
        "push_subscriptions",
        schema,
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
        sa.Index("ix_push_subscriptions_device", "account_id", "device_hash", unique=True),
        sa.Index("ix_push_subscriptions_endpoint", "endpoint_hash", unique=True),
    )
    sa.Table(
        "push_outbox",
        schema,
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
        sa.Index("ix_push_outbox_subscription_id", "subscription_id"),
        sa.Index("ix_push_outbox_state", "state"),
        sa.Index("ix_push_outbox_account_created", "account_id", "created"),
    )
    sa.Table(
        "push_keys",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("private_key", sa.String(100), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def _lobby_and_bots(schema: sa.MetaData) -> None:
    """The seats of open tables; personal API tokens."""
    sa.Table(
        "seek_seats",
        schema,
        sa.Column("seek_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("epoch", sa.String(16), nullable=False),
        sa.Index("ix_seek_seats_account_id", "account_id"),
        sa.Index("ix_seek_seats_heartbeat", "heartbeat"),
    )
    sa.Table(
        "api_tokens",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
        sa.Index("ix_api_tokens_account_id", "account_id"),
    )


def _tournaments(schema: sa.MetaData) -> None:
    """Tournaments, their registrations, tables, byes and chat."""
    sa.Table(
        "tournaments",
        schema,
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
        sa.Index("ix_tournaments_status", "status"),
    )
    sa.Table(
        "tournament_players",
        schema,
        _tournament_id(primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Index("ix_tournament_players_account_id", "account_id"),
    )
    sa.Table(
        "tournament_tables",
        schema,
        _tournament_id(primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False, unique=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("made", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("places", sa.JSON, nullable=True),
        sa.Column("ended", sa.Float, nullable=True),
    )
    sa.Table(
        "tournament_byes",
        schema,
        _tournament_id(primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    )
    sa.Table(
        "tournament_chat",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _tournament_id(nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Index("ix_tournament_chat_tournament_id_id", "tournament_id", "id"),
    )


def _tournament_id(**kwargs: Any) -> sa.Column[str]:
    """The column naming the tournament a row of its tables belongs to."""
    return sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), **kwargs)
