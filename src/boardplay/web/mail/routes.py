"""E-mail notifications (``mail.py``): the signed-in player's address and choices
(``/api/account/email``), and the two links mails carry (``/api/email/confirm`` and
``/api/email/unsubscribe``).

The links are opened from a mail program, so they answer a small page in plain HTML (or, to a
client that does not ask for HTML, the API's JSON), with no cookie needed: the link's token
alone says whose address it is. The pages send no ``Referer`` onwards, so the token does not
leak to the next site, and are never cached. ``POST /api/email/unsubscribe`` is RFC 8058's
one-click unsubscribe, which mail programs send without any page (``guard.py`` lets its form
body through)."""

from __future__ import annotations

import html
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import Field

from boardplay.web.api.deps import AccountDep, HubDep
from boardplay.web.mail.store import ADDRESS_MAX
from boardplay.web.models import Body

router = APIRouter(tags=["email"])
NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


class EmailRequest(Body):
    address: Annotated[str, Field(max_length=ADDRESS_MAX + 10)] = Field(
        description="where to send notifications; a new address is sent a confirmation link"
    )
    notify_turns: bool = Field(True, description='mail "your turn" in correspondence games')
    notify_end: bool = Field(True, description='mail "game over" in correspondence games')
    resend: bool = Field(
        False, description="send the confirmation again (an address not yet confirmed)"
    )


Token = Annotated[str, Query(max_length=200, description="the token of the mail's link")]


@router.get("/api/account/email")
async def get_email(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """The account's address and choices (``email``: null without one), and whether this
    server sends e-mail at all (``available``)."""
    status: dict[str, Any] = await hub.mailer.status(account.id)
    return status


@router.put("/api/account/email")
async def put_email(hub: HubDep, account: AccountDep, body: EmailRequest) -> dict[str, Any]:
    """Set the address and choices. A new address is unconfirmed until its link is opened
    (``sent``: a confirmation was queued); notifications go only to a confirmed address."""
    saved: dict[str, Any] = await hub.mailer.save(
        account, body.address, body.notify_turns, body.notify_end, body.resend
    )
    return saved


@router.delete("/api/account/email")
async def delete_email(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """Forget the address (and stop every mail to it not yet sent)."""
    await hub.mailer.remove(account.id)
    status: dict[str, Any] = await hub.mailer.status(account.id)
    return status


def answer(request: Request, status: int, code: str, title: str, message: str) -> Response:
    """A small page for a person who opened a link, or the API's JSON for a program."""
    if "text/html" not in request.headers.get("accept", ""):
        if status >= 400:
            body: dict[str, Any] = {"error": {"code": code, "message": message}}
        else:
            body = {"ok": True, "code": code, "message": message}
        return JSONResponse(body, status, headers=NO_STORE)
    page = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex">'
        f"<title>{html.escape(title)} · boardplay</title>"
        '<link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><main class="panel" id="mail-link"><h1>{html.escape(title)}</h1>'
        f"<p>{html.escape(message)}</p>"
        '<p><a href="/#/account">Your account</a> · <a href="/">boardplay</a></p>'
        "</main></body></html>\n"
    )
    return HTMLResponse(page, status, headers=NO_STORE)


BAD_LINK = (
    "This link is not (or no longer) valid: it may have been cut short by the mail program, "
    "replaced by a newer mail, or expired."
)


@router.get("/api/email/confirm", response_class=HTMLResponse)
async def confirm(request: Request, hub: HubDep, token: Token = "") -> Response:
    """Confirm the address a confirmation mail went to (the link in that mail)."""
    if await hub.mailer.confirm(token):
        return answer(
            request,
            200,
            "confirmed",
            "Address confirmed",
            "Your e-mail address is confirmed: you will be mailed about your correspondence "
            "games as chosen on your account page.",
        )
    return answer(
        request,
        400,
        "bad_link",
        "Not confirmed",
        f"{BAD_LINK} Ask for a new confirmation mail on your account page.",
    )


async def _unsubscribe(request: Request, hub: HubDep, token: str) -> Response:
    if await hub.mailer.unsubscribe(token):
        return answer(
            request,
            200,
            "unsubscribed",
            "No more e-mail",
            "You will get no more notification mails. You can turn them on again on your "
            "account page.",
        )
    return answer(
        request,
        400,
        "bad_link",
        "Not unsubscribed",
        f"{BAD_LINK} Turn notification mails off on your account page instead.",
    )


@router.get("/api/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe(request: Request, hub: HubDep, token: Token = "") -> Response:
    """Turn off every notification mail of the account the link was made for."""
    return await _unsubscribe(request, hub, token)


@router.post("/api/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_one_click(request: Request, hub: HubDep, token: Token = "") -> Response:
    """RFC 8058 one-click unsubscribe: what a mail program posts for the mail's
    ``List-Unsubscribe`` header (body ``List-Unsubscribe=One-Click``, not read)."""
    return await _unsubscribe(request, hub, token)
