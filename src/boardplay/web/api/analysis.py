"""The analysis board's routes (``analysis/``; docs/api.md, "Analysis board"). A study is read
by anyone with its link; its owner is the signed-in account, else this browser's device cookie
(made here for a browser without one when it makes a study). A seat token sent as ``Authorization:
Bearer`` (or ``token``) tells fair play's rule the visitor plays the study's game."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from boardplay.web.analysis import (
    Analysis,
    CommentRequest,
    Lines,
    LinesRequest,
    MoveRequest,
    PromoteRequest,
    Study,
    StudyRequest,
    Visitor,
)
from boardplay.web.api.cookies import device_cookie, device_of
from boardplay.web.api.deps import HubDep, SessionDep, VisitorDep, token_of
from boardplay.web.tokens import hash_token

router = APIRouter(prefix="/api/analysis")


def get_analysis(hub: HubDep) -> Analysis:
    return hub.analysis


def get_lines(hub: HubDep) -> Lines:
    return hub.lines


AnalysisDep = Annotated[Analysis, Depends(get_analysis)]
LinesDep = Annotated[Lines, Depends(get_lines)]


def visitor(
    request: Request,
    session: SessionDep,
    address: str,
    token: str | None = None,
    response: Response | None = None,
) -> Visitor:
    """Who asks, as the analysis board knows them (``analysis.Visitor``); with ``response``, a
    guest's browser without a device cookie is given one, so what it makes is its own."""
    account = session.account.id if session else None
    if session is not None:
        owner: str | None = f"account:{session.account.id}"
    else:
        device = device_cookie(request, response) if response else device_of(request)
        owner = None if device is None else f"device:{hash_token(device)}"
    return Visitor(owner, account, token_of(request, token), address)


async def readable(
    analysis: Analysis, study_id: str, request: Request, session: SessionDep, address: str
) -> tuple[Study, Visitor]:
    who = visitor(request, session, address)
    return await analysis.study(study_id, who), who


@router.post("", status_code=201)
async def create(
    request: Request,
    response: Response,
    body: StudyRequest,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    who = visitor(request, session, address, body.token, response)
    study = await analysis.create(body, who)
    return analysis.study_json(study, who)


@router.get("/{study_id}")
async def read(
    study_id: str, request: Request, analysis: AnalysisDep, session: SessionDep, address: VisitorDep
) -> dict[str, Any]:
    study, who = await readable(analysis, study_id, request, session, address)
    return analysis.study_json(study, who)


@router.post("/{study_id}/fork", status_code=201)
async def fork(
    study_id: str,
    request: Request,
    response: Response,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    who = visitor(request, session, address, response=response)
    copy = await analysis.fork(await analysis.study(study_id, who), who)
    return analysis.study_json(copy, who)


@router.get("/{study_id}/export")
async def export(
    study_id: str, request: Request, analysis: AnalysisDep, session: SessionDep, address: VisitorDep
) -> Response:
    study, _ = await readable(analysis, study_id, request, session, address)
    filename = f"boardplay-study-{study.row.game}-{study.row.id}.json"
    return Response(
        json.dumps(analysis.export(study)),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{study_id}/nodes/{node}")
async def position(
    study_id: str,
    node: int,
    request: Request,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    study, _ = await readable(analysis, study_id, request, session, address)
    return analysis.node_json(study, node)


@router.post("/{study_id}/nodes/{node}/moves")
async def play(
    study_id: str,
    node: int,
    body: MoveRequest,
    request: Request,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    who = visitor(request, session, address, body.token)
    study = await analysis.study(study_id, who)
    reached, new = await analysis.play(study, node, body, who)
    after = await analysis.study(study_id, who)
    return {"node": reached, "new": new, "study": analysis.study_json(after, who)}


@router.post("/{study_id}/nodes/{node}/promote")
async def promote(
    study_id: str,
    node: int,
    request: Request,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
    body: PromoteRequest | None = None,
) -> dict[str, Any]:
    study, who = await readable(analysis, study_id, request, session, address)
    await analysis.promote(study, node, body.mainline if body else False, who)
    return analysis.study_json(await analysis.study(study_id, who), who)


@router.delete("/{study_id}/nodes/{node}")
async def delete(
    study_id: str,
    node: int,
    request: Request,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    study, who = await readable(analysis, study_id, request, session, address)
    gone = await analysis.delete(study, node, who)
    return {"deleted": gone, "study": analysis.study_json(await analysis.study(study_id, who), who)}


@router.put("/{study_id}/nodes/{node}/comment")
async def comment(
    study_id: str,
    node: int,
    body: CommentRequest,
    request: Request,
    analysis: AnalysisDep,
    session: SessionDep,
    address: VisitorDep,
) -> dict[str, Any]:
    study, who = await readable(analysis, study_id, request, session, address)
    await analysis.comment(study, node, body.comment, who)
    return analysis.node_json(await analysis.study(study_id, who), node)


@router.post("/{study_id}/nodes/{node}/lines")
async def lines(
    study_id: str,
    node: int,
    request: Request,
    analysis: AnalysisDep,
    engine: LinesDep,
    session: SessionDep,
    address: VisitorDep,
    body: LinesRequest | None = None,
) -> dict[str, Any]:
    asked = body or LinesRequest()
    who = visitor(request, session, address, asked.token)
    study = await analysis.study(study_id, who)
    return await engine.lines(study, node, asked.level, asked.k, address)
