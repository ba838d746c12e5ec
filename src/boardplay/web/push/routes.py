"""The installable app and its pushes: the web app manifest and the service worker (both at the
site's root, under names that never change), a device's push subscription
(``/api/push``), the one-click off a notification carries, and the account's language
(``/api/account/language``), which its pushes and mails are written in.

The service worker is served from ``/sw.js``, not from the hashed bundle (``frontpage.py``):
a browser keeps one service worker per scope and URL, and checks that URL for a new version
itself, so its name must stay the same while its content changes; and a worker controls only
the pages under its own path, so it sits at the root to control every page of the site."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from boardplay.i18n import LANGUAGES
from boardplay.web.accounts import DEVICE_COOKIE, DEVICE_LIFETIME
from boardplay.web.api.deps import AccountDep, HubDep
from boardplay.web.errors import ApiError, bad_request
from boardplay.web.push.store import ENDPOINT_MAX, KEY_MAX, Subscription
from boardplay.web.push.webpush import allowed, check_subscription
from boardplay.web.tokens import hash_token, new_token

router = APIRouter(tags=["push"])

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


class Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


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


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker: asked again on every update check (``no-cache``), 304 while it is
    the same."""
    body, etag = _worker()
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/javascript", headers=headers)


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    return Response(
        json.dumps(MANIFEST, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


def _device(request: Request) -> str | None:
    """The hash of this browser's device cookie (``accounts``), or None without one."""
    device = request.cookies.get(DEVICE_COOKIE, "")
    return hash_token(device) if 20 <= len(device) <= 100 else None


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
    if not allowed(body.endpoint, config.services):
        raise bad_request(
            "field 'endpoint' must be on a push service this server posts to: "
            f"{', '.join(config.services)} (BOARDPLAY_WEB_PUSH_SERVICES)"
        )
    try:
        return check_subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    except ValueError as exc:
        raise bad_request(f"field 'keys': {exc}") from None


@router.get("/api/push")
async def push_status(request: Request, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """``{"available", "key", "device", "endpoint", "devices"}``: whether this server pushes,
    the key to subscribe with, whether this device is subscribed (and its endpoint) and how
    many devices of the account are."""
    status: dict[str, Any] = await hub.push.status(account.id, _device(request))
    return status


@router.put("/api/push")
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
    device = _device(request)
    if device is None:  # a browser that signed in before devices were remembered
        cookie = new_token()
        secure = request.url.scheme == "https"
        response.set_cookie(
            DEVICE_COOKIE,
            cookie,
            max_age=int(DEVICE_LIFETIME),
            httponly=True,
            samesite="lax",
            secure=secure,
            path="/",
        )
        device = hash_token(cookie)
    if not await hub.push.subscribe(account.id, device, target):
        raise ApiError(
            409,
            "endpoint_taken",
            "another browser's subscription has this endpoint (the same subscription sends its "
            "own keys)",
        )
    status: dict[str, Any] = await hub.push.status(account.id, device)
    return status


@router.delete("/api/push")
async def push_unsubscribe(request: Request, hub: HubDep, account: AccountDep) -> dict[str, Any]:
    """Push no more to this device."""
    device = _device(request)
    if device is not None:
        await hub.push.forget(account.id, device)
    status: dict[str, Any] = await hub.push.status(account.id, device)
    return status


@router.post("/api/push/off")
async def push_off(hub: HubDep, body: OffRequest) -> dict[str, Any]:
    """The one-click off of a notification (its "Turn off" button, from the service worker,
    with no cookie): the subscription's secret proves the device holds it."""
    return {"removed": await hub.push.off(body.endpoint, body.auth)}


@router.post("/api/push/renew")
async def push_renew(hub: HubDep, body: RenewRequest) -> dict[str, Any]:
    """The browser replaced its subscription (``pushsubscriptionchange``): the new one takes
    the old one's place, proven by the old one's secret (the service worker has no session)."""
    _pushes_on(hub)
    new = _checked(hub, body.new)
    old = Subscription(body.old.endpoint, "", body.old.auth)
    return {"renewed": await hub.push.renew(old, new)}


@router.put("/api/account/language")
async def put_language(hub: HubDep, account: AccountDep, body: LanguageRequest) -> dict[str, Any]:
    """The language the account's mails and pushes are written in, as chosen on the page."""
    if body.language not in LANGUAGES:
        raise bad_request(f"field 'language' must be one of {', '.join(LANGUAGES)}")
    await hub.db(hub.accounts.store.set_language, account.id, body.language)
    return {"language": body.language}
