"""What the routes depend on, as FastAPI dependencies: the process's hub, catalogue, ceilings,
heavy-read budget and reviewer (``create_app`` puts them on ``app.state``), the visitor's
address, who owns what a visitor makes (``OwnerDep``, ``MakerDep``), and the room a path's
``game_id`` names (404 if there is none).

Routes declare these in their signatures (``room: RoomDep``) instead of reaching into the app,
so each router module reads on its own, as the FastAPI template's ``api/deps.py`` does."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response, WebSocket

from boardplay.web.accounts import (
    COOKIE,
    CSRF_HEADER,
    Account,
    Accounts,
    Passkeys,
    Session,
    Site,
)
from boardplay.web.advice import Reviewer
from boardplay.web.api.cookies import device_cookie, device_of
from boardplay.web.bots import (
    BOT_PLAY,
    CHALLENGE_READ,
    CHALLENGE_WRITE,
    REQUESTS,
    TOKEN_PREFIX,
    ApiUser,
    Kind,
)
from boardplay.web.catalogue import WebCatalogue
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, forbidden
from boardplay.web.guard import address_of, hashed, prefix_of, visitor_of
from boardplay.web.hub import Hub
from boardplay.web.lobby import Lobby, for_people
from boardplay.web.replays import HeavyReads
from boardplay.web.table import Room
from boardplay.web.tokens import hash_token


def from_state(name: str) -> Callable[[Request], Awaitable[Any]]:
    """A dependency handing a route what ``create_app`` put on ``app.state`` as ``name`` (the
    process's hub and helpers), typed where it is declared (``HubDep`` ...). A coroutine,
    though it never waits: FastAPI runs a plain function dependency on a worker thread, a
    hand-over there and back at every request for one attribute read."""

    async def get(request: Request) -> Any:
        return getattr(request.app.state, name)

    return get


def get_address(request: Request) -> str:
    """The visitor's address (the rate limits' and budgets' key)."""
    return address_of(request.scope)


def get_visitor(request: Request) -> str:
    """The visitor as games store it (``GameRow.owner``)."""
    return visitor_of(request.scope)


def get_network(request: Request) -> str:
    """The visitor's wider network as games store it (``GameRow.owner_network``)."""
    return hashed(prefix_of(address_of(request.scope)))


def get_lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.hub.lobby
    return lobby


HubDep = Annotated[Hub, Depends(from_state("hub"))]


async def get_room(game_id: str, hub: HubDep) -> Room:
    """The game's room, current with the database (404 if there is no such game)."""
    return await hub.room(game_id)


CatalogueDep = Annotated[WebCatalogue, Depends(from_state("catalogue"))]
LimitsDep = Annotated[Limits, Depends(from_state("limits"))]
HeavyDep = Annotated[HeavyReads, Depends(from_state("heavy"))]
ReviewerDep = Annotated[Reviewer, Depends(from_state("reviewer"))]
AddressDep = Annotated[str, Depends(get_address)]
VisitorDep = Annotated[str, Depends(get_visitor)]
NetworkDep = Annotated[str, Depends(get_network)]
RoomDep = Annotated[Room, Depends(get_room)]
LobbyDep = Annotated[Lobby, Depends(get_lobby)]


def token_of(request: Request | WebSocket, field: str | None) -> str | None:
    """The seat token: header ``Authorization: Bearer <token>``, else the body's field."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return field or None


AccountsDep = Annotated[Accounts, Depends(from_state("accounts"))]


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


def get_site(request: Request) -> Site:
    """The origin passkeys are bound to: ``BOARDPLAY_WEB_ORIGIN`` as the operator set it, never
    the request's ``Host`` header (which the visitor writes). Unset, only a server listening on
    loopback has one, ``http://localhost:<its port>``; a public server without it answers 409
    (passkeys are off there until its operator sets the origin)."""
    origin: str | None = request.app.state.origin
    if origin:
        return Site(origin)
    host, port = request.scope.get("server") or ("", None)
    if host not in LOOPBACK_HOSTS:
        raise ApiError(
            409,
            "origin_unset",
            "passkeys are off: this server's operator has not set BOARDPLAY_WEB_ORIGIN (the "
            "address players reach the site at), which passkeys are bound to",
        )
    return Site(f"http://localhost:{port}" if port else "http://localhost")


UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def bears_api_token(request: Request) -> bool:
    """Whether ``request`` carries a personal API token (``bots/``), not a seat token."""
    header = request.headers.get("authorization", "")
    return header[:7].lower() == "bearer " and header[7:].strip().startswith(TOKEN_PREFIX)


async def get_session(request: Request, accounts: AccountsDep) -> Session | None:
    """The signed-in player's session (None: a guest). A change made with the cookie must
    carry the session's CSRF token in ``X-CSRF-Token``, or it is refused (403) and changes
    nothing, so another site cannot act for a signed-in visitor.

    A request bearing a personal API token (``Authorization: Bearer bp_…``) is judged by the
    token alone, as lichess does: its cookie, if the client also holds one, is not read (no
    session, no CSRF check), so a bot's owner whose client keeps a browser's cookie is not
    refused 403 ``csrf`` on a route that takes the token (``api/tournaments.py``), and a
    route that takes only the session answers 401 rather than acting with the cookie."""
    if bears_api_token(request):
        return None
    session = await accounts.session(request.cookies.get(COOKIE))
    if session is not None and request.method in UNSAFE:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), session.csrf.encode()):
            raise ApiError(
                403,
                "csrf",
                "this change was made with your sign-in cookie but without its CSRF token "
                "(header X-CSRF-Token, from GET /api/account/me); nothing was changed",
            )
    return session


async def get_account(session: Annotated[Session | None, Depends(get_session)]) -> Account:
    """The signed-in player, or 401."""
    if session is None:
        raise ApiError(401, "sign_in_required", "sign in first (POST /api/account/signin)")
    return session.account


async def get_seeker(
    request: Request, session: Annotated[Session | None, Depends(get_session)], hub: HubDep
) -> Account:
    """The player at a seek or table route: the signed-in account (401 for a guest). A request
    with a personal API token is judged by the token (``get_session``), never told to sign in
    with a password: a bot's token is refused as the admission rule refuses a bot at the
    lobby's lists (403 ``bot_no_seeks``: a bot plays through challenges, docs/bots.md), a
    person's with 403 ``seeks_need_session`` (no scope opens the lobby's lists to a program;
    the token is counted against its ceiling either way, and an unknown one is 401)."""
    if not bears_api_token(request):
        return await get_account(session)
    user = await hub.bots.authorise(request.headers.get("authorization"))
    await for_people(hub.lobby, user.account)
    raise forbidden(
        "seeks_need_session",
        "seeks and tables are taken on the site's pages, signed in; an API token plays through "
        "challenges (POST /api/challenge/{username})",
    )


def token_with(*scopes: str, kind: Kind = REQUESTS) -> Callable[[Request, Hub], Awaitable[ApiUser]]:
    """A dependency: the owner of the request's personal API token (``bots/``), if the token
    has one of ``scopes`` (none named: any token will do); 401 without one, 403
    ``missing_scope``; counted against the token's ceiling of ``kind`` (``bots/limits.py``)."""

    async def get(request: Request, hub: HubDep) -> ApiUser:
        header = request.headers.get("authorization")
        return await hub.bots.authorise(header, *scopes, kind=kind)

    return get


AnyTokenDep = Annotated[ApiUser, Depends(token_with())]
BotPlayDep = Annotated[ApiUser, Depends(token_with(BOT_PLAY))]
EventReaderDep = Annotated[ApiUser, Depends(token_with(BOT_PLAY, CHALLENGE_READ))]
"""A token that may read the event stream."""
ChallengeWriterDep = Annotated[ApiUser, Depends(token_with(CHALLENGE_WRITE, BOT_PLAY))]
"""A token that may send and answer challenges."""
ChallengeReaderDep = Annotated[ApiUser, Depends(token_with(CHALLENGE_READ, BOT_PLAY))]
SessionDep = Annotated[Session | None, Depends(get_session)]
AccountDep = Annotated[Account, Depends(get_account)]
SeekerDep = Annotated[Account, Depends(get_seeker)]
PasskeysDep = Annotated[Passkeys, Depends(from_state("passkeys"))]
SiteDep = Annotated[Site, Depends(get_site)]


@dataclass(frozen=True)
class Owner:
    """Who asks, as what they make (a study, a puzzle attempt) is kept by: ``key`` is
    ``account:<id>`` for a signed-in player, else ``device:<hash>`` for this browser's device
    cookie (None: a guest's browser without one, which owns nothing); ``account`` their account
    (None: a guest); ``address`` the visitor as ``VisitorDep`` gives it (their ceilings' key)."""

    key: str | None
    account: int | None
    address: str


def _owner(
    request: Request, session: Session | None, address: str, response: Response | None
) -> Owner:
    if session is not None:
        return Owner(f"account:{session.account.id}", session.account.id, address)
    device = device_cookie(request, response) if response is not None else device_of(request)
    return Owner(None if device is None else f"device:{hash_token(device)}", None, address)


async def get_owner(request: Request, session: SessionDep, address: VisitorDep) -> Owner:
    """Who asks, at a route that makes nothing: a guest's browser is known by the device cookie
    it already has, and none is made for it."""
    return _owner(request, session, address, None)


async def get_maker(
    request: Request, response: Response, session: SessionDep, address: VisitorDep
) -> Owner:
    """Who asks, at a route that makes something its guest should own: a guest's browser
    without a device cookie is given one (set on the route's answer), so that what it makes
    is its own on its next request."""
    return _owner(request, session, address, response)


OwnerDep = Annotated[Owner, Depends(get_owner)]
MakerDep = Annotated[Owner, Depends(get_maker)]


def same_origin(websocket: WebSocket, configured: str | None) -> bool:
    """No ``Origin`` (not a browser), or the site's own: the configured origin, else the host
    the socket was opened on. A socket opened by another site's page is a guest's, so that no
    other site can listen or speak for a signed-in player (a cookie goes with any page's
    socket; there is no CSRF token on a socket)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if configured:
        return origin.rstrip("/") == configured.rstrip("/")
    return urlsplit(origin).netloc == websocket.headers.get("host", "")


async def socket_account(websocket: WebSocket) -> Account | None:
    """The signed-in player whose page opened ``websocket`` (None: a guest, or another site's
    page)."""
    state = websocket.app.state
    if not same_origin(websocket, state.origin):
        return None
    accounts: Accounts = state.accounts
    session = await accounts.session(websocket.cookies.get(COOKIE))
    return None if session is None else session.account
