"""The web table (DESIGN.md §5): one ASGI app that serves a lobby and SVG boards for every game,
keeps games in SQLite or PostgreSQL, validates every move with the engine and pushes live updates
over WebSockets. Start it with ``boardplay serve`` or ``create_app()``."""

from boardplay.web.app import create_app
from boardplay.web.config import Settings

__all__ = ["Settings", "create_app"]
