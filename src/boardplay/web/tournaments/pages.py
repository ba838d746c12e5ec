"""What the tournament pages of the site read (``static/pages/tournaments.js``), beside the API's
own routes (``routes.py``): the list of upcoming and running tournaments and of the last ones
finished (with their winners), with how many players each has (the tournaments page, which asks
again every few seconds while it is shown, and the lobby's section), and one tournament's view
with its bot accounts named, so that the standings and rounds mark them BOT. Read-only; JSON.

The pages keep their standings live by asking for the view again every few seconds while a
tournament page is open (``POLL`` in the page): the lobby socket's push (``Lobby.tell``) reaches
only the players of a new game, not everyone watching a tournament, and a tournament's
standings change at most once per game ended, so a small poll is as fresh as a new topic on
the broker would be for far less code. A paired player is still told of their game at once
through the lobby socket (the page then goes to the game, ``lobbylive.js``).

The tournament's chat (``talk.py``) is read here too: ``GET .../chat`` with the view's poll,
``POST .../chat`` signed in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import Field
from sqlalchemy.engine import Engine

from boardplay.web.accounts import accounts_table
from boardplay.web.chat import clean
from boardplay.web.config import Limits
from boardplay.web.deps import AccountDep, SessionDep
from boardplay.web.errors import ApiError
from boardplay.web.models import Body
from boardplay.web.tournaments import talk
from boardplay.web.tournaments.service import Tournaments
from boardplay.web.tournaments.store import WITHDRAWN, entrants_table

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


def player_counts(engine: Engine, tournament_ids: Sequence[str]) -> dict[str, int]:
    """How many players each tournament has (not counting those who withdrew)."""
    if not tournament_ids:
        return {}
    e = entrants_table
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(e.c.tournament_id, sa.func.count())
            .where(e.c.tournament_id.in_(list(tournament_ids)), e.c.status != WITHDRAWN)
            .group_by(e.c.tournament_id)
        ).all()
    return {row[0]: int(row[1]) for row in rows}


def bot_names(engine: Engine, tournament_id: str) -> list[str]:
    """The names (as entered) of the tournament's players whose accounts are bots."""
    e, a = entrants_table, accounts_table
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(e.c.name)
            .join(a, a.c.id == e.c.account_id)
            .where(e.c.tournament_id == tournament_id, a.c.bot.is_(True))
        ).all()
    return sorted(row[0] for row in rows)


@router.get("/api/tournament-pages")
async def listed(
    tournaments: TournamentsDep, game: Annotated[str | None, Query(max_length=32)] = None
) -> dict[str, Any]:
    """Upcoming and running tournaments, soonest first, and (``finished``) the last ones
    finished, latest first, each with its ``winner``: every one with its ``players``. With
    ``game``, the tournament that game was paired in, whatever its state (none if no
    tournament's: the game page's link back to its tournament)."""
    if game is not None:
        ids = await tournaments.db(tournaments.store.tournaments_of, [game])
        found = [(await tournaments.view(tid))["tournament"] for tid in ids[:1]]
        return {"tournaments": found}
    found = await tournaments.listed()
    finished = await tournaments.finished_lately()
    counts = await tournaments.db(
        player_counts, tournaments.store.engine, [t["id"] for t in (*found, *finished)]
    )
    for tournament in (*found, *finished):
        tournament["players"] = counts.get(tournament["id"], 0)
    return {"tournaments": found, "finished": finished}


@router.get("/api/tournament-pages/{tournament_id}")
async def shown(tournament_id: TournamentId, tournaments: TournamentsDep) -> dict[str, Any]:
    """The tournament's view (``GET /api/tournaments/{id}``), with ``bots``: the names of its
    bot players, and ``bot`` on each line of the standings."""
    view = await tournaments.view(tournament_id)
    bots = await tournaments.db(bot_names, tournaments.store.engine, tournament_id)
    chosen = set(bots)
    for line in view["standings"]:
        line["bot"] = line["name"] in chosen
    view["bots"] = bots
    return view


@router.get("/api/tournament-pages/{tournament_id}/chat")
async def read_chat(
    request: Request, tournament_id: TournamentId, tournaments: TournamentsDep, session: SessionDep
) -> dict[str, Any]:
    """The latest messages, oldest first, and whether the caller may write."""
    await tournaments.view(tournament_id)  # 404 for no such tournament
    limits: Limits = request.app.state.limits
    said = await tournaments.db(talk.read, tournaments.store.engine, tournament_id)
    can_write = session is not None and await tournaments.db(
        talk.may_write, tournaments.store.engine, tournament_id, session.account, limits
    )
    return {
        "messages": [m.to_json() for m in said],
        "can_write": can_write,
        "length": limits.chat_length,
    }


@router.post("/api/tournament-pages/{tournament_id}/chat", status_code=201)
async def write_chat(
    request: Request,
    tournament_id: TournamentId,
    tournaments: TournamentsDep,
    account: AccountDep,
    body: TalkRequest,
) -> dict[str, Any]:
    """Write in the tournament's chat (signed in; ``talk.py`` has the rules)."""
    await tournaments.view(tournament_id)
    limits: Limits = request.app.state.limits
    text = clean(body.text, limits.chat_length)
    engine = tournaments.store.engine
    if not await tournaments.db(talk.may_write, engine, tournament_id, account, limits):
        raise ApiError(
            403,
            "account_too_new",
            f"a new account may write in a tournament's chat once it has joined it or is "
            f"{limits.chat_account_age / 60:g} minutes old (reading is open to all)",
        )
    said = await tournaments.db(
        talk.write, engine, tournament_id, account, text, limits, tournaments.now()
    )
    return {"message": said.to_json()}
