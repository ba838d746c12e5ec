"""What the tournament tests share: a server process's parts on a database (a ``Hub``, as the
wiring builds it, with the tournaments' service beside it), players, a clock moved by hand, and
the ends of games brought about as players would (a resignation)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from webtiny import TRIO_CATALOGUE

from boardplay.web.accounts import Account, name_key
from boardplay.web.catalogue import REGISTRY, WebCatalogue
from boardplay.web.events import TournamentPaired
from boardplay.web.hub import Hub
from boardplay.web.table import abort, resign_account
from boardplay.web.table.schema import games_table
from boardplay.web.tokens import hash_token, new_token
from boardplay.web.tournaments import Plan, Tournaments
from boardplay.web.tournaments.store import TournamentStore

RAPID = {"base": 600, "increment": 5}
START = 1_900_000_000.0


class HandClock:
    def __init__(self) -> None:
        self.t = START - 100.0

    def __call__(self) -> float:
        return self.t


class Process:
    """One server process's parts: the hub and the tournaments' service on its engine."""

    def __init__(self, url: str, clock: HandClock, real_games: bool = False) -> None:
        """``real_games``: the four games of the registry (else the tests' tiny and trio)."""
        catalogue, ref = (
            (REGISTRY, "boardplay.web.catalogue:REGISTRY")
            if real_games
            else (TRIO_CATALOGUE, "webtiny:TRIO_CATALOGUE")
        )
        self.hub = Hub(
            url,
            WebCatalogue(catalogue),
            ref,
            lambda: ThreadPoolExecutor(1),
            ai_workers=0,
            now=clock,
        )
        hub = self.hub
        self.told: list[tuple[int, Mapping[str, Any]]] = []
        """What the service told players (the lobby's ``tell`` in a server)."""
        self.tournaments: Tournaments = hub.tournaments  # as the hub wires it
        self.store: TournamentStore = self.tournaments.store
        hub.bus.subscribe(TournamentPaired, self.paired)

    async def paired(self, event: TournamentPaired) -> None:
        """What the lobby hears (``Lobby._paired``): the notices it tells the players."""
        for game_id, players in event.games:
            message = {"type": "started", "game": game_id, "tournament": event.tournament_id}
            self.told.extend((p, message) for p in players)

    async def close(self) -> None:
        await self.hub.close()
        self.hub.storage.engine.dispose()


def database(kind: str, tmp_path: Path, request: Any) -> str:
    """A fresh database: an SQLite file, or a new database on the test's PostgreSQL."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'tournaments.sqlite3'}"
    import devservices as ds

    admin = request.getfixturevalue("postgres_url")
    return str(ds.new_database(admin, f"t{uuid.uuid4().hex[:12]}"))


def players(process: Process, names: Sequence[str]) -> list[Account]:
    accounts = process.hub.accounts.store
    return [accounts.create(n, name_key(n), None, uuid.uuid4().hex) for n in names]


async def lose(process: Process, game_id: str, account_id: int) -> None:
    """``account_id`` resigns game ``game_id``; returns once what its end set off is done."""
    room = await process.hub.room(game_id)
    assert await resign_account(room, account_id)
    await process.hub.tournaments.ends_told()  # what the end set off (a tournament's next round)


def games_stored(process: Process) -> list[Any]:
    with process.hub.storage.engine.connect() as conn:
        return list(conn.execute(sa.select(games_table)).all())


async def play_out(process: Process, game_id: str, rng: random.Random | None = None) -> list[int]:
    """Play ``game_id`` to its end through its room, each seat's player taking the first legal
    move (or a random one drawn from ``rng``) with a token of their account's seat (as their
    page would hold); returns the seats in the order they moved."""
    room = await process.hub.room(game_id)
    tokens = {}
    for seat in room.row.seats:
        assert seat.account is not None
        token = new_token()
        process.hub.games.seats.seat_key(seat.account, game_id, hash_token(token))
        tokens[seat.seat] = token
    await room.refresh()
    movers = []
    while not room.state.is_terminal():
        seat = room.state.current_player()
        movers.append(seat)
        legal = room.state.legal_actions()
        await room.act(tokens[seat], legal[0] if rng is None else rng.choice(legal), None)
    await process.hub.tournaments.ends_told()
    return movers


async def abort_as(process: Process, game_id: str, account_id: int) -> None:
    """``account_id`` aborts game ``game_id`` before their first move (the table's abort)."""
    room = await process.hub.room(game_id)
    token = new_token()
    process.hub.games.seats.seat_key(account_id, game_id, hash_token(token))
    await room.refresh()
    await abort(room, token)
    await process.hub.tournaments.ends_told()


def swiss_plan(rounds: int = 3, **extra: Any) -> Plan:
    """A Swiss of the test game "tiny" for two-player tables, rated unless ``extra`` says."""
    values: dict[str, Any] = {
        "name": "Tiny Swiss",
        "kind": "swiss",
        "game": "tiny",
        "options": {},
        "sizes": [2],
        "clock": RAPID,
        "rated": True,
        "starts": START,
        "rounds": rounds,
    }
    values.update(extra)
    return Plan(**values)
