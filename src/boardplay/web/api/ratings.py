"""Players as others see them: a profile (``/api/players/{name}``: results and rating per game,
the rating's history, recent games with the rating each moved), a leaderboard per rating pool
(``/api/ratings/{pool}``) and what a finished rated game did to its players' ratings
(``/api/games/{id}/rating``). Nothing here is secret: what a profile shows, anyone watching the
games could have counted."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fastapi import APIRouter, Query

from boardplay.web.accounts import Account
from boardplay.web.api.deps import AccountsDep, CatalogueDep, HubDep, RoomDep
from boardplay.web.errors import ApiError, not_found
from boardplay.web.ratings import Standing, pools, verdict
from boardplay.web.table import summary

router = APIRouter(tags=["players"])
RESULTS = 2_000
"""Finished games a profile counts results over (the most recent)."""
RECENT = 20
HISTORY = 1_000


def standing(s: Standing) -> dict[str, Any]:
    return {
        "name": s.name,
        "pool": s.pool,
        "rating": round(s.rating.rating),
        "deviation": round(s.rating.deviation),
        "provisional": s.rating.provisional,
        "games": s.games,
        "bot": s.bot,
    }


@router.get("/api/players/{name}")
async def profile(name: str, hub: HubDep, accounts: AccountsDep) -> dict[str, Any]:
    account: Account | None = await accounts.by_name(name) if len(name) <= 64 else None
    if account is None:
        raise not_found(f"no player called {name[:40]!r}")
    results: dict[str, dict[str, int]] = {}
    seats = await hub.games.results_of(account.id, RESULTS)
    several = Counter(game_id for game_id, *_ in seats)
    for game_id, game, seat, result in seats:
        if several[game_id] > 1:
            continue  # one person at every seat (hotseat): no contest to count
        counts = results.setdefault(game, {"played": 0, "won": 0, "drawn": 0, "lost": 0})
        counts["played"] += 1
        counts[verdict(result, seat)] += 1
    recent: list[dict[str, Any]] = []
    for game_id, _status, updated in await hub.games.games_of(account.id, RECENT):
        try:
            room = await hub.room(game_id)
        except ApiError:
            continue
        if room.row.private:
            continue
        out = summary(room.public_view(), updated)
        out["their_seats"] = [s.seat for s in room.row.seats if s.account == account.id]
        out.update(await hub.ratings.effect_of(room.row, out["their_seats"]))
        recent.append(out)
    standings = await hub.ratings.standings_of(account.id)
    return {
        "name": account.name,
        "bot": account.bot,
        "results": results,
        "ratings": [standing(s) for s in standings],
        "history": await hub.ratings.history_of(account.id, HISTORY),
        "recent": recent,
    }


@router.get("/api/ratings")
async def rating_pools(catalogue: CatalogueDep) -> dict[str, Any]:
    """The pools there are leaderboards for."""
    return {"pools": pools(catalogue)}


@router.get("/api/ratings/{pool}")
async def leaderboard(
    pool: str,
    hub: HubDep,
    catalogue: CatalogueDep,
    limit: int = Query(50, ge=1, le=200),
    bots: bool = False,
) -> dict[str, Any]:
    """Players active in ``pool`` lately, best first (provisional ratings after the others);
    ``?bots=true``: the bot accounts' own leaderboard."""
    if pool not in pools(catalogue):
        raise not_found(f"no rating pool {pool[:40]!r}; GET /api/ratings lists them")
    board = await hub.ratings.leaderboard(pool, limit, bots)
    return {"pool": pool, "bots": bots, "players": [standing(s) for s in board]}


@router.get("/api/games/{game_id}/rating")
async def game_rating(room: RoomDep, hub: HubDep) -> dict[str, Any]:
    """What a finished rated game did to each player's rating: ``{"rated", "settled",
    "seats": [{"seat", "rating", "change"}]}`` (the page shows "You won · +12")."""
    return await hub.ratings.changes(room.row)
