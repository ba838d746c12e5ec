"""The API's routers (``app.ROUTERS``) may be tried in any order: no route of one answers a path
of another's. ``ROUTERS`` puts the Bot API's first for speed; this is what makes that safe."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from fastapi import APIRouter
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute, Match

from boardplay.web.app import ROUTERS

PARAM = re.compile(r"\{[^}]+\}")
Endpoint = APIRoute | APIWebSocketRoute


def _endpoints(routes: Iterable[BaseRoute]) -> Iterator[Endpoint]:
    """Every endpoint of ``routes``, those of routers included in them too (``notify``'s)."""
    for route in routes:
        if isinstance(route, Endpoint):
            yield route
        elif (included := getattr(route, "original_router", None)) is not None:
            yield from _endpoints(included.routes)


def _clashes(routers: Sequence[APIRouter]) -> list[str]:
    """Each path one router's route answers (its parameters filled in) that a route of another
    router answers too, with the same method."""
    endpoints = [(i, e) for i, router in enumerate(routers) for e in _endpoints(router.routes)]
    found = []
    for index, route in endpoints:
        kind = "websocket" if isinstance(route, APIWebSocketRoute) else "http"
        path = PARAM.sub("1", route.path)
        for method in getattr(route, "methods", None) or {"GET"}:
            scope = {"type": kind, "method": method, "path": path, "root_path": ""}
            for other_index, other in endpoints:
                if other_index != index and other.matches(dict(scope))[0] == Match.FULL:
                    found.append(f"{method} {path}: {route.path} and {other.path}")
    return found


def test_no_router_answers_another_routers_paths() -> None:
    assert sum(1 for router in ROUTERS for _ in _endpoints(router.routes)) > 120
    assert _clashes(ROUTERS) == []


def test_a_clash_is_found() -> None:
    first, second = APIRouter(prefix="/api"), APIRouter(prefix="/api/bot")
    first.add_api_route("/bot/{game}", lambda game: game, methods=["POST"])
    second.add_api_route("/{game}", lambda game: game, methods=["POST", "GET"])
    assert _clashes([first, second]) == [
        "POST /api/bot/1: /api/bot/{game} and /api/bot/{game}",
        "POST /api/bot/1: /api/bot/{game} and /api/bot/{game}",
    ]
