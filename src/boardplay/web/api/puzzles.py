"""The puzzles' routes (``puzzles/``; docs/web.md, "Puzzles"). Anyone may solve: a signed-in
player's first attempt at a puzzle is rated, a guest's attempts are practice, kept by this
browser's device cookie (made here for a browser without one when it starts an attempt)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from boardplay.web.api.deps import HubDep, MakerDep, Owner, OwnerDep
from boardplay.web.puzzles import GameRequest, PuzzleMove, Puzzles, Solver

router = APIRouter(prefix="/api/puzzles")


def get_puzzles(hub: HubDep) -> Puzzles:
    return hub.puzzles


def solver(who: Owner) -> Solver:
    """Who asks, as the puzzles know them."""
    return Solver(who.key, who.account, who.address)


async def get_solver(who: OwnerDep) -> Solver:
    return solver(who)


async def get_starter(who: MakerDep) -> Solver:
    """Who asks at a route that starts an attempt: a guest's browser without a device cookie is
    given one (``MakerDep``), so that what it starts is its own."""
    return solver(who)


PuzzlesDep = Annotated[Puzzles, Depends(get_puzzles)]
SolverDep = Annotated[Solver, Depends(get_solver)]
StarterDep = Annotated[Solver, Depends(get_starter)]


@router.get("")
async def overview(puzzles: PuzzlesDep, who: SolverDep) -> dict[str, Any]:
    return await puzzles.overview(who)


@router.get("/daily")
async def daily(puzzles: PuzzlesDep) -> dict[str, Any] | None:
    return await puzzles.daily()


@router.post("/next")
async def next_puzzle(body: GameRequest, puzzles: PuzzlesDep, who: StarterDep) -> dict[str, Any]:
    return await puzzles.next_for(body.game, who)


@router.post("/streaks")
async def new_streak(body: GameRequest, puzzles: PuzzlesDep, who: StarterDep) -> dict[str, Any]:
    return await puzzles.new_streak(body.game, who)


@router.post("/streaks/{streak_id}/next")
async def streak_next(streak_id: str, puzzles: PuzzlesDep, who: SolverDep) -> dict[str, Any]:
    return await puzzles.streak_attempt(streak_id, who)


@router.get("/attempts/{attempt_id}")
async def attempt(attempt_id: str, puzzles: PuzzlesDep, who: SolverDep) -> dict[str, Any]:
    return await puzzles.read(attempt_id, who)


@router.post("/attempts/{attempt_id}/moves")
async def move(
    attempt_id: str, body: PuzzleMove, puzzles: PuzzlesDep, who: SolverDep
) -> dict[str, Any]:
    return await puzzles.move(attempt_id, body.move, who)


@router.post("/{puzzle_id}/attempts")
async def start(puzzle_id: str, puzzles: PuzzlesDep, who: StarterDep) -> dict[str, Any]:
    return await puzzles.start(puzzle_id, who)
