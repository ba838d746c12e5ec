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

The tournament's chat (``tournaments/talk.py``) is read here too: ``GET .../chat`` with the
view's poll, ``POST .../chat`` signed in."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import Field

from boardplay.web.api.deps import AccountDep, SessionDep
from boardplay.web.models import Body
from boardplay.web.tournaments import Tournaments

router = APIRouter(tags=["tournaments"])
TournamentId = Annotated[str, Path(max_length=32)]


def get_tournaments(request: Request) -> Tournaments:
    service: Tournaments = request.app.state.hub.tournaments
    return service


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]


class TalkRequest(Body):
    text: Annotated[str, Field(max_length=4_000)] = Field(
        description="plain text, shown as typed (never HTML); at most the server's chat length"
    )


@router.get("/api/tournament-pages")
async def listed(
    tournaments: TournamentsDep, game: Annotated[str | None, Query(max_length=32)] = None
) -> dict[str, Any]:
    """Upcoming and running tournaments, soonest first, and (``finished``) the last ones
    finished, latest first, each with its ``winner``: every one with its ``players``. With
    ``game``, the tournament that game was paired in, whatever its state (none if no
    tournament's: the game page's link back to its tournament)."""
    return await tournaments.for_pages(game)


@router.get("/api/tournament-pages/{tournament_id}")
async def shown(tournament_id: TournamentId, tournaments: TournamentsDep) -> dict[str, Any]:
    """The tournament's view (``GET /api/tournaments/{id}``), with ``bots``: the names of its
    bot players, and ``bot`` on each line of the standings."""
    return await tournaments.view_with_bots(tournament_id)


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
