"""``boardplay serve``: run the web table (lobby, boards, replays) on a local address, as one
process or ``--workers N`` processes sharing the database (and Redis for live updates).

The command is declared inside :func:`register` so that its help texts are translated in the
language the app is built in (see ``boardplay.cli.main``)."""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import tempfile
from pathlib import Path

import typer
from rich.markup import escape

from boardplay.cli.common import console, fail
from boardplay.i18n import _, ngettext

SHUTDOWN_SECONDS = 10
"""How long a stopping server waits for its open responses before it cuts them."""


def register(app: typer.Typer) -> None:
    @app.command(
        "serve",
        help=_(
            "Serve the web app: play against the AI, hot-seat, or online by invitation link. "
            'Every ceiling can also be set in the environment (docs/web.md, "Security"); '
            "docs/deploy.md shows several processes and hosts on PostgreSQL and Redis."
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
        redis: str | None = typer.Option(
            None,
            "--redis",
            help=_(
                "Redis URL for live updates between server processes (default: "
                "$BOARDPLAY_REDIS_URL; none: updates stay within one process)."
            ),
        ),
        workers: int = typer.Option(
            1,
            "--workers",
            min=1,
            help=_(
                "Server processes on this port (they share the database; give them Redis, or "
                "sockets see other processes' moves only every few seconds)."
            ),
        ),
        log_level: str = typer.Option("info", "--log-level", help=_("uvicorn's log level.")),
        log_format: str | None = typer.Option(
            None,
            "--log-format",
            help=_(
                "text (uvicorn's lines) or json (one JSON object a line, with request ids and "
                "access lines by route; default: $BOARDPLAY_WEB_LOG_FORMAT, else text)."
            ),
        ),
    ) -> None:
        serve(
            host,
            port,
            db,
            ai_workers,
            ai_max_time,
            ai_max_iterations,
            data_dir,
            redis,
            workers,
            log_level,
            log_format,
        )


def bundle_folder() -> Path | None:
    """Where the front end's bundle of this install lies (``boardplay/web/static/dist``)."""
    spec = importlib.util.find_spec("boardplay.web")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)), "static", "dist")


def cannot_serve() -> str | None:
    """Why this install cannot serve, in a sentence, or None: the web extra is missing, or the
    front end's bundle (a library-only wheel, ``make wheel-lib``, has none)."""
    if any(importlib.util.find_spec(name) is None for name in ("uvicorn", "fastapi")):
        return _("boardplay serve needs the web extra: {command}").format(
            command=escape("pip install 'boardplay[web]'")
        )
    folder = bundle_folder()
    if folder is None or not any(folder.glob("app-*.js")):
        return _(
            "this boardplay has no web front end (a library-only wheel, or a clone before "
            "`make bundle`): install a full wheel (`make dist`) or run `make bundle`"
        )
    return None


def serve(
    host: str,
    port: int,
    db: str | None,
    ai_workers: int | None,
    ai_max_time: float | None,
    ai_max_iterations: int | None,
    data_dir: str | None,
    redis: str | None = None,
    workers: int = 1,
    log_level: str = "info",
    log_format: str | None = None,
) -> None:
    """Hand the flags to every server process through the environment (each flag overrides its
    environment variable) and run uvicorn with ``workers`` processes."""
    reason = cannot_serve()
    if reason is not None:  # one line, not a traceback from the server's start
        raise fail(reason)
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from boardplay.web.config import (
        AI_WORKERS_ENV,
        DATA_DIR_ENV,
        DATABASE_ENV,
        LOG_FORMAT_ENV,
        REDIS_ENV,
        Settings,
        default_database_url,
    )
    from boardplay.web.logs import log_config

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
        LOG_FORMAT_ENV: log_format,
    }
    os.environ.update({name: value for name, value in chosen.items() if value is not None})
    try:
        settings = Settings()
    except ValueError as exc:  # a bad setting in the environment: one line, no traceback
        raise fail(str(exc)) from None
    if host not in ("127.0.0.1", "::1", "localhost") and not settings.origin:
        # Passkeys are bound to the site's address; taken from each request, a visitor could
        # choose it (the Host header). A server others reach must be told where it is.
        raise fail(
            _(
                "listening on {host} makes the server public: set BOARDPLAY_WEB_ORIGIN to the "
                "address players reach it at (e.g. https://play.example.org), which passkeys "
                "and e-mail links are bound to"
            ).format(host=host)
        )
    processes = ngettext("{count} process", "{count} processes", workers).format(count=workers)
    if settings.redis_url:
        line = _(
            "boardplay web: http://{host}:{port}/  (database: {database}; {processes}; "
            "redis: {redis})"
        )
    else:
        line = _("boardplay web: http://{host}:{port}/  (database: {database}; {processes})")
    # Browsers refuse passkeys on a bare IP address: a loopback server is shown as localhost.
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    console.print(
        line.format(
            host=shown,
            port=port,
            database=settings.database_url,
            processes=processes,
            redis=settings.redis_url,
        )
    )
    # JSON lines come from one handler of our own, and the access lines from the app's front
    # door (``web/observe.py``), which knows the route and the request's id; text keeps uvicorn's.
    configured = log_config(settings.log_format, log_level)
    made = share_metrics(workers, settings.metrics_token)
    try:
        uvicorn.run(
            "boardplay.web.app:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level=log_level,
            ws_max_size=settings.limits.max_ws_message_bytes * 4,
            ws="boardplay.web.wsprotocol:QuietWebSockets",
            # Streams are ended on SIGTERM (``end_streams_on_exit``); a response still open
            # after this many seconds is cut, so a stop or a deploy never hangs on one reader.
            timeout_graceful_shutdown=SHUTDOWN_SECONDS,
            log_config=LOGGING_CONFIG if configured is None else configured,
            access_log=uvicorn_access_log(configured is not None, log_level),
        )
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def uvicorn_access_log(own_log: bool, log_level: str) -> bool:
    """Whether uvicorn writes its access lines: not beside a log of our own (``own_log``, JSON
    lines, whose access lines come from ``web/observe.py``), nor where the level drops them,
    since uvicorn builds each line's arguments (the client's address, the path quoted again)
    before its logger drops it: about 2% of a bot move's CPU."""
    from uvicorn.config import LOG_LEVELS

    return not own_log and LOG_LEVELS.get(log_level, logging.INFO) <= logging.INFO


def share_metrics(workers: int, token: str | None) -> str | None:
    """Set up prometheus_client's multiprocess mode for the server's processes, so that a
    scrape of any of them answers the sum of all (``web/metrics.py``): the operator's
    ``PROMETHEUS_MULTIPROC_DIR`` is emptied of an earlier run's files (their counts would be
    added to this run's), or, with ``--workers`` above 1 and the metrics served, a fresh
    temporary one is made and named to the processes. Returns the folder made here (removed
    when the server stops), else None."""
    from boardplay.web.config import SHARED_METRICS_ENV

    folder = os.environ.get(SHARED_METRICS_ENV)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for stale in Path(folder).glob("*.db"):
            stale.unlink()
        return None
    if workers < 2 or token is None:
        return None
    made = tempfile.mkdtemp(prefix="boardplay-metrics-")
    os.environ[SHARED_METRICS_ENV] = made
    return made
