"""Finding an opponent: seeks anyone signed in may accept (``lobby/seeks.py``), tables for three
or four whose seats they take (``lobby/tables.py``), quick games (``lobby/quick.py``), challenges
to a named player (``lobby/challenges.py``), and the live lobby socket that shows them
(``lobby/sockets.py``).

Every change needs a signed-in player (401 for a guest) and, made with the session cookie, its
CSRF token (403 without: ``deps.get_session``); listing seeks and watching the lobby socket do
not. The seeks and tables are for people: a bot is refused (403 ``bot_no_seeks``, the admission
rule's), whether it comes with its session or its API token (``deps.get_seeker``). A refusal is
a 4xx in the API's error shape and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, WebSocket

from boardplay.web.accounts import COOKIE, Account, Accounts
from boardplay.web.admission import Door
from boardplay.web.api.bodies import json_or_form
from boardplay.web.api.deps import (
    AccountDep,
    ChallengeReaderDep,
    ChallengeWriterDep,
    HubDep,
    LobbyDep,
    SeekerDep,
    SessionDep,
    VisitorDep,
    same_origin,
)
from boardplay.web.lobby import (
    ApiChallengeRequest,
    ChallengeRequest,
    DeclineRequest,
    Lobby,
    Seek,
    SeekRequest,
    Started,
    accept_seek,
    answer_challenge,
    cancel_seek,
    for_people,
    leave,
    list_seeks,
    my_challenges,
    post_seek,
    quick_game,
    send_challenge,
    sit,
)

router = APIRouter(prefix="/api", tags=["seeks"])
ShortId = Annotated[str, Path(max_length=16)]


def _started(started: Started) -> dict[str, Any]:
    """The acceptor's answer: the new game's id, their seat and its token, and the game."""
    room = started.room
    return {
        "id": room.row.id,
        "seat": started.seat,
        "token": started.token,
        "game": room.view_for(started.token),
    }


def _started_or_seek(started: Started | None, seek: Seek | None) -> dict[str, Any]:
    """The answer of a quick game or a seat taken: the game that started (``_started``), else
    the seek that waits (the one posted, or the table where a seat is now held)."""
    return {
        "started": None if started is None else _started(started),
        "seek": None if seek is None else seek.to_json(),
    }


@router.get("/seeks")
async def seeks(lobby: LobbyDep, session: SessionDep) -> dict[str, Any]:
    """The open seeks, oldest first (at most ``Limits.seeks_listed``), without those of a
    player the signed-in visitor blocks or who blocks them."""
    reader = None if session is None else session.account.id
    return {"seeks": [seek.to_json() for seek in await list_seeks(lobby, reader)]}


@router.post("/seeks", status_code=201)
async def post(lobby: LobbyDep, account: SeekerDep, body: SeekRequest) -> dict[str, Any]:
    """Look for opponents: a game any signed-in player within the rating range may accept (two
    players), or a table whose seats they take (three or four: it starts when full). It lasts
    while your lobby is open (``/api/lobby/ws``)."""
    await for_people(lobby, account, body.rated)
    return {"seek": (await post_seek(lobby, account, body)).to_json()}


@router.post("/seeks/quick")
async def quick(
    lobby: LobbyDep, account: SeekerDep, visitor: VisitorDep, body: SeekRequest
) -> dict[str, Any]:
    """Play the closest compatible open seek (same game, options, clock and rated flag, each
    player within the other's range; for three or four players a seat at the fullest such
    table) → ``{"started": {...}, "seek": null}`` when the game started; else ``{"started":
    null, "seek": {...}}``: this seek posted, or the table where you now hold a seat."""
    await for_people(lobby, account, body.rated)
    return _started_or_seek(*await quick_game(lobby, account, visitor, body))


@router.delete("/seeks/{seek_id}")
async def cancel(seek_id: ShortId, lobby: LobbyDep, account: SeekerDep) -> dict[str, Any]:
    await cancel_seek(lobby, account, seek_id)
    return {"cancelled": seek_id}


@router.post("/seeks/{seek_id}/accept")
async def accept(
    seek_id: ShortId, lobby: LobbyDep, account: SeekerDep, visitor: VisitorDep
) -> dict[str, Any]:
    """Accept a seek: the game starts for both players (the seek's owner is told on their
    lobby socket). Exactly one of several acceptors wins; the others get 409."""
    return _started(await accept_seek(lobby, account, visitor, seek_id))


@router.post("/seeks/{seek_id}/sit")
async def take_seat(
    seek_id: ShortId, lobby: LobbyDep, account: SeekerDep, visitor: VisitorDep
) -> dict[str, Any]:
    """Take a seat at a table (a two-player seek: accept it) → ``{"started": null, "seek":
    {...}}`` while seats stay free (the game starts when the last is taken: every player is
    told on their lobby socket), or ``{"started": {...}, "seek": null}`` for the last seat."""
    return _started_or_seek(*await sit(lobby, account, visitor, seek_id))


@router.delete("/seeks/{seek_id}/sit")
async def leave_seat(seek_id: ShortId, lobby: LobbyDep, account: SeekerDep) -> dict[str, Any]:
    """Give up your seat at a table before its game starts."""
    await leave(lobby, account, seek_id)
    return {"left": seek_id}


@router.get("/tv")
async def tv(hub: HubDep) -> dict[str, Any]:
    """TV: for each game, the best game of it being played now (by its players' mean rating in
    its pool; ``lobby/tv.py``), to watch: ``{"channels": [{"game", "id", "players": [{"name",
    "rating"}], "rating", "rated"}]}``, by game name; a game nobody plays so has none."""
    return {"channels": [channel.to_json() for channel in await hub.tv.channels()]}


@router.get("/challenges")
async def challenges(lobby: LobbyDep, account: AccountDep) -> dict[str, Any]:
    """Your challenges: ``incoming`` and ``outgoing``, open or settled lately, newest first."""
    return await my_challenges(lobby, account)


@router.post("/challenges", status_code=201)
async def challenge(lobby: LobbyDep, account: AccountDep, body: ChallengeRequest) -> dict[str, Any]:
    """Challenge a player by name; they are told on their lobby socket."""
    return {"challenge": (await send_challenge(lobby, account, body)).to_json()}


@router.post("/challenges/{challenge_id}/accept")
async def accept_challenge(
    challenge_id: ShortId, lobby: LobbyDep, account: AccountDep, visitor: VisitorDep
) -> dict[str, Any]:
    """The challenged player accepts: the game starts for both."""
    found, started = await answer_challenge(lobby, account, visitor, challenge_id, "accept")
    assert started is not None
    return {"challenge": found.to_json(), **_started(started)}


@router.post("/challenges/{challenge_id}/decline")
async def decline_challenge(
    challenge_id: ShortId, lobby: LobbyDep, account: AccountDep
) -> dict[str, Any]:
    return await _settle(lobby, account, challenge_id, "decline")


@router.post("/challenges/{challenge_id}/cancel")
async def cancel_challenge(
    challenge_id: ShortId, lobby: LobbyDep, account: AccountDep
) -> dict[str, Any]:
    return await _settle(lobby, account, challenge_id, "cancel")


async def _settle(
    lobby: Lobby, account: Account, challenge_id: str, answer: Literal["decline", "cancel"]
) -> dict[str, Any]:
    """A challenge answered without a game (declined by its recipient, withdrawn by its
    sender): the challenge as it is now."""
    found, _ = await answer_challenge(lobby, account, "", challenge_id, answer)
    return {"challenge": found.to_json()}


# ----- the same with a personal API token (lichess's paths: bots and other programs) ------------
Username = Annotated[str, Path(max_length=64)]


@router.get("/challenge")
async def api_challenges(lobby: LobbyDep, user: ChallengeReaderDep) -> dict[str, Any]:
    """The token's account's challenges: ``{"in", "out"}`` (lichess's names)."""
    mine = await my_challenges(lobby, user.account)
    return {"in": mine["incoming"], "out": mine["outgoing"]}


@router.post("/challenge/{username}", status_code=201)
async def api_challenge(
    username: Username,
    lobby: LobbyDep,
    user: ChallengeWriterDep,
    body: Annotated[ApiChallengeRequest, json_or_form(ApiChallengeRequest)],
) -> dict[str, Any]:
    """Challenge ``username`` (a person or a bot; rated games between a bot and a person come
    about only so), in boardplay's fields or lichess's (``ApiChallengeRequest``). The answer is
    the challenge itself, as lichess's (its ``id`` at the top: lichess-bot reads it there), and
    under ``challenge`` as boardplay's other challenge routes answer."""
    sent = (await send_challenge(lobby, user.account, body.challenge_to(username))).to_json()
    return {**sent, "challenge": sent}


@router.post("/challenge/{challenge_id}/{answer}")
async def api_answer(
    challenge_id: ShortId,
    answer: Literal["accept", "decline", "cancel"],
    lobby: LobbyDep,
    user: ChallengeWriterDep,
    visitor: VisitorDep,
    body: Annotated[DeclineRequest, json_or_form(DeclineRequest)],
) -> dict[str, Any]:
    """``accept``, ``decline`` (the challenged player, with lichess's ``reason`` if any, as
    JSON or a form) or ``cancel`` (its sender); an accepted challenge's game, whose id is the
    challenge's, is announced on both players' event streams (``gameStart``)."""
    found, started = await answer_challenge(
        lobby,
        user.account,
        visitor if answer == "accept" else "",
        challenge_id,
        answer,
        Door.BOT_CHALLENGE,
    )
    out: dict[str, Any] = {"ok": True, "challenge": found.to_json()}
    if started is not None:
        out["game"] = started.room.row.id
    return out


@router.websocket("/lobby/ws")
async def lobby(websocket: WebSocket) -> None:
    """The live lobby (``lobby/sockets.py``). The session cookie says whose socket it is; a socket
    opened by a page of another site (its ``Origin`` is not this server's) is a guest's, so
    no other site can listen to a player's challenges."""
    state = websocket.app.state
    accounts: Accounts = state.accounts
    session = None
    if same_origin(websocket, state.origin):
        session = await accounts.session(websocket.cookies.get(COOKIE))
    account = None if session is None else session.account
    await state.hub.lobby.serve(websocket, account, state.rate)
