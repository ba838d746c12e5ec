"""The puzzles' routes (``puzzles/``; docs/web.md, "Puzzles"). Anyone may solve: a signed-in
player's first attempt at a puzzle is rated, a guest's attempts are practice, kept by this
browser's device cookie (made here for a browser without one when it starts an attempt)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from boardplay.web.api.cookies import device_cookie, device_of
from boardplay.web.api.deps import HubDep, SessionDep, VisitorDep
from boardplay.web.puzzles import GameRequest, PuzzleMove, Puzzles, Solver
from boardplay.web.tokens import hash_token

router = APIRouter(prefix="/api/puzzles")


def get_puzzles(hub: HubDep) -> Puzzles:
    return hub.puzzles


PuzzlesDep = Annotated[Puzzles, Depends(get_puzzles)]


def solver(
    request: Request, session: SessionDep, address: str, response: Response | None = None
) -> Solver:
    """Who asks, as the puzzles know them; with ``response``, a guest's browser without a device
    cookie is given one, so that what it starts is its own."""
    if session is not None:
        return Solver(f"account:{session.account.id}", session.account.id, address)
    device = device_cookie(request, response) if response else device_of(request)
    return Solver(None if device is None else f"device:{hash_token(device)}", None, address)


@router.get("")
async def overview(
    request: Request, puzzles: PuzzlesDep, session: SessionDep, address: VisitorDep
) -> dict[str, Any]:
    return await puzzles.overview(solver(request, session, address))


@router.get("/daily")
async def daily(puzzles: PuzzlesDep) -> dict[str, Any] | None:
    return await puzzles.daily()


@router.post("/next")
async def next_puzzle(
    body: GameRequest,
    request: Request,
    response: Response,
    puzzles: PuzzlesDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    return await puzzles.next_for(body.game, solver(request, session, address, response))


@router.post("/streaks")
async def new_streak(
    body: GameRequest,
    request: Request,
    response: Response,
    puzzles: PuzzlesDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    return await puzzles.new_streak(body.game, solver(request, session, address, response))


@router.post("/streaks/{streak_id}/next")
async def streak_next(
    streak_id: str, request: Request, puzzles: PuzzlesDep, session: SessionDep, address: VisitorDep
) -> dict[str, Any]:
    return await puzzles.streak_attempt(streak_id, solver(request, session, address))


@router.get("/attempts/{attempt_id}")
async def attempt(
    attempt_id: str, request: Request, puzzles: PuzzlesDep, session: SessionDep, address: VisitorDep
) -> dict[str, Any]:
    return await puzzles.read(attempt_id, solver(request, session, address))


@router.post("/attempts/{attempt_id}/moves")
async def move(
    attempt_id: str,
    body: PuzzleMove,
    request: Request,
    puzzles: PuzzlesDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    return await puzzles.move(attempt_id, body.move, solver(request, session, address))


@router.post("/{puzzle_id}/attempts")
async def start(
    puzzle_id: str,
    request: Request,
    response: Response,
    puzzles: PuzzlesDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    return await puzzles.start(puzzle_id, solver(request, session, address, response))
