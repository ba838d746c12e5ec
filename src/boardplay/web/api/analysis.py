"""The analysis board's routes (``analysis/``; docs/api.md, "Analysis board"). A study is read
by anyone with its link; its owner is the signed-in account, else this browser's device cookie
(made here for a browser without one when it makes a study). A seat token sent as ``Authorization:
Bearer`` (or ``token``) tells fair play's rule the visitor plays the study's game."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from boardplay.web.analysis import (
    Analysis,
    CommentRequest,
    Lines,
    LinesRequest,
    MoveRequest,
    PromoteRequest,
    StudyRequest,
    Visitor,
)
from boardplay.web.api.deps import HubDep, MakerDep, Owner, OwnerDep, token_of

router = APIRouter(prefix="/api/analysis")


def get_analysis(hub: HubDep) -> Analysis:
    return hub.analysis


def get_lines(hub: HubDep) -> Lines:
    return hub.lines


def visitor(request: Request, who: Owner) -> Visitor:
    """Who asks, as the analysis board knows them (``analysis.Visitor``), with the seat token
    of their ``Authorization`` header; a route whose body may carry one adds it (``sent``)."""
    return Visitor(who.key, who.account, token_of(request, None), who.address)


def sent(request: Request, who: Visitor, token: str | None) -> Visitor:
    """``who`` with the seat token as ``token_of`` picks it between header and body."""
    return replace(who, token=token_of(request, token))


async def get_visitor(request: Request, who: OwnerDep) -> Visitor:
    return visitor(request, who)


async def get_maker(request: Request, who: MakerDep) -> Visitor:
    """Who asks at a route that makes a study: a guest's browser without a device cookie is
    given one (``MakerDep``), so that what it makes is its own."""
    return visitor(request, who)


AnalysisDep = Annotated[Analysis, Depends(get_analysis)]
LinesDep = Annotated[Lines, Depends(get_lines)]
AskerDep = Annotated[Visitor, Depends(get_visitor)]
StudyMakerDep = Annotated[Visitor, Depends(get_maker)]


@router.post("", status_code=201)
async def create(
    request: Request, body: StudyRequest, analysis: AnalysisDep, who: StudyMakerDep
) -> dict[str, Any]:
    who = sent(request, who, body.token)
    study = await analysis.create(body, who)
    return analysis.study_json(study, who)


@router.get("/{study_id}")
async def read(study_id: str, analysis: AnalysisDep, who: AskerDep) -> dict[str, Any]:
    return analysis.study_json(await analysis.study(study_id, who), who)


@router.post("/{study_id}/fork", status_code=201)
async def fork(study_id: str, analysis: AnalysisDep, who: StudyMakerDep) -> dict[str, Any]:
    copy = await analysis.fork(await analysis.study(study_id, who), who)
    return analysis.study_json(copy, who)


@router.get("/{study_id}/export")
async def export(study_id: str, analysis: AnalysisDep, who: AskerDep) -> Response:
    study = await analysis.study(study_id, who)
    filename = f"boardplay-study-{study.row.game}-{study.row.id}.json"
    return Response(
        json.dumps(analysis.export(study)),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{study_id}/nodes/{node}")
async def position(
    study_id: str, node: int, analysis: AnalysisDep, who: AskerDep
) -> dict[str, Any]:
    return analysis.node_json(await analysis.study(study_id, who), node)


@router.post("/{study_id}/nodes/{node}/moves")
async def play(
    study_id: str,
    node: int,
    body: MoveRequest,
    request: Request,
    analysis: AnalysisDep,
    who: AskerDep,
) -> dict[str, Any]:
    who = sent(request, who, body.token)
    study = await analysis.study(study_id, who)
    reached, new = await analysis.play(study, node, body, who)
    after = await analysis.study(study_id, who)
    return {"node": reached, "new": new, "study": analysis.study_json(after, who)}


@router.post("/{study_id}/nodes/{node}/promote")
async def promote(
    study_id: str,
    node: int,
    analysis: AnalysisDep,
    who: AskerDep,
    body: PromoteRequest | None = None,
) -> dict[str, Any]:
    study = await analysis.study(study_id, who)
    await analysis.promote(study, node, body.mainline if body else False, who)
    return analysis.study_json(await analysis.study(study_id, who), who)


@router.delete("/{study_id}/nodes/{node}")
async def delete(study_id: str, node: int, analysis: AnalysisDep, who: AskerDep) -> dict[str, Any]:
    study = await analysis.study(study_id, who)
    gone = await analysis.delete(study, node, who)
    return {"deleted": gone, "study": analysis.study_json(await analysis.study(study_id, who), who)}


@router.put("/{study_id}/nodes/{node}/comment")
async def comment(
    study_id: str, node: int, body: CommentRequest, analysis: AnalysisDep, who: AskerDep
) -> dict[str, Any]:
    study = await analysis.study(study_id, who)
    await analysis.comment(study, node, body.comment, who)
    return analysis.node_json(await analysis.study(study_id, who), node)


@router.post("/{study_id}/nodes/{node}/lines")
async def lines(
    study_id: str,
    node: int,
    request: Request,
    analysis: AnalysisDep,
    engine: LinesDep,
    who: AskerDep,
    body: LinesRequest | None = None,
) -> dict[str, Any]:
    asked = body or LinesRequest()
    who = sent(request, who, asked.token)
    study = await analysis.study(study_id, who)
    return await engine.lines(study, node, asked.level, asked.k, who.address)
