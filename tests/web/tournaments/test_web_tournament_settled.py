"""An arena reads its settled rounds once (``model.Settled``): each process keeps the tables of the
rounds before the first game still in play and reads only later rounds, and what it reads is
always the tournament as a whole read shows it, and its standings counted on from the kept
rounds those counted from every table, on SQLite and PostgreSQL, with two processes stepping the
same arena and a game of the first wave still played while later waves end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from tournamentcalls import START, HandClock, Process, database, lose, players, swiss_plan

from boardplay.web.tournaments import arena
from boardplay.web.tournaments.model import Snapshot
from boardplay.web.tournaments.rows import read


def whole(process: Process, tournament_id: str) -> Snapshot:
    """The tournament read whole, as before any round was kept."""
    with process.store.engine.connect() as conn:
        return read(conn, tournament_id)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_arena_read_from_its_settled_rounds_is_the_arena_read_whole(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()
    rng = random.Random(5)

    async def body() -> None:
        processes = [Process(url, clock), Process(url, clock)]
        people = players(processes[0], [f"P{i}" for i in range(8)])
        first = processes[0].tournaments
        made = await first.create(people[0], swiss_plan(kind="arena", rounds=None, minutes=60))
        for person in people:
            await first.join(made.id, person)
        clock.t = START
        await first.tick()
        held = whole(processes[0], made.id).boards[0]  # a game of wave 1 left in play
        assert held.round == 1
        for turn in range(24):
            clock.t += 1
            process = processes[turn % 2]
            playing = [
                b for b in whole(process, made.id).boards if b.table.places is None and b != held
            ]
            board = rng.choice(playing)
            await lose(process, board.game_id, rng.choice(board.table.players))
            await process.tournaments.tick()
            for each in processes:
                snap, read_whole = each.store.snapshot(made.id), whole(each, made.id)
                assert snap == read_whole
                # and the standings counted on from its settled rounds, as they grew
                kept = arena.kept_of(snap.settled)
                counted = arena.standings(snap.seeds, snap.tables, kept)
                assert counted == arena.standings(read_whole.seeds, read_whole.tables)
        kept = [p.store.copies.of(made.id).settled for p in processes]
        # A game read in play is known to be the arena's when it ends, with no query, once.
        in_play = [b.game_id for b in whole(processes[0], made.id).boards if b.table.places is None]
        processes[0].store.snapshot(made.id)
        assert {processes[0].store.copies.known_tournament(game) for game in in_play} == {made.id}
        assert processes[0].store.copies.known_tournament(in_play[0]) is None
        assert all(k.upto == 0 for k in kept), "the game in play holds every later round back"

        await lose(processes[1], held.game_id, held.table.players[0])
        for process in processes:
            await process.tournaments.tick()
        snaps = [p.store.snapshot(made.id) for p in processes]
        assert snaps[0] == snaps[1] == whole(processes[0], made.id)
        assert next(b for b in snaps[0].boards if b.game_id == held.game_id).table.places
        later = [p.store.copies.of(made.id).settled.upto for p in processes]
        assert all(upto >= 3 for upto in later), later  # the rounds before the newest in play
        for process in processes:
            await process.close()

    asyncio.run(body())
