"""``boardplay serve``: run the web table (lobby, boards, replays) on a local address."""

from __future__ import annotations

import typer

from boardplay.cli.common import console


def register(app: typer.Typer) -> None:
    app.command()(serve)


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="TCP port to listen on."),
    db: str | None = typer.Option(
        None,
        "--db",
        help="SQLAlchemy database URL (default: $BOARDPLAY_DATABASE_URL, else "
        "~/.local/share/boardplay/boardplay.sqlite3).",
    ),
    ai_workers: int = typer.Option(
        1, "--ai-workers", min=0, help="Processes computing AI moves (0: one thread)."
    ),
) -> None:
    """Serve the web app: play against the AI, hot-seat, or online by invitation link."""
    import uvicorn

    from boardplay.web.app import create_app
    from boardplay.web.config import Settings, default_database_url

    settings = Settings(database_url=db or default_database_url(), ai_workers=ai_workers)
    console.print(f"boardplay web: http://{host}:{port}/  (database: {settings.database_url})")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
