"""The one error shape of the HTTP and WebSocket API: ``{"error": {"code", "message"}}``.

Bad input of any kind (malformed JSON, a wrong token, an illegal move, an unknown id) becomes an
``ApiError`` with a 4xx status and a sentence for people; nothing is changed when one is raised.
A message quotes at most a short prefix of what the visitor sent (``quote``), and is cut at
``MAX_MESSAGE`` characters whatever it holds, so a 2 MB bad move never comes back 2 MB long."""

from __future__ import annotations

from typing import Any

MAX_MESSAGE = 600
"""Longest error message sent (long enough for a list of legal moves, never a visitor's data)."""
QUOTE = 40
"""Characters of a visitor's input an error message may repeat."""


def quote(value: Any, limit: int = QUOTE) -> str:
    """``repr`` of ``value`` cut to ``limit`` characters (with ``…`` when cut)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(message: str, limit: int = MAX_MESSAGE) -> str:
    return message if len(message) <= limit else message[: limit - 1] + "…"


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        message = clip(message)
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        """Extra response headers (``Retry-After`` of a 429)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Whole across a process boundary (a replay is built in a worker process)."""
        return (ApiError, (self.status, self.code, self.message, self.headers))

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def bad_request(message: str) -> ApiError:
    return ApiError(400, "bad_request", message)


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", what)


def forbidden(code: str, message: str) -> ApiError:
    return ApiError(403, code, message)


def conflict(code: str, message: str) -> ApiError:
    return ApiError(409, code, message)


def sign_in_needed(what: str) -> ApiError:
    """The 401 of something only a signed-in player may do."""
    return ApiError(401, "sign_in_required", f"sign in to {what}")
