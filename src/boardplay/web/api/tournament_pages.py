"""What the tournament pages of the site read (``static/pages/tournaments.js``), beside the API's
own routes (``tournaments.py``): the list of upcoming and running tournaments and of the last ones
finished (with their winners), with how many players each has (the tournaments page, which asks
again every few seconds while it is shown, and the lobby's section), and one tournament's view
with its bot accounts named, so that the standings and rounds mark them BOT. Read-only; JSON.

The pages keep their standings live by asking for the view again every few seconds while a
tournament page is open (``POLL`` in the page): the lobby socket's push (``Lobby.tell``) reaches
only the players of a new game, not everyone watching a tournament, and a tournament's
standings change at most once per game ended, so a small poll is as fresh as a new topic on
the broker would be for far less code. A paired player is still told of their game at once
through the lobby socket (the page then goes to the game, ``lobbylive.js``).

The list comes a page at a time, each page read once per few seconds per process and sent with
an ``ETag`` (a poll with ``If-None-Match`` is a 304 while it is unchanged): ``listed_page``,
shared with the API's list (``tournaments/listing.py``).

The tournament's chat (``tournaments/talk.py``) is read here too: ``GET .../chat`` with the
view's poll, ``POST .../chat`` signed in."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import Field

from boardplay.web.api.deps import AccountDep, SessionDep
from boardplay.web.models import Body
from boardplay.web.tournaments import LIST_LIMIT, LIST_TTL, Tournaments

router = APIRouter(tags=["tournaments"])
TournamentId = Annotated[str, Path(max_length=32)]


def get_tournaments(request: Request) -> Tournaments:
    service: Tournaments = request.app.state.hub.tournaments
    return service


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]
Status = Annotated[
    str, Query(max_length=16, description="open (upcoming and running), created, started, finished")
]
Cursor = Annotated[str | None, Query(max_length=64, description="a page's `next`")]
Limit = Annotated[int, Query(description="tournaments a page holds, 1 to 50")]


async def listed_page(
    request: Request,
    tournaments: Tournaments,
    status: str,
    cursor: str | None,
    limit: int,
    site: bool,
) -> Response:
    """A page of the list as sent: its bytes and ETag, and a 304 for a client that has them.
    The API's answer carries ``max-age``, so that a proxy or client reuses it as long as the
    server does (it holds nothing personal); the site's ``no-cache``: a browser asks again each
    time (a 304 costs the server next to nothing), since a person who has just created a
    tournament or entered one must see it in the list at once."""
    page = await tournaments.page(status, cursor, limit, site)
    cache = "public, no-cache" if site else f"public, max-age={int(LIST_TTL)}"
    headers = {"ETag": page.etag, "Cache-Control": cache}
    if page.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(page.body, media_type="application/json", headers=headers)


class TalkRequest(Body):
    text: Annotated[str, Field(max_length=4_000)] = Field(
        description="plain text, shown as typed (never HTML); at most the server's chat length"
    )


@router.get("/api/tournament-pages", response_model=None)
async def listed(
    request: Request,
    tournaments: TournamentsDep,
    game: Annotated[str | None, Query(max_length=32)] = None,
    status: Status = "open",
    cursor: Cursor = None,
    limit: Limit = LIST_LIMIT,
) -> dict[str, Any] | Response:
    """A page of the upcoming and running tournaments, soonest first (``next``: the following
    page's cursor), and on the first page (``finished``) the last ones finished, latest first,
    each with its ``winner``: every one with its ``players``. With ``game``, the tournament
    that game was paired in, whatever its state (none if no tournament's: the game page's link
    back to its tournament)."""
    if game is not None:
        return await tournaments.for_pages(game)
    return await listed_page(request, tournaments, status, cursor, limit, True)


@router.get("/api/tournament-pages/{tournament_id}")
async def shown(
    tournament_id: TournamentId,
    tournaments: TournamentsDep,
    standings: Annotated[
        bool, Query(description="false: without the standings, which the page reads by pages")
    ] = True,
) -> dict[str, Any]:
    """The tournament's view (``GET /api/tournaments/{id}``), with ``bots``: the names of its
    bot players, and ``bot`` on each line of the standings; built once per revision."""
    view = await tournaments.view_with_bots(tournament_id)
    return view if standings else {k: v for k, v in view.items() if k != "standings"}


@router.get("/api/tournament-pages/{tournament_id}/chat")
async def read_chat(
    tournament_id: TournamentId, tournaments: TournamentsDep, session: SessionDep
) -> dict[str, Any]:
    """The latest messages, oldest first, and whether the caller may write."""
    await tournaments.view(tournament_id)  # 404 for no such tournament
    account = None if session is None else session.account
    return await tournaments.talk.read(tournament_id, account)


@router.post("/api/tournament-pages/{tournament_id}/chat", status_code=201)
async def write_chat(
    tournament_id: TournamentId, tournaments: TournamentsDep, account: AccountDep, body: TalkRequest
) -> dict[str, Any]:
    """Write in the tournament's chat (signed in; ``tournaments/talk.py`` has the rules)."""
    await tournaments.view(tournament_id)
    said = await tournaments.talk.write(tournament_id, account, body.text)
    return {"message": said.to_json()}
