"""``boardplay serve``: run the web table (lobby, boards, replays) on a local address.

The command is declared inside :func:`register` so that its help texts are translated in the
language the app is built in (see ``boardplay.cli.main``)."""

from __future__ import annotations

import dataclasses

import typer

from boardplay.cli.common import console
from boardplay.i18n import _


def register(app: typer.Typer) -> None:
    @app.command(
        "serve",
        help=_(
            "Serve the web app: play against the AI, hot-seat, or online by invitation link. "
            'Every ceiling can also be set in the environment (docs/web.md, "Security").'
        ),
    )
    def serve_command(
        host: str = typer.Option("127.0.0.1", "--host", help=_("Address to listen on.")),
        port: int = typer.Option(8000, "--port", help=_("TCP port to listen on.")),
        db: str | None = typer.Option(
            None,
            "--db",
            help=_(
                "SQLAlchemy database URL (default: $BOARDPLAY_DATABASE_URL, else "
                "~/.local/share/boardplay/boardplay.sqlite3)."
            ),
        ),
        ai_workers: int | None = typer.Option(
            None,
            "--ai-workers",
            min=0,
            help=_(
                "AI turns computed at once, each in its own process (0: one thread; default 4 "
                "or $BOARDPLAY_WEB_AI_WORKERS)."
            ),
        ),
        ai_max_time: float | None = typer.Option(
            None, "--ai-max-time", min=0.01, help=_("Ceiling on AI think time per move, seconds.")
        ),
        ai_max_iterations: int | None = typer.Option(
            None, "--ai-max-iterations", min=1, help=_("Ceiling on MCTS iterations per move.")
        ),
        data_dir: str | None = typer.Option(
            None,
            "--data-dir",
            help=_("Directory of extra game data files (*.json) offered to visitors by name."),
        ),
    ) -> None:
        serve(host, port, db, ai_workers, ai_max_time, ai_max_iterations, data_dir)


def serve(
    host: str,
    port: int,
    db: str | None,
    ai_workers: int | None,
    ai_max_time: float | None,
    ai_max_iterations: int | None,
    data_dir: str | None,
) -> None:
    """Build the settings from the flags (each overrides its environment variable) and run."""
    import uvicorn

    from boardplay.web.app import create_app
    from boardplay.web.config import Settings, default_database_url

    settings = Settings(database_url=db or default_database_url())
    limits = settings.limits
    if ai_max_time is not None:
        limits = dataclasses.replace(limits, ai_max_time=ai_max_time)
    if ai_max_iterations is not None:
        limits = dataclasses.replace(limits, ai_max_iterations=ai_max_iterations)
    settings = dataclasses.replace(
        settings,
        limits=limits,
        ai_workers=settings.ai_workers if ai_workers is None else ai_workers,
        data_dir=settings.data_dir if data_dir is None else data_dir,
    )
    console.print(
        _("boardplay web: http://{host}:{port}/  (database: {database})").format(
            host=host, port=port, database=settings.database_url
        )
    )
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level="info",
        ws_max_size=settings.limits.max_ws_message_bytes * 4,
    )
