"""``boardplay db``: the web database's schema (``upgrade`` to the newest, ``current`` to see).

A server also migrates when it starts, under a lock, so this is for operators who prefer to
upgrade before rolling out new processes (docs/deploy.md)."""

from __future__ import annotations

import typer

from boardplay.cli.common import console

db_app = typer.Typer(help="The web database: schema migrations (Alembic).", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")


def _url(db: str | None) -> str:
    from boardplay.web.config import default_database_url

    return db or default_database_url()


DB_OPTION = typer.Option(
    None, "--db", help="SQLAlchemy database URL (default: $BOARDPLAY_DATABASE_URL, else SQLite)."
)


@db_app.command()
def upgrade(db: str | None = DB_OPTION) -> None:
    """Bring the database's schema to the newest revision (safe while servers start)."""
    from boardplay.web.migrate import upgrade as migrate
    from boardplay.web.storage import make_engine

    url = _url(db)
    engine = make_engine(url)
    try:
        reached = migrate(engine)
    finally:
        engine.dispose()
    console.print(f"database {engine.url.render_as_string(hide_password=True)}: at {reached}")


@db_app.command()
def current(db: str | None = DB_OPTION) -> None:
    """Print the database's schema revision and the newest this version knows."""
    from boardplay.web.migrate import current as revision
    from boardplay.web.migrate import head
    from boardplay.web.storage import make_engine

    engine = make_engine(_url(db))
    try:
        found = revision(engine)
    finally:
        engine.dispose()
    console.print(f"database at {found or 'no revision (empty)'}; newest is {head()}")
