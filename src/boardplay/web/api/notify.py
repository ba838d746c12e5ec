"""The notices' routes (included by ``app.py``): the signed-in player's e-mail address and
choices (``/api/account/email``) and the two links mails carry (``/api/email/confirm``,
``/api/email/unsubscribe``); the installable app (the web app manifest and the service worker,
both at the site's root under names that never change), a device's push subscription
(``/api/push``), the one-click off a push carries, and the account's language
(``/api/account/language``), which its pushes and mails are written in.

The mails' links are opened from a mail program, so they answer a small page in plain HTML (or,
to a client that does not ask for HTML, the API's JSON), with no cookie needed: the link's token
alone says whose address it is. The pages send no ``Referer`` onwards, so the token does not
leak to the next site, and are never cached. ``POST /api/email/unsubscribe`` is RFC 8058's
one-click unsubscribe, which mail programs send without any page (``guard.py`` lets its form
body through).

The service worker is served from ``/sw.js``, not from the hashed bundle (``frontpage.py``):
a browser keeps one service worker per scope and URL, and checks that URL for a new version
itself, so its name must stay the same while its content changes; and a worker controls only
the pages under its own path, so it sits at the root to control every page of the site."""

from __future__ import annotations

import hashlib
import html
import json
from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import Field

from boardplay.i18n import LANGUAGES
from boardplay.web.api.cookies import device_cookie, device_hash
from boardplay.web.api.deps import AccountDep, HubDep
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.models import Body
from boardplay.web.notify import (
    ADDRESS_MAX,
    ENDPOINT_MAX,
    KEY_MAX,
    Subscription,
    allowed,
    check_subscription,
    endpoint_problem,
)
from boardplay.web.tokens import hash_token

mail_router = APIRouter(tags=["email"])
push_router = APIRouter(tags=["push"])


# ----- e-mail ----------------------------------------------------------------------------------
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


@mail_router.get("/api/account/email")
async def get_email(hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """The account's address and choices (``email``: null without one), and whether this
    server sends e-mail at all (``available``)."""
    status: dict[str, Any] = await hub.mailer.status(account.id)
    return status


@mail_router.put("/api/account/email")
async def put_email(hub: HubDep, account: AccountDep, body: EmailRequest) -> dict[str, Any]:
    """Set the address and choices. A new address is unconfirmed until its link is opened
    (``sent``: a confirmation was queued); notifications go only to a confirmed address."""
    saved: dict[str, Any] = await hub.mailer.save(
        account, body.address, body.notify_turns, body.notify_end, body.resend
    )
    return saved


@mail_router.delete("/api/account/email")
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


@mail_router.get("/api/email/confirm", response_class=HTMLResponse)
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


@mail_router.get("/api/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe(request: Request, hub: HubDep, token: Token = "") -> Response:
    """Turn off every notification mail of the account the link was made for."""
    return await _unsubscribe(request, hub, token)


@mail_router.post("/api/email/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_one_click(request: Request, hub: HubDep, token: Token = "") -> Response:
    """RFC 8058 one-click unsubscribe: what a mail program posts for the mail's
    ``List-Unsubscribe`` header (body ``List-Unsubscribe=One-Click``, not read)."""
    return await _unsubscribe(request, hub, token)


# ----- push notifications and the installable app ---------------------------------------------
THEME = "#2c2a26"
"""The header's colour (``static/style.css``): the app's title bar and splash."""
BACKGROUND = "#f6f3ee"
"""The page's background (``--bg``)."""
MANIFEST = {
    "id": "/",
    "name": "boardplay",
    "short_name": "boardplay",
    "description": "Potlatch Klone, Proteus, Passtally and Montana: against the AI or people.",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": BACKGROUND,
    "theme_color": THEME,
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
}
"""The web app manifest: what a browser needs to offer "install" (a name, icons of 192 and 512
pixels, a start URL, ``display: standalone``) and the colours of the installed app."""


Endpoint = Annotated[str, Field(min_length=10, max_length=ENDPOINT_MAX)]
Key = Annotated[str, Field(min_length=1, max_length=KEY_MAX)]


class SubscriptionKeys(Body):
    p256dh: Key = Field(description="the browser's P-256 public key (base64url)")
    auth: Key = Field(description="the subscription's 16-byte secret (base64url)")


class SubscriptionRequest(Body):
    """What ``PushSubscription.toJSON()`` gives."""

    endpoint: Endpoint = Field(description="the push service's URL for this device")
    keys: SubscriptionKeys
    expirationTime: int | float | None = Field(None, description="ignored (browsers send null)")


class OffRequest(Body):
    endpoint: Endpoint = Field(description="the subscription's endpoint")
    auth: Key = Field(description="the subscription's secret, proving the device holds it")


class RenewRequest(Body):
    old: OffRequest
    new: SubscriptionRequest


class LanguageRequest(Body):
    language: Annotated[str, Field(max_length=8)] = Field(
        description=f"one of {', '.join(LANGUAGES)}: the language of the account's mails and pushes"
    )


def _static(name: str) -> bytes:
    return resources.files("boardplay.web").joinpath("static", name).read_bytes()


@cache
def _worker() -> tuple[bytes, str]:
    body = _static("sw.js")
    return body, f'"{hashlib.sha256(body).hexdigest()[:20]}"'


@push_router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker: asked again on every update check (``no-cache``), 304 while it is
    the same."""
    body, etag = _worker()
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/javascript", headers=headers)


@push_router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    return Response(
        json.dumps(MANIFEST, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


def _pushes_on(hub: HubDep) -> None:
    if not hub.push.enabled or hub.push.public_key is None:
        raise ApiError(
            409,
            "push_off",
            "this server sends no push notifications (its web extra lacks pywebpush, or its "
            "push key could not be read)",
        )


def _checked(hub: HubDep, body: SubscriptionRequest) -> Subscription:
    config = hub.push.config
    assert config is not None
    if problem := endpoint_problem(body.endpoint):
        raise bad_request(f"field 'endpoint' must be the push service's URL as is: {problem}")
    if not allowed(body.endpoint, config.services):
        raise bad_request(
            "field 'endpoint' must be on a push service this server posts to: "
            f"{', '.join(config.services)} (BOARDPLAY_WEB_PUSH_SERVICES)"
        )
    try:
        return check_subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    except ValueError as exc:
        raise bad_request(f"field 'keys': {exc}") from None


@push_router.get("/api/push")
async def push_status(request: Request, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """``{"available", "key", "device", "endpoint", "devices"}``: whether this server pushes,
    the key to subscribe with, whether this device is subscribed (and its endpoint) and how
    many devices of the account are."""
    status: dict[str, Any] = await hub.push.status(account.id, device_hash(request))
    return status


@push_router.put("/api/push")
async def push_subscribe(
    request: Request,
    response: Response,
    hub: HubDep,
    account: AccountDep,
    body: SubscriptionRequest,
) -> dict[str, Any]:
    """Push to this device from now on (``PushSubscription.toJSON()``): it replaces the
    device's subscription before; past the account's device ceiling its oldest goes."""
    _pushes_on(hub)
    target = _checked(hub, body)
    # (made now for a browser that signed in before devices were remembered)
    device = hash_token(device_cookie(request, response))
    if not await hub.push.subscribe(account.id, device, target):
        raise ApiError(
            409,
            "endpoint_taken",
            "another browser's subscription has this endpoint (the same subscription sends its "
            "own keys)",
        )
    status: dict[str, Any] = await hub.push.status(account.id, device)
    return status


@push_router.delete("/api/push")
async def push_unsubscribe(request: Request, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """Push no more to this device."""
    device = device_hash(request)
    if device is not None:
        await hub.push.forget(account.id, device)
    status: dict[str, Any] = await hub.push.status(account.id, device)
    return status


@push_router.post("/api/push/off")
async def push_off(hub: HubDep, body: OffRequest) -> dict[str, Any]:
    """The one-click off of a notification (its "Turn off" button, from the service worker,
    with no cookie): the subscription's secret proves the device holds it."""
    return {"removed": await hub.push.off(body.endpoint, body.auth)}


@push_router.post("/api/push/renew")
async def push_renew(hub: HubDep, body: RenewRequest) -> dict[str, Any]:
    """The browser replaced its subscription (``pushsubscriptionchange``): the new one takes
    the old one's place, proven by the old one's secret (the service worker has no session)."""
    _pushes_on(hub)
    new = _checked(hub, body.new)
    old = Subscription(body.old.endpoint, "", body.old.auth)
    return {"renewed": await hub.push.renew(old, new)}


@push_router.put("/api/account/language")
async def put_language(hub: HubDep, account: AccountDep, body: LanguageRequest) -> dict[str, Any]:
    """The language the account's mails and pushes are written in, as chosen on the page."""
    if body.language not in LANGUAGES:
        raise bad_request(f"field 'language' must be one of {', '.join(LANGUAGES)}")
    await hub.accounts.set_language(account.id, body.language)
    return {"language": body.language}


router = APIRouter()
"""Both channels' routes, in the order the app always served them."""
router.include_router(mail_router)
router.include_router(push_router)
