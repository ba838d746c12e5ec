"""The look-ups lichess's bot clients make besides playing (lichess's paths and shapes): the
token test lichess-bot starts with, the bots online, and the games an account is playing.

- ``POST /api/token/test``: the body is tokens separated by commas, as raw text (lichess-bot
  sends it with no ``Content-Type``; the guard holds it to the query's rule, ``guard.py``), or
  JSON (a string, or a list of strings). The answer maps each token to ``{"scopes": "a,b",
  "userId", "expires": null}`` (our tokens do not expire) or ``null`` for one that is unknown,
  revoked, or not a personal API token at all: what lichess says of a token, nothing more (no
  reason, no label, no time of use). Each token known is checked as any request with it is
  (``Bots.authorise``): the test counts against its ceiling and is refused past it (429).
- ``GET /api/bot/online``: the bot accounts online now, one ndjson line each, ``{"id",
  "username", "title": "BOT", "createdAt"}`` (lichess's user, without its ratings and
  profile); online means its event stream is open on some process (``Lobby.present``).
- ``GET /api/account/playing``: ``{"nowPlaying": [...]}``, the token's account's running
  games, each as its event stream's ``gameStart`` announces it."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from boardplay.web import safejson
from boardplay.web.api.bodies import content_type
from boardplay.web.api.deps import AnyTokenDep, HubDep
from boardplay.web.bots import game_event
from boardplay.web.config import Limits
from boardplay.web.errors import ApiError, bad_request

router = APIRouter(prefix="/api", tags=["bots"])
TOKENS_TESTED = 100
"""Most tokens one test may name (lichess's is 1000; ours are only ever a bot's few)."""
PLAYING_MOST = 50
"""Most games ``/api/account/playing`` lists (lichess's ``nb`` ceiling)."""


def tokens_in(raw: bytes, kind: str, limits: Limits) -> list[str]:
    """The tokens a test names, each once, in their order (400 for more than
    ``TOKENS_TESTED`` or a body that is neither)."""
    if kind == "application/json":
        value = safejson.parse(raw, limits)
        if isinstance(value, str):
            value = value.split(",")
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            raise bad_request("the body is tokens separated by commas, or a JSON list of them")
        named = value
    else:
        try:
            named = raw.decode("utf-8").split(",")
        except UnicodeDecodeError:
            raise bad_request("the body is not UTF-8 text") from None
    tokens = list(dict.fromkeys(t.strip() for t in named if t.strip()))
    if len(tokens) > TOKENS_TESTED:
        raise bad_request(f"a test names at most {TOKENS_TESTED} tokens; this one {len(tokens)}")
    return tokens


@router.post("/token/test")
async def token_test(request: Request, hub: HubDep) -> dict[str, Any]:
    """What each token is (lichess's token test): its scopes and account, or null."""
    answer: dict[str, Any] = {}
    body = await request.body()
    for secret in tokens_in(body, content_type(request), hub.limits):
        try:
            user = await hub.bots.authorise(f"Bearer {secret}")
        except ApiError as exc:
            if exc.status != 401:
                raise
            answer[secret] = None
            continue
        answer[secret] = {
            "scopes": ",".join(sorted(user.token.scopes)),
            "userId": user.account.name.lower(),
            "expires": None,
        }
    return answer


@router.get("/bot/online")
async def bots_online(
    hub: HubDep, nb: Annotated[int, Query(ge=1, le=1000)] = 100
) -> StreamingResponse:
    """Up to ``nb`` bots online now, by name, one JSON object a line."""
    lobby = hub.lobby
    found = await hub.db(lobby.here.bots, time.time(), hub.limits.seek_ttl, nb)
    lines = [
        json.dumps(
            {"id": name.lower(), "username": name, "title": "BOT", "createdAt": round(made * 1000)}
        )
        + "\n"
        for name, made in found
    ]
    return StreamingResponse(iter(lines), media_type="application/x-ndjson")


@router.get("/account/playing")
async def now_playing(
    hub: HubDep, user: AnyTokenDep, nb: Annotated[int, Query(ge=1, le=PLAYING_MOST)] = 9
) -> dict[str, Any]:
    """The account's running games, most recently changed first (lichess's ``nowPlaying``)."""
    account_id = user.account.id
    rows = await hub.bots.games.games_of(account_id, PLAYING_MOST * 4)
    playing: list[dict[str, Any]] = []
    for game_id, status, _changed in rows:
        if status != "active" or len(playing) >= nb:
            continue
        room = await hub.room(game_id)
        seats = [s.seat for s in room.row.seats if s.account == account_id]
        if seats and room.row.status != "finished":
            others = [s.account for s in room.row.seats if s.account not in (None, account_id)]
            ratings = await hub.ratings.ratings_of([a for a in others if a is not None])
            event = game_event("gameStart", room, seats, hub.now(), ratings, None)
            playing.append(event["game"])
    return {"nowPlaying": playing}
