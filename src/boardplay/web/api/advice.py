"""Hints and reviews (``advice/reviews.py``): the best move for a player to move, where hints are
allowed, and the review of a finished game. Reviews are heavy reads, charged to the asking
address."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from boardplay.web.advice import HintRequest, ReviewAsk, ReviewRequest
from boardplay.web.api.deps import (
    AddressDep,
    HeavyDep,
    ReviewerDep,
    RoomDep,
    SessionDep,
    token_of,
)

router = APIRouter(prefix="/api/games/{game_id}")


@router.post("/hint")
async def hint(
    request: Request, room: RoomDep, reviewer: ReviewerDep, body: HintRequest | None = None
) -> dict[str, Any]:
    token = token_of(request, body.token if body else None)
    return await reviewer.hint(room, token, body.ply if body else None)


@router.post("/review")
async def start_review(
    request: Request,
    room: RoomDep,
    reviewer: ReviewerDep,
    heavy: HeavyDep,
    address: AddressDep,
    session: SessionDep,
    body: ReviewRequest | None = None,
) -> dict[str, Any]:
    token = token_of(request, body.token if body else None)
    seat, iterations = (body.seat, body.iterations) if body else (None, None)
    account = session.account.id if session else None
    with heavy.metered(address, "reviews"):
        return await reviewer.start(ReviewAsk(room, token, seat, iterations, account))


@router.get("/review")
async def review_status(
    request: Request,
    room: RoomDep,
    reviewer: ReviewerDep,
    heavy: HeavyDep,
    address: AddressDep,
    session: SessionDep,
    seat: int | None = None,
    iterations: int | None = None,
) -> dict[str, Any]:
    account = session.account.id if session else None
    ask = ReviewAsk(room, token_of(request, None), seat, iterations, account)
    with heavy.metered(address, "reviews"):
        return reviewer.status(ask)
