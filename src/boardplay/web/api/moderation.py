"""The moderation over HTTP (``moderation/`` has the rules).

Every route under ``/api/moderation`` is a moderator's: the router itself depends on
``get_moderator`` (401 for a guest, 403 for anyone who is not a moderator), so no route of it
can be added without that check. A player's side is elsewhere: reporting a player
(``POST /api/players/{name}/report``) and reading what was decided about them
(``/api/account/notices``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from boardplay.web.accounts import Account
from boardplay.web.api.deps import AccountDep, HubDep, SessionDep, get_account
from boardplay.web.moderation import ActionRequest, PlayerReportRequest


async def get_moderator(hub: HubDep, account: Annotated[Account, Depends(get_account)]) -> Account:
    """The signed-in moderator; 401 for a guest, 403 for anyone else."""
    await hub.moderation.require_moderator(account)
    return account


ModeratorDep = Annotated[Account, Depends(get_moderator)]

router = APIRouter(prefix="/api/moderation", dependencies=[Depends(get_moderator)])
"""The moderators' routes: each is refused to anyone else before it runs."""
players = APIRouter(prefix="/api")
"""What any signed-in player does: report a player, read the decisions about them."""

NoticeId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/queue")
async def queue(hub: HubDep, moderator: ModeratorDep) -> dict[str, Any]:
    """The undecided reports with their evidence: ``players`` (with the games between the
    two) and ``chat`` (the line with the lines around it)."""
    return await hub.moderation.queue()


@router.get("/log")
async def log(hub: HubDep, moderator: ModeratorDep) -> dict[str, Any]:
    """The audit log, newest first: who decided what, why, when, about whom."""
    return {"entries": [entry.to_json() for entry in await hub.moderation.log()]}


@router.get("/fairplay/{name}")
async def fairplay(
    hub: HubDep, moderator: ModeratorDep, name: Annotated[str, Path(min_length=1, max_length=64)]
) -> dict[str, Any]:
    """An account's fair-play evidence per rating pool: its judged games and moves, its
    agreement with the expert (and the agreement's lower bound), its mean loss of win chance,
    the pool's flag rule and whether it fires, and the games that stand out."""
    return await hub.fairplay.evidence(name)


@router.post("/actions", status_code=201)
async def act(hub: HubDep, moderator: ModeratorDep, body: ActionRequest) -> dict[str, Any]:
    """Decide on a report (``report``) or an account (``account``): ``dismiss``, ``warn``,
    ``chat_ban`` for ``days``, ``close``, ``mark`` (on ``grounds``: ``engine`` or ``boosting``),
    ``unmark``; the decision as the log holds it."""
    entry = await hub.moderation.act(
        moderator, body.action, body.reason, body.report, body.account, body.days, body.grounds
    )
    return {"entry": entry.to_json()}


@players.post("/players/{name}/report", status_code=201)
async def report_player(
    hub: HubDep,
    account: AccountDep,
    name: Annotated[str, Path(max_length=64)],
    body: PlayerReportRequest,
) -> dict[str, Any]:
    """Report a player to the moderators (``reason``, an optional ``note``, the ``game``
    reported from)."""
    report_id = await hub.moderation.report(account, name, body.reason, body.note, body.game)
    return {"reported": True, "id": report_id}


@players.get("/account/notices")
async def notices(hub: HubDep, session: SessionDep) -> dict[str, Any]:
    """What moderators decided about the signed-in player that they have not read yet, and
    whether they are a moderator (the page shows its link); a guest has none."""
    if session is None:
        return {"moderator": False, "notices": []}
    account = session.account
    found = await hub.moderation.notices(account.id)
    return {
        "moderator": await hub.moderation.is_moderator(account.id),
        "notices": [notice.to_json() for notice in found],
    }


@players.post("/account/notices/{notice_id}/seen")
async def notice_seen(hub: HubDep, account: AccountDep, notice_id: NoticeId) -> dict[str, Any]:
    """The player read the notice: it is not shown again."""
    await hub.moderation.seen(account.id, notice_id)
    return {"seen": True}
