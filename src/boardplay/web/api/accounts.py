"""The signed-in player (``/api/account``): sign up, sign in and out (password or passkey),
passkeys, password, deleting the account, and the player's games on any browser.

Every change made with the session cookie carries its CSRF token (``deps.get_session``); the
routes that start a session rotate it (a new cookie, the old session closed)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request, Response

from boardplay.web.accounts import (
    COOKIE,
    SESSION_LIFETIME,
    AdoptRequest,
    DeleteRequest,
    Passkey,
    PasskeyAnswer,
    PasswordRequest,
    RegisterRequest,
    SignInRequest,
    SignUpRequest,
)
from boardplay.web.api.cookies import device_cookie, device_hash, device_of, set_cookie
from boardplay.web.api.deps import (
    AccountDep,
    AccountsDep,
    AddressDep,
    HubDep,
    PasskeysDep,
    SessionDep,
    SiteDep,
    get_address,
    get_visitor,
)
from boardplay.web.errors import ApiError, bad_request, conflict, not_found
from boardplay.web.guard import network_of
from boardplay.web.hub import Hub
from boardplay.web.identity import Account
from boardplay.web.table import Room, summary
from boardplay.web.tokens import hash_token, new_token

router = APIRouter(prefix="/api/account", tags=["account"])
MY_GAMES = 100
"""Games "my games" lists (most recent change first)."""


def _key(key: Passkey) -> dict[str, Any]:
    return {"id": key.credential_id, "label": key.label, "created": key.created.isoformat()}


async def _me(accounts: AccountsDep, account: Account, csrf: str) -> dict[str, Any]:
    keys: list[Passkey] = await accounts.run(accounts.keys.passkeys, account.id)
    return {
        "account": {
            "name": account.name,
            "password": await accounts.password_hash(account.id) is not None,
            "passkeys": [_key(k) for k in keys],
            "language": account.language,
        },
        "csrf": csrf,
    }


async def _start_session(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    account: Account,
) -> dict[str, Any]:
    """Sign ``account`` in on this browser: a new session (any old one on it is closed), its
    cookie set, and the browser's device cookie (made now if it has none) remembered as one the
    account signed in from; answers what ``GET /me`` answers."""
    await accounts.close_session(request.cookies.get(COOKIE))
    cookie, session = await accounts.open_session(account)
    set_cookie(request, response, COOKIE, cookie, SESSION_LIFETIME)
    device = device_cookie(request, response)
    await accounts.seen(account, get_visitor(request), device)
    return await _me(accounts, account, session.csrf)


def _json_only(request: Request) -> None:
    """Sign-up and sign-in come from the page's scripts as JSON: a form another site submits
    (plain text or form encoding, no preflight) is refused, so it cannot sign a visitor in."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "json_required", "send this as Content-Type: application/json")


@router.get("/me")
async def me(accounts: AccountsDep, session: SessionDep) -> dict[str, Any]:
    """The signed-in player and the session's CSRF token, or ``{"account": null}``."""
    if session is None:
        return {"account": None, "csrf": None}
    return await _me(accounts, session.account, session.csrf)


@router.post("/signup", status_code=201)
async def sign_up(
    request: Request, response: Response, accounts: AccountsDep, body: SignUpRequest
) -> dict[str, Any]:
    """A new account with a password; signed in at once."""
    _json_only(request)
    network = network_of(get_address(request))
    account = await accounts.sign_up(body.name, body.password, network)
    return await _start_session(request, response, accounts, account)


@router.post("/signin")
async def sign_in(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    address: AddressDep,
    body: SignInRequest,
) -> dict[str, Any]:
    """Sign in with a name and password (401 for an unknown name or a wrong password alike)."""
    _json_only(request)
    account = await accounts.sign_in(body.name, body.password, address, device_of(request))
    return await _start_session(request, response, accounts, account)


@router.post("/signout")
async def sign_out(
    request: Request, response: Response, hub: HubDep, accounts: AccountsDep, session: SessionDep
) -> dict[str, Any]:
    if session is not None:
        await accounts.close_session(request.cookies.get(COOKIE))
        if device := device_hash(request):  # no more pushes to this browser
            await hub.push.forget(session.account.id, device)
    return _signed_out(response)


@router.post("/signout-everywhere")
async def sign_out_everywhere(
    response: Response, hub: HubDep, accounts: AccountsDep, account: AccountDep
) -> dict[str, Any]:
    """End every session of the account, this one too, and every seat token its browsers hold
    (from creating or joining a game, as a guest before signing in, or from "my games"): a
    lost or shared device can no longer act for the account anywhere. Signed in again, a
    browser gets new tokens for the account's seats."""
    await accounts.sign_out_everywhere(account)  # seat and API tokens: SignedOutEverywhere
    await hub.push.forget(account.id)  # and every device's push subscription
    return _signed_out(response)


def _signed_out(response: Response) -> dict[str, Any]:
    """This browser is signed out: its session cookie goes, and the answer is ``GET /me``'s
    for a guest."""
    response.delete_cookie(COOKIE, path="/")
    return {"account": None, "csrf": None}


@router.post("/password")
async def change_password(
    request: Request,
    response: Response,
    hub: HubDep,
    accounts: AccountsDep,
    session: SessionDep,
    account: AccountDep,
    body: PasswordRequest,
) -> dict[str, Any]:
    """Set a new password. Every other session ends and every seat token of the account dies
    (ASVS 3.3.3): whoever knew the old password is out everywhere. This browser stays signed
    in with a new session (a new cookie and CSRF token); its games give it new seat tokens
    when opened (``POST /games/{id}/token``)."""
    cookie = request.cookies.get(COOKIE)
    keep = hash_token(cookie) if cookie else None
    await accounts.change_password(account, body.old, body.new, keep)
    await hub.push.forget(account.id, keep=device_hash(request))  # this browser's pushes go on
    fresh = await accounts.by_id(account.id)
    assert session is not None and fresh is not None
    return await _start_session(request, response, accounts, fresh)


@router.post("/delete")
async def delete_account(
    response: Response,
    hub: HubDep,
    accounts: AccountsDep,
    account: AccountDep,
    body: DeleteRequest,
) -> dict[str, Any]:
    """Close the account for good. Its unfinished games against others end first as its
    resignations (rated once, like any resignation); finished games stay, its seats named
    "deleted player"; every session and seat token of it dies."""
    if body.confirm.strip() != account.name:
        raise bad_request("field 'confirm' must be the account's name, typed again")
    await accounts.delete(account)  # every domain hears it (``AccountClosed``)
    return _signed_out(response)


# ----- passkeys --------------------------------------------------------------------------------
@router.post("/passkeys/register")
async def begin_register(
    request: Request,
    site: SiteDep,
    passkeys: PasskeysDep,
    session: SessionDep,
    body: RegisterRequest,
) -> dict[str, Any]:
    """Options for ``navigator.credentials.create``: a new account (``name``) or, signed in, one
    more passkey for this account. Answer with ``/passkeys/register/finish``."""
    _json_only(request)
    account = session.account if session is not None else None
    return await passkeys.begin_register(site, None if account else body.name, account)


@router.post("/passkeys/register/finish")
async def finish_register(
    request: Request,
    response: Response,
    site: SiteDep,
    accounts: AccountsDep,
    passkeys: PasskeysDep,
    session: SessionDep,
    body: PasskeyAnswer,
) -> dict[str, Any]:
    _json_only(request)
    account = session.account if session is not None else None
    network = network_of(get_address(request))
    made = await passkeys.finish_register(
        site, body.ceremony, body.credential, body.label, account, network
    )
    if session is not None:
        return await _me(accounts, made, session.csrf)
    response.status_code = 201
    return await _start_session(request, response, accounts, made)


@router.post("/passkeys/signin")
async def begin_sign_in(request: Request, site: SiteDep, passkeys: PasskeysDep) -> dict[str, Any]:
    """Options for ``navigator.credentials.get`` (no name needed: the passkey knows)."""
    _json_only(request)
    return await passkeys.begin_sign_in(site)


@router.post("/passkeys/signin/finish")
async def finish_sign_in(
    request: Request,
    response: Response,
    site: SiteDep,
    accounts: AccountsDep,
    passkeys: PasskeysDep,
    body: PasskeyAnswer,
) -> dict[str, Any]:
    _json_only(request)
    account = await passkeys.finish_sign_in(site, body.ceremony, body.credential)
    return await _start_session(request, response, accounts, account)


@router.delete("/passkeys/{credential_id}")
async def remove_passkey(
    credential_id: str, accounts: AccountsDep, session: SessionDep, account: AccountDep
) -> dict[str, Any]:
    """Remove a passkey, unless it is the account's last way in."""
    keys: list[Passkey] = await accounts.run(accounts.keys.passkeys, account.id)
    if credential_id not in {k.credential_id for k in keys}:
        raise not_found("no such passkey on this account")
    if len(keys) == 1 and await accounts.password_hash(account.id) is None:
        raise conflict(
            "last_way_in",
            "this is the account's only passkey and it has no password: set one first",
        )
    await accounts.run(accounts.keys.remove_passkey, account.id, credential_id)
    assert session is not None
    return await _me(accounts, account, session.csrf)


# ----- games -----------------------------------------------------------------------------------
@router.post("/adopt")
async def adopt(
    hub: HubDep, accounts: AccountsDep, account: AccountDep, body: AdoptRequest
) -> dict[str, Any]:
    """Make the seats this browser holds as a guest the account's (on signing up or in)."""
    pairs: list[tuple[str, int]] = []
    for held in body.seats:
        try:
            room = await hub.room(held.game)
        except ApiError:
            continue
        pairs.extend((held.game, seat) for seat in sorted(room.seats_of(held.token)))
    return {"games": await hub.games.adopt(account.id, account.name, pairs)}


@router.get("/games")
async def my_games(hub: HubDep, accounts: AccountsDep, account: AccountDep) -> dict[str, Any]:
    """The account's games: running ones where it is to move first, then the other running
    ones, then finished ones, each as the lobby lists games plus ``your_seats`` and, for a
    finished rated game, what it did to the account's rating (``rating_change``,
    ``rating_weight``, ``rating_unrated``: ``ratings.effect_of``)."""
    games: list[dict[str, Any]] = []
    async for room, out in _games_of(hub, account):
        out.update(await hub.ratings.effect_of(room.row, out["your_seats"]))
        games.append(out)
    games.sort(key=lambda g: (not g["your_turn"], g["status"] != "active"))
    return {"games": games}


@router.get("/turns")
async def my_turns(hub: HubDep, accounts: AccountsDep, account: AccountDep) -> dict[str, Any]:
    """Every running game where the account must decide now (the header's badge counts them),
    the least time left first and untimed games last; ``now`` is the server's time, to count
    the deadlines down from."""
    games = [out async for _, out in _games_of(hub, account, running=True) if out["your_turn"]]
    games.sort(key=lambda g: (g["deadline"] is None, g["deadline"] or 0.0))
    return {"games": games, "count": len(games), "now": hub.now()}


async def _games_of(
    hub: Hub, account: Account, running: bool = False
) -> AsyncIterator[tuple[Room, dict[str, Any]]]:
    """The account's games (the latest ``MY_GAMES``; only the running ones if ``running``),
    each with its room and as the lobby lists it plus ``your_seats`` and ``your_turn``; a game
    that cannot be loaded is left out."""
    for game_id, status, updated in await hub.games.games_of(account.id, MY_GAMES):
        if running and status != "active":
            continue
        try:
            room = await hub.room(game_id)
        except ApiError:
            continue
        seats = [s.seat for s in room.row.seats if s.account == account.id]
        out = summary(room.public_view(), updated)
        out["your_seats"] = seats
        out["your_turn"] = out["status"] == "active" and out.get("current_player") in seats
        yield room, out


@router.post("/games/{game_id}/token")
async def seat_token(
    game_id: str, hub: HubDep, accounts: AccountsDep, account: AccountDep
) -> dict[str, Any]:
    """A token for this browser that holds the account's seats in the game (kept by the page
    as a guest's token is), so a game started on one device goes on on another."""
    room = await hub.room(game_id)
    token = new_token()
    digest = hash_token(token)
    keyed = await hub.games.seat_key(account.id, game_id, digest)
    if not keyed.seats:
        raise ApiError(403, "not_your_game", "this account holds no seat in this game")
    await room.keyed(keyed.seats, digest, keyed.revision)
    await room.changed()
    return {"token": token, "seats": keyed.seats, "game": room.view_for(token)}
