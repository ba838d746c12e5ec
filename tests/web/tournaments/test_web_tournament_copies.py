"""A process keeps a tournament's entrants as it last read them and reads them again only when
their revision has moved (``copies.py``): every door that changes an entrant raises it, so a
second process that read the tournament before the change reads it after the change as a
whole read shows it, on SQLite and PostgreSQL. The doors: entering, coming back, pausing,
withdrawing, an account's deletion and its upgrade to a bot (``withdraw_everywhere``), and a
field entered at once (``add_entrants``). And the tournament of a game it read in play, so
that a game ending on it is counted from its end (``GameFinished``) with no query to find
it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from tournamentcalls import START, HandClock, Process, database, lose, players, swiss_plan

from boardplay.web.tournaments.rows import add_entrants, read

ENTRANT_FIELDS = {"name": "Field", "rating": 1500.0, "joined": 0.0, "status": "active"}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_every_change_of_an_entrant_reaches_another_process_that_read_them_before(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one, two = Process(url, clock), Process(url, clock)
        people = players(one, ["Ana", "Bo", "Cy", "Dee", "Eve"])
        ana, bo, cy, dee, eve = people
        made = await one.tournaments.create(ana, swiss_plan(rounds=2, rated=False))
        service = one.tournaments
        store = one.store

        async def store_call(call: Callable[..., object], *args: object) -> None:
            await one.hub.db(call, *args)

        def write_field() -> None:
            with store.engine.begin() as conn:
                add_entrants(conn, made.id, [{"account_id": eve.id, **ENTRANT_FIELDS}])

        doors: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("enter", lambda: service.join(made.id, bo)),
            ("enter another", lambda: service.join(made.id, cy)),
            ("pause", lambda: service.pause(made.id, bo)),
            ("come back", lambda: service.join(made.id, bo)),
            ("withdraw", lambda: service.withdraw(made.id, cy)),
            ("enter a third", lambda: service.join(made.id, dee)),
            (
                "delete an account",
                lambda: store_call(store.withdraw_everywhere, dee.id, "x", False),
            ),
            ("become a bot", lambda: store_call(store.withdraw_everywhere, bo.id, None, True)),
            ("a field at once", lambda: store_call(write_field)),
        ]

        for door, change in doors:
            before = two.store.snapshot(made.id)  # the second process keeps the entrants
            await change()
            after = two.store.snapshot(made.id)
            with two.store.engine.connect() as conn:
                whole = read(conn, made.id)
            assert after.entrants == whole.entrants, door
            assert after.entrants != before.entrants, door
        for process in (one, two):
            await process.close()

    asyncio.run(body())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_that_ends_here_is_counted_from_its_end_with_no_read_of_the_games_in_play(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The process where an arena game ends knows its tournament (it read the game in play)
    and how it ended (``GameFinished``): its places are copied, and the next wave paired, with
    no query for the tournament, for its games in play or for how they ended."""
    url = database(kind, tmp_path, request)
    clock = HandClock()

    async def body() -> None:
        one = Process(url, clock)
        people = players(one, ["Ana", "Bo", "Cy", "Dee"])
        made = await one.tournaments.create(
            people[0], swiss_plan(kind="arena", rounds=None, minutes=60)
        )
        for person in people:
            await one.tournaments.join(made.id, person)
        clock.t = START
        await one.tournaments.tick()
        wave = one.store.snapshot(made.id).boards
        statements: list[str] = []

        def seen(_conn: object, _cursor: object, statement: str, *_: object) -> None:
            statements.append(" ".join(statement.split()))

        sa.event.listen(sa.engine.Engine, "before_cursor_execute", seen)
        try:
            for board in wave:
                await lose(one, board.game_id, board.table.players[0])
        finally:
            sa.event.remove(sa.engine.Engine, "before_cursor_execute", seen)
        after = one.store.snapshot(made.id)
        assert [b.table.places for b in after.boards[:2]] == [(2, 1), (2, 1)]
        assert len(after.boards) == 4, "the four players freed are paired again"
        asked = [
            s
            for s in statements
            if "DISTINCT tournament_tables.tournament_id" in s  # which tournament
            or s.startswith("SELECT tournament_tables.game_id FROM")  # its games in play
            or s.startswith("SELECT games.id, games.result, games.resigned FROM")  # their ends
        ]
        assert asked == []
        # A small arena's end is one transaction under its row: results, wave and all.
        held = [
            s for s in statements if s.startswith("UPDATE tournaments SET round=tournaments.round")
        ]
        assert len(held) == len(wave)
        await one.close()

    asyncio.run(body())
