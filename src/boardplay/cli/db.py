"""``boardplay db``: the web database's schema (``upgrade`` to the newest, ``current`` to see) and
its ratings (``ratings``: rebuilt from the stored rated results) and the chat messages players
reported (``reports``).

A server also migrates when it starts, under a lock, so this is for operators who prefer to
upgrade before rolling out new processes (docs/deploy.md).

The group and its commands are declared inside :func:`register` so that their help texts are
translated in the language the app is built in (see ``boardplay.cli.main``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer

from boardplay.cli.common import console, friendly
from boardplay.i18n import _, ngettext

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from boardplay.web.table.storage import Storage


def register(app: typer.Typer) -> None:
    db_app = typer.Typer(
        help=_("The web database: schema migrations (Alembic)."), no_args_is_help=True
    )
    app.add_typer(db_app, name="db")

    @db_app.command(
        "upgrade",
        help=_("Bring the database's schema to the newest revision (safe while servers start)."),
    )
    def upgrade_command(db: str | None = db_option()) -> None:
        upgrade(db)

    @db_app.command(
        "current",
        help=_("Print the database's schema revision and the newest this version knows."),
    )
    def current_command(db: str | None = db_option()) -> None:
        current(db)

    @db_app.command(
        "ratings",
        help=_(
            "Rebuild every rating from the stored results of rated games, in the order they "
            "were settled (after a change to the rating formula)."
        ),
    )
    def ratings_command(db: str | None = db_option()) -> None:
        recompute_ratings(db)

    @db_app.command(
        "reports", help=_("List the table-chat messages players reported, newest first.")
    )
    def reports_command(
        db: str | None = db_option(),
        game: str | None = typer.Option(None, "--game", help=_("Only this game's reports.")),
        limit: int = typer.Option(50, "--limit", min=1, help=_("Most reports to list.")),
    ) -> None:
        chat_reports(db, game, limit)

    @db_app.command(
        "role",
        help=_("Give an account a role on the site (moderator), or take it back with --remove."),
    )
    def role_command(
        name: str = typer.Argument(..., help=_("The account's name.")),
        role: str = typer.Argument(..., help=_("The role: moderator.")),
        remove: bool = typer.Option(False, "--remove", help=_("Take the role back.")),
        db: str | None = db_option(),
    ) -> None:
        set_role(db, name, role, remove)


def db_option() -> Any:
    """The ``--db`` option of every ``db`` command."""
    return typer.Option(
        None,
        "--db",
        help=_("SQLAlchemy database URL (default: $BOARDPLAY_DATABASE_URL, else SQLite)."),
    )


def _url(db: str | None) -> str:
    from boardplay.web.config import default_database_url

    return db or default_database_url()


@contextmanager
def _engine(db: str | None) -> Iterator[Engine]:
    """A bare engine on the database at ``db``, for the schema commands (no storage: opening
    one would migrate), disposed of afterwards."""
    from boardplay.web.database import make_engine

    engine = make_engine(_url(db))
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def _storage(db: str | None) -> Iterator[Storage]:
    """The web's storage on the database at ``db``, closed afterwards."""
    from boardplay.web.table.storage import Storage

    storage = Storage(_url(db))
    try:
        yield storage
    finally:
        storage.close()


@friendly
def upgrade(db: str | None) -> None:
    """Bring the database at ``db`` (default: the configured one) to the newest revision; a
    database this version cannot upgrade (``migrate.UnreleasedSchemaError``) is one line."""
    from boardplay.web.migrate import upgrade as migrate

    with _engine(db) as engine:
        reached = migrate(engine)
    console.print(
        _("database {url}: at {revision}").format(
            url=engine.url.render_as_string(hide_password=True), revision=reached
        )
    )


def current(db: str | None) -> None:
    """Print the schema revision of the database at ``db`` and the newest one known."""
    from boardplay.web.migrate import current as revision
    from boardplay.web.migrate import head

    with _engine(db) as engine:
        found = revision(engine)
    if found:
        line = _("database at {revision}; newest is {head}").format(revision=found, head=head())
    else:
        line = _("database at no revision (empty); newest is {head}").format(head=head())
    console.print(line)


def recompute_ratings(db: str | None) -> None:
    """Replay the stored rated results into fresh ratings (``RatingStore.recompute``)."""
    from boardplay.web.ratings.store import RatingStore

    with _storage(db) as storage:
        games = RatingStore(storage.engine).recompute()
    said = ngettext(
        "ratings rebuilt from {count} rated game", "ratings rebuilt from {count} rated games", games
    )
    console.print(said.format(count=games))


@friendly
def set_role(db: str | None, name: str, role: str, remove: bool) -> None:
    """Give ``role`` to the account ``name`` (or take it back); an unknown role or name is one
    line and exit code 2."""
    from boardplay.core.errors import BoardplayError
    from boardplay.web.accounts import name_key
    from boardplay.web.accounts.store import AccountStore
    from boardplay.web.moderation.store import ROLES, ModerationStore

    if role not in ROLES:
        raise BoardplayError(
            _("unknown role {role!r}: the roles are {roles}").format(
                role=role, roles=", ".join(ROLES)
            )
        )
    with _storage(db) as storage:
        account = AccountStore(storage.engine).by_name(name_key(name.strip())[:64])
        if account is None:
            raise BoardplayError(_("there is no account named {name!r}").format(name=name))
        changed = ModerationStore(storage.engine).set_role(account.id, role, not remove)
    if remove:
        said = _("{name} is no longer a {role}") if changed else _("{name} was not a {role}")
    else:
        said = _("{name} is a {role} now") if changed else _("{name} was a {role} already")
    console.print(said.format(name=account.name, role=role))


def chat_reports(db: str | None, game: str | None, limit: int) -> None:
    """Print the reported chat messages (``chatstore.ChatStore.reports``) as a table."""
    from datetime import UTC, datetime

    from rich.table import Table

    from boardplay.web.chat.store import ChatStore

    with _storage(db) as storage:
        found = ChatStore(storage.engine).reports(game)[:limit]
    if not found:
        console.print(_("no chat message has been reported"))
        return
    table = Table(_("reported"), _("game"), _("channel"), _("author"), _("message"), _("by"))
    for report in found:
        when = datetime.fromtimestamp(report["created"], UTC).strftime("%Y-%m-%d %H:%M")
        table.add_row(
            when,
            report["game_id"],
            report["channel"],
            report["author"],
            report["text"],
            report["reporter"],
        )
    console.print(table)
