"""A process claims a tournament table before making its game (``TournamentStore.claim``,
migration 0028), so two processes never both make one game: of claims at once exactly one
wins, on SQLite and PostgreSQL; a claim holds for ``director.HOLD`` seconds, and one left by a
process that died is taken by the next process once it expires, which makes the game (or
marks it made, if the dead process had made it). The director makes them from the tables not
made yet (``TournamentStore.unmade``)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from tournamentcalls import (
    RAPID,
    START,
    HandClock,
    Process,
    database,
    games_stored,
    players,
    swiss_plan,
)

from boardplay.web.admission import Door
from boardplay.web.table import control_of
from boardplay.web.tournaments.director import HOLD, TICK
from boardplay.web.tournaments.model import Board


async def paired(process: Process, clock: HandClock, count: int) -> tuple[str, list[Board]]:
    """A Swiss of ``count`` players with its first round paired and none of its games made."""
    people = players(process, [f"P{i}" for i in range(count)])
    made = await process.tournaments.create(people[0], swiss_plan(rounds=2, rated=False))
    for person in people:
        await process.tournaments.join(made.id, person)
    clock.t = START
    director = process.tournaments.director
    await director.db(process.store.step, made.id, lambda c, s: director.step(c, s, START))
    boards = (await director.db(process.store.snapshot, made.id)).boards
    assert len(boards) == count // 2 and not any(b.made for b in boards)
    return made.id, boards


async def loop_claims(engine: Any, tournament_id: str, round_: int, board: int) -> list[bool]:
    """Eight claims of one table sent at once from the event loop, as the server sends them
    (``store.claim``, a ``database.OneStatement``, on the connections the moves use), once
    every earlier claim expired."""
    from boardplay.web.database import StorageThreads
    from boardplay.web.table.pgwrite import LoopConnections
    from boardplay.web.tournaments.store import claim

    db, connections = StorageThreads(engine), LoopConnections(engine.url, 8)
    db.loop = connections.rows
    try:
        later = START + 100 * HOLD  # every claim before has expired by then
        return list(
            await asyncio.gather(
                *(claim(db, tournament_id, round_, board, later, HOLD) for _ in range(8))
            )
        )
    finally:
        await connections.close()
        db.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_table_is_claimed_once_until_its_claim_expires_and_never_once_made(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        process = Process(url, clock)
        tournament_id, boards = await paired(process, clock, 4)
        store = process.store
        first, second = ((b.round, b.board) for b in boards)
        assert store.claim(tournament_id, *first, START, HOLD)
        assert not store.claim(tournament_id, *first, START + 1, HOLD), "held by the first"
        assert not store.claim(tournament_id, *first, START + HOLD, HOLD), "held to its end"
        assert store.claim(tournament_id, *first, START + HOLD + 1, HOLD), "expired"
        assert not store.claim(tournament_id, *first, START + HOLD + 2, HOLD)
        # Eight claims of one table at once (each its own connection): exactly one wins.
        with ThreadPoolExecutor(8) as pool:
            claims = [
                pool.submit(store.claim, tournament_id, *second, START, HOLD) for _ in range(8)
            ]
            won = [claim.result() for claim in claims]
        assert won.count(True) == 1, won
        if kind == "postgresql":  # once that claim expired, eight at once from the event loop
            won = await loop_claims(store.engine, tournament_id, *second)
            assert won.count(True) == 1, won
        store.mark_made(tournament_id, *second)
        assert not store.claim(tournament_id, *second, START + 10 * HOLD, HOLD), "made"
        # What the director makes games from after a step: the tables not made, nothing else.
        left = store.unmade(tournament_id)
        assert [(b.round, b.board) for b in left.boards] == [first]
        assert left.entrants == [] and left.byes == [] and left.tournament.id == tournament_id
        assert not store.claim(tournament_id, 9, 0, START, HOLD), "no such table"
        await process.close()

    asyncio.run(body())


def test_the_claims_of_a_process_that_died_expire_and_the_other_makes_their_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dying process claims two tables, makes the game of one of them, and dies before
    marking either made. The other process leaves both while the claims hold, and after they
    expire makes the one game and marks the other made: each game made once, nothing lost."""
    url = f"sqlite:///{tmp_path / 'claims.sqlite3'}"
    clock = HandClock()

    async def body() -> None:
        dying = Process(url, clock)
        tournament_id, boards = await paired(dying, clock, 8)
        unmade, made_unmarked = boards[0], boards[1]
        for board in (unmade, made_unmarked):
            assert dying.store.claim(tournament_id, board.round, board.board, START, HOLD)
        control = control_of(RAPID)
        assert control is not None
        await dying.hub.maker.seat(
            Door.TOURNAMENT,
            "tiny",
            {"bonus": 0},
            list(made_unmarked.table.players),
            rated=False,
            clock=control,
            game_id=made_unmarked.game_id,
        )
        await dying.close()

        heir = Process(url, clock)
        lost: list[str] = []
        insert = heir.hub.maker._insert_once

        def counted(row: Any) -> bool:
            won: bool = insert(row)
            if not won:
                lost.append(row.id)
            return won

        monkeypatch.setattr(heir.hub.maker, "_insert_once", counted)
        director = heir.tournaments.director
        clock.t = START + HOLD  # the claims still hold: the other two tables are made
        await heir.tournaments.tick()
        snap = await director.db(heir.store.snapshot, tournament_id)
        left = [b.game_id for b in snap.boards if not b.made]
        assert sorted(left) == sorted([unmade.game_id, made_unmarked.game_id])
        clock.t = START + HOLD + TICK  # expired: the next tick takes them
        await heir.tournaments.tick()
        snap = await director.db(heir.store.snapshot, tournament_id)
        assert all(b.made for b in snap.boards)
        assert sorted(g.id for g in games_stored(heir)) == sorted(b.game_id for b in snap.boards)
        assert lost == [], "the game the dead process made was looked at, not tried again"
        told = sorted(m["game"] for _, m in heir.told)
        made_here = [b for b in snap.boards if b.game_id != made_unmarked.game_id]
        assert told == sorted(b.game_id for b in made_here for _ in b.table.players)
        await heir.close()

    asyncio.run(body())
