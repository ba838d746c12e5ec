"""The web table (docs/design.md §5): one ASGI app that serves a lobby and SVG boards for every
game, keeps games in SQLite or PostgreSQL, validates every move with the engine and pushes live
updates over WebSockets. Start it with ``boardplay serve`` or ``create_app()``.

The names are imported on first use: AI worker processes import
``boardplay.web.workers.ai_worker`` and must not pay for the web framework (about two seconds
of imports on a busy machine)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardplay.web.app import create_app
    from boardplay.web.config import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from boardplay.web.app import create_app

        return create_app
    if name == "Settings":
        from boardplay.web.config import Settings

        return Settings
    raise AttributeError(f"module 'boardplay.web' has no attribute {name!r}")
