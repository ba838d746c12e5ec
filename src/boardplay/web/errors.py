"""The one error shape of the HTTP and WebSocket API: ``{"error": {"code", "message"}}``.

Bad input of any kind (malformed JSON, a wrong token, an illegal move, an unknown id) becomes an
``ApiError`` with a 4xx status and a sentence for people; nothing is changed when one is raised."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

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
