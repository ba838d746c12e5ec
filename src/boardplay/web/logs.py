"""The server's log lines as JSON, one object a line (``boardplay serve --log-format json``), each
carrying the id of the request it was written for: a log collector then indexes the fields
rather than parsing text, and every line of one request (its access line, a warning on its way)
is found by the id its answer carried in ``X-Request-ID``.

The id lives in a context variable set by the front door (``observe.py``) for the request's
life: whatever logs while it is answered, in the request's task or a task started from it,
finds it there (a storage thread does not: it logs nothing a request needs to be traced by).
The access lines are the front door's (``boardplay.access``): uvicorn's own give the raw path
and no route, status class or duration, and are turned off in this format."""

from __future__ import annotations

import json
import logging
import re
import secrets
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

REQUEST_ID: ContextVar[str | None] = ContextVar("boardplay_request_id", default=None)
"""The id of the request being answered in this context (None: none, e.g. a background task)."""
REQUEST_ID_HEADER = "x-request-id"
SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
"""An id taken from a client or a proxy as it is: short, and nothing that could forge a log
line or a header. Anything else is replaced by a fresh one."""
LOG_FORMATS = ("text", "json")
ACCESS = logging.getLogger("boardplay.access")
"""The access lines: one per answered request, at INFO."""
FIELDS = ("request_id", "method", "path", "route", "status", "duration_ms")
"""What a record may carry besides its message (the access lines' fields)."""


def request_id_from(header: bytes | None) -> str:
    """The request's id: the one it came with if sane (``SANE_ID``), else a new one."""
    if header:
        text = header.decode("latin-1")
        if SANE_ID.fullmatch(text):
            return text
    return secrets.token_hex(8)


class RequestIds(logging.Filter):
    """Gives every record the id of the request it is written for (``request_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = REQUEST_ID.get()
        return True


class JsonLines(logging.Formatter):
    """A record as one line of JSON: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, the ``FIELDS`` it carries, and ``exception`` (its traceback) if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(log_format: str, level: str) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for ``log_format``: None keeps uvicorn's own (``text``);
    ``json`` sends every logger's records, uvicorn's included, through one handler on the
    standard error writing ``JsonLines`` at ``level``."""
    if log_format == "text":
        return None
    name = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "boardplay.web.logs.RequestIds"}},
        "formatters": {"json": {"()": "boardplay.web.logs.JsonLines"}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["request_id"],
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": [], "level": name, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": name, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
        "root": {"handlers": ["json"], "level": name},
    }


def check_log_format(value: str, source: str) -> str:
    """``value`` if it is a log format, else a ``ValueError`` naming ``source``."""
    if value not in LOG_FORMATS:
        raise ValueError(f"{source} must be one of {', '.join(LOG_FORMATS)}, got {value!r}")
    return value
