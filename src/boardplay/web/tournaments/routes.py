"""The tournament routes: the list of upcoming and running tournaments, creating one (signed
in), one tournament's page data (settings, standings with tie-breaks, rounds with their games
to watch and byes), and entering, pausing and withdrawing (signed in). JSON throughout; the
service (``service.py``) is reached as ``app.state.hub.tournaments``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from boardplay.web.deps import AccountDep
from boardplay.web.tournaments.schemas import TournamentRequest
from boardplay.web.tournaments.service import Plan, Tournaments

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


def get_tournaments(request: Request) -> Tournaments:
    service: Tournaments = request.app.state.hub.tournaments
    return service


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]


@router.get("")
async def listed(tournaments: TournamentsDep) -> dict[str, Any]:
    """Upcoming and running tournaments, soonest first."""
    return {"tournaments": await tournaments.listed()}


@router.post("", status_code=201)
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
    )
    made = await tournaments.create(account, plan)
    return {"tournament": made.to_json()}


@router.get("/{tournament_id}")
async def show(tournament_id: str, tournaments: TournamentsDep) -> dict[str, Any]:
    """The tournament, its standings (best first) and its rounds."""
    return await tournaments.view(tournament_id[:32])


@router.get("/{tournament_id}/standings")
async def standings(tournament_id: str, tournaments: TournamentsDep) -> dict[str, Any]:
    view = await tournaments.view(tournament_id[:32])
    return {"standings": view["standings"]}


@router.post("/{tournament_id}/join")
async def join(
    tournament_id: str, account: AccountDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Enter, or come back after a pause or a withdrawal."""
    await tournaments.join(tournament_id[:32], account)
    return await tournaments.view(tournament_id[:32])


@router.post("/{tournament_id}/pause")
async def pause(
    tournament_id: str, account: AccountDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Paired no more until you join again (an arena's break; a round-based event skips you)."""
    await tournaments.pause(tournament_id[:32], account)
    return await tournaments.view(tournament_id[:32])


@router.post("/{tournament_id}/withdraw")
async def withdraw(
    tournament_id: str, account: AccountDep, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Leave: paired no more; your games so far stay in the standings."""
    await tournaments.withdraw(tournament_id[:32], account)
    return await tournaments.view(tournament_id[:32])
