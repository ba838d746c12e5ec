"""The tournament routes: the list of upcoming and running tournaments, creating one (signed
in), one tournament's page data (settings, standings with tie-breaks, rounds with their games
to watch and byes), and entering, pausing and withdrawing: signed in, or with a personal API
token of scope ``tournament:write`` or ``bot:play`` (``bots/``), also at lichess's paths
(``/api/tournament/{id}/join``, ``/api/swiss/{id}/join`` and their ``withdraw``), so that bot
clients written for lichess need no change. JSON throughout; the service
(``tournaments/service.py``) is reached as ``app.state.hub.tournaments``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse

from boardplay.web.accounts import Account
from boardplay.web.api.deps import AccountDep, SessionDep, VisitorDep
from boardplay.web.api.tournament_pages import (
    Cursor,
    Limit,
    Status,
    TournamentId,
    TournamentsDep,
    listed_page,
)
from boardplay.web.api.tournament_pages import router as pages_router
from boardplay.web.bots import BOT_PLAY, TOURNAMENT_WRITE, Bots
from boardplay.web.errors import ApiError
from boardplay.web.tournaments import LIST_LIMIT, Plan, TournamentRequest

router = APIRouter(tags=["tournaments"])


async def get_player(request: Request, session: SessionDep) -> Account:
    """Who enters or leaves: a personal API token's account (scope ``tournament:write`` or
    ``bot:play``), else the signed-in player; 401 for neither."""
    header = request.headers.get("authorization")
    if header:
        bots: Bots = request.app.state.hub.bots
        return (await bots.authorise(header, TOURNAMENT_WRITE, BOT_PLAY)).account
    if session is None:
        raise ApiError(401, "sign_in_required", "sign in first, or send a personal API token")
    return session.account


PlayerDep = Annotated[Account, Depends(get_player)]
router.include_router(pages_router)  # what the site's pages read, and the tournament chat


@router.get("/api/tournaments")
async def listed(
    request: Request,
    tournaments: TournamentsDep,
    status: Status = "open",
    cursor: Cursor = None,
    limit: Limit = LIST_LIMIT,
) -> Response:
    """A page of the tournaments (``status``: upcoming and running, soonest first, by default;
    ``finished``: latest first) and ``next``, the following page's cursor (null on the last);
    with an ``ETag`` (304 on ``If-None-Match``)."""
    return await listed_page(request, tournaments, status, cursor, limit, False)


@router.post("/api/tournaments", status_code=201)
async def create(
    body: TournamentRequest, account: AccountDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    plan = Plan(
        name=body.name,
        kind=body.kind,
        game=body.game,
        options=body.options or {},
        sizes=body.sizes,
        clock=body.clock.model_dump(exclude_none=True),
        rated=body.rated,
        starts=body.starts,
        minutes=body.minutes,
        rounds=body.rounds,
        bots=body.bots,
    )
    made = await tournaments.create(account, plan)
    return {"tournament": made.to_json()}


@router.get("/api/tournaments/{tournament_id}")
async def show(tournament_id: TournamentId, tournaments: TournamentsDep) -> dict[str, Any]:
    """The tournament, its standings (best first) and its rounds."""
    return await tournaments.view(tournament_id)


@router.get("/api/tournaments/{tournament_id}/standings")
async def standings(
    request: Request,
    tournament_id: TournamentId,
    tournaments: TournamentsDep,
    session: SessionDep,
    page: Annotated[
        str | None,
        Query(pattern=r"^([1-9][0-9]{0,5}|me)$", description="1, 2, …, or me: the caller's page"),
    ] = None,
    since: Annotated[
        int | None, Query(ge=0, description="the revision the client shows: only what changed")
    ] = None,
) -> Response:
    """A page of the standings (``tournaments/paging.py``): ``standings``, ``page``, ``pages``,
    ``total``, ``revision`` and ``me`` (the signed-in caller's rank and page); with ``since``,
    only the page's lines that changed (``changed``), or ``unchanged``. An ``ETag`` per revision
    and page: a 304 on ``If-None-Match``."""
    player = None if session is None else session.account.id
    number = None if page == "me" else int(page or 1)
    answer = await tournaments.standings_page(tournament_id, number, since, player)
    tag = f'"{answer["revision"]}.{answer.get("page", 0)}.{player or 0}.{since}"'
    headers = {"ETag": tag, "Cache-Control": "private, no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return JSONResponse(answer, headers=headers)


@router.post("/api/tournaments/{tournament_id}/join")
@router.post("/api/tournament/{tournament_id}/join", include_in_schema=False)
@router.post("/api/swiss/{tournament_id}/join", include_in_schema=False)
async def join(
    tournament_id: TournamentId, player: PlayerDep, visitor: VisitorDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Enter, or come back after a pause or a withdrawal."""
    await tournaments.join(tournament_id, player, visitor)
    return await tournaments.view(tournament_id)


@router.post("/api/tournaments/{tournament_id}/pause")
async def pause(
    tournament_id: TournamentId, player: PlayerDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Paired no more until you join again (an arena's break; a round-based event skips you)."""
    await tournaments.pause(tournament_id, player)
    return await tournaments.view(tournament_id)


@router.post("/api/tournaments/{tournament_id}/withdraw")
@router.post("/api/tournament/{tournament_id}/withdraw", include_in_schema=False)
@router.post("/api/swiss/{tournament_id}/withdraw", include_in_schema=False)
async def withdraw(
    tournament_id: TournamentId, player: PlayerDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Leave: paired no more; your games so far stay in the standings."""
    await tournaments.withdraw(tournament_id, player)
    return await tournaments.view(tournament_id)
