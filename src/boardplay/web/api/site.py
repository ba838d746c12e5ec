"""What the lobby reads before any game: the process's health, the games offered with their
options and AI levels, and each game's rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from boardplay.web.api.deps import CatalogueDep, HubDep
from boardplay.web.api.i18n import rules_language, rules_text_or_english
from boardplay.web.errors import ApiError, quote
from boardplay.web.table import DAYS, PRESETS, hints_for

router = APIRouter(prefix="/api")

AI_LEVELS = ("easy", "medium", "hard", "expert", "learned", "random")
"""Agent specs the lobby offers, strongest last except ``random``; only those a game's AI
provides and the server's ceilings allow are shown."""


@router.get("/health")
async def health(hub: HubDep) -> dict[str, Any]:
    """For a load balancer's health check: this process answers (and which one it is)."""
    return {"ok": True, "process": hub.epoch, "ai_running": hub.ai.running}


def ai_levels(request: Request, catalogue: CatalogueDep, name: str) -> list[str]:
    """The levels a seat of ``name`` may take on this server: those the game's AI provides and
    the operator's ceilings allow (the same check a created seat passes)."""
    levels: dict[str, list[str]] = request.app.state.levels
    if name not in levels:
        game = catalogue.load(name, {})
        usable: list[str] = []
        for spec in AI_LEVELS:
            try:
                request.app.state.hub.maker.check_spec(game, spec, "level")
            except ApiError:
                continue
            usable.append(spec)
        levels[name] = usable
    return levels[name]


@router.get("/catalogue")
async def get_catalogue(request: Request, catalogue: CatalogueDep) -> dict[str, Any]:
    games = []
    for name in catalogue.names():
        game = catalogue.load(name, {})
        games.append(
            {
                "name": name,
                "title": getattr(game, "title", name),
                "min_players": game.min_players,
                "max_players": game.max_players,
                "num_players": game.num_players,
                "seat_names": [game.seat_name(s) for s in range(game.max_players)],
                "options": [catalogue.describe(o) for o in game.option_set.specs],
                "ai_levels": ai_levels(request, catalogue, name),
                "hints": hints_for(game),
            }
        )
    limits = request.app.state.limits
    clocks = {
        "presets": [{"base": m * 60, "increment": i} for m, i in PRESETS],
        "days": list(DAYS),
        "abandon_after": limits.abandon_after,
    }
    return {"games": games, "clocks": clocks}


@router.get("/rules/{name}")
async def get_rules(catalogue: CatalogueDep, name: str, lang: str = "en") -> dict[str, Any]:
    lang = rules_language(lang)  # checked before anything else: a closed set
    if name not in catalogue.names():
        raise ApiError(404, "not_found", f"unknown game {quote(name)}")
    game = catalogue.load(name, {})
    try:
        text, lang = rules_text_or_english(game, lang)
    except OSError:
        title = getattr(game, "title", name)
        text = f"# {title}\n\nThe rules of this game are not written yet."
    return {"name": name, "title": getattr(game, "title", name), "markdown": text, "lang": lang}
