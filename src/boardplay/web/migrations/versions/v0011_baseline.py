"""The schema of release 0.1.0, the oldest a database is upgraded from.

0.1.0 shipped eleven revisions, 0001 to 0011, each adding to what the one before made; they are
squashed here into one that makes at once the schema they ended at. It keeps the id of the last,
0011, so a database of any 0.1.0 install (at 0011) takes the revisions after it unchanged. A
database at 0001 to 0010 was made only by a development version before the release, and the
migrations refuse it (``migrate.py``). The eleven stand as they shipped under
``tests/web/server/migrations_0_1_0``, where ``test_web_migrations.py`` shows this revision
makes the same tables, columns, defaults, keys, constraints and indexes as they do, on SQLite
and PostgreSQL, before and after the later revisions.

The schema is written out here, not taken from the stores' tables: those follow the code, and
this revision must make tomorrow what it makes today.

What a table already has is kept and only what is missing is made: a missing table, a column of
an existing table, an index. That is still needed for one kind of database, the one made before
migrations existed: the server then made its tables with ``metadata.create_all`` and kept no
``alembic_version``, so Alembic sees no revision and starts here, on tables that are there
(``games``, ``seats``, ``actions``, their ``games`` lacking the columns of 0002 to 0009 and
perhaps ``reproducible``). No release made one either, but the old chain's first revision was
written to bring it up, ``test_web_security.py`` keeps such a database (one from before
reproducible games) working, and on a fresh database, where nothing is there, the checks cost
nothing. Games such a database holds are marked
``ai_seat = -2`` when active, as 0002 marked them: whether an AI is to move is not known yet,
and the first process that meets one finds out.

Revision ID: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    present = set(inspector.get_table_names())
    for table in release_0_1_0().sorted_tables:
        if table.name not in present:
            table.create(bind)
            continue
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in columns:
                op.add_column(table.name, column)
        indexes = {i["name"] for i in inspector.get_indexes(table.name)}
        for index in table.indexes:
            if index.name not in indexes:
                index.create(bind)
    if "games" in present:
        games = sa.table("games", sa.column("status", sa.String), sa.column("ai_seat", sa.Integer))
        op.execute(games.update().where(games.c.status == "active").values(ai_seat=-2))


def downgrade() -> None:
    for table in reversed(release_0_1_0().sorted_tables):
        op.drop_table(table.name)


def release_0_1_0() -> sa.MetaData:
    """The tables of release 0.1.0, each column in the place the old chain put it (a column a
    later revision added comes after the first ones), each index under the name it had."""
    schema = sa.MetaData()
    _games(schema)
    _accounts(schema)
    _lobby(schema)
    _chat_and_mail(schema)
    return schema


def _games(schema: sa.MetaData) -> None:
    """A game, its seats and moves (0001); its revision and AI job (0002); what its players
    settled (0004); who made it (0005); rated (0006); its clock (0009); its stored reviews
    (0003) and who is at its table (0008)."""
    sa.Table(
        "games",
        schema,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("reproducible", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("start_position", sa.JSON, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
        sa.Column("ai_seat", sa.Integer, nullable=True),
        sa.Column("ai_owner", sa.String(32), nullable=True),
        sa.Column("ai_lease", sa.Float, nullable=True),
        sa.Column("ai_attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("ai_error", sa.String(400), nullable=True),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("resigned", sa.JSON, nullable=True),
        sa.Column("draw_offer", sa.JSON, nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("ai_only", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("clock_state", sa.JSON, nullable=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Index("ix_games_status", "status"),
        sa.Index("ix_games_updated", "updated"),
        sa.Index("ix_games_ai_seat", "ai_seat"),
        sa.Index("ix_games_owner_created", "owner", "created"),
        sa.Index("ix_games_deadline", "deadline"),
    )
    sa.Table(
        "seats",
        schema,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("spec", sa.String(200), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Index("ix_seats_account_id", "account_id"),
    )
    sa.Table(
        "actions",
        schema,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("notation", sa.String(200), nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    sa.Table(
        "reviews",
        schema,
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
    sa.Table(
        "presence",
        schema,
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("spectators", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Index("ix_presence_at", "at"),
    )


def _accounts(schema: sa.MetaData) -> None:
    """Accounts, their sessions, passkeys, sign-in ceremonies and failures, the seats' keys of
    an account's browsers, and ratings (0006)."""
    sa.Table(
        "accounts",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    sa.Table(
        "sessions",
        schema,
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Index("ix_sessions_account_id", "account_id"),
    )
    sa.Table(
        "passkeys",
        schema,
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_passkeys_account_id", "account_id"),
    )
    sa.Table(
        "ceremonies",
        schema,
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(20), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=True),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Index("ix_ceremonies_expires", "expires"),
    )
    sa.Table(
        "signin_failures",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Index("ix_signin_failures_key_at", "key", "at"),
    )
    sa.Table(
        "seat_keys",
        schema,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Index("ix_seat_keys_game_id", "game_id"),
        sa.Index("ix_seat_keys_account_id", "account_id"),
    )
    sa.Table(
        "rated_games",
        schema,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("settled", sa.Float, nullable=False),
        sa.Column("places", sa.JSON, nullable=False),
        sa.Index("ix_rated_games_settled", "settled"),
    )
    sa.Table(
        "ratings",
        schema,
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Index("ix_ratings_pool_rating", "pool", "rating"),
    )
    sa.Table(
        "rating_history",
        schema,
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("pool", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def _lobby(schema: sa.MetaData) -> None:
    """Seeks, challenges and the lobby's events between processes (0007), a seek's and a
    challenge's time control (0009)."""
    sa.Table(
        "seeks",
        schema,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rating_min", sa.Integer, nullable=True),
        sa.Column("rating_max", sa.Integer, nullable=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("epoch", sa.String(16), nullable=False),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Index("ix_seeks_account_id", "account_id"),
        sa.Index("ix_seeks_heartbeat", "heartbeat"),
    )
    sa.Table(
        "challenges",
        schema,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("from_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Index("ix_challenges_created", "created"),
        sa.Index("ix_challenges_from_account", "from_account"),
        sa.Index("ix_challenges_to_account", "to_account"),
    )
    sa.Table(
        "lobby_events",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("message", sa.JSON, nullable=True),
        sa.Index("ix_lobby_events_at", "at"),
    )


def _chat_and_mail(schema: sa.MetaData) -> None:
    """Table chat and its reports (0010); mail addresses, the outbox and unsubscribe links
    (0011)."""
    sa.Table(
        "chat_messages",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Index("ix_chat_messages_game_id_id", "game_id", "id"),
    )
    sa.Table(
        "chat_reports",
        schema,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("chat_messages.id"), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("reporter_key", sa.String(80), nullable=False),
        sa.Column("reporter", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("message_id", "reporter_key", name="uq_chat_reports_message_reporter"),
        sa.Index("ix_chat_reports_game_id", "game_id"),
        sa.Index("ix_chat_reports_created", "created"),
    )
    sa.Table(
        "mail_addresses",
        schema,
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.Column("notify_turns", sa.Boolean, nullable=False),
        sa.Column("notify_end", sa.Boolean, nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=True),
        sa.Column("confirm_expires", sa.Float, nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Index("ix_mail_addresses_confirm_hash", "confirm_hash"),
    )
    sa.Table(
        "mail_outbox",
        schema,
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
        sa.Index("ix_mail_outbox_state", "state"),
        sa.Index("ix_mail_outbox_account_created", "account_id", "created"),
        sa.Index("ix_mail_outbox_to_created", "to_address", "created"),
    )
    sa.Table(
        "mail_unsubscribe",
        schema,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Index("ix_mail_unsubscribe_account_id", "account_id"),
        sa.Index("ix_mail_unsubscribe_created", "created"),
    )
