"""``boardplay serve``: run the web table (lobby, boards, replays) on a local address, as one
process or ``--workers N`` processes sharing the database (and Redis for live updates)."""

from __future__ import annotations

import os

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
    ai_workers: int | None = typer.Option(
        None,
        "--ai-workers",
        min=0,
        help="AI turns computed at once, each in its own process (0: one thread; default 4 "
        "or $BOARDPLAY_WEB_AI_WORKERS).",
    ),
    ai_max_time: float | None = typer.Option(
        None, "--ai-max-time", min=0.01, help="Ceiling on AI think time per move, seconds."
    ),
    ai_max_iterations: int | None = typer.Option(
        None, "--ai-max-iterations", min=1, help="Ceiling on MCTS iterations per move."
    ),
    data_dir: str | None = typer.Option(
        None,
        "--data-dir",
        help="Directory of extra game data files (*.json) offered to visitors by name.",
    ),
    redis: str | None = typer.Option(
        None,
        "--redis",
        help="Redis URL for live updates between server processes (default: "
        "$BOARDPLAY_REDIS_URL; none: updates stay within one process).",
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        min=1,
        help="Server processes on this port (they share the database; give them Redis, or "
        "sockets see other processes' moves only every few seconds).",
    ),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's log level."),
) -> None:
    """Serve the web app: play against the AI, hot-seat, or online by invitation link. Every
    ceiling can also be set in the environment (docs/web.md, "Security"); docs/deploy.md shows
    several processes and hosts on PostgreSQL and Redis."""
    import uvicorn

    from boardplay.web.config import (
        AI_WORKERS_ENV,
        DATA_DIR_ENV,
        DATABASE_ENV,
        REDIS_ENV,
        Settings,
        default_database_url,
    )

    # Every process (one, or each of --workers) builds its settings from the environment.
    chosen = {
        DATABASE_ENV: db or default_database_url(),
        AI_WORKERS_ENV: None if ai_workers is None else str(ai_workers),
        "BOARDPLAY_WEB_AI_MAX_TIME": None if ai_max_time is None else str(ai_max_time),
        "BOARDPLAY_WEB_AI_MAX_ITERATIONS": None
        if ai_max_iterations is None
        else str(ai_max_iterations),
        DATA_DIR_ENV: data_dir,
        REDIS_ENV: redis,
    }
    os.environ.update({name: value for name, value in chosen.items() if value is not None})
    settings = Settings()
    console.print(
        f"boardplay web: http://{host}:{port}/  (database: {settings.database_url}; "
        f"{workers} process{'es' if workers > 1 else ''}"
        f"{'; redis: ' + settings.redis_url if settings.redis_url else ''})"
    )
    uvicorn.run(
        "boardplay.web.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        ws_max_size=settings.limits.max_ws_message_bytes * 4,
    )
