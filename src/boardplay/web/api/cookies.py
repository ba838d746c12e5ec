"""The cookies the site sets on a browser, written once for the routes that set them: the
session's (``accounts.COOKIE``, set on signing in) and the device's (``accounts.DEVICE_COOKIE``:
which browser an account signed in from, and which one a push subscription belongs to, made by
whichever route meets a browser without one). Each is HTTP-only (no script reads it), same-site
lax, for the whole site, and secure when the site is served over HTTPS."""

from __future__ import annotations

from fastapi import Request, Response

from boardplay.web.accounts import DEVICE_COOKIE, DEVICE_LIFETIME
from boardplay.web.tokens import hash_token, new_token


def set_cookie(
    request: Request, response: Response, name: str, value: str, lifetime: float
) -> None:
    """Set cookie ``name`` to ``value`` for ``lifetime`` seconds."""
    response.set_cookie(
        name,
        value,
        max_age=int(lifetime),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def device_of(request: Request) -> str | None:
    """This browser's device cookie, or None without one (or with one no server made)."""
    device = request.cookies.get(DEVICE_COOKIE, "")
    return device if 20 <= len(device) <= 100 else None


def device_hash(request: Request) -> str | None:
    """The hash of this browser's device cookie, as push subscriptions are kept by, or None."""
    device = device_of(request)
    return None if device is None else hash_token(device)


def device_cookie(request: Request, response: Response) -> str:
    """This browser's device cookie, made and set now if it has none."""
    device = device_of(request)
    if device is None:
        device = new_token()
        set_cookie(request, response, DEVICE_COOKIE, device, DEVICE_LIFETIME)
    return device
